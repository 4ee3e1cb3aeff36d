package postgres_test

import (
	"testing"

	"tripplan/internal/postgres/pgtest"
)

// PruneExpired removes what has run out and keeps the rest: expired tokens and sessions,
// notifications read over 90 days ago (never unread ones), events older than a day, extraction
// starts older than an hour, presence rows and stream places nobody has touched for 10 minutes,
// and rate-limit buckets that are full again.
func TestPruneExpired(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	u := f.member
	db.MustExec(`INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at) VALUES
		('\x01', 'f', $1, now() - interval '1 second'), ('\x02', 'f', $1, now() + interval '1 day')`, u)
	db.MustExec(`INSERT INTO web_sessions (id, user_id, data, expires_at) VALUES
		('old', $1, '', now() - interval '1 second'), ('live', $1, '', now() + interval '1 day')`, u)
	db.MustExec(`INSERT INTO notifications (id, user_id, category, event_type, message, read_at, created_at) VALUES
		('read-old', $1, 'PLAN', 'X', 'm', now() - interval '91 days', now() - interval '100 days'),
		('read-recent', $1, 'PLAN', 'X', 'm', now() - interval '89 days', now() - interval '100 days'),
		('unread-old', $1, 'PLAN', 'X', 'm', NULL, now() - interval '400 days')`, u)
	db.MustExec(`DELETE FROM events`)
	db.MustExec(`INSERT INTO events (topic, kind, created_at) VALUES
		('plan:x', 'block', now() - interval '25 hours'), ('plan:x', 'block', now() - interval '23 hours')`)
	conn := must(db.EnterPlan(ctx, f.member, f.plan.ID))
	db.MustExec(`INSERT INTO presence (connection, plan_id, seen_at) VALUES ('abandoned', $1, now() - interval '11 minutes')`, f.plan.ID)
	db.MustExec(`INSERT INTO extraction_starts (job_id, user_id, started_at) VALUES
		('hour-old', $1, now() - interval '61 minutes'), ('this-hour', $1, now() - interval '59 minutes')`, u)

	db.MustExec(`INSERT INTO open_streams (id, instance, reader, address, seen_at) VALUES
		('abandoned', 'i', 'r', 'a', now() - interval '11 minutes'), ('live', 'i', 'r', 'a', now() - interval '9 minutes')`)
	db.MustExec(`INSERT INTO rate_limits (name, key, full_at) VALUES
		('sign-in', 'full', now() - interval '1 second'), ('sign-in', 'filling', now() + interval '1 minute')`)

	if err := db.PruneExpired(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		query string
		want  string
	}{
		{`SELECT string_agg(encode(token_hash, 'hex'), ',' ORDER BY token_hash) FROM refresh_tokens WHERE user_id = '` + u + `'`, "02"},
		{`SELECT string_agg(id, ',' ORDER BY id) FROM web_sessions WHERE user_id = '` + u + `'`, "live"},
		{`SELECT string_agg(id, ',' ORDER BY id) FROM notifications WHERE user_id = '` + u + `' AND event_type = 'X'`, "read-recent,unread-old"},
		{`SELECT count(*)::text FROM events WHERE created_at < now() - interval '1 day'`, "0"},
		{`SELECT count(*)::text FROM events WHERE topic = 'plan:x'`, "1"},
		{`SELECT string_agg(connection, ',') FROM presence`, conn},
		{`SELECT string_agg(job_id, ',') FROM extraction_starts`, "this-hour"},
		{`SELECT string_agg(id, ',') FROM open_streams`, "live"},
		{`SELECT string_agg(key, ',') FROM rate_limits`, "filling"},
	} {
		var got string
		if err := db.Get(&got, c.query); err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.query, got, c.want)
		}
	}
}
