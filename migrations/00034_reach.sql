-- News that reaches you (issue 25): Web Push to the user's browsers and a daily e-mail digest,
-- both off unless the user turns them on, per notification category.
--
-- notification_settings holds a row only for a category the user changed: no row is both off.
-- push_subscriptions are the browsers' PushSubscriptions (endpoint and keys, RFC 8291); a push
-- service answering 404 or 410 deletes its row. email_digests is one row per user and UTC day
-- a digest went out: its primary key is what keeps a restart, a retry or a second instance
-- from sending a second digest the same day, and its latest sent_at is where the next digest
-- starts.

-- +goose Up
CREATE TABLE notification_settings (
    user_id  text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category text NOT NULL CHECK (category IN ('PLAN', 'COLLECTION', 'SYSTEM')),
    push     boolean NOT NULL DEFAULT false,
    email    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (user_id, category)
);

CREATE TABLE push_subscriptions (
    id              text PRIMARY KEY,
    user_id         text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint        text NOT NULL UNIQUE,
    p256dh          text NOT NULL,
    auth            text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_success_at timestamptz
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

CREATE TABLE email_digests (
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day     date NOT NULL,
    sent_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, day)
);

-- +goose Down
DROP TABLE email_digests;
DROP TABLE push_subscriptions;
DROP TABLE notification_settings;
