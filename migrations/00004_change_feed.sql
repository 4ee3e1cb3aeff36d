-- The change feed: every change to a plan's data announces the plan on the channel
-- tripplan_changes ("plan:<id>"), delivered at commit to every server instance listening.
-- Instances use it to drop cached day listings (internal/postgres/cache.go); live updates
-- will use it too. Notifications of one transaction with the same payload arrive once.

-- +goose Up
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

-- +goose Down
DROP TRIGGER opinions_changed ON opinions;
DROP TRIGGER candidates_changed ON candidates;
DROP TRIGGER time_blocks_changed ON time_blocks;
DROP TRIGGER plan_collections_changed ON plan_collections;
DROP TRIGGER plan_members_changed ON plan_members;
DROP TRIGGER plan_days_changed ON plan_days;
DROP TRIGGER plans_changed ON plans;
DROP FUNCTION notify_plan_change();
