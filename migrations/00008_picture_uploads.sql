-- Pictures belong to their owner. users.picture is whatever URL the profile shows, which a
-- social provider may have supplied; users.picture_key is the storage key of the picture the
-- user uploaded here (always under pictures/<user id>/), NULL when the picture is not one of
-- ours. Only picture_key is ever deleted from storage, so a profile URL pointing at someone
-- else's file can never get that file deleted; files no picture_key refers to are swept.
--
-- picture_uploads is a user's one pending upload: issuing an upload URL replaces the row (so an
-- older unused URL stops working), and the upload consumes it (so a URL works once).

-- +goose Up
ALTER TABLE users ADD COLUMN picture_key text;
UPDATE users SET picture_key = substring(picture FROM '/files/(pictures/' || id || '/[A-Za-z0-9_-]{21}\.(?:jpg|png|webp))$');
CREATE UNIQUE INDEX users_picture_key ON users (picture_key) WHERE picture_key IS NOT NULL;

CREATE TABLE picture_uploads (
    user_id    text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    key        text NOT NULL,
    expires_at timestamptz NOT NULL,
    CONSTRAINT picture_uploads_key UNIQUE (key)
);

-- +goose Down
DROP TABLE picture_uploads;
ALTER TABLE users DROP COLUMN picture_key;
