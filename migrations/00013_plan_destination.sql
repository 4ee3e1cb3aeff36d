-- First steps (issue 16): titles of plans and collections take 1–50 characters (docs/API.md
-- §Limits, was 20), and a plan may have a destination: a city by name and a point in it. The
-- destination centres the plan's map, biases place search from the plan towards its city and
-- gives the plan its time zone unless a member chose one (time_zone_source DESTINATION). The
-- three columns are all NULL (no destination) or all set.

-- +goose Up
ALTER TABLE collections DROP CONSTRAINT collections_title_length,
    ADD CONSTRAINT collections_title_length CHECK (char_length(title) BETWEEN 1 AND 50);
ALTER TABLE plans DROP CONSTRAINT plans_title_length,
    ADD CONSTRAINT plans_title_length CHECK (char_length(title) BETWEEN 1 AND 50),
    ADD COLUMN destination_name text,
    ADD COLUMN destination_lat double precision,
    ADD COLUMN destination_lng double precision,
    ADD CONSTRAINT plans_destination CHECK (
        (destination_name IS NULL AND destination_lat IS NULL AND destination_lng IS NULL)
        OR (char_length(destination_name) BETWEEN 1 AND 100
            AND destination_lat BETWEEN -90 AND 90 AND destination_lng BETWEEN -180 AND 180)),
    DROP CONSTRAINT plans_time_zone_source,
    ADD CONSTRAINT plans_time_zone_source CHECK (time_zone_source IN ('DEFAULT', 'PLACE', 'DESTINATION', 'MEMBER'));

-- +goose Down
-- Going back cuts titles longer than 20 characters: the old schema cannot hold them.
UPDATE plans SET time_zone_source = 'PLACE' WHERE time_zone_source = 'DESTINATION';
UPDATE plans SET title = left(title, 20) WHERE char_length(title) > 20;
UPDATE collections SET title = left(title, 20) WHERE char_length(title) > 20;
ALTER TABLE plans DROP CONSTRAINT plans_time_zone_source,
    ADD CONSTRAINT plans_time_zone_source CHECK (time_zone_source IN ('DEFAULT', 'PLACE', 'MEMBER')),
    DROP CONSTRAINT plans_destination,
    DROP COLUMN destination_name, DROP COLUMN destination_lat, DROP COLUMN destination_lng,
    DROP CONSTRAINT plans_title_length,
    ADD CONSTRAINT plans_title_length CHECK (char_length(title) BETWEEN 1 AND 20);
ALTER TABLE collections DROP CONSTRAINT collections_title_length,
    ADD CONSTRAINT collections_title_length CHECK (char_length(title) BETWEEN 1 AND 20);
