-- A member the owner removed cannot rejoin through an invite link until the owner lets them
-- back: removed_at is set with left_at when the owner removes someone (never when a member
-- leaves by themself), and cleared when the owner lets them back. Joining through a link
-- refuses a membership with removed_at set (MEMBER_REMOVED). A removed membership has always
-- left, so an active member is never banned.

-- +goose Up
ALTER TABLE plan_members ADD COLUMN removed_at timestamptz,
    ADD CONSTRAINT plan_members_removed_has_left CHECK (removed_at IS NULL OR left_at IS NOT NULL);
ALTER TABLE collection_members ADD COLUMN removed_at timestamptz,
    ADD CONSTRAINT collection_members_removed_has_left CHECK (removed_at IS NULL OR left_at IS NOT NULL);

-- +goose Down
ALTER TABLE collection_members DROP COLUMN removed_at;
ALTER TABLE plan_members DROP COLUMN removed_at;
