-- A browser's push subscription belongs to the sign-in session (refresh-token family) that made
-- it: signing that session out, or its revocation, deletes the subscription, so a shared or
-- lost device stops receiving the account's news even when its browser could not unsubscribe.
-- Subscriptions made before this (or by credentials without a named session) have none.
-- +goose Up
ALTER TABLE push_subscriptions ADD COLUMN session text;
CREATE INDEX push_subscriptions_session ON push_subscriptions (session) WHERE session IS NOT NULL;

-- +goose Down
ALTER TABLE push_subscriptions DROP COLUMN session;
