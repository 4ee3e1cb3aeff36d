package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// RestorePlan makes a new plan of the caller's from a backup (planner.Restore, checked by the
// caller): all or nothing, in one transaction of fourteen statements whatever its size — every
// list goes in one multi-row INSERT from a jsonb array (jsonb_to_recordset), never a
// statement per row. The caller is its owner and only member, so:
//
//   - the backup's places that are catalogue or provider places here are used as they are;
//     every other place (a custom place, or one this server does not know) becomes a new
//     custom place (MANUAL) with the backup's name, address, map link and point;
//   - every candidate, opinion and payment of the backup's members becomes the caller's. The
//     opinions of the caller's own memberships (a backup of a plan they were in, restored on
//     this server) stay their opinions; the others' are written into the candidate's memo as
//     notes, one line each (planner.OpinionNote, cut at 300 characters with the memo): a
//     member holds one opinion per candidate, and the others are not members of the new plan;
//   - an expense's payers and split become the caller's alone (planner.Terms.PaidAndSharedBy),
//     so every total, the budget's total cost included, is what the backup's was;
//   - the linked collections the caller is an active member of are linked again.
//
// Candidates keep the backup's order (each block's, and across the plan the order of their
// expenses in the backup, which is the order the export lists them in); additional expenses
// keep theirs (rank = position in the backup). The history records one PLAN_RESTORED.
func (db *DB) RestorePlan(ctx context.Context, userID string, in *planner.Restore) (*planner.Plan, error) {
	if err := writer(userID); err != nil {
		return nil, err
	}
	days, err := in.Plan.Days()
	if err != nil {
		return nil, err
	}
	var out *planner.Plan
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		// Which of the backup's members are the caller's own memberships, and which places
		// this server has (custom places are readable only through their plans: never reused).
		keys := make([]string, 0, len(in.Members))
		for k := range in.Members {
			keys = append(keys, k)
		}
		placeKeys := make([]string, len(in.Places))
		for i, p := range in.Places {
			placeKeys[i] = p.Key
		}
		var known struct {
			Mine   pq.StringArray `db:"mine"`
			Places pq.StringArray `db:"places"`
		}
		if err := tx.GetContext(ctx, &known, `
			SELECT ARRAY(SELECT m.id FROM plan_members m WHERE m.id = ANY($1) AND m.user_id = $2) AS mine,
			       ARRAY(SELECT p.id FROM places p WHERE p.id = ANY($3) AND p.provider <> 'MANUAL') AS places`,
			pq.Array(keys), userID, pq.Array(placeKeys)); err != nil {
			return err
		}
		r := newRestoreRows(in, known.Mine, known.Places)
		name, lat, lng := destinationArgs(in.Plan.Destination)
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO plans (id, title, start_date, end_date, time_zone, time_zone_source,
			                   destination_name, destination_lat, destination_lng, currency)
			VALUES ($1, $2, $3, $4, $5, 'MEMBER', $6, $7, $8, $9)`,
			r.plan, in.Plan.Title, in.Plan.StartDate.Format(time.DateOnly), in.Plan.EndDate.Format(time.DateOnly), in.Plan.TimeZone,
			name, lat, lng, in.Plan.Currency); err != nil {
			return mapError(err)
		}
		res, err := tx.ExecContext(ctx, `
			INSERT INTO plan_members (id, plan_id, user_id, role, nickname, picture)
			SELECT $1, $2, u.id, 'OWNER', u.nickname, u.picture FROM users u WHERE u.id = $3 AND u.withdrawn_at IS NULL`,
			r.me, r.plan, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return planner.Errorf(planner.CodeUserNotFound, "No such user.")
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO plan_days (id, plan_id, day, date)
			SELECT u.id, p.id, u.n, p.start_date + (u.n - 1)::int
			FROM plans p, unnest($2::text[]) WITH ORDINALITY AS u(id, n)
			WHERE p.id = $1`, r.plan, pq.Array(r.days[:days])); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO budgets (id, plan_id, mode, total_budget, traveler_count) VALUES ($1, $2, $3, $4, $5)`,
			planner.NewID(), r.plan, string(in.Budget.Mode), in.Budget.TotalBudget, sql.NullInt64{Int64: int64(in.Budget.TravelerCount), Valid: in.Budget.TravelerCount > 0}); err != nil {
			return mapError(err)
		}
		// Each statement takes its rows as a jsonb array ($1), then the plan or the caller's
		// membership where it needs one.
		for _, q := range []struct {
			sql  string
			rows any
			args []any
		}{
			{`INSERT INTO places (id, provider, name, address, provider_maps_uri, latitude, longitude)
			  SELECT x.id, 'MANUAL', x.name, x.address, x.uri, x.lat::numeric(9, 6), x.lng::numeric(9, 6)
			  FROM jsonb_to_recordset($1::jsonb) AS x(id text, name text, address text, uri text, lat text, lng text)`, r.places, nil},
			{`INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time, fixed_time)
			  SELECT x.id, $2, x.day_id, x.type, x.start_time::time, x.end_time::time, x.fixed
			  FROM jsonb_to_recordset($1::jsonb) AS x(id text, day_id text, type text, start_time text, end_time text, fixed bool)`, r.blocks, []any{r.plan}},
			{`INSERT INTO candidates (id, time_block_id, place_id, added_by, memo, selected, created_at, updated_at)
			  SELECT x.id, x.block_id, x.place_id, $2, x.memo, x.selected, now() + x.n * interval '1 microsecond', now()
			  FROM jsonb_to_recordset($1::jsonb) AS x(id text, block_id text, place_id text, memo text, selected bool, n int)
			  ORDER BY x.n`, r.candidates, []any{r.me}},
			{`INSERT INTO opinions (id, candidate_id, member_id, type, comment, tag_ids, created_at, updated_at)
			  SELECT x.id, x.candidate_id, $2, x.type, x.comment, x.tag_ids, now() + x.n * interval '1 microsecond', now()
			  FROM jsonb_to_recordset($1::jsonb) AS x(id text, candidate_id text, type text, comment text, tag_ids text[], n int)`, r.opinions, []any{r.me}},
			{`INSERT INTO expenses (id, plan_id, kind, candidate_id, plan_day_id, after_time_block_id, rank,
			                       currency, exchange_rate, paid_by, payers, split_mode, split_among, split_parts)
			  SELECT x.id, $2, x.kind, x.candidate_id, x.day_id, x.after_block, x.rank,
			         x.currency, x.rate::numeric, x.paid_by, x.payers, x.split_mode, x.split_among, x.split_parts
			  FROM jsonb_to_recordset($1::jsonb) AS x(id text, kind text, candidate_id text, day_id text, after_block text, rank numeric,
			       currency text, rate text, paid_by text, payers jsonb, split_mode text, split_among text[], split_parts jsonb)`, r.expenses, []any{r.plan}},
			{`INSERT INTO expense_items (id, expense_id, name, cost, position)
			  SELECT x.id, x.expense_id, x.name, x.cost, x.position
			  FROM jsonb_to_recordset($1::jsonb) AS x(id text, expense_id text, name text, cost bigint, position int)`, r.items, nil},
		} {
			rows, err := json.Marshal(q.rows)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, q.sql, append([]any{rows}, q.args...)...); err != nil {
				return mapError(err)
			}
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO plan_collections (plan_id, collection_id, added_by)
			SELECT $1, cm.collection_id, $2 FROM collection_members cm
			WHERE cm.collection_id = ANY($3) AND cm.user_id = $4 AND cm.left_at IS NULL`,
			r.plan, r.me, pq.Array(in.Collections), userID); err != nil {
			return err
		}
		if err := db.record(ctx, tx, planDid(r.plan, userID, planner.ActPlanRestored, planner.TargetPlan, r.plan, planner.Details{Title: in.Plan.Title})); err != nil {
			return err
		}
		out, err = getPlan(ctx, tx, r.plan)
		return err
	})
	return out, err
}

// restoreRows are a backup's rows with their new ids, as the statements of RestorePlan take
// them (jsonb arrays of objects).
type restoreRows struct {
	plan, me   string
	days       []string // day N's id at N-1
	places     []restorePlaceRow
	blocks     []restoreBlockRow
	candidates []restoreCandidateRow
	opinions   []restoreOpinionRow
	expenses   []restoreExpenseRow
	items      []restoreItemRow
}

type restorePlaceRow struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Address string  `json:"address"`
	URI     string  `json:"uri"`
	Lat     *string `json:"lat,omitempty"`
	Lng     *string `json:"lng,omitempty"`
}

type restoreBlockRow struct {
	ID    string `json:"id"`
	DayID string `json:"day_id,omitempty"`
	Type  string `json:"type"`
	Start string `json:"start_time"`
	End   string `json:"end_time"`
	Fixed bool   `json:"fixed"`
}

type restoreCandidateRow struct {
	ID       string  `json:"id"`
	BlockID  string  `json:"block_id"`
	PlaceID  *string `json:"place_id,omitempty"`
	Memo     string  `json:"memo"`
	Selected bool    `json:"selected"`
	N        int     `json:"n"`
}

type restoreOpinionRow struct {
	ID          string   `json:"id"`
	CandidateID string   `json:"candidate_id,omitempty"`
	Type        string   `json:"type"`
	Comment     string   `json:"comment"`
	TagIDs      []string `json:"tag_ids"`
	N           int      `json:"n"`
}

type restoreExpenseRow struct {
	ID          string          `json:"id"`
	Kind        string          `json:"kind"`
	CandidateID *string         `json:"candidate_id,omitempty"`
	DayID       *string         `json:"day_id,omitempty"`
	AfterBlock  *string         `json:"after_block,omitempty"`
	Rank        *int            `json:"rank,omitempty"`
	Currency    *string         `json:"currency,omitempty"`
	Rate        *string         `json:"rate,omitempty"`
	PaidBy      *string         `json:"paid_by,omitempty"`
	Payers      json.RawMessage `json:"payers,omitempty"`
	SplitMode   *string         `json:"split_mode,omitempty"`
	SplitAmong  []string        `json:"split_among,omitempty"`
	SplitParts  json.RawMessage `json:"split_parts,omitempty"`
}

type restoreItemRow struct {
	ID        string `json:"id"`
	ExpenseID string `json:"expense_id"`
	Name      string `json:"name"`
	Cost      int64  `json:"cost"`
	Position  int    `json:"position"`
}

func some[T any](v T) *T { return &v }

// newRestoreRows gives the backup's rows new ids: mine are the backup's member keys that are
// the caller's memberships, known the place keys this server has as catalogue or provider
// places.
func newRestoreRows(in *planner.Restore, mine, known []string) *restoreRows {
	r := &restoreRows{plan: planner.NewID(), me: planner.NewID(), days: make([]string, planner.MaxPlanDays),
		places: []restorePlaceRow{}, blocks: []restoreBlockRow{}, candidates: []restoreCandidateRow{}, opinions: []restoreOpinionRow{},
		expenses: []restoreExpenseRow{}, items: []restoreItemRow{}}
	for i := range r.days {
		r.days[i] = planner.NewID()
	}
	isMine := map[string]bool{}
	for _, k := range mine {
		isMine[k] = true
	}
	place := map[string]string{} // key → id here
	for _, k := range known {
		place[k] = k
	}
	for _, p := range in.Places {
		if _, ok := place[p.Key]; ok {
			continue
		}
		row := restorePlaceRow{ID: planner.NewID(), Name: p.Name, Address: p.Address, URI: p.MapsURI}
		if p.Latitude != "" {
			row.Lat, row.Lng = some(p.Latitude), some(p.Longitude)
		}
		place[p.Key] = row.ID
		r.places = append(r.places, row)
	}
	// Candidates are ordered as the backup lists their expenses (the export's order of
	// candidates across the plan), the rest after them in the backup's order.
	order := map[string]int{}
	for i, e := range in.Expenses {
		if e.Kind == planner.ExpenseBlock {
			order[e.CandidateKey] = i
		}
	}
	next := len(in.Expenses)
	candidate := map[string]string{} // key → id here
	blockIDs := make([]string, len(in.Blocks))
	for i, b := range in.Blocks {
		blockIDs[i] = planner.NewID()
		r.blocks = append(r.blocks, restoreBlockRow{ID: blockIDs[i], DayID: r.days[b.Day-1], Type: string(b.Type),
			Start: clockText(b.Start), End: clockText(b.End), Fixed: b.FixedTime})
		for _, c := range b.Candidates {
			row := restoreCandidateRow{ID: planner.NewID(), BlockID: blockIDs[i], Selected: c.Selected}
			if n, ok := order[c.Key]; ok {
				row.N = n
			} else {
				row.N, next = next, next+1
			}
			if c.PlaceKey != "" {
				row.PlaceID = some(place[c.PlaceKey])
			}
			candidate[c.Key] = row.ID
			var notes []string
			kept := false
			for _, o := range c.Opinions {
				if isMine[o.AddedBy] && !kept {
					kept = true
					tags := o.TagIDs
					if tags == nil {
						tags = []string{}
					}
					r.opinions = append(r.opinions, restoreOpinionRow{ID: planner.NewID(), CandidateID: row.ID, Type: string(o.Type),
						Comment: o.Comment, TagIDs: tags, N: len(r.opinions)})
					continue
				}
				notes = append(notes, planner.OpinionNote(in.Members[o.AddedBy], in.Words[o.Type], o.Comment))
			}
			row.Memo = planner.WithNotes(c.Memo, notes)
			r.candidates = append(r.candidates, row)
		}
	}
	blockExpense := map[string]bool{}
	for i, e := range in.Expenses {
		row := restoreExpenseRow{ID: planner.NewID(), Kind: string(e.Kind)}
		if e.Kind == planner.ExpenseBlock {
			row.CandidateID = some(candidate[e.CandidateKey])
			blockExpense[e.CandidateKey] = true
		} else {
			row.DayID, row.Rank = some(r.days[e.Day-1]), some(i+1)
			if e.AfterBlock >= 0 {
				row.AfterBlock = some(blockIDs[e.AfterBlock])
			}
		}
		t := e.Terms.PaidAndSharedBy(r.me)
		if t.Foreign() {
			row.Currency, row.Rate = some(t.Currency), some(t.Rate.String())
		}
		if t.PaidBy != "" {
			row.PaidBy = some(t.PaidBy)
		}
		if len(t.Payers) > 0 {
			row.Payers = mustJSON(t.Payers)
		}
		if t.Split.Mode != planner.SplitEqual && t.Split.Mode != "" {
			row.SplitMode, row.SplitParts = some(string(t.Split.Mode)), mustJSON(t.Split.Parts)
		}
		if len(t.Split.Members) > 0 {
			row.SplitAmong = t.Split.Members
		}
		r.expenses = append(r.expenses, row)
		for j, it := range e.Items {
			r.items = append(r.items, restoreItemRow{ID: planner.NewID(), ExpenseID: row.ID, Name: it.Name, Cost: it.Cost, Position: j + 1})
		}
	}
	// Every place candidate has its expense, empty when the backup gave none.
	for _, b := range in.Blocks {
		for _, c := range b.Candidates {
			if c.PlaceKey != "" && !blockExpense[c.Key] {
				r.expenses = append(r.expenses, restoreExpenseRow{ID: planner.NewID(), Kind: string(planner.ExpenseBlock), CandidateID: some(candidate[c.Key])})
			}
		}
	}
	return r
}

// clockText is a time of day as PostgreSQL reads a time.
func clockText(t planner.TimeOfDay) string {
	v, _ := sqlTime(t).Value()
	return v.(string)
}
