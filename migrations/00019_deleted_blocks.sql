-- Undo for deleted time blocks (issue 17): deleting a block keeps, for a while, what it was —
-- the block row, its candidates, their opinions, their expenses with items, and the additional
-- expenses that followed it with their places in the order — as one JSON snapshot, so that
-- POST /plans/{p}/deleted-blocks/{id}/restore puts it all back with the same ids. A snapshot
-- is used once (deleted by the restore) and kept for ten minutes (older ones are removed by
-- the next deletion).

-- +goose Up
CREATE TABLE deleted_time_blocks (
    id         text PRIMARY KEY,
    plan_id    text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    deleted_by text NOT NULL,
    snapshot   jsonb NOT NULL,
    deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deleted_time_blocks_deleted ON deleted_time_blocks (deleted_at);
CREATE INDEX deleted_time_blocks_plan ON deleted_time_blocks (plan_id);

-- +goose Down
DROP TABLE deleted_time_blocks;
