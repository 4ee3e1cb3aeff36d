-- Pruning in batches (issue 23): PruneExpired deletes notifications read more than 90 days ago,
-- 5,000 a statement. Without an index on read_at each batch read the table from its start
-- (months of notifications) to find its rows; this partial index holds only the read ones, in
-- the order they were read, so each batch finds its oldest 5,000 directly.
-- +goose Up
CREATE INDEX notifications_read ON notifications (read_at) WHERE read_at IS NOT NULL;

-- +goose Down
DROP INDEX notifications_read;
