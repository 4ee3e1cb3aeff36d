package postgres

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/lib/pq"
)

// Revocations: access tokens are refused once their sign-in session (refresh-token family)
// is revoked or their user withdrawn, without a query per request. Each instance remembers
// the sessions revoked and users withdrawn within revocationMemory, loaded when it starts
// following the channel and kept current by migration 00011's announcements (and at once by
// this instance's own revocations). While the channel is not followed — before Listen, or
// while its connection is down and until the reload after it came back — SessionRevoked asks
// the database instead.

// revocationsChannel is where migration 00011's triggers announce revocations.
const revocationsChannel = "tripplan_revocations"

// revocationMemory is how long a revocation is remembered: longer than an access token lives
// (auth.AccessTTL, an hour), so that every token it concerns has expired by then.
const revocationMemory = 2 * time.Hour

// revocations is what this instance knows to be revoked.
type revocations struct {
	mu       sync.RWMutex
	live     bool   // the channel is followed and the sets are complete
	down     bool   // the listener has no connection
	conn     uint64 // counts lost connections, so a reload started before one is not trusted
	sessions map[string]time.Time
	users    map[string]time.Time
	swept    time.Time
}

func newRevocations() *revocations {
	return &revocations{sessions: map[string]time.Time{}, users: map[string]time.Time{}, swept: time.Now()}
}

// check answers whether the user's session is revoked, and whether the answer is known here.
func (r *revocations) check(userID, session string) (revoked, known bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if !r.live {
		return false, false
	}
	_, user := r.users[userID]
	_, sess := r.sessions[session]
	return user || sess, true
}

// note records an announcement: "session:<id>" or "user:<id>".
func (r *revocations) note(payload string) {
	if id, ok := strings.CutPrefix(payload, "session:"); ok {
		r.add(r.sessions, id, time.Now())
	} else if id, ok := strings.CutPrefix(payload, "user:"); ok {
		r.add(r.users, id, time.Now())
	}
}

// add records one revocation, forgetting (at most once a minute) those too old to matter.
func (r *revocations) add(set map[string]time.Time, id string, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	set[id] = at
	if now := time.Now(); now.Sub(r.swept) > time.Minute {
		r.swept = now
		for _, s := range []map[string]time.Time{r.sessions, r.users} {
			for k, t := range s {
				if now.Sub(t) > revocationMemory {
					delete(s, k)
				}
			}
		}
	}
}

// lost records that the channel's connection went away: announcements may be missed.
func (r *revocations) lost() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live, r.down = false, true
	r.conn++
}

// up records that the listener has a connection again (and listens on it); the sets are
// trusted again once reloaded.
func (r *revocations) up() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = false
}

// connection names the current connection, for reloaded.
func (r *revocations) connection() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.conn
}

// reloaded merges what the database holds, read while connection conn was listening, and
// trusts the sets from then on if that connection is still up.
func (r *revocations) reloaded(conn uint64, sessions, users map[string]time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, at := range sessions {
		r.sessions[id] = at
	}
	for id, at := range users {
		r.users[id] = at
	}
	r.live = r.conn == conn && !r.down
}

// followRevocations listens on the revocations channel on its own connection to url until
// ctx ends (Listen calls it), after loading the recent revocations.
func (db *DB) followRevocations(ctx context.Context, url string, log *slog.Logger) error {
	r := newRevocations()
	// pq calls this in order from one goroutine, before it sends the nil of a reconnection.
	l := pq.NewListener(url, 100*time.Millisecond, time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			r.lost()
			if log != nil {
				log.Warn("revocations feed: disconnected; checking tokens against the database", "err", err)
			}
		case pq.ListenerEventReconnected:
			r.up()
		}
	})
	if err := listen(ctx, l, revocationsChannel); err != nil {
		return err
	}
	// Listening (so connected: failed attempts before count no more), then loading: nothing
	// revoked in between is missed.
	r.up()
	if err := db.reloadRevocations(ctx, r); err != nil {
		l.Close()
		return err
	}
	db.revoked = r
	go func() {
		defer l.Close()
		var retry <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				r.lost()
				return
			case n := <-l.Notify:
				if n != nil {
					r.note(n.Extra)
					continue
				}
				// Reconnected, and listening again: load what may have been missed.
			case <-retry:
			}
			retry = nil
			if err := db.reloadRevocations(ctx, r); err != nil && ctx.Err() == nil {
				if log != nil {
					log.Warn("revocations feed: reload failed; retrying", "err", err)
				}
				retry = time.After(time.Second)
			}
		}
	}()
	return nil
}

// reloadRevocations loads the sessions revoked and users withdrawn within revocationMemory.
func (db *DB) reloadRevocations(ctx context.Context, r *revocations) error {
	conn := r.connection()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	type revoked struct {
		ID string    `db:"id"`
		At time.Time `db:"at"`
	}
	var sessions, users []revoked
	window := revocationMemory.Seconds()
	if err := db.SelectContext(ctx, &sessions, `
		SELECT family_id AS id, max(revoked_at) AS at FROM refresh_tokens
		WHERE revoked_at > now() - $1 * interval '1 second' GROUP BY family_id`, window); err != nil {
		return mapError(err)
	}
	if err := db.SelectContext(ctx, &users, `
		SELECT id, withdrawn_at AS at FROM users WHERE withdrawn_at > now() - $1 * interval '1 second'`, window); err != nil {
		return mapError(err)
	}
	byID := func(rows []revoked) map[string]time.Time {
		m := make(map[string]time.Time, len(rows))
		for _, row := range rows {
			m[row.ID] = row.At
		}
		return m
	}
	r.reloaded(conn, byID(sessions), byID(users))
	return nil
}

// revokedHere records this instance's own revocation at once (other instances hear of it on
// the channel), so that the client that signed out is refused from its next request.
func (db *DB) revokedHere(userID string, sessions ...string) {
	r := db.revoked
	if r == nil {
		return
	}
	if userID != "" {
		r.add(r.users, userID, time.Now())
	}
	for _, s := range sessions {
		r.add(r.sessions, s, time.Now())
	}
}

// SessionRevoked reports whether access tokens of the user's sign-in session (its
// refresh-token family; "" for a token that names none) must be refused: the session was
// signed out or revoked, or the user withdrew. While the revocations channel is followed the
// answer costs no query; otherwise it is one.
func (db *DB) SessionRevoked(ctx context.Context, userID, session string) (_ bool, err error) {
	defer named(&err)
	if r := db.revoked; r != nil {
		if revoked, known := r.check(userID, session); known {
			return revoked, nil
		}
	}
	var revoked bool
	err = db.GetContext(ctx, &revoked, `
		SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND withdrawn_at IS NOT NULL)
		    OR EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $2 AND revoked_at IS NOT NULL)`,
		userID, session)
	return revoked, mapError(err)
}
