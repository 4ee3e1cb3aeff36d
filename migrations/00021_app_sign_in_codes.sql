-- Sign-in for apps (docs/API.md §App sign-in): an app that signs in through the browser is sent back
-- to its redirect URI with a one-time code, which POST /auth/token exchanges for tokens. A
-- code is kept only as its SHA-256, with the user it signs in, the app's redirect URI and its
-- PKCE challenge (S256), for 60 seconds. Redeeming deletes it (DELETE … RETURNING), whatever
-- the outcome, so a code is tried once; expired codes are deleted by the next code made.

-- +goose Up
CREATE TABLE app_sign_in_codes (
    code_hash    bytea PRIMARY KEY,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri text NOT NULL,
    challenge    text NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX app_sign_in_codes_expires ON app_sign_in_codes (expires_at);

-- +goose Down
DROP TABLE app_sign_in_codes;
