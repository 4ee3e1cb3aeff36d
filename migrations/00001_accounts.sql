-- +goose Up
CREATE TABLE users (
    id                text PRIMARY KEY,
    provider          text NOT NULL,
    provider_id       text NOT NULL,
    nickname          text NOT NULL,
    picture           text NOT NULL DEFAULT '',
    email             text NOT NULL DEFAULT '',
    terms_accepted_at timestamptz,
    withdrawn_at      timestamptz,
    withdraw_reason   text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_provider_account UNIQUE (provider, provider_id)
);

-- Refresh tokens are opaque secrets; only their SHA-256 is stored. A login starts a family;
-- every reissue rotates the token within its family. Presenting a rotated token again revokes
-- the whole family (theft detection).
CREATE TABLE refresh_tokens (
    token_hash bytea PRIMARY KEY,
    family_id  text NOT NULL,
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    rotated_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);

-- Browser sessions live in the database so that every instance shares them and logout
-- revokes them server-side. The cookie carries only the session id, signed.
CREATE TABLE web_sessions (
    id         text PRIMARY KEY,
    user_id    text REFERENCES users (id) ON DELETE CASCADE,
    data       bytea NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);
CREATE INDEX web_sessions_expires ON web_sessions (expires_at);

-- +goose Down
DROP TABLE web_sessions;
DROP TABLE refresh_tokens;
DROP TABLE users;
