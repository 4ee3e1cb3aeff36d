-- A time block marked "fixed time" (a reservation, issue 25) stays where it is when a day is
-- optimised; it is a mark on the block, not on its candidates.
-- +goose Up
ALTER TABLE time_blocks ADD COLUMN fixed_time boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE time_blocks DROP COLUMN fixed_time;
