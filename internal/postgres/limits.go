package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// TakeToken takes a token from the bucket of the limit and key (migration 00030), which holds
// at most burst tokens (at least 1) and gains rate tokens a second, and answers whether there
// was one. Refill and take are one statement: the row lock of INSERT … ON CONFLICT DO UPDATE
// orders concurrent takes, on any instance, and each sees the time the one before it left.
// clock_timestamp(), not now(), so that a take that waited for the lock counts from when it
// got it. A refused take changes nothing.
func (db *DB) TakeToken(ctx context.Context, limit, key string, rate float64, burst int) (_ bool, err error) {
	defer named(&err)
	perToken := 1 / rate // seconds
	var taken bool
	err = db.GetContext(ctx, &taken, `
		INSERT INTO rate_limits AS b (name, key, full_at)
		VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
		ON CONFLICT (name, key) DO UPDATE
		SET full_at = greatest(b.full_at, clock_timestamp()) + make_interval(secs => $3)
		WHERE b.full_at <= clock_timestamp() + make_interval(secs => $4)
		RETURNING true`, limit, key, perToken, float64(burst-1)*perToken)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return taken, mapError(err)
}

// StreamPlace is one open live-update stream as the caps count it: its own id, the instance
// serving it, its reader and its client address.
type StreamPlace struct {
	ID, Instance, Reader, Address string
}

// StreamCaps bounds the live streams of one instance, of one reader and from one address. A
// stream counts while its row was touched within Live.
type StreamCaps struct {
	PerInstance, PerReader, PerAddress int
	Live                               time.Duration
}

// streamLock is the first key of the advisory locks that serialise stream opens.
const streamLock = 0x7374726d // "strm"

// OpenStream records a new stream unless one of the caps is reached, and answers whether it
// did. Opens of the same instance, reader or address wait for each other, so each counts the
// rows of those before it; the locks are taken in one order, so that two opens never each
// hold what the other waits for. Rows not touched within caps.Live — of an instance that
// died — do not count.
func (db *DB) OpenStream(ctx context.Context, p StreamPlace, caps StreamCaps) (bool, error) {
	var opened bool
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		keys := pq.Array([]string{"instance " + p.Instance, "reader " + p.Reader, "address " + p.Address})
		if _, err := tx.ExecContext(ctx, `
			SELECT pg_advisory_xact_lock($1, hashtext(k)) FROM unnest($2::text[]) k ORDER BY hashtext(k)`,
			streamLock, keys); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
			INSERT INTO open_streams (id, instance, reader, address)
			SELECT $1, $2, $3, $4
			WHERE (SELECT count(*) FROM open_streams WHERE instance = $2 AND seen_at > now() - make_interval(secs => $5)) < $6
			  AND (SELECT count(*) FROM open_streams WHERE reader = $3 AND seen_at > now() - make_interval(secs => $5)) < $7
			  AND (SELECT count(*) FROM open_streams WHERE address = $4 AND seen_at > now() - make_interval(secs => $5)) < $8`,
			p.ID, p.Instance, p.Reader, p.Address, caps.Live.Seconds(), caps.PerInstance, caps.PerReader, caps.PerAddress)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		opened = n == 1
		return err
	})
	return opened, err
}

// TouchStream keeps an open stream counted; its heartbeat calls it.
func (db *DB) TouchStream(ctx context.Context, id string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `UPDATE open_streams SET seen_at = now() WHERE id = $1`, id)
	return mapError(err)
}

// CloseStream gives an ended stream's place back.
func (db *DB) CloseStream(ctx context.Context, id string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `DELETE FROM open_streams WHERE id = $1`, id)
	return mapError(err)
}

// CloseInstanceStreams gives back the places of every stream of an instance that stops.
func (db *DB) CloseInstanceStreams(ctx context.Context, instance string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `DELETE FROM open_streams WHERE instance = $1`, instance)
	return mapError(err)
}
