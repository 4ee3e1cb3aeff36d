-- Live updates: every change to a plan's or a collection's rows is recorded as an event
-- (topic "plan:<id>" or "collection:<id>", a kind, the changed row's id and the acting user),
-- and each event is announced at commit on channel tripplan_events as JSON. Instances listen:
-- they drop cached views of the plan and push the event to SSE subscribers; a reconnecting
-- subscriber catches up from the table with Last-Event-ID. Events are kept for a day.
-- The acting user is the transaction's tripplan.actor setting, set by the membership checks.
-- This replaces 00004's notify_plan_change (which announced plans only).

-- +goose Up
CREATE TABLE events (
    id         bigserial PRIMARY KEY,
    topic      text NOT NULL,
    kind       text NOT NULL,
    object_id  text NOT NULL DEFAULT '',
    actor      text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_topic ON events (topic, id);
CREATE INDEX events_created ON events (created_at);

-- +goose StatementBegin
CREATE FUNCTION record_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    topic text;
    kind text;
    object_id text := '';
BEGIN
    IF TG_OP = 'DELETE' THEN
        NEW := OLD;
    END IF;
    CASE TG_TABLE_NAME
        WHEN 'plans' THEN topic := 'plan:' || NEW.id; kind := 'plan'; object_id := NEW.id;
        WHEN 'plan_days' THEN topic := 'plan:' || NEW.plan_id; kind := 'plan'; object_id := NEW.id;
        WHEN 'plan_members' THEN topic := 'plan:' || NEW.plan_id; kind := 'member'; object_id := NEW.id;
        WHEN 'plan_collections' THEN topic := 'plan:' || NEW.plan_id; kind := 'collections'; object_id := NEW.collection_id;
        WHEN 'time_blocks' THEN topic := 'plan:' || NEW.plan_id; kind := 'block'; object_id := NEW.id;
        WHEN 'candidates' THEN
            SELECT 'plan:' || b.plan_id INTO topic FROM time_blocks b WHERE b.id = NEW.time_block_id;
            kind := 'candidate'; object_id := NEW.id;
        WHEN 'opinions' THEN
            SELECT 'plan:' || b.plan_id INTO topic
            FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id WHERE c.id = NEW.candidate_id;
            kind := 'opinion'; object_id := NEW.id;
        WHEN 'expenses' THEN topic := 'plan:' || NEW.plan_id; kind := 'expense'; object_id := NEW.id;
        WHEN 'budgets' THEN topic := 'plan:' || NEW.plan_id; kind := 'budget'; object_id := NEW.id;
        WHEN 'collections' THEN topic := 'collection:' || NEW.id; kind := 'collection'; object_id := NEW.id;
        WHEN 'collection_members' THEN topic := 'collection:' || NEW.collection_id; kind := 'member'; object_id := NEW.id;
        WHEN 'collection_places' THEN topic := 'collection:' || NEW.collection_id; kind := 'place'; object_id := NEW.id;
        WHEN 'collection_place_preferences' THEN
            SELECT 'collection:' || cp.collection_id INTO topic FROM collection_places cp WHERE cp.id = NEW.collection_place_id;
            kind := 'preference'; object_id := NEW.collection_place_id;
    END CASE;
    -- Rows removed by a cascade whose parent is gone: the parent's row recorded the change.
    IF topic IS NOT NULL THEN
        INSERT INTO events (topic, kind, object_id, actor)
        VALUES (topic, kind, object_id, COALESCE(current_setting('tripplan.actor', true), ''));
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION announce_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tripplan_events', json_build_object(
        'id', NEW.id, 'topic', NEW.topic, 'kind', NEW.kind, 'object_id', NEW.object_id, 'actor', NEW.actor)::text);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER events_announce AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION announce_event();

DROP TRIGGER plans_changed ON plans;
DROP TRIGGER plan_days_changed ON plan_days;
DROP TRIGGER plan_members_changed ON plan_members;
DROP TRIGGER plan_collections_changed ON plan_collections;
DROP TRIGGER time_blocks_changed ON time_blocks;
DROP TRIGGER candidates_changed ON candidates;
DROP TRIGGER opinions_changed ON opinions;
DROP FUNCTION notify_plan_change();

CREATE TRIGGER plans_event AFTER UPDATE OR DELETE ON plans FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER plan_days_event AFTER INSERT OR UPDATE OR DELETE ON plan_days FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER plan_members_event AFTER INSERT OR UPDATE OR DELETE ON plan_members FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER plan_collections_event AFTER INSERT OR UPDATE OR DELETE ON plan_collections FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER time_blocks_event AFTER INSERT OR UPDATE OR DELETE ON time_blocks FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER candidates_event AFTER INSERT OR UPDATE OR DELETE ON candidates FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER opinions_event AFTER INSERT OR UPDATE OR DELETE ON opinions FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER expenses_event AFTER INSERT OR UPDATE OR DELETE ON expenses FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER budgets_event AFTER UPDATE ON budgets FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER collections_event AFTER UPDATE OR DELETE ON collections FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER collection_members_event AFTER INSERT OR UPDATE OR DELETE ON collection_members FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER collection_places_event AFTER INSERT OR UPDATE OR DELETE ON collection_places FOR EACH ROW EXECUTE FUNCTION record_event();
CREATE TRIGGER collection_place_preferences_event AFTER INSERT OR UPDATE OR DELETE ON collection_place_preferences FOR EACH ROW EXECUTE FUNCTION record_event();

-- +goose Down
DROP TRIGGER collection_place_preferences_event ON collection_place_preferences;
DROP TRIGGER collection_places_event ON collection_places;
DROP TRIGGER collection_members_event ON collection_members;
DROP TRIGGER collections_event ON collections;
DROP TRIGGER budgets_event ON budgets;
DROP TRIGGER expenses_event ON expenses;
DROP TRIGGER opinions_event ON opinions;
DROP TRIGGER candidates_event ON candidates;
DROP TRIGGER time_blocks_event ON time_blocks;
DROP TRIGGER plan_collections_event ON plan_collections;
DROP TRIGGER plan_members_event ON plan_members;
DROP TRIGGER plan_days_event ON plan_days;
DROP TRIGGER plans_event ON plans;
DROP TRIGGER events_announce ON events;
DROP FUNCTION announce_event();
DROP FUNCTION record_event();
DROP TABLE events;
-- Back to 00004: plans announced on tripplan_changes.
-- +goose StatementBegin
CREATE FUNCTION notify_plan_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    plan text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        NEW := OLD;
    END IF;
    CASE TG_TABLE_NAME
        WHEN 'plans' THEN
            plan := NEW.id;
        WHEN 'candidates' THEN
            SELECT b.plan_id INTO plan FROM time_blocks b WHERE b.id = NEW.time_block_id;
        WHEN 'opinions' THEN
            SELECT b.plan_id INTO plan
            FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id
            WHERE c.id = NEW.candidate_id;
        ELSE
            plan := NEW.plan_id;
    END CASE;
    -- Rows deleted by a cascade may no longer find their plan; the parent's own row announced it.
    IF plan IS NOT NULL THEN
        PERFORM pg_notify('tripplan_changes', 'plan:' || plan);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER plans_changed AFTER UPDATE OR DELETE ON plans
    FOR EACH ROW EXECUTE FUNCTION notify_plan_change();
CREATE TRIGGER plan_days_changed AFTER INSERT OR UPDATE OR DELETE ON plan_days
    FOR EACH ROW EXECUTE FUNCTION notify_plan_change();
CREATE TRIGGER plan_members_changed AFTER INSERT OR UPDATE OR DELETE ON plan_members
    FOR EACH ROW EXECUTE FUNCTION notify_plan_change();
CREATE TRIGGER plan_collections_changed AFTER INSERT OR UPDATE OR DELETE ON plan_collections
    FOR EACH ROW EXECUTE FUNCTION notify_plan_change();
CREATE TRIGGER time_blocks_changed AFTER INSERT OR UPDATE OR DELETE ON time_blocks
    FOR EACH ROW EXECUTE FUNCTION notify_plan_change();
CREATE TRIGGER candidates_changed AFTER INSERT OR UPDATE OR DELETE ON candidates
    FOR EACH ROW EXECUTE FUNCTION notify_plan_change();
CREATE TRIGGER opinions_changed AFTER INSERT OR UPDATE OR DELETE ON opinions
    FOR EACH ROW EXECUTE FUNCTION notify_plan_change();
