-- Presence: who has a plan open right now. Each open live-update stream of a plan is one row
-- (a member, or a guest with member_id NULL); the stream touches seen_at with every
-- heartbeat and deletes its row when the client goes. A row not touched for a while belongs
-- to an instance that died: readers ignore it and PruneExpired deletes it. Arrivals and
-- departures are announced on tripplan_events as kind "presence" (object_id: the member, or
-- '' for a guest) with id 0: they are not recorded in events (there is nothing to catch up
-- on; the strip is read again instead).
-- Unlogged: after a crash the table is empty, which is right.

-- +goose Up
CREATE UNLOGGED TABLE presence (
    connection text PRIMARY KEY,
    plan_id    text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    member_id  text REFERENCES plan_members (id) ON DELETE CASCADE,
    seen_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX presence_plan ON presence (plan_id, seen_at);

-- +goose StatementBegin
CREATE FUNCTION announce_presence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        NEW := OLD;
    END IF;
    PERFORM pg_notify('tripplan_events', json_build_object(
        'id', 0, 'topic', 'plan:' || NEW.plan_id, 'kind', 'presence',
        'object_id', COALESCE(NEW.member_id, ''), 'actor', '')::text);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER presence_announce AFTER INSERT OR DELETE ON presence
    FOR EACH ROW EXECUTE FUNCTION announce_presence();

-- +goose Down
DROP TRIGGER presence_announce ON presence;
DROP FUNCTION announce_presence();
DROP TABLE presence;
