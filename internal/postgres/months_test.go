package postgres_test

import (
	"strings"
	"testing"

	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// fillMonths fills the database as months of use would: 2,000 users with 100 notifications
// each (200,000, one every two days; the oldest 75 of each read an hour after they came, so
// 110,000 were read more than 90 days ago, 20,000 since and 50,000 are unread), and 200,000
// events of 1,000 plans, half of them 25 to 49 hours old (pruning fell behind) and half from
// the last 12 hours, with the statistics brought up to date.
func fillMonths(t *testing.T, db *postgres.DB) {
	t.Helper()
	db.MustExec(`INSERT INTO users (id, provider, provider_id, nickname)
		SELECT 'u' || i, 'GOOGLE', 'months-' || i, 'User ' || i FROM generate_series(1, 2000) i`)
	db.MustExec(`INSERT INTO notifications (id, user_id, category, event_type, message, created_at, read_at)
		SELECT 'n' || u || '-' || k, 'u' || u, 'PLAN', 'X', 'm', now() - k * interval '2 days',
		       CASE WHEN k > 25 THEN now() - k * interval '2 days' + interval '1 hour' END
		FROM generate_series(1, 2000) u, generate_series(1, 100) k`)
	db.MustExec(`DELETE FROM events`)
	db.MustExec(`INSERT INTO events (topic, kind, object_id, created_at)
		SELECT 'plan:p' || (i % 1000), 'block', 'b' || i,
		       CASE WHEN i <= 100000 THEN now() - interval '49 hours' + i * interval '864 milliseconds'
		            ELSE now() - interval '12 hours' + (i - 100000) * interval '432 milliseconds' END
		FROM generate_series(1, 200000) i`)
	db.MustExec(`ANALYZE users, notifications, events`)
}

// TestMonthsOfDataUseIndexes: with months of notifications and a backlog of events, every
// hot query on them and every batch of the pruning finds its rows by an index, not by reading
// the table.
func TestMonthsOfDataUseIndexes(t *testing.T) {
	db := pgtest.New(t)
	fillMonths(t, db)
	for _, q := range []struct{ query, index string }{
		// GET /notifications and the unread count.
		{`SELECT id FROM notifications WHERE user_id = 'u7' ORDER BY created_at DESC, id DESC LIMIT 21 OFFSET 0`, "notifications_user_created"},
		{`SELECT count(*) FROM notifications WHERE user_id = 'u7' AND read_at IS NULL`, "notifications_unread"},
		{`UPDATE notifications SET read_at = now() WHERE user_id = 'u7' AND read_at IS NULL`, "notifications_unread"},
		// Live updates: catch-up by topic, the newest id, this transaction's own events.
		{`SELECT id FROM events WHERE topic = 'plan:p7' AND id > 190000 ORDER BY id LIMIT 500`, "events_topic"},
		{`SELECT COALESCE(max(id), 0) FROM events WHERE topic = 'plan:p7'`, "events_topic"},
		{`SELECT array_agg(id) FROM events WHERE created_at >= now() AND topic = 'plan:p7'`, "events_created"},
		// One batch of pruning each.
		{postgres.PruneStatement("notifications", "read_at < now() - interval '90 days'"), "notifications_read"},
		{postgres.PruneStatement("notifications", "read_at < now() - interval '90 days'"), "notifications_pkey"},
		{postgres.PruneStatement("events", "created_at < now() - interval '1 day'"), "events_created"},
		{postgres.PruneStatement("events", "created_at < now() - interval '1 day'"), "events_pkey"},
	} {
		var lines []string
		if err := db.Select(&lines, `EXPLAIN `+q.query); err != nil {
			t.Fatalf("%s: %v", q.query, err)
		}
		plan := strings.Join(lines, "\n")
		if !strings.Contains(plan, " "+q.index+" ") || strings.Contains(plan, "Seq Scan") {
			t.Errorf("%s\nwants index %s, plan:\n%s", q.query, q.index, plan)
		}
	}
}

// TestPruneBacklogInBatches: a backlog of months (fillMonths) is pruned entirely, one batch of
// at most PruneBatch rows a statement, and the recent rows are kept.
func TestPruneBacklogInBatches(t *testing.T) {
	db, statements, _ := pgtest.Counted(t)
	fillMonths(t, db)
	statements.Reset()
	if err := db.PruneExpired(t.Context()); err != nil {
		t.Fatal(err)
	}
	// 110,000 notifications and 100,000 events make 22 and 20 full batches, each followed by
	// the statement that finds no more; the seven other tables have nothing to prune.
	if want := 110000/postgres.PruneBatch + 1 + 100000/postgres.PruneBatch + 1 + 7; statements.Count() != want {
		t.Errorf("pruning sent %d statements, want %d (batches of %d)", statements.Count(), want, postgres.PruneBatch)
	}
	for query, want := range map[string]int{
		`SELECT count(*) FROM notifications WHERE read_at < now() - interval '90 days'`: 0,
		`SELECT count(*) FROM notifications WHERE read_at IS NOT NULL`:                  20 * 2000,
		`SELECT count(*) FROM notifications WHERE read_at IS NULL`:                      25 * 2000,
		`SELECT count(*) FROM events WHERE created_at < now() - interval '1 day'`:       0,
		`SELECT count(*) FROM events`:                                                   100000,
	} {
		var got int
		if err := db.Get(&got, query); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: %d, want %d", query, got, want)
		}
	}
}
