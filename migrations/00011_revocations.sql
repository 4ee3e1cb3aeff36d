-- Sign-out reaches every instance. Access tokens name their sign-in session (the refresh-token
-- family the sign-in started, claim "sid"); every instance keeps in memory the sessions
-- revoked and the users withdrawn within the last two hours (longer than an access token
-- lives) and refuses their tokens without asking the database. Revoking a family (logout, a
-- replayed refresh token) and withdrawing a user are announced at commit on channel
-- tripplan_revocations ("session:<family id>", "user:<user id>"); an instance that was not
-- listening reloads the recent ones with the indexes below.

-- +goose Up
CREATE INDEX refresh_tokens_revoked ON refresh_tokens (revoked_at) WHERE revoked_at IS NOT NULL;
CREATE INDEX users_withdrawn ON users (withdrawn_at) WHERE withdrawn_at IS NOT NULL;

-- +goose StatementBegin
CREATE FUNCTION announce_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Identical notifications of one transaction are delivered once: revoking a family of
    -- many rotated tokens announces it once.
    IF TG_TABLE_NAME = 'refresh_tokens' THEN
        PERFORM pg_notify('tripplan_revocations', 'session:' || NEW.family_id);
    ELSE
        PERFORM pg_notify('tripplan_revocations', 'user:' || NEW.id);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER refresh_tokens_revocation AFTER UPDATE OF revoked_at ON refresh_tokens
    FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
    EXECUTE FUNCTION announce_revocation();
CREATE TRIGGER users_withdrawal AFTER UPDATE OF withdrawn_at ON users
    FOR EACH ROW WHEN (OLD.withdrawn_at IS NULL AND NEW.withdrawn_at IS NOT NULL)
    EXECUTE FUNCTION announce_revocation();

-- +goose Down
DROP TRIGGER users_withdrawal ON users;
DROP TRIGGER refresh_tokens_revocation ON refresh_tokens;
DROP FUNCTION announce_revocation();
DROP INDEX users_withdrawn;
DROP INDEX refresh_tokens_revoked;
