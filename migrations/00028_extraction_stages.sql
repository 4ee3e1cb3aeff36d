-- What an extraction job is doing, for the panel to tell people (issue 21 item 6): the stage
-- the worker is at, when it began (a stage lasting long is explained from it), and, while
-- matching, how many of the page's names were looked up. status (API v1) stays; a stage
-- belongs to one status (extraction_jobs_stage_matches_status): FETCHING and READING are
-- EXTRACTING, MATCHING is SEARCHING, the others are the status of the same name.
-- +goose Up
ALTER TABLE extraction_jobs
    ADD COLUMN stage text NOT NULL DEFAULT 'PENDING',
    ADD COLUMN stage_started_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN matched integer,   -- names looked up so far (MATCHING and after)
    ADD COLUMN to_match integer;  -- names the page gave to look up
UPDATE extraction_jobs SET stage = CASE status WHEN 'EXTRACTING' THEN 'READING' WHEN 'SEARCHING' THEN 'MATCHING' ELSE status END,
    stage_started_at = updated_at;
ALTER TABLE extraction_jobs
    ADD CONSTRAINT extraction_jobs_stage CHECK (
        stage IN ('PENDING', 'FETCHING', 'READING', 'MATCHING', 'RETRY_WAITING', 'COMPLETED', 'FAILED')),
    ADD CONSTRAINT extraction_jobs_stage_matches_status CHECK (
        stage = status OR stage IN ('FETCHING', 'READING') AND status = 'EXTRACTING' OR stage = 'MATCHING' AND status = 'SEARCHING'),
    ADD CONSTRAINT extraction_jobs_progress CHECK (
        (matched IS NULL) = (to_match IS NULL) AND matched BETWEEN 0 AND to_match);

-- +goose Down
ALTER TABLE extraction_jobs
    DROP COLUMN stage,
    DROP COLUMN stage_started_at,
    DROP COLUMN matched,
    DROP COLUMN to_match;
