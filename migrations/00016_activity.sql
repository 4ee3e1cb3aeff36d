-- Activity (issue 17, docs/API.md §Activity): the history of a plan or a collection, one row per
-- thing someone did to one target — a time block added, moved or removed, a candidate added,
-- removed or confirmed, an opinion, an expense, a member joining or leaving, the plan renamed
-- or its dates changed, a place added to or removed from a collection. Rows are written in the
-- transaction of the action itself, so the history holds exactly what was committed. A row keeps
-- its kind, who did it (the plan or collection membership; NULL when nobody did) and the facts
-- its sentence needs as they were then (details: names, day, time, amount — never wording, which
-- the application renders when the history is read), so a deleted block's entries still read
-- right. Rows go with their plan or collection. seq orders a resource's history, newest first.
--
-- Notifications store their facts the same way (details; message stays for rows written
-- before, which have no details), and their text is rendered when they are read.

-- +goose Up
CREATE TABLE activities (
    id            text PRIMARY KEY,
    seq           bigint GENERATED ALWAYS AS IDENTITY,
    plan_id       text REFERENCES plans (id) ON DELETE CASCADE,
    collection_id text REFERENCES collections (id) ON DELETE CASCADE,
    actor_id      text,
    kind          text NOT NULL,
    target_type   text NOT NULL,
    target_id     text NOT NULL,
    details       jsonb NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT activities_one_resource CHECK ((plan_id IS NULL) <> (collection_id IS NULL)),
    -- The actor is a membership of the same plan or collection (checked at commit, like the
    -- other references to members, so deleting the whole plan or collection succeeds).
    CONSTRAINT activities_plan_actor FOREIGN KEY (actor_id, plan_id)
        REFERENCES plan_members (id, plan_id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT activities_collection_actor FOREIGN KEY (actor_id, collection_id)
        REFERENCES collection_members (id, collection_id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT activities_kind_format CHECK (kind ~ '^[A-Z][A-Z_]*$'),
    CONSTRAINT activities_target_type CHECK (target_type IN
        ('PLAN', 'TIME_BLOCK', 'CANDIDATE', 'OPINION', 'EXPENSE', 'MEMBER', 'COLLECTION_PLACE')),
    CONSTRAINT activities_details_object CHECK (jsonb_typeof(details) = 'object')
);
-- GET /plans/{p}/activity and /collections/{c}/activity: a page, newest first.
CREATE INDEX activities_plan ON activities (plan_id, seq DESC) WHERE plan_id IS NOT NULL;
CREATE INDEX activities_collection ON activities (collection_id, seq DESC) WHERE collection_id IS NOT NULL;

ALTER TABLE notifications ADD COLUMN details jsonb,
    ADD CONSTRAINT notifications_details_object CHECK (jsonb_typeof(details) = 'object');

-- +goose Down
-- Going back, notifications written since (their text was rendered when read) keep their
-- event type as their message: SQL cannot render the sentences.
UPDATE notifications SET message = event_type WHERE details IS NOT NULL AND message = '';
ALTER TABLE notifications DROP CONSTRAINT notifications_details_object, DROP COLUMN details;
DROP TABLE activities;
