-- Live places panel (issue 17): a plan's page shows the places of its linked collections, but
-- their changes were recorded on the collection's topic only. Now a place added to or removed
-- from a collection, and a collection renamed, also record a "collections" event (object_id:
-- the collection) on the topic of every plan that links the collection, so the plan's one
-- stream carries everything its page shows — with catch-up after a reconnection and delivery
-- to every instance, as for any event. One row per linking plan (plan_collections_collection
-- finds them). Place rows removed by the deletion of their collection record nothing here:
-- the collection's plan links, removed with it, record the plans' events.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION record_linked_plan_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    collection text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        NEW := OLD;
    END IF;
    IF TG_TABLE_NAME = 'collections' THEN
        collection := NEW.id;
    ELSE
        collection := NEW.collection_id;
    END IF;
    INSERT INTO events (topic, kind, object_id, actor)
    SELECT 'plan:' || pc.plan_id, 'collections', collection, COALESCE(current_setting('tripplan.actor', true), '')
    FROM plan_collections pc
    WHERE pc.collection_id = collection AND EXISTS (SELECT 1 FROM collections c WHERE c.id = collection);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER collection_places_linked_plans AFTER INSERT OR DELETE ON collection_places
    FOR EACH ROW EXECUTE FUNCTION record_linked_plan_events();
CREATE TRIGGER collections_linked_plans AFTER UPDATE OF title ON collections
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION record_linked_plan_events();

-- +goose Down
DROP TRIGGER collections_linked_plans ON collections;
DROP TRIGGER collection_places_linked_plans ON collection_places;
DROP FUNCTION record_linked_plan_events();
