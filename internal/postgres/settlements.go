package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/money"
	"tripplan/internal/planner"
)

// Recorded payments between members (settling up for real, docs/API.md §Money): a member records
// that one member paid another; settling up counts it as sent by the one and received by the
// other (planner.Settle).

// settlementRow is a recorded payment as scanned, with its members.
type settlementRow struct {
	ID        string    `db:"id"`
	Amount    int64     `db:"amount"`
	Currency  string    `db:"currency"`
	CreatedAt time.Time `db:"created_at"`
	FromID    string    `db:"from_id"`
	FromName  string    `db:"from_nickname"`
	FromPic   string    `db:"from_picture"`
	ToID      string    `db:"to_id"`
	ToName    string    `db:"to_nickname"`
	ToPic     string    `db:"to_picture"`
	ByID      string    `db:"by_id"`
	ByName    string    `db:"by_nickname"`
	ByPic     string    `db:"by_picture"`
}

func (r settlementRow) settlement() planner.Settlement {
	return planner.Settlement{ID: r.ID, Amount: r.Amount, Currency: r.Currency, CreatedAt: r.CreatedAt,
		From:      planner.Member{ID: r.FromID, Nickname: r.FromName, Picture: r.FromPic},
		To:        planner.Member{ID: r.ToID, Nickname: r.ToName, Picture: r.ToPic},
		CreatedBy: planner.Member{ID: r.ByID, Nickname: r.ByName, Picture: r.ByPic}}
}

// settlementColumns and settlementJoins read recorded payments (s) with their members and the
// plan's currency.
const (
	settlementColumns = `s.id, s.amount, p.currency, s.created_at,
	       f.id AS from_id, f.nickname AS from_nickname, f.picture AS from_picture,
	       t.id AS to_id, t.nickname AS to_nickname, t.picture AS to_picture,
	       b.id AS by_id, b.nickname AS by_nickname, b.picture AS by_picture`
	settlementJoins = `
	JOIN plans p ON p.id = s.plan_id
	JOIN plan_members f ON f.id = s.from_member
	JOIN plan_members t ON t.id = s.to_member
	JOIN plan_members b ON b.id = s.created_by`
)

// RecordSettlement records that the member from paid the member to the amount (a decimal in
// major units of the plan's currency), for the plan's members: INVALID_REQUEST when from and
// to are the same member, or the amount is not above 0 or has more decimals than the currency;
// MEMBER_NOT_FOUND unless both are members of the plan — who may have left since.
func (db *DB) RecordSettlement(ctx context.Context, userID, planID, from, to string, amount money.Decimal) (*planner.Settlement, error) {
	var out *planner.Settlement
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		var v planner.Validation
		v.Check(from != to, "to_plan_member_id", "must be another member than from_plan_member_id")
		var minor int64
		if amount.Sign() <= 0 {
			v.Add("amount", "must be an amount above 0, such as 12.50")
		} else {
			minor = planner.MinorUnits(&v, "amount", false, amount, money.Stored(me.Currency))
		}
		if err := v.Err(); err != nil {
			return err
		}
		var known int
		if planner.ValidID(from) && planner.ValidID(to) {
			if err := tx.GetContext(ctx, &known, `
				SELECT count(*) FROM plan_members WHERE plan_id = $1 AND id = ANY($2)`, planID, pq.Array([]string{from, to})); err != nil {
				return err
			}
		}
		if known != 2 {
			return planner.Errorf(planner.CodeMemberNotFound, "No such member of this plan.")
		}
		id := planner.NewID()
		var r settlementRow
		if err := tx.GetContext(ctx, &r, `
			WITH s AS (
			    INSERT INTO settlements (id, plan_id, from_member, to_member, amount, created_by)
			    VALUES ($2, $1, $3, $4, $5, $6) RETURNING *)
			SELECT `+settlementColumns+` FROM s`+settlementJoins, planID, id, from, to, minor, me.ID); err != nil {
			return err
		}
		s := r.settlement()
		out = &s
		return db.record(ctx, tx, planDid(planID, userID, planner.ActSettlementRecorded, planner.TargetSettlement, id, settlementFacts(s)))
	})
	return out, err
}

// Settlements lists a page of the plan's recorded payments, newest first, for its members and
// guests.
func (db *DB) Settlements(ctx context.Context, userID, planID string, page planner.Page) (out []planner.Settlement, hasNext bool, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planReader(ctx, tx, planID, userID); err != nil {
			return err
		}
		out, hasNext, err = settlementsPage(ctx, tx, planID, page)
		return err
	})
	return out, hasNext, err
}

// settlementsPage reads a page of the plan's recorded payments, newest first, in one query
// (settlements_plan).
func settlementsPage(ctx context.Context, q sqlx.QueryerContext, planID string, page planner.Page) ([]planner.Settlement, bool, error) {
	var rows []settlementRow
	if err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT `+settlementColumns+` FROM settlements s`+settlementJoins+`
		WHERE s.plan_id = $1
		ORDER BY s.created_at DESC, s.id DESC
		LIMIT $2 OFFSET $3`, planID, page.Size+1, page.Offset()); err != nil {
		return nil, false, err
	}
	hasNext := len(rows) > page.Size
	if hasNext {
		rows = rows[:page.Size]
	}
	out := make([]planner.Settlement, len(rows))
	for i, r := range rows {
		out[i] = r.settlement()
	}
	return out, hasNext, nil
}

// DeleteSettlement deletes a recorded payment of the plan, for its members:
// SETTLEMENT_NOT_FOUND when the plan has none by that id (or another request deleted it first).
func (db *DB) DeleteSettlement(ctx context.Context, userID, planID, settlementID string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planMember(ctx, tx, planID, userID); err != nil {
			return err
		}
		var r settlementRow
		err := sql.ErrNoRows
		if planner.ValidID(settlementID) {
			err = tx.GetContext(ctx, &r, `
				WITH s AS (DELETE FROM settlements WHERE id = $2 AND plan_id = $1 RETURNING *)
				SELECT `+settlementColumns+` FROM s`+settlementJoins, planID, settlementID)
		}
		if errors.Is(err, sql.ErrNoRows) {
			return planner.Errorf(planner.CodeSettlementNotFound, "No such recorded payment in this plan.")
		}
		if err != nil {
			return err
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActSettlementDeleted, planner.TargetSettlement, settlementID, settlementFacts(r.settlement())))
	})
}

// settlementFacts name a recorded payment in the plan's history: who paid whom how much.
func settlementFacts(s planner.Settlement) planner.Details {
	amount := s.Amount
	return planner.Details{Payer: s.From.Nickname, Payee: s.To.Nickname, Amount: &amount, Currency: s.Currency}
}

// recordedPayments are the plan's recorded payments as settling up counts them: their sums
// from one member to another, in one query (at most one row per pair of members).
func recordedPayments(ctx context.Context, q sqlx.QueryerContext, planID string) ([]planner.Transfer, error) {
	var out []planner.Transfer
	err := sqlx.SelectContext(ctx, q, &out, `
		SELECT from_member AS "from", to_member AS "to", sum(amount)::bigint AS amount
		FROM settlements WHERE plan_id = $1
		GROUP BY from_member, to_member ORDER BY from_member, to_member`, planID)
	return out, err
}
