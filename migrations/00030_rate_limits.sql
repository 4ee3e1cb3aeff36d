-- Limits shared by every instance (issue 23): the sign-in rate limit and the caps on open
-- live-update streams are counted here, not in each process, so that N instances allow what
-- one would.
--
-- rate_limits is one token bucket per limit (name, e.g. 'sign-in') and key (the client
-- address). It keeps a single time, full_at: when the bucket will be full again. A take at
-- time t is allowed while full_at - t leaves room for one more token, and moves full_at one
-- token's worth of time later (from t when the bucket was full). A bucket whose full_at has
-- passed is the same as none, so PruneExpired deletes it.
--
-- open_streams is one row per open live-update stream: the instance serving it, its reader
-- (a user, or a guest's link at their address) and its client address. The stream touches
-- seen_at with every heartbeat and deletes its row when it ends; an instance that stops
-- gracefully deletes its rows. A row not touched for a few heartbeats belongs to an instance
-- that died: the caps ignore it and PruneExpired deletes it.
--
-- Both are unlogged: after a crash they are empty, which is right (full buckets, no streams).

-- +goose Up
CREATE UNLOGGED TABLE rate_limits (
    name    text NOT NULL,
    key     text NOT NULL,
    full_at timestamptz NOT NULL,
    PRIMARY KEY (name, key)
);

CREATE UNLOGGED TABLE open_streams (
    id       text PRIMARY KEY,
    instance text NOT NULL,
    reader   text NOT NULL,
    address  text NOT NULL,
    seen_at  timestamptz NOT NULL DEFAULT now()
);
-- The three caps count an instance's, a reader's and an address's live rows. seen_at is in no
-- index, so that a heartbeat's touch is a HOT update that writes no index.
CREATE INDEX open_streams_instance ON open_streams (instance);
CREATE INDEX open_streams_reader ON open_streams (reader);
CREATE INDEX open_streams_address ON open_streams (address);

-- +goose Down
DROP TABLE open_streams;
DROP TABLE rate_limits;
