package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// twoPools is a database with two pools on it, as two instances of the server have.
func twoPools(t *testing.T) [2]*postgres.DB {
	t.Helper()
	db, _, url := pgtest.Counted(t)
	other, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return [2]*postgres.DB{db, other}
}

// concurrently runs n calls at once, alternating between the pools, and answers how many
// answered true.
func concurrently(t *testing.T, pools [2]*postgres.DB, n int, call func(db *postgres.DB, i int) (bool, error)) int {
	t.Helper()
	var (
		yes  atomic.Int64
		wg   sync.WaitGroup
		errs = make(chan error, n)
	)
	for i := range n {
		wg.Go(func() {
			ok, err := call(pools[i%2], i)
			if err != nil {
				errs <- err
			}
			if ok {
				yes.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return int(yes.Load())
}

// TestTakeToken: takes at once from two pools never overspend a bucket; each key has its own;
// a refused take costs nothing, and time refills the bucket (moved here by moving the bucket's
// time back, not by waiting).
func TestTakeToken(t *testing.T) {
	pools := twoPools(t)
	db, ctx := pools[0], t.Context()
	take := func(db *postgres.DB, _ int) (bool, error) {
		return db.TakeToken(ctx, "sign-in", "198.51.100.7", 0.001, 3)
	}
	if got := concurrently(t, pools, 30, take); got != 3 {
		t.Fatalf("%d of 30 takes at once got a token, want 3 (the burst)", got)
	}
	if ok := must(db.TakeToken(ctx, "sign-in", "198.51.100.8", 0.001, 3)); !ok {
		t.Fatal("another address found the bucket empty")
	}
	if ok := must(db.TakeToken(ctx, "other", "198.51.100.7", 0.001, 3)); !ok {
		t.Fatal("another limit found the bucket empty")
	}
	// 1000 s later (a token every 1000 s) there is exactly one token again.
	db.MustExec(`UPDATE rate_limits SET full_at = full_at - interval '1000 seconds' WHERE name = 'sign-in' AND key = '198.51.100.7'`)
	if got := concurrently(t, pools, 10, take); got != 1 {
		t.Fatalf("%d of 10 takes got a token after one token's time, want 1", got)
	}
	// A long idle bucket is full again, at the burst and no more.
	db.MustExec(`UPDATE rate_limits SET full_at = now() - interval '1 day' WHERE key = '198.51.100.7'`)
	if got := concurrently(t, pools, 10, take); got != 3 {
		t.Fatalf("%d of 10 takes got a token from a full bucket, want 3", got)
	}
}

// TestOpenStreamCaps: opens at once from two pools never exceed a cap, whichever it is; places
// of other instances count toward the reader's and the address's caps but not the instance's;
// stale places do not count; closed ones are free again.
func TestOpenStreamCaps(t *testing.T) {
	pools := twoPools(t)
	db, ctx := pools[0], t.Context()
	caps := postgres.StreamCaps{PerInstance: 100, PerReader: 100, PerAddress: 100, Live: 45 * time.Second}
	open := func(p postgres.StreamPlace, caps postgres.StreamCaps) func(db *postgres.DB, i int) (bool, error) {
		return func(db *postgres.DB, i int) (bool, error) {
			p := p
			p.ID = fmt.Sprintf("%s-%d", p.ID, i)
			if p.Instance == "" {
				p.Instance = fmt.Sprintf("instance-%d", i%2)
			}
			if p.Reader == "" {
				p.Reader = fmt.Sprintf("reader-%d", i)
			}
			if p.Address == "" {
				p.Address = fmt.Sprintf("address-%d", i)
			}
			return db.OpenStream(ctx, p, caps)
		}
	}

	perReader := caps
	perReader.PerReader = 4
	if got := concurrently(t, pools, 30, open(postgres.StreamPlace{ID: "r", Reader: "user ana"}, perReader)); got != 4 {
		t.Fatalf("%d of 30 streams of one reader opened, want 4", got)
	}
	perAddress := caps
	perAddress.PerAddress = 6
	if got := concurrently(t, pools, 30, open(postgres.StreamPlace{ID: "a", Address: "203.0.113.1"}, perAddress)); got != 6 {
		t.Fatalf("%d of 30 streams from one address opened, want 6", got)
	}
	perInstance := caps
	perInstance.PerInstance = 5
	if got := concurrently(t, pools, 30, open(postgres.StreamPlace{ID: "i", Instance: "one"}, perInstance)); got != 5 {
		t.Fatalf("%d of 30 streams on one instance opened, want 5", got)
	}
	// Another instance has places of its own, though the first one's count for the address.
	if ok := must(db.OpenStream(ctx, postgres.StreamPlace{ID: "x", Instance: "two", Reader: "user ben", Address: "203.0.113.1"}, perInstance)); !ok {
		t.Fatal("another instance has no place")
	}
	if ok := must(db.OpenStream(ctx, postgres.StreamPlace{ID: "y", Instance: "two", Reader: "user ben", Address: "203.0.113.1"}, perAddress)); ok {
		t.Fatal("an address beyond its cap, counted over instances, opened a stream")
	}

	// A stale place does not count; a touched one counts again; a closed one is free.
	var stale []string
	if err := db.Select(&stale, `
		UPDATE open_streams SET seen_at = now() - interval '46 seconds'
		WHERE id IN (SELECT id FROM open_streams WHERE reader = 'user ana' ORDER BY id LIMIT 2) RETURNING id`); err != nil || len(stale) != 2 {
		t.Fatalf("stale places %v (%v)", stale, err)
	}
	one := postgres.StreamPlace{ID: "z", Instance: "three", Reader: "user ana", Address: "192.0.2.1"}
	if ok := must(db.OpenStream(ctx, one, perReader)); !ok {
		t.Fatal("stale places counted")
	}
	if err := db.TouchStream(ctx, stale[0]); err != nil {
		t.Fatal(err)
	}
	one.ID = "z2"
	if ok := must(db.OpenStream(ctx, one, perReader)); ok {
		t.Fatal("a touched place did not count")
	}
	if err := db.CloseStream(ctx, stale[0]); err != nil {
		t.Fatal(err)
	}
	if ok := must(db.OpenStream(ctx, one, perReader)); !ok {
		t.Fatal("a closed place still counted")
	}
	if err := db.CloseInstanceStreams(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.Get(&left, `SELECT count(*) FROM open_streams WHERE instance = 'one'`); err != nil || left != 0 {
		t.Fatalf("%d places of a stopped instance left (%v)", left, err)
	}
}
