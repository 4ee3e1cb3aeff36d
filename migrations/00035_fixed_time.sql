-- A time block marked "fixed time" (a reservation, issue 25) stays where it is when a day is
-- optimised; it is a mark on the block, not on its candidates.
-- +goose Up
ALTER TABLE time_blocks ADD COLUMN fixed_time boolean NOT NULL DEFAULT false;
-- A deleted block's snapshot is put back column by column (RestoreTimeBlock): those taken
-- before this migration get the new column's value.
UPDATE deleted_time_blocks SET snapshot = jsonb_set(snapshot, '{block,fixed_time}', 'false')
WHERE NOT snapshot->'block' ? 'fixed_time';

-- +goose Down
ALTER TABLE time_blocks DROP COLUMN fixed_time;
