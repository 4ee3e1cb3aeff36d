package postgres_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"tripplan/internal/devdb"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// listening is a database with the change feed followed, as in production, its statement
// counter and its URL. The feed's connection is named feedApplication.
func listening(t *testing.T) (*postgres.DB, *pgtest.Counter, string) {
	t.Helper()
	db, queries, dsn := pgtest.Counted(t)
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("application_name", feedApplication)
	u.RawQuery = q.Encode()
	if err := db.Listen(ctx, u.String(), nil); err != nil {
		t.Fatal(err)
	}
	return db, queries, dsn
}

// newestEvent is the id of the last event recorded.
func newestEvent(t *testing.T, db *postgres.DB) int64 {
	t.Helper()
	var id int64
	if err := db.Get(&id, `SELECT max(id) FROM events`); err != nil {
		t.Fatal(err)
	}
	return id
}

const feedApplication = "tripplan-feed-test"

// awaitEvent reads the subscription until an event about the object, recorded after the
// given id, arrives.
func awaitEvent(t *testing.T, events <-chan planner.Event, objectID string, after int64) planner.Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.ObjectID == objectID && ev.ID > after {
				return ev
			}
		case <-deadline:
			t.Fatalf("no event about %s", objectID)
		}
	}
}

// TestOwnNotificationKeepsTheDayListing: a write through this instance moves the plan's
// version at once, and its own notification, arriving after a listing was cached, does not
// move it again — the listing stays cached. The feed is held so that the notification
// arrives after the listing was read, whatever the machine's speed.
func TestOwnNotificationKeepsTheDayListing(t *testing.T) {
	db, queries, _ := listening(t)
	f := newTrip(t, db)
	ctx := t.Context()
	events, cancel, err := db.Subscribe(planner.PlanTopic(f.plan.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()

	// The feed has taken everything the fixture wrote once it delivers a change made last.
	if _, err := db.Exec(`UPDATE plans SET title = 'Synced' WHERE id = $1`, f.plan.ID); err != nil {
		t.Fatal(err)
	}
	awaitEvent(t, events, f.plan.ID, newestEvent(t, db)-1)
	// Hold the feed at a change made behind this instance's back, so that it cannot take
	// the next notification until released.
	release := sync.OnceFunc(db.HoldFeed())
	defer release()
	before := db.PlanVersion(f.plan.ID)
	if _, err := db.Exec(`UPDATE plans SET title = 'Renamed' WHERE id = $1`, f.plan.ID); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); db.PlanVersion(f.plan.ID) == before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the feed never took the change")
		}
	}
	tb := f.block(t, 1, 0, "10:00", "11:00") // this instance's write: its notification waits
	listed := func() int {
		t.Helper()
		queries.Reset()
		day, err := db.DayBlocks(ctx, f.member, f.plan.ID, 1, planner.Page{Size: 20})
		blocks := day.Blocks
		if err != nil || len(blocks) != 1 || blocks[0].ID != tb.ID {
			t.Fatalf("day 1: %+v %v", blocks, err)
		}
		return queries.Count()
	}
	// A kept listing is served after one statement that confirms the plan unchanged
	// (another instance's write may not have reached this one's feed yet).
	if n := listed(); n <= 1 {
		t.Fatal("the listing after the write was served from the cache")
	}
	release()
	awaitEvent(t, events, tb.ID, 0) // the write's own notification went through the feed
	if n := listed(); n != 1 {
		t.Fatalf("the listing ran %d statements after the write's own notification, want 1 (still cached, confirmed)", n)
	}
}

// TestFeedCatchesUpAfterReconnecting ends the change feed's connection (its backend is
// terminated, and the database refuses new connections for a moment, so that it stays down)
// and writes meanwhile: once the feed is back, a subscriber receives the change, and the
// day listing cached before is not served again.
func TestFeedCatchesUpAfterReconnecting(t *testing.T) {
	db, queries, dsn := listening(t)
	f := newTrip(t, db)
	ctx := t.Context()
	tb := f.block(t, 1, 0, "10:00", "11:00")
	events, cancel, err := db.Subscribe(planner.PlanTopic(f.plan.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	// A listing cached before the connection is lost.
	listed := func() (planner.TimeOfDay, int) {
		t.Helper()
		queries.Reset()
		day, err := db.DayBlocks(ctx, f.member, f.plan.ID, 1, planner.Page{Size: 20})
		blocks := day.Blocks
		if err != nil || len(blocks) != 1 {
			t.Fatalf("day 1: %+v %v", blocks, err)
		}
		return blocks[0].End, queries.Count()
	}
	// Cached once the block's notification went by: then one statement confirms the plan
	// unchanged.
	for _, n := listed(); n != 1; _, n = listed() {
	}

	// One connection of the pool, kept for the outage, and one to the maintenance database
	// that turns new connections away meanwhile.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var name string
	if err := conn.QueryRowContext(ctx, `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	adminURL, err := devdb.SwitchDatabase(dsn, "postgres")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("postgres", adminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	allow := func(on bool) {
		if _, err := admin.Exec(fmt.Sprintf(`ALTER DATABASE %q ALLOW_CONNECTIONS %t`, name, on)); err != nil {
			t.Fatal(err)
		}
	}
	before := newestEvent(t, db)
	allow(false)
	defer allow(true)
	var ended bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = $1`, feedApplication).Scan(&ended); err != nil || !ended {
		t.Fatalf("terminate the feed's connection: %v %v", ended, err)
	}
	if _, err := conn.ExecContext(ctx, `UPDATE time_blocks SET end_time = '12:30' WHERE id = $1`, tb.ID); err != nil {
		t.Fatal(err)
	}
	allow(true)

	if ev := awaitEvent(t, events, tb.ID, before); ev.Kind != "block" {
		t.Fatalf("event: %+v", ev)
	}
	// The cache is back on, and the listing cached before the outage is not served again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		end, n := listed()
		if end != clockOf("12:30") {
			t.Fatalf("day 1 after the outage: the block ends at %v (%d statements)", end, n)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the day cache did not come back after the reconnection")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
