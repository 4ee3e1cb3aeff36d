-- Idempotent requests (docs/API.md §Concurrent writes, issue 17). A POST that carries an Idempotency-Key
-- claims the key for its caller — a row in 'processing' with the request's fingerprint — in a
-- transaction of its own before its handler runs, then records the answer ('done'). A later
-- request of the same caller with the same key within 24 h gets that answer again (same
-- fingerprint), 422 IDEMPOTENCY_KEY_REUSED (another one), or 409 IDEMPOTENCY_KEY_IN_USE while
-- the first is processed. A failed first attempt (5xx, a panic) deletes its claim, so a retry
-- runs; a claim left 'processing' for a minute (its instance stopped) may be taken over, and
-- so may any row older than 24 h. The periodic job delete_expired_idempotency_keys deletes
-- rows older than 24 h. Rows of every instance meet here, so the key holds across instances.

-- +goose Up
CREATE TABLE idempotency_keys (
    owner       text NOT NULL,      -- the caller: a user id, or a guest's viewer id
    key_hash    bytea NOT NULL,     -- SHA-256 of the Idempotency-Key (the key itself is not kept)
    fingerprint bytea NOT NULL,     -- SHA-256 of the request's method, target and body
    claim       text NOT NULL,      -- the request that holds the key (or held it, once done)
    state       text NOT NULL DEFAULT 'processing',
    status      integer,            -- the answer's HTTP status, once done
    answer      bytea,              -- the answer's headers and body, sealed with a key derived from the Idempotency-Key
    created_at  timestamptz NOT NULL DEFAULT now(), -- when the key was claimed
    PRIMARY KEY (owner, key_hash),
    CONSTRAINT idempotency_keys_state CHECK (state IN ('processing', 'done')),
    CONSTRAINT idempotency_keys_answer CHECK ((state = 'done') = (status IS NOT NULL AND answer IS NOT NULL))
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

-- +goose Down
DROP TABLE idempotency_keys;
