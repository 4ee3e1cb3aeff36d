package postgres

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"tripplan/internal/planner"
)

// Idempotency keys (docs/API.md §Concurrent writes; migration 00015). The web layer hashes the key and the
// request and seals the answer; these statements keep them, each in a transaction of its own,
// so a claim is visible to every instance before the request's handler starts.
const (
	// IdempotencyKeyTTL is how long a key keeps its answer: after it, the key is free again
	// (ignored when read, taken over by the next claim) and the periodic job deletes its row.
	IdempotencyKeyTTL = 24 * time.Hour
	// IdempotencyClaimTimeout is how long a claim may stay 'processing' before another
	// request with the key may take it over: the claiming instance stopped mid-request. A
	// request ends well within it (each statement is bounded by the statement timeout, 10 s by
	// default, and no POST waits on anything slower); meanwhile retries get IN_USE.
	IdempotencyClaimTimeout = time.Minute
	// IdempotencyPruneInterval is how often the periodic job deletes expired keys.
	IdempotencyPruneInterval = time.Hour
)

// IdempotencyRecord is a key as a request that could not claim it finds it.
type IdempotencyRecord struct {
	Fingerprint []byte // of the request that claimed the key
	Done        bool   // its answer is recorded (else it is still being processed)
	Status      int    // the answer's status, once done
	Answer      []byte // the sealed answer, once done
}

// ErrIdempotencyClaimLost is RecordIdempotentAnswer's answer when the request no longer holds
// its claim: it ran past IdempotencyClaimTimeout and another request took the key over.
var ErrIdempotencyClaimLost = errors.New("the idempotency key's claim was taken over")

// ClaimIdempotencyKey claims the owner's key for the request named claim, fingerprinted by
// fingerprint, and answers nil when it did: a new key, one past its 24 h, or one whose claim
// timed out. Otherwise it answers the key as it is (Done or still processing). A key released
// or deleted between the two statements is claimed again.
func (db *DB) ClaimIdempotencyKey(ctx context.Context, owner string, keyHash, fingerprint []byte, claim string) (_ *IdempotencyRecord, err error) {
	defer named(&err)
	for range 3 {
		var got string
		err := db.GetContext(ctx, &got, `
			INSERT INTO idempotency_keys AS k (owner, key_hash, fingerprint, claim) VALUES ($1, $2, $3, $4)
			ON CONFLICT (owner, key_hash) DO UPDATE
				SET fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim, state = 'processing',
					status = NULL, answer = NULL, created_at = now()
				WHERE k.created_at < now() - make_interval(secs => $5)
					OR (k.state = 'processing' AND k.created_at < now() - make_interval(secs => $6))
			RETURNING claim`,
			owner, keyHash, fingerprint, claim, IdempotencyKeyTTL.Seconds(), IdempotencyClaimTimeout.Seconds())
		if err == nil {
			return nil, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, mapError(err)
		}
		var row struct {
			Fingerprint []byte        `db:"fingerprint"`
			State       string        `db:"state"`
			Status      sql.NullInt64 `db:"status"`
			Answer      []byte        `db:"answer"`
		}
		err = db.GetContext(ctx, &row, `
			SELECT fingerprint, state, status, answer FROM idempotency_keys
			WHERE owner = $1 AND key_hash = $2 AND created_at >= now() - make_interval(secs => $3)`,
			owner, keyHash, IdempotencyKeyTTL.Seconds())
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, mapError(err)
		}
		return &IdempotencyRecord{Fingerprint: row.Fingerprint, Done: row.State == "done", Status: int(row.Status.Int64), Answer: row.Answer}, nil
	}
	// Released three times over while this request tried: another is busy with the key.
	return nil, planner.Errorf(planner.CodeIdempotencyKeyInUse, "Another request with this Idempotency-Key is being processed; try again in a moment.")
}

// RecordIdempotentAnswer records the answer of the request that holds the claim.
func (db *DB) RecordIdempotentAnswer(ctx context.Context, owner string, keyHash []byte, claim string, status int, answer []byte) (err error) {
	defer named(&err)
	res, err := db.ExecContext(ctx, `
		UPDATE idempotency_keys SET state = 'done', status = $4, answer = $5
		WHERE owner = $1 AND key_hash = $2 AND claim = $3 AND state = 'processing'`,
		owner, keyHash, claim, status, answer)
	if err != nil {
		return mapError(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrIdempotencyClaimLost
	}
	return nil
}

// ReleaseIdempotencyKey gives up the claim of a request that failed (5xx, a panic), so a retry
// with the key runs.
func (db *DB) ReleaseIdempotencyKey(ctx context.Context, owner string, keyHash []byte, claim string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `
		DELETE FROM idempotency_keys WHERE owner = $1 AND key_hash = $2 AND claim = $3 AND state = 'processing'`,
		owner, keyHash, claim)
	return mapError(err)
}

// DeleteExpiredIdempotencyKeys deletes the keys older than IdempotencyKeyTTL and answers how
// many.
func (db *DB) DeleteExpiredIdempotencyKeys(ctx context.Context) (_ int64, err error) {
	defer named(&err)
	res, err := db.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1)`,
		IdempotencyKeyTTL.Seconds())
	if err != nil {
		return 0, mapError(err)
	}
	return res.RowsAffected()
}

// ExpiredIdempotencyKeysArgs is the periodic job that deletes expired idempotency keys.
type ExpiredIdempotencyKeysArgs struct{}

// Kind names the job kind on the queue.
func (ExpiredIdempotencyKeysArgs) Kind() string { return "delete_expired_idempotency_keys" }

// ExpiredIdempotencyKeysWorker works the expired idempotency keys job.
type ExpiredIdempotencyKeysWorker struct {
	river.WorkerDefaults[ExpiredIdempotencyKeysArgs]
	DB  *DB
	Log *slog.Logger
}

// Work deletes the idempotency keys older than IdempotencyKeyTTL.
func (w *ExpiredIdempotencyKeysWorker) Work(ctx context.Context, _ *river.Job[ExpiredIdempotencyKeysArgs]) error {
	n, err := w.DB.DeleteExpiredIdempotencyKeys(ctx)
	if n > 0 && w.Log != nil {
		w.Log.InfoContext(ctx, "deleted expired idempotency keys", "count", n)
	}
	return err
}
