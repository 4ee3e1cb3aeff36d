-- Settling up for real (issue 20, docs/API.md §Money): payments members record as made between
-- them. A recorded payment counts in settling up as sent by from_member and received by
-- to_member (planner.Settle). amount is in minor units of the plan's currency, rescaled with
-- the plan's other amounts when the currency changes. Both members and the one who recorded
-- it are memberships of the same plan, active or not (a member who left may still pay or be
-- paid); member rows go only with their plan, so the keys are checked at commit, as for the
-- other things members author. Inserts and deletions are recorded as "settlement" events of
-- the plan for live updates.

-- +goose Up
CREATE TABLE settlements (
    id          text PRIMARY KEY,
    plan_id     text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    from_member text NOT NULL,
    to_member   text NOT NULL,
    amount      bigint NOT NULL,
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT settlements_from_member FOREIGN KEY (from_member, plan_id)
        REFERENCES plan_members (id, plan_id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT settlements_to_member FOREIGN KEY (to_member, plan_id)
        REFERENCES plan_members (id, plan_id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT settlements_created_by FOREIGN KEY (created_by, plan_id)
        REFERENCES plan_members (id, plan_id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT settlements_amount CHECK (amount > 0),
    CONSTRAINT settlements_two_members CHECK (from_member <> to_member)
);
-- GET /plans/{p}/settlements (newest first) and settling up.
CREATE INDEX settlements_plan ON settlements (plan_id, created_at DESC, id DESC);

-- Like record_event (00005) for the tables it names: topic "plan:<id>", kind "settlement", the
-- row's id and the acting user. A function of its own, so that record_event stays as it is.
-- +goose StatementBegin
CREATE FUNCTION record_settlement_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        NEW := OLD;
    END IF;
    INSERT INTO events (topic, kind, object_id, actor)
    VALUES ('plan:' || NEW.plan_id, 'settlement', NEW.id, COALESCE(current_setting('tripplan.actor', true), ''));
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER settlements_event AFTER INSERT OR DELETE ON settlements
    FOR EACH ROW EXECUTE FUNCTION record_settlement_event();

-- Recording and deleting one is in the plan's history (SETTLEMENT_RECORDED, _DELETED).
ALTER TABLE activities DROP CONSTRAINT activities_target_type,
    ADD CONSTRAINT activities_target_type CHECK (target_type IN
        ('PLAN', 'TIME_BLOCK', 'CANDIDATE', 'OPINION', 'EXPENSE', 'MEMBER', 'COLLECTION_PLACE', 'SETTLEMENT'));

-- +goose Down
DELETE FROM activities WHERE target_type = 'SETTLEMENT';
ALTER TABLE activities DROP CONSTRAINT activities_target_type,
    ADD CONSTRAINT activities_target_type CHECK (target_type IN
        ('PLAN', 'TIME_BLOCK', 'CANDIDATE', 'OPINION', 'EXPENSE', 'MEMBER', 'COLLECTION_PLACE'));
DROP TRIGGER settlements_event ON settlements;
DROP FUNCTION record_settlement_event();
DROP TABLE settlements;
