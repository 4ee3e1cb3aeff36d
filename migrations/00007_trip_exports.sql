-- Plans take their time zone from the first place added unless a member chose one:
-- time_zone_source says which (DEFAULT = still UTC, nobody chose; PLACE = from the first place
-- with coordinates; MEMBER = set through the API). Times of day of blocks are local to it.
--
-- Calendar feeds: a member may publish the plan's confirmed blocks as an iCalendar feed at a
-- secret URL (/calendar/{token}.ics) a calendar app can subscribe to. Only the token's SHA-256
-- is stored; making a new one replaces the member's old one, deleting revokes it, and it stops
-- working when the member leaves, for good: a feed made before the member's latest joining is
-- refused, so rejoining does not revive it.

-- +goose Up
ALTER TABLE plans ADD COLUMN time_zone_source text NOT NULL DEFAULT 'DEFAULT',
    ADD CONSTRAINT plans_time_zone_source CHECK (time_zone_source IN ('DEFAULT', 'PLACE', 'MEMBER'));
UPDATE plans SET time_zone_source = 'MEMBER' WHERE time_zone <> 'UTC';

CREATE TABLE calendar_feeds (
    id         text PRIMARY KEY,
    plan_id    text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    member_id  text NOT NULL REFERENCES plan_members (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT calendar_feeds_token UNIQUE (token_hash),
    CONSTRAINT calendar_feeds_one_per_member UNIQUE (plan_id, member_id)
);

-- +goose Down
DROP TABLE calendar_feeds;
ALTER TABLE plans DROP COLUMN time_zone_source;
