package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/lib/pq"

	"tripplan/internal/devdb"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// TestRevocationsFollowTheFeed: an instance knows revoked sessions from memory (no query)
// while it follows the revocations channel, asks the database while it does not, and after
// its listener comes back it knows what it missed meanwhile.
func TestRevocationsFollowTheFeed(t *testing.T) {
	db, queries, url := pgtest.Counted(t)
	ctx := t.Context()
	if err := db.Listen(ctx, url, nil); err != nil {
		t.Fatal(err)
	}
	// Another instance, whose revocations this one only hears of.
	other, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	u := must(other.SignInUser(ctx, planner.User{Provider: "GOOGLE", ProviderID: "rv-1", Nickname: "Revo"}))
	first := must(other.CreateRefreshToken(ctx, u.ID, []byte("first"), time.Now().Add(time.Hour)))
	second := must(other.CreateRefreshToken(ctx, u.ID, []byte("second"), time.Now().Add(time.Hour)))

	// revoked answers SessionRevoked and how many statements it sent.
	revoked := func(session string) (bool, int) {
		t.Helper()
		queries.Reset()
		r, err := db.SessionRevoked(ctx, u.ID, session)
		if err != nil {
			t.Fatal(err)
		}
		return r, queries.Count()
	}
	// eventually waits until SessionRevoked answers want with n statements.
	eventually := func(what, session string, want bool, n int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			r, count := revoked(session)
			if r == want && count == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: revoked %v with %d statements, want %v with %d", what, r, count, want, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	if r, n := revoked(first); r || n != 0 {
		t.Fatalf("a live session: revoked %v, %d statements; want false from memory", r, n)
	}
	if err := other.RevokeSession(ctx, u.ID, first); err != nil {
		t.Fatal(err)
	}
	eventually("revoked elsewhere", first, true, 0)

	// The listener loses its connection and cannot get another one for now (the database
	// takes no new connections; the pools keep theirs).
	var name string
	must1(t, other.GetContext(ctx, &name, `SELECT current_database()`))
	adminURL, err := devdb.SwitchDatabase(url, "postgres")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := postgres.Open(ctx, adminURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	allow := func(ctx context.Context, on bool) error {
		_, err := admin.ExecContext(ctx, fmt.Sprintf(`ALTER DATABASE %s WITH ALLOW_CONNECTIONS %v`, pq.QuoteIdentifier(name), on))
		return err
	}
	must1(t, allow(ctx, false))
	t.Cleanup(func() { allow(context.Background(), true) })
	must1(t, exec(ctx, other, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE '%tripplan_revocations%' AND pid <> pg_backend_pid()`))
	eventually("without the feed", second, false, 1)
	// Revoked while nobody listens: the database answers.
	if err := other.RevokeSession(ctx, u.ID, second); err != nil {
		t.Fatal(err)
	}
	if r, n := revoked(second); !r || n != 1 {
		t.Fatalf("revoked while the feed is down: %v with %d statements, want true with 1", r, n)
	}
	// Back: the missed revocation is loaded, and memory answers again.
	must1(t, allow(ctx, true))
	eventually("after the feed came back", second, true, 0)
	if r, n := revoked(first); !r || n != 0 {
		t.Fatalf("the earlier revocation after the feed came back: %v with %d statements", r, n)
	}
}

func exec(ctx context.Context, db *postgres.DB, query string) error {
	_, err := db.ExecContext(ctx, query)
	return err
}

func must1(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkSessionRevoked is the revocation check every authenticated request makes, with
// the feed followed: it must send no statement.
func BenchmarkSessionRevoked(b *testing.B) {
	db, queries, url := pgtest.Counted(b)
	ctx := b.Context()
	if err := db.Listen(ctx, url, nil); err != nil {
		b.Fatal(err)
	}
	u, err := db.SignInUser(ctx, planner.User{Provider: "GOOGLE", ProviderID: "rv-bench", Nickname: "Bench"})
	if err != nil {
		b.Fatal(err)
	}
	session, err := db.CreateRefreshToken(ctx, u.ID, []byte("bench"), time.Now().Add(time.Hour))
	if err != nil {
		b.Fatal(err)
	}
	queries.Reset()
	for b.Loop() {
		if revoked, err := db.SessionRevoked(ctx, u.ID, session); err != nil || revoked {
			b.Fatal(revoked, err)
		}
	}
	if n := queries.Count(); n != 0 {
		b.Fatalf("%d statements for %d checks, want none", n, b.N)
	}
}

// TestEndedSessionsLoseTheirPushSubscriptions: a push subscription ends with the sign-in
// session that made it, however the session ends — signed out by its access token or browser
// session (RevokeSession), by its refresh token (RevokeRefreshToken), or revoked because a used
// refresh token came back (RotateRefreshToken) — and only that session's: the others, and one
// made without a named session, stay.
func TestEndedSessionsLoseTheirPushSubscriptions(t *testing.T) {
	db := pgtest.New(t)
	ctx := t.Context()
	user := newUser(t, db, "Pia")
	later := time.Now().Add(time.Hour)
	sessions := map[string]string{}
	for _, name := range []string{"signed-out", "logged-out", "replayed", "kept"} {
		sessions[name] = must(db.CreateRefreshToken(ctx, user, []byte(name), later))
	}
	sessions["unnamed"] = ""
	for name, session := range sessions {
		must(db.SavePushSubscription(ctx, user, planner.PushSubscription{Endpoint: "https://push.example/" + name, P256dh: "k", Auth: "a", Session: session}))
	}
	left := func() []string {
		t.Helper()
		var out []string
		mustSelect(t, db, &out, `SELECT substr(endpoint, 22) FROM push_subscriptions WHERE user_id = $1 ORDER BY endpoint`, user)
		return out
	}

	if err := db.RevokeSession(ctx, user, sessions["signed-out"]); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeRefreshToken(ctx, []byte("logged-out")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.RotateRefreshToken(ctx, []byte("replayed"), []byte("replayed-2"), later, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.RotateRefreshToken(ctx, []byte("replayed"), []byte("replayed-3"), later, 0); err == nil {
		t.Fatal("a used refresh token was accepted again")
	}
	if diff := cmp.Diff([]string{"kept", "unnamed"}, left()); diff != "" {
		t.Errorf("subscriptions left (-want +got):\n%s", diff)
	}
}
