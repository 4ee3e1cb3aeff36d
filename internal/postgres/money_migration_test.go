package postgres_test

import (
	"context"
	"strconv"
	"testing"

	"tripplan/internal/postgres/pgtest"
)

// TestAmountsMigrateToMinorUnits: 00025 turns the whole amounts stored before into minor
// units of their currency — budgets and expense items by their plan's currency, the amounts in
// activity and notification details by the currency they name, the costs kept in a deleted
// block's snapshot — leaving currencies without decimals and codes ISO 4217 does not know as
// they were; going down restores every row, and refuses while an amount has cents.
func TestAmountsMigrateToMinorUnits(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	p := migrator(t, db)
	if _, err := p.DownTo(ctx, 24); err != nil {
		t.Fatalf("down to 00024: %v", err)
	}
	db.MustExec(`INSERT INTO users (id, provider, provider_id, nickname) VALUES ('u1', 'kakao', '1', '하늘')`)
	// plan, currency, total budget, item costs (whole units, as stored before)
	plans := []struct {
		id, currency string
		budget       int64
		costs        []int64
		up           int64 // factor to minor units
	}{
		{"pusd", "USD", 1500, []int64{12, 0, 7}, 100},
		{"pkrw", "KRW", 300000, []int64{12000, 5000}, 1},
		{"pkwd", "KWD", 40, []int64{3}, 1000},
		{"pjpy", "JPY", 90000, []int64{1200}, 1},
		{"pzzz", "ZZZ", 77, []int64{5}, 1}, // stored before codes were checked
	}
	for _, pl := range plans {
		db.MustExec(`INSERT INTO plans (id, title, start_date, end_date, currency) VALUES ($1, 'Trip', '2026-11-27', '2026-11-27', $2)`, pl.id, pl.currency)
		db.MustExec(`INSERT INTO plan_days (id, plan_id, day, date) VALUES ($1 || 'd', $1, 1, '2026-11-27')`, pl.id)
		db.MustExec(`INSERT INTO plan_members (id, plan_id, user_id, role, nickname) VALUES ($1 || 'm', $1, 'u1', 'OWNER', '하늘')`, pl.id)
		db.MustExec(`INSERT INTO budgets (id, plan_id, mode, total_budget) VALUES ($1 || 'b', $1, 'BUDGET', $2)`, pl.id, pl.budget)
		db.MustExec(`INSERT INTO expenses (id, plan_id, kind, plan_day_id, rank) VALUES ($1 || 'e', $1, 'ADDITIONAL', $1 || 'd', 1)`, pl.id)
		for i, c := range pl.costs {
			db.MustExec(`INSERT INTO expense_items (id, expense_id, name, cost, position) VALUES ($1, $2 || 'e', 'Line', $3, $4)`, pl.id+"i"+strconv.Itoa(i), pl.id, c, i)
		}
	}
	db.MustExec(`INSERT INTO activities (id, plan_id, actor_id, kind, target_type, target_id, details) VALUES
		('a1', 'pusd', 'pusdm', 'EXPENSE_ADDED', 'EXPENSE', 'pusde', '{"expense": "Line", "amount": 19, "currency": "USD"}'),
		('a2', 'pusd', 'pusdm', 'EXPENSE_ADDED', 'EXPENSE', 'pusde', '{"expense": "Line", "amount": 19, "currency": "KRW"}'),
		('a3', 'pusd', 'pusdm', 'BLOCK_ADDED', 'TIME_BLOCK', 'x', '{"day": 1}')`)
	db.MustExec(`INSERT INTO notifications (id, user_id, category, event_type, message, details) VALUES
		('n1', 'u1', 'PLAN', 'EXPENSE_ADDED', NULL, '{"actor": "하늘", "amount": 3, "currency": "KWD", "in": "Trip"}'),
		('n2', 'u1', 'PLAN', 'EXPENSE_ADDED', 'old text', NULL)`)
	db.MustExec(`INSERT INTO deleted_time_blocks (id, plan_id, deleted_by, snapshot) VALUES
		('del', 'pusd', 'pusdm', '{"block": {"id": "b"}, "expense_items": [{"id": "x1", "cost": 4}, {"id": "x2", "cost": 0}]}')`)

	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("up: %v", err)
	}
	check := func(when string, minor bool) {
		t.Helper()
		for _, pl := range plans {
			factor := int64(1)
			if minor {
				factor = pl.up
			}
			var budget int64
			mustGet(t, db, &budget, `SELECT total_budget FROM budgets WHERE plan_id = $1`, pl.id)
			if budget != pl.budget*factor {
				t.Errorf("%s: %s budget %d, want %d", when, pl.currency, budget, pl.budget*factor)
			}
			var costs []int64
			mustSelect(t, db, &costs, `SELECT cost FROM expense_items WHERE expense_id = $1 || 'e' ORDER BY position`, pl.id)
			for i, c := range pl.costs {
				if i >= len(costs) || costs[i] != c*factor {
					t.Errorf("%s: %s costs %v, want %v × %d", when, pl.currency, costs, pl.costs, factor)
					break
				}
			}
		}
		usd, kwd := int64(1), int64(1)
		if minor {
			usd, kwd = 100, 1000
		}
		for _, c := range []struct {
			query, id string
			want      int64
		}{
			{`SELECT (details->>'amount')::bigint FROM activities WHERE id = $1`, "a1", 19 * usd},
			{`SELECT (details->>'amount')::bigint FROM activities WHERE id = $1`, "a2", 19}, // in KRW, as it says
			{`SELECT (details->>'amount')::bigint FROM notifications WHERE id = $1`, "n1", 3 * kwd},
			{`SELECT (snapshot->'expense_items'->0->>'cost')::bigint FROM deleted_time_blocks WHERE id = $1`, "del", 4 * usd},
		} {
			var got int64
			mustGet(t, db, &got, c.query, c.id)
			if got != c.want {
				t.Errorf("%s: %s amount %d, want %d", when, c.id, got, c.want)
			}
		}
		var same bool
		mustGet(t, db, &same, `SELECT (SELECT details FROM activities WHERE id = 'a3') = '{"day": 1}'
			AND (SELECT details IS NULL AND message = 'old text' FROM notifications WHERE id = 'n2')
			AND (SELECT snapshot->'expense_items'->1 = '{"id": "x2", "cost": 0}' AND snapshot->'block' = '{"id": "b"}' FROM deleted_time_blocks WHERE id = 'del')`)
		if !same {
			t.Errorf("%s: rows without amounts changed", when)
		}
	}
	check("after up", true)

	// $12.50 cannot go back to whole dollars: down refuses and changes nothing.
	db.MustExec(`UPDATE expense_items SET cost = 1250 WHERE id = 'pusdi0'`)
	if _, err := p.DownTo(ctx, 24); err == nil {
		t.Fatal("down with $12.50 stored succeeded")
	}
	db.MustExec(`UPDATE expense_items SET cost = 1200 WHERE id = 'pusdi0'`)
	check("after a refused down", true)

	if _, err := p.DownTo(ctx, 24); err != nil {
		t.Fatalf("down to 00024: %v", err)
	}
	check("after down", false)
}
