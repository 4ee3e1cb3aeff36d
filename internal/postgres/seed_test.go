package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"tripplan/internal/places"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
	"tripplan/migrations"
)

// seededTables are the tables SeedDemo fills, with the rows it adds to a database holding
// only the place catalog (whose places it uses, adding none).
var seededTables = map[string]int{
	"users":                        2,
	"collections":                  1,
	"collection_members":           2,
	"collection_places":            14,
	"collection_place_preferences": 5,
	"plans":                        1,
	"plan_members":                 2,
	"plan_days":                    3,
	"plan_collections":             1,
	"budgets":                      1,
	"time_blocks":                  7,
	"candidates":                   11,
	"opinions":                     5,
	"expenses":                     13, // one per place candidate (10) and three additional
	"expense_items":                11,
	"seed_runs":                    1,
}

func TestSeedDemo(t *testing.T) {
	db := catalogDB(t)
	ctx := context.Background()

	seeded, err := db.SeedDemo(ctx)
	if err != nil || !seeded {
		t.Fatalf("first SeedDemo = %v, %v; want true, nil", seeded, err)
	}
	first := tableCounts(t, db)
	delete(first, "places")
	if !maps.Equal(first, seededTables) {
		t.Errorf("rows after seeding:\n got %v\nwant %v", first, seededTables)
	}

	seeded, err = db.SeedDemo(ctx)
	if err != nil || seeded {
		t.Fatalf("second SeedDemo = %v, %v; want false, nil", seeded, err)
	}
	if again := tableCounts(t, db); !maps.Equal(again, first) {
		t.Errorf("the second SeedDemo changed the data:\n got %v\nwant %v", again, first)
	}

	// The demo accounts are the exported ones, terms accepted.
	var users []struct {
		Nickname   string `db:"nickname"`
		Provider   string `db:"provider"`
		ProviderID string `db:"provider_id"`
		Email      string `db:"email"`
		Accepted   bool   `db:"accepted"`
	}
	mustSelect(t, db, &users, `
		SELECT nickname, provider, provider_id, email, terms_accepted_at IS NOT NULL AS accepted
		FROM users ORDER BY nickname`)
	for i, want := range postgres.DemoUsers() {
		got := users[i]
		if got.Nickname != want.Nickname || got.Provider != string(want.Provider) ||
			got.ProviderID != want.ProviderID || got.Email != want.Email || !got.Accepted {
			t.Errorf("user %d = %+v, want %+v with terms accepted", i, got, want)
		}
	}

	// Three consecutive days starting on a Friday after today.
	var days []struct {
		Day  int       `db:"day"`
		Date time.Time `db:"date"`
	}
	mustSelect(t, db, &days, `SELECT day, date FROM plan_days ORDER BY day`)
	start := days[0].Date
	if start.Weekday() != time.Friday || !start.After(time.Now().AddDate(0, 0, -1)) {
		t.Errorf("day 1 is %s, want a Friday after today", start.Format("Monday 2006-01-02"))
	}
	for i, d := range days {
		if d.Day != i+1 || !d.Date.Equal(start.AddDate(0, 0, i)) {
			t.Errorf("plan day %d on %s, want day %d on %s", d.Day, d.Date.Format(time.DateOnly), i+1, start.AddDate(0, 0, i).Format(time.DateOnly))
		}
	}

	// Every block status, derived from the candidates as the API derives it.
	var statuses []string
	mustSelect(t, db, &statuses, `
		SELECT format('%s %s %s', d.day, to_char(b.start_time, 'HH24:MI'),
			CASE WHEN b.type = 'FREE' THEN 'NOTHING'
			     WHEN count(c.id) >= 2 AND bool_or(c.selected) THEN 'FIXED'
			     WHEN count(c.id) >= 2 THEN 'PENDING'
			     ELSE 'DIRECT' END)
		FROM time_blocks b JOIN plan_days d ON d.id = b.plan_day_id
		LEFT JOIN candidates c ON c.time_block_id = b.id
		GROUP BY d.day, b.id ORDER BY d.day, b.start_time`)
	wantStatuses := []string{
		"1 10:00 FIXED", "1 12:00 DIRECT", "1 14:00 PENDING", "1 16:00 NOTHING",
		"2 10:00 DIRECT", "2 12:00 PENDING", "2 18:00 FIXED",
	}
	if !slices.Equal(statuses, wantStatuses) {
		t.Errorf("blocks:\n got %q\nwant %q", statuses, wantStatuses)
	}

	// Every id is a public id.
	var ids []string
	mustSelect(t, db, &ids, `
		SELECT id FROM places UNION ALL SELECT id FROM collections UNION ALL SELECT id FROM plans
		UNION ALL SELECT id FROM time_blocks UNION ALL SELECT id FROM candidates UNION ALL SELECT id FROM expenses`)
	for _, id := range ids {
		if !planner.ValidID(id) {
			t.Errorf("id %q is not a public id", id)
		}
	}
}

func TestSeedDemoConcurrent(t *testing.T) {
	db := catalogDB(t)
	const n = 4
	results := make(chan error, n)
	var seededCount int
	var mu sync.Mutex
	for range n {
		go func() {
			seeded, err := db.SeedDemo(context.Background())
			if seeded {
				mu.Lock()
				seededCount++
				mu.Unlock()
			}
			results <- err
		}()
	}
	for range n {
		if err := <-results; err != nil {
			t.Errorf("SeedDemo: %v", err)
		}
	}
	if seededCount != 1 {
		t.Errorf("%d of %d concurrent SeedDemo calls seeded, want exactly 1", seededCount, n)
	}
	if got := tableCounts(t, db); !maps.Equal(got, seededTables) {
		t.Errorf("rows after concurrent seeding:\n got %v\nwant %v", got, seededTables)
	}
}

// TestSeedDemoExistingUser: a demo account that signed in through dev login before the seed
// ran is reused, not duplicated.
func TestSeedDemoExistingUser(t *testing.T) {
	db := catalogDB(t)
	ana := postgres.DemoUsers()[0]
	u, err := db.SignInUser(context.Background(), planner.User{Provider: ana.Provider, ProviderID: ana.ProviderID, Nickname: "Ana"})
	if err != nil {
		t.Fatal(err)
	}
	if seeded, err := db.SeedDemo(context.Background()); err != nil || !seeded {
		t.Fatalf("SeedDemo = %v, %v; want true, nil", seeded, err)
	}
	var owner string
	mustGet(t, db, &owner, `SELECT user_id FROM plan_members WHERE role = 'OWNER'`)
	if owner != u.ID {
		t.Errorf("the demo plan's owner is %s, want the existing user %s", owner, u.ID)
	}
}

func TestTimeBlockNoOverlap(t *testing.T) {
	db, demo := seededDB(t)
	day3 := demo.days[3] // empty
	insertBlock := func(tx *sqlx.Tx, day, start, end string) error {
		_, err := tx.Exec(`
			INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time)
			VALUES ($1, $2, $3, 'PLACE', $4, $5)`, planner.NewID(), demo.plan, day, start, end)
		return err
	}

	// Half-open intervals: blocks that touch are allowed, on both sides.
	err := inTx(t, db, func(tx *sqlx.Tx) error {
		for _, b := range [][2]string{{"10:00", "12:00"}, {"12:00", "14:00"}, {"08:00", "10:00"}, {"14:00", "24:00"}} {
			if err := insertBlock(tx, day3, b[0], b[1]); err != nil {
				return fmt.Errorf("%s–%s: %w", b[0], b[1], err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("adjacent blocks rejected: %v", err)
	}

	for _, tc := range []struct{ start, end string }{
		{"10:00", "12:00"}, // exactly equal: TIME_BLOCK_EXACT_DUPLICATE
		{"11:00", "13:00"},
		{"09:00", "10:01"},
		{"10:30", "11:00"}, // inside
		{"09:00", "13:00"}, // around
	} {
		err := inTx(t, db, func(tx *sqlx.Tx) error {
			if err := insertBlock(tx, day3, "10:00", "12:00"); err != nil {
				return fmt.Errorf("first block: %w", err)
			}
			return insertBlock(tx, day3, tc.start, tc.end)
		})
		wantViolation(t, fmt.Sprintf("%s–%s over 10:00–12:00", tc.start, tc.end), err, "23P01", "time_blocks_no_overlap")
	}

	// The seed's day 1 already has 10:00–12:00; the same time on day 3 is another day.
	if err := inTx(t, db, func(tx *sqlx.Tx) error { return insertBlock(tx, day3, "10:00", "12:00") }); err != nil {
		t.Errorf("10:00–12:00 on an empty day: %v", err)
	}
	err = inTx(t, db, func(tx *sqlx.Tx) error { return insertBlock(tx, demo.days[1], "11:30", "12:30") })
	wantViolation(t, "11:30–12:30 on seeded day 1", err, "23P01", "time_blocks_no_overlap")
	// Moving a block onto another's time is checked like an insert.
	err = inTx(t, db, func(tx *sqlx.Tx) error {
		_, err := tx.Exec(`UPDATE time_blocks SET plan_day_id = $1 WHERE id = $2`, demo.days[2], demo.blocks["1 10:00"])
		return err
	})
	wantViolation(t, "moving day 1 10:00–12:00 to day 2", err, "23P01", "time_blocks_no_overlap")

	// The conflict lookup the block store runs is served by the constraint's GiST index.
	err = inTx(t, db, func(tx *sqlx.Tx) error {
		if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
			return err
		}
		var plan []string
		err := tx.Select(&plan, `EXPLAIN SELECT id, start_time = $2 AND end_time = $3 AS exact FROM time_blocks
			WHERE plan_day_id = $1 AND timerange(start_time, end_time) && timerange($2, $3)`,
			demo.days[1], "11:00", "13:00")
		if err != nil {
			return err
		}
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, "time_blocks_no_overlap") || !regexp.MustCompile(`Index Cond: .*&&`).MatchString(text) {
			return fmt.Errorf("plan does not search time_blocks_no_overlap by range:\n%s", text)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}

	err = inTx(t, db, func(tx *sqlx.Tx) error { return insertBlock(tx, day3, "12:00", "10:00") })
	wantViolation(t, "end before start", err, "23514", "time_blocks_time_order")
	err = inTx(t, db, func(tx *sqlx.Tx) error { return insertBlock(tx, day3, "12:00", "12:00") })
	wantViolation(t, "empty block", err, "23514", "time_blocks_time_order")

	// A day of another plan.
	err = inTx(t, db, func(tx *sqlx.Tx) error {
		other := planner.NewID()
		if _, err := tx.Exec(`INSERT INTO plans (id, title, start_date, end_date) VALUES ($1, 'Other', '2027-01-01', '2027-01-01')`, other); err != nil {
			return err
		}
		_, err := tx.Exec(`
			INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time)
			VALUES ($1, $2, $3, 'PLACE', '10:00', '11:00')`, planner.NewID(), other, day3)
		return err
	})
	wantViolation(t, "block on another plan's day", err, "23503", "time_blocks_day")
}

// TestTimeBlockNoOverlapConcurrent: two transactions adding overlapping blocks at once cannot
// both succeed; the second waits for the first and then fails.
func TestTimeBlockNoOverlapConcurrent(t *testing.T) {
	db, demo := seededDB(t)
	ctx := context.Background()
	insert := `INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time) VALUES ($1, $2, $3, 'FREE', $4, $5)`

	first, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Rollback()
	if _, err := first.Exec(insert, planner.NewID(), demo.plan, demo.days[3], "10:00", "12:00"); err != nil {
		t.Fatal(err)
	}
	second := make(chan error, 1)
	go func() {
		_, err := db.ExecContext(ctx, insert, planner.NewID(), demo.plan, demo.days[3], "11:00", "13:00")
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("the overlapping insert finished before the first transaction ended: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	wantViolation(t, "concurrent overlapping block", <-second, "23P01", "time_blocks_no_overlap")
}

func TestOneSelectedCandidate(t *testing.T) {
	db, demo := seededDB(t)
	selectCandidate := func(tx *sqlx.Tx, id string, selected bool) error {
		_, err := tx.Exec(`UPDATE candidates SET selected = $2 WHERE id = $1`, id, selected)
		return err
	}

	// PENDING block: selecting one is fine, a second selected one is refused.
	err := inTx(t, db, func(tx *sqlx.Tx) error {
		if err := selectCandidate(tx, demo.candidates["seoul-bukchon-hanok-village"], true); err != nil {
			return fmt.Errorf("first selection: %w", err)
		}
		return selectCandidate(tx, demo.candidates["seoul-insadong"], true)
	})
	wantViolation(t, "second selected candidate", err, "23505", "candidates_one_selected")

	// Changing the selection of a FIXED block: clear the old one, then set the new one.
	err = inTx(t, db, func(tx *sqlx.Tx) error {
		if err := selectCandidate(tx, demo.candidates["seoul-gyeongbokgung-palace"], false); err != nil {
			return err
		}
		if err := selectCandidate(tx, demo.candidates["seoul-changdeokgung-palace"], true); err != nil {
			return err
		}
		var selected []string
		if err := tx.Select(&selected, `SELECT id FROM candidates WHERE time_block_id = $1 AND selected`, demo.blocks["1 10:00"]); err != nil {
			return err
		}
		if !slices.Equal(selected, []string{demo.candidates["seoul-changdeokgung-palace"]}) {
			return fmt.Errorf("selected after the change: %v", selected)
		}
		return nil
	})
	if err != nil {
		t.Errorf("changing the selection: %v", err)
	}

	err = inTx(t, db, func(tx *sqlx.Tx) error { return selectCandidate(tx, demo.candidates[""], true) })
	wantViolation(t, "selecting a FREE block's entry", err, "23514", "candidates_free_not_selected")
}

func TestOneOwner(t *testing.T) {
	db, _ := seededDB(t)
	for _, members := range []string{"collection_members", "plan_members"} {
		setRole := func(tx *sqlx.Tx, nickname, role string) error {
			_, err := tx.Exec(`UPDATE `+members+` SET role = $2 WHERE nickname = $1`, nickname, role)
			return err
		}

		err := inTx(t, db, func(tx *sqlx.Tx) error { return setRole(tx, "Ben", "OWNER") })
		wantViolation(t, members+": a second owner", err, "23505", members+"_one_owner")

		// Handing ownership over: demote the owner, then promote the new one.
		err = inTx(t, db, func(tx *sqlx.Tx) error {
			if err := setRole(tx, "Ana", "MEMBER"); err != nil {
				return err
			}
			return setRole(tx, "Ben", "OWNER")
		})
		if err != nil {
			t.Errorf("%s: handing ownership over: %v", members, err)
		}

		err = inTx(t, db, func(tx *sqlx.Tx) error {
			_, err := tx.Exec(`UPDATE ` + members + ` SET left_at = now() WHERE role = 'OWNER'`)
			return err
		})
		wantViolation(t, members+": the owner leaving", err, "23514", members+"_owner_active")

		// A member who left and rejoins keeps the same row (and member id).
		err = inTx(t, db, func(tx *sqlx.Tx) error {
			if _, err := tx.Exec(`UPDATE ` + members + ` SET left_at = now() WHERE nickname = 'Ben'`); err != nil {
				return err
			}
			_, err := tx.Exec(`UPDATE ` + members + ` SET left_at = NULL, joined_at = now() WHERE nickname = 'Ben'`)
			return err
		})
		if err != nil {
			t.Errorf("%s: leaving and rejoining: %v", members, err)
		}
	}
}

// TestConstraintNames checks that each constraint named in docs/SCHEMA.md exists under that
// name and refuses what it should, since the application maps errors by constraint name.
func TestConstraintNames(t *testing.T) {
	db, demo := seededDB(t)
	ana, ben := demo.planMembers["Ana"], demo.planMembers["Ben"]
	cAna := demo.collectionMembers["Ana"]
	for _, tc := range []struct {
		constraint, code string
		query            string
		args             []any
	}{
		{"collection_members_one_per_user", "23505",
			`INSERT INTO collection_members (id, collection_id, user_id, nickname) SELECT $1, collection_id, user_id, 'again' FROM collection_members WHERE id = $2`,
			[]any{planner.NewID(), cAna}},
		{"plan_members_one_per_user", "23505",
			`INSERT INTO plan_members (id, plan_id, user_id, nickname) SELECT $1, plan_id, user_id, 'again' FROM plan_members WHERE id = $2`,
			[]any{planner.NewID(), ben}},
		{"collection_places_one_per_place", "23505",
			`INSERT INTO collection_places (id, collection_id, place_id, added_by) VALUES ($1, $2, $3, $4)`,
			[]any{planner.NewID(), demo.collection, demo.places["seoul-gyeongbokgung-palace"], cAna}},
		{"collection_places_added_by", "23503", // a member of another collection
			`WITH c AS (INSERT INTO collections (id, title) VALUES ($1, 'Other') RETURNING id)
			 INSERT INTO collection_places (id, collection_id, place_id, added_by) SELECT $2, c.id, $3, $4 FROM c`,
			[]any{planner.NewID(), planner.NewID(), demo.places["seoul-gyeongbokgung-palace"], cAna}},
		{"collection_place_preferences_pkey", "23505",
			`INSERT INTO collection_place_preferences (collection_place_id, member_id, type) VALUES ($1, $2, 'PASS')`,
			[]any{demo.collectionPlaces["seoul-gyeongbokgung-palace"], cAna}},
		{"plans_date_range", "23514",
			`INSERT INTO plans (id, title, start_date, end_date) VALUES ($1, 'Long', '2027-01-01', '2027-01-31')`,
			[]any{planner.NewID()}},
		{"plans_date_range", "23514",
			`INSERT INTO plans (id, title, start_date, end_date) VALUES ($1, 'Backwards', '2027-01-02', '2027-01-01')`,
			[]any{planner.NewID()}},
		{"plan_days_one_per_day", "23505",
			`INSERT INTO plan_days (id, plan_id, day, date) VALUES ($1, $2, 1, '2027-01-01')`,
			[]any{planner.NewID(), demo.plan}},
		{"plan_collections_pkey", "23505",
			`INSERT INTO plan_collections (plan_id, collection_id, added_by) VALUES ($1, $2, $3)`,
			[]any{demo.plan, demo.collection, ben}},
		{"candidates_one_per_place", "23505",
			`INSERT INTO candidates (id, time_block_id, place_id, added_by) VALUES ($1, $2, $3, $4)`,
			[]any{planner.NewID(), demo.blocks["1 10:00"], demo.places["seoul-gyeongbokgung-palace"], ben}},
		{"candidates_memo_length", "23514",
			`UPDATE candidates SET memo = $2 WHERE id = $1`,
			[]any{demo.candidates["seoul-tosokchon-samgyetang"], strings.Repeat("a", 301)}},
		{"opinions_one_per_member", "23505",
			`INSERT INTO opinions (id, candidate_id, member_id, type) VALUES ($1, $2, $3, 'NEGATIVE')`,
			[]any{planner.NewID(), demo.candidates["seoul-gyeongbokgung-palace"], ben}},
		{"opinions_type", "23514",
			`INSERT INTO opinions (id, candidate_id, member_id, type) VALUES ($1, $2, $3, 'MEH')`,
			[]any{planner.NewID(), demo.candidates["seoul-tosokchon-samgyetang"], ana}},
		{"budgets_one_per_plan", "23505",
			`INSERT INTO budgets (id, plan_id) VALUES ($1, $2)`,
			[]any{planner.NewID(), demo.plan}},
		{"expenses_one_per_candidate", "23505",
			`INSERT INTO expenses (id, plan_id, kind, candidate_id) VALUES ($1, $2, 'BLOCK', $3)`,
			[]any{planner.NewID(), demo.plan, demo.candidates["seoul-tosokchon-samgyetang"]}},
		{"expenses_kind_shape", "23514",
			`INSERT INTO expenses (id, plan_id, kind, candidate_id, plan_day_id, rank) VALUES ($1, $2, 'ADDITIONAL', $3, $4, 1)`,
			[]any{planner.NewID(), demo.plan, demo.candidates["seoul-tosokchon-samgyetang"], demo.days[1]}},
		{"expenses_rate", "23514", // a currency without its rate
			`UPDATE expenses SET currency = 'JPY' WHERE id = (SELECT id FROM expenses WHERE plan_id = $1 LIMIT 1)`,
			[]any{demo.plan}},
		{"expenses_rate", "23514", // a rate that is not above 0
			`UPDATE expenses SET currency = 'JPY', exchange_rate = 0 WHERE id = (SELECT id FROM expenses WHERE plan_id = $1 LIMIT 1)`,
			[]any{demo.plan}},
		{"expenses_split_mode", "23514",
			`UPDATE expenses SET split_mode = 'HALF' WHERE id = (SELECT id FROM expenses WHERE plan_id = $1 LIMIT 1)`,
			[]any{demo.plan}},
		{"expense_items_cost", "23514",
			`INSERT INTO expense_items (id, expense_id, name, cost, position) SELECT $1, id, 'Refund', -1, 9 FROM expenses LIMIT 1`,
			[]any{planner.NewID()}},
		{"share_links_code", "23505",
			`INSERT INTO share_links (id, code, type, plan_id, expires_at) VALUES ($1, 'same', 'PLAN', $3, now()), ($2, 'same', 'PLAN', $3, now())`,
			[]any{planner.NewID(), planner.NewID(), demo.plan}},
		{"share_links_target", "23514",
			`INSERT INTO share_links (id, code, type, plan_id, expires_at) VALUES ($1, 'code', 'COLLECTION', $2, now())`,
			[]any{planner.NewID(), demo.plan}},
		{"extraction_jobs_one_undecided", "23505",
			`INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url)
			 VALUES ($1, $3, $4, 'https://a.example/1', 'https://a.example/1'), ($2, $3, $4, 'https://a.example/2', 'https://a.example/2')`,
			[]any{planner.NewID(), planner.NewID(), demo.collection, cAna}},
		{"extraction_jobs_stage", "23514",
			`INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url, stage) VALUES ($1, $2, $3, 'https://a.example/1', 'https://a.example/1', 'DANCING')`,
			[]any{planner.NewID(), demo.collection, cAna}},
		{"extraction_jobs_stage_matches_status", "23514", // matching while the status says extracting
			`INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url, status, stage, matched, to_match)
			 VALUES ($1, $2, $3, 'https://a.example/1', 'https://a.example/1', 'EXTRACTING', 'MATCHING', 0, 4)`,
			[]any{planner.NewID(), demo.collection, cAna}},
		{"extraction_jobs_progress", "23514", // more names looked up than the page gave
			`INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url, status, stage, matched, to_match)
			 VALUES ($1, $2, $3, 'https://a.example/1', 'https://a.example/1', 'SEARCHING', 'MATCHING', 5, 4)`,
			[]any{planner.NewID(), demo.collection, cAna}},
		{"extraction_jobs_progress", "23514", // a count without the total
			`INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url, status, stage, matched)
			 VALUES ($1, $2, $3, 'https://a.example/1', 'https://a.example/1', 'SEARCHING', 'MATCHING', 0)`,
			[]any{planner.NewID(), demo.collection, cAna}},
		{"places_provider_place", "23505",
			`INSERT INTO places (id, provider, provider_place_id, name) VALUES ($1, 'BUILTIN', 'seoul-gyeongbokgung-palace', 'Copy')`,
			[]any{planner.NewID()}},
	} {
		err := inTx(t, db, func(tx *sqlx.Tx) error {
			// Deferred foreign keys are checked at commit; check them at once instead.
			if _, err := tx.Exec(`SET CONSTRAINTS ALL IMMEDIATE`); err != nil {
				return err
			}
			_, err := tx.Exec(tc.query, tc.args...)
			return err
		})
		wantViolation(t, tc.constraint, err, tc.code, tc.constraint)
	}

	// What the constraints must let through.
	for name, query := range map[string]string{
		"a 300-character memo in Hangul": `UPDATE candidates SET memo = repeat('가', 300)`,
		"a 30-day plan":                  `INSERT INTO plans (id, title, start_date, end_date) VALUES ('p', 'Month', '2027-01-01', '2027-01-30')`,
		"a new undecided job once the old one is ignored": `
			WITH old AS (INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url, decision_status, decided_at)
			             SELECT 'j1', collection_id, id, 'https://a.example/1', 'https://a.example/1', 'IGNORED', now() FROM collection_members LIMIT 1)
			INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url)
			SELECT 'j2', collection_id, id, 'https://a.example/2', 'https://a.example/2' FROM collection_members LIMIT 1`,
		"a job matching all of its names": `
			INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url, status, stage, matched, to_match)
			SELECT 'j3', collection_id, id, 'https://a.example/3', 'https://a.example/3', 'SEARCHING', 'MATCHING', 4, 4 FROM collection_members LIMIT 1`,
		"a manual place without provider id": `INSERT INTO places (id, provider, name, address) VALUES ('m1', 'MANUAL', 'Aunt''s house', 'Busan'), ('m2', 'MANUAL', 'Aunt''s house', 'Busan')`,
	} {
		if err := inTx(t, db, func(tx *sqlx.Tx) error { _, err := tx.Exec(query); return err }); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestDeleteCascades checks the deliberate ON DELETE rules.
func TestDeleteCascades(t *testing.T) {
	db, demo := seededDB(t)

	t.Run("collection", func(t *testing.T) {
		err := inTx(t, db, func(tx *sqlx.Tx) error {
			if _, err := tx.Exec(`DELETE FROM collections WHERE id = $1`, demo.collection); err != nil {
				return err
			}
			// Unlinked from the plan; blocks made from its places stay, keeping the place.
			return expectCounts(tx, map[string]string{
				`SELECT count(*) FROM plan_collections`:                                 "0",
				`SELECT count(*) FROM collection_places`:                                "0",
				`SELECT count(*) FROM collection_members`:                               "0",
				`SELECT count(*) FROM candidates`:                                       "11",
				`SELECT count(*) FROM candidates WHERE collection_place_id IS NOT NULL`: "0",
				`SELECT count(*) FROM candidates WHERE place_id IS NOT NULL`:            "10",
				`SELECT count(*) FROM places WHERE provider_place_id LIKE 'seoul-%'`:    "119",
				`SELECT count(*) FROM collection_place_preferences`:                     "0",
				`SELECT count(*) FROM time_blocks`:                                      "7",
				`SELECT count(*) FROM candidates c JOIN places p ON p.id = c.place_id`:  "10",
				`SELECT count(*) FROM opinions`:                                         "5",
				`SELECT count(*) FROM plans`:                                            "1",
			})
		})
		if err != nil {
			t.Error(err)
		}
	})

	t.Run("plan", func(t *testing.T) {
		err := inTx(t, db, func(tx *sqlx.Tx) error {
			if _, err := tx.Exec(`DELETE FROM plans WHERE id = $1`, demo.plan); err != nil {
				return err
			}
			want := map[string]string{}
			for _, table := range []string{"plan_members", "plan_days", "plan_collections", "budgets", "time_blocks",
				"candidates", "opinions", "expenses", "expense_items"} {
				want[`SELECT count(*) FROM `+table] = "0"
			}
			want[`SELECT count(*) FROM collection_places`] = "14"
			want[`SELECT count(*) FROM users`] = "2"
			return expectCounts(tx, want)
		})
		if err != nil {
			t.Error(err)
		}
	})

	t.Run("member with content", func(t *testing.T) {
		// Members leave (left_at); deleting the row of one who authored content fails, at
		// the latest at commit (SET CONSTRAINTS ALL IMMEDIATE checks now).
		for _, members := range []string{"plan_members", "collection_members"} {
			err := inTx(t, db, func(tx *sqlx.Tx) error {
				if _, err := tx.Exec(`DELETE FROM ` + members + ` WHERE nickname = 'Ben'`); err != nil {
					return err
				}
				_, err := tx.Exec(`SET CONSTRAINTS ALL IMMEDIATE`)
				return err
			})
			var pqErr *pq.Error
			if !errors.As(err, &pqErr) || pqErr.Code != "23503" {
				t.Errorf("deleting %s row of Ben: got %v, want a foreign key violation", members, err)
			}
		}
	})

	t.Run("day", func(t *testing.T) {
		// Shortening a plan deletes the last days with their blocks and additional expenses.
		err := inTx(t, db, func(tx *sqlx.Tx) error {
			if _, err := tx.Exec(`DELETE FROM plan_days WHERE id = $1`, demo.days[1]); err != nil {
				return err
			}
			return expectCounts(tx, map[string]string{
				`SELECT count(*) FROM time_blocks`:                        "3",
				`SELECT count(*) FROM candidates`:                         "5",
				`SELECT count(*) FROM expenses WHERE kind = 'ADDITIONAL'`: "0",
				`SELECT count(*) FROM expenses`:                           "5", // day 2's place candidates
			})
		})
		if err != nil {
			t.Error(err)
		}
	})

	t.Run("additional expense follows its block", func(t *testing.T) {
		lunch := demo.blocks["1 12:00"]
		err := inTx(t, db, func(tx *sqlx.Tx) error {
			// Moved to day 3, the taxi expense after lunch moves along.
			if _, err := tx.Exec(`UPDATE time_blocks SET plan_day_id = $1 WHERE id = $2`, demo.days[3], lunch); err != nil {
				return err
			}
			if err := expectCounts(tx, map[string]string{
				fmt.Sprintf(`SELECT count(*) FROM expenses WHERE after_time_block_id = '%s' AND plan_day_id = '%s'`, lunch, demo.days[3]): "1",
			}); err != nil {
				return err
			}
			// Deleted, it leaves the expense at the start of that day.
			if _, err := tx.Exec(`DELETE FROM time_blocks WHERE id = $1`, lunch); err != nil {
				return err
			}
			return expectCounts(tx, map[string]string{
				fmt.Sprintf(`SELECT count(*) FROM expenses WHERE kind = 'ADDITIONAL' AND after_time_block_id IS NULL AND plan_day_id = '%s'`, demo.days[3]): "1",
				`SELECT count(*) FROM expenses WHERE kind = 'BLOCK'`: "9",
			})
		})
		if err != nil {
			t.Error(err)
		}
	})
}

func TestPlaceSearchText(t *testing.T) {
	db, _ := seededDB(t)
	var folded string
	mustGet(t, db, &folded, `SELECT search_normalize('Café ÉCLAIR Ōsaka')`)
	if folded != "cafe eclair osaka" {
		t.Errorf("search_normalize = %q, want %q", folded, "cafe eclair osaka")
	}
	for query, want := range map[string]string{
		"GYEONGBOK": "Gyeongbokgung Palace",
		"경복궁":       "Gyeongbokgung Palace",
		"ddp":       "Dongdaemun Design Plaza",
		"남산타워":      "N Seoul Tower",
		"jahamun":   "Tosokchon Samgyetang", // the address
	} {
		// The whole catalog is there, so other places may match too (ranking is the search
		// endpoint's business, tested in web); this checks the folding and what is indexed.
		var names []string
		mustSelect(t, db, &names, `SELECT name FROM places WHERE search_text ILIKE '%' || search_normalize($1) || '%'`, query)
		if !slices.Contains(names, want) {
			t.Errorf("search %q found %q, want it to include %s", query, names, want)
		}
	}
	// The trigram index serves that query (with few rows the planner would rather scan).
	err := inTx(t, db, func(tx *sqlx.Tx) error {
		if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
			return err
		}
		var plan []string
		if err := tx.Select(&plan, `EXPLAIN SELECT name FROM places WHERE search_text ILIKE '%' || search_normalize('gyeongbok') || '%'`); err != nil {
			return err
		}
		if !strings.Contains(strings.Join(plan, "\n"), "places_search_trgm") {
			return fmt.Errorf("plan does not use places_search_trgm:\n%s", strings.Join(plan, "\n"))
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// TestMigrationDown: 00002 can be rolled back and applied again.
func TestMigrationDown(t *testing.T) {
	db := catalogDB(t)
	ctx := context.Background()
	p := migrator(t, db)
	if _, err := p.DownTo(ctx, 1); err != nil {
		t.Fatalf("down to 00001: %v", err)
	}
	var tables int
	mustGet(t, db, &tables, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'goose%' AND tablename NOT LIKE 'river%'`) // the job queue's tables are River's own
	if tables != 3 {
		t.Errorf("%d tables after rolling back to 00001, want 3", tables)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("up again: %v", err)
	}
	all, version, err := places.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.LoadCatalog(ctx, version, all); err != nil {
		t.Fatal(err)
	}
	if seeded, err := db.SeedDemo(ctx); err != nil || !seeded {
		t.Fatalf("SeedDemo after down and up = %v, %v", seeded, err)
	}
}

// demoIDs are the ids of the seeded rows the constraint tests work on.
type demoIDs struct {
	plan, collection  string
	days              map[int]string    // day number → plan_days.id
	blocks            map[string]string // "1 10:00" → time_blocks.id
	candidates        map[string]string // place key ("" = the FREE block's entry) → candidates.id
	places            map[string]string // place key → places.id
	collectionPlaces  map[string]string // place key → collection_places.id
	planMembers       map[string]string // nickname → plan_members.id
	collectionMembers map[string]string // nickname → collection_members.id
}

// seededDB is a fresh database with the demo data, and the ids of its rows.
func seededDB(t *testing.T) (*postgres.DB, demoIDs) {
	t.Helper()
	db := catalogDB(t)
	if _, err := db.SeedDemo(context.Background()); err != nil {
		t.Fatalf("SeedDemo: %v", err)
	}
	var d demoIDs
	mustGet(t, db, &d.plan, `SELECT id FROM plans`)
	mustGet(t, db, &d.collection, `SELECT id FROM collections`)
	d.days = map[int]string{}
	var days []struct {
		Day int    `db:"day"`
		ID  string `db:"id"`
	}
	mustSelect(t, db, &days, `SELECT day, id FROM plan_days`)
	for _, day := range days {
		d.days[day.Day] = day.ID
	}
	d.blocks = keyed(t, db, `SELECT d.day || ' ' || to_char(b.start_time, 'HH24:MI'), b.id FROM time_blocks b JOIN plan_days d ON d.id = b.plan_day_id`)
	d.candidates = keyed(t, db, `SELECT coalesce(p.provider_place_id, ''), c.id FROM candidates c LEFT JOIN places p ON p.id = c.place_id`)
	d.places = keyed(t, db, `SELECT provider_place_id, id FROM places`)
	d.collectionPlaces = keyed(t, db, `SELECT p.provider_place_id, cp.id FROM collection_places cp JOIN places p ON p.id = cp.place_id`)
	d.planMembers = keyed(t, db, `SELECT nickname, id FROM plan_members`)
	d.collectionMembers = keyed(t, db, `SELECT nickname, id FROM collection_members`)
	return db, d
}

// keyed runs a query of (key, id) rows into a map.
func keyed(t *testing.T, db *postgres.DB, query string) map[string]string {
	t.Helper()
	var rows []struct {
		Key string `db:"key"`
		ID  string `db:"id"`
	}
	mustSelect(t, db, &rows, `SELECT k AS key, v AS id FROM (`+query+`) AS q (k, v)`)
	m := make(map[string]string, len(rows))
	for _, r := range rows {
		m[r.Key] = r.ID
	}
	return m
}

// inTx runs fn in a transaction that is always rolled back, and returns fn's error.
func inTx(t *testing.T, db *postgres.DB, fn func(tx *sqlx.Tx) error) error {
	t.Helper()
	tx, err := db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	return fn(tx)
}

// wantViolation fails unless err is a PostgreSQL error with the given SQLSTATE and constraint.
func wantViolation(t *testing.T, what string, err error, code, constraint string) {
	t.Helper()
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) {
		t.Errorf("%s: got %v, want %s violation of %s", what, err, code, constraint)
		return
	}
	if string(pqErr.Code) != code || pqErr.Constraint != constraint {
		t.Errorf("%s: got %s on %q (%s), want %s on %q", what, pqErr.Code, pqErr.Constraint, pqErr.Message, code, constraint)
	}
}

// expectCounts runs each query (a count) and compares its result.
func expectCounts(tx *sqlx.Tx, want map[string]string) error {
	var failures []string
	for _, query := range slices.Sorted(maps.Keys(want)) {
		var got string
		if err := tx.Get(&got, query); err != nil {
			return fmt.Errorf("%s: %w", query, err)
		}
		if got != want[query] {
			failures = append(failures, fmt.Sprintf("%s = %s, want %s", query, got, want[query]))
		}
	}
	if failures != nil {
		return errors.New(strings.Join(failures, "\n"))
	}
	return nil
}

func tableCounts(t *testing.T, db *postgres.DB) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for table := range seededTables {
		var n int
		mustGet(t, db, &n, `SELECT count(*) FROM `+table)
		counts[table] = n
	}
	return counts
}

func mustGet(t *testing.T, db *postgres.DB, dest any, query string, args ...any) {
	t.Helper()
	if err := db.Get(dest, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func mustSelect(t *testing.T, db *postgres.DB, dest any, query string, args ...any) {
	t.Helper()
	if err := db.Select(dest, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// catalogDB is a fresh database holding the built-in place catalog, as at start-up.
func catalogDB(t *testing.T) *postgres.DB {
	t.Helper()
	db := pgtest.New(t)
	all, version, err := places.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.LoadCatalog(t.Context(), version, all); err != nil {
		t.Fatal(err)
	}
	return db
}

// migrator runs the migrations on the test database, to go down to a version and up again.
func migrator(t *testing.T, db *postgres.DB) *goose.Provider {
	t.Helper()
	sub, err := fs.Sub(migrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db.DB.DB, sub)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
