-- Fair shares of the extraction queue and of attention.
--
-- Extraction jobs remember the River job that works them (queue_job_id; NULL when a completed
-- analysis was reused), so dismissing a job cancels its queue entry in the same transaction.
-- A user has at most 3 jobs in progress across all collections (counted through
-- extraction_jobs_in_progress) and starts at most 30 an hour: extraction_starts records each
-- start that queued work, apart from the job, so deleting a collection does not give starts back.
--
-- Notifications of one actor on one target within a minute are merged: merge_key names the
-- event type, the actor and the target; generation numbers the successive notifications of one
-- key for one recipient (a new one once the latest is a minute old), so the unique index lets
-- concurrent writers upsert into the same row. event_count counts the merged events, first_at
-- is the first one's time (created_at becomes the latest one's).

-- +goose Up
ALTER TABLE extraction_jobs ADD COLUMN queue_job_id bigint;
-- A user's jobs in progress (the cap of 3).
CREATE INDEX extraction_jobs_in_progress ON extraction_jobs (requested_by)
    WHERE status NOT IN ('COMPLETED', 'FAILED') AND decision_status <> 'IGNORED';

CREATE TABLE extraction_starts (
    job_id     text PRIMARY KEY,
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    started_at timestamptz NOT NULL DEFAULT now()
);
-- A user's starts of the last hour (the cap of 30).
CREATE INDEX extraction_starts_user ON extraction_starts (user_id, started_at);

ALTER TABLE notifications ADD COLUMN merge_key text,
    ADD COLUMN generation integer NOT NULL DEFAULT 1,
    ADD COLUMN event_count integer NOT NULL DEFAULT 1,
    ADD COLUMN first_at timestamptz NOT NULL DEFAULT now(),
    ADD CONSTRAINT notifications_event_count CHECK (event_count >= 1);
UPDATE notifications SET first_at = created_at;
CREATE UNIQUE INDEX notifications_merge ON notifications (merge_key, user_id, generation) WHERE merge_key IS NOT NULL;

-- +goose Down
DROP INDEX notifications_merge;
ALTER TABLE notifications DROP CONSTRAINT notifications_event_count, DROP COLUMN first_at, DROP COLUMN event_count,
    DROP COLUMN generation, DROP COLUMN merge_key;
DROP TABLE extraction_starts;
DROP INDEX extraction_jobs_in_progress;
ALTER TABLE extraction_jobs DROP COLUMN queue_job_id;
