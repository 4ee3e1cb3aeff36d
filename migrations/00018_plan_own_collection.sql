-- A plan's own collection (issue 16): where places found by search from the plan page go,
-- created on first use and named after the plan. The plan remembers it, so renaming the plan
-- (or the collection) keeps it, and every member of the plan adds to the same one. Deleting
-- the collection forgets it; the next use creates another. Plans already collecting into a
-- linked collection named after them keep it.

-- +goose Up
ALTER TABLE plans ADD COLUMN own_collection_id text REFERENCES collections (id) ON DELETE SET NULL;
UPDATE plans p SET own_collection_id = (
    SELECT c.id FROM plan_collections pc JOIN collections c ON c.id = pc.collection_id
    WHERE pc.plan_id = p.id AND c.title = p.title
    ORDER BY pc.created_at, c.id LIMIT 1);
CREATE INDEX plans_own_collection ON plans (own_collection_id) WHERE own_collection_id IS NOT NULL;

-- +goose Down
ALTER TABLE plans DROP COLUMN own_collection_id;
