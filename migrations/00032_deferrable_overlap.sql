-- Swapping two days (issue 24) moves every block of day a to day b and back in one UPDATE.
-- Checked row by row, time_blocks_no_overlap would refuse the first block that lands on a
-- day whose own blocks have not left yet; as DEFERRABLE (still INITIALLY IMMEDIATE) it is
-- checked at the end of each statement instead, when the swap is whole. Every other write is
-- one block per statement, so for them nothing changes: a conflict is still refused at once,
-- concurrent writers still wait on each other, and placeTimeBlock still sees the violation.
-- +goose Up
ALTER TABLE time_blocks
    DROP CONSTRAINT time_blocks_no_overlap,
    ADD CONSTRAINT time_blocks_no_overlap EXCLUDE USING gist (
        plan_day_id WITH =,
        timerange(start_time, end_time) WITH &&
    ) DEFERRABLE INITIALLY IMMEDIATE;

-- +goose Down
ALTER TABLE time_blocks
    DROP CONSTRAINT time_blocks_no_overlap,
    ADD CONSTRAINT time_blocks_no_overlap EXCLUDE USING gist (
        plan_day_id WITH =,
        timerange(start_time, end_time) WITH &&
    );
