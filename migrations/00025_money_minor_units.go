package migrations

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"

	"tripplan/internal/money"
)

// 00025 (issue 20, docs/API.md §Money): amounts are stored in minor units of their currency
// (cents of USD, won of KRW, fils of KWD) instead of whole major units: the plans' total
// budgets, the expense items' costs (also in the snapshots of deleted blocks), and the amounts
// that activities and notifications keep in their details (in the currency the details name).
// The number of digits per currency is money's (ISO 4217 from x/text), which SQL cannot know:
// this Go migration fills a temporary table with the digits of the currencies present and
// the statements join it. Codes ISO 4217 does not know keep whole units (money.Stored).
//
// Down divides back and refuses (the migration fails, nothing changes) while any amount is
// not a whole number of major units, since the schema before could not hold it.
func init() {
	goose.AddNamedMigrationContext("00025_money_minor_units.go", upMinorUnits, downMinorUnits)
}

// scaleAmounts scales every stored amount by the factor of its currency in currency_digits
// (d.factor): scaled is the new amount, given the old one (a bigint expression).
func scaleAmounts(ctx context.Context, tx *sql.Tx, scaled func(amount string) string) error {
	_, err := tx.ExecContext(ctx, `
		UPDATE budgets b SET total_budget = `+scaled("b.total_budget")+`
		FROM plans p JOIN currency_digits d ON d.code = p.currency
		WHERE p.id = b.plan_id AND b.total_budget IS NOT NULL;

		UPDATE expense_items i SET cost = `+scaled("i.cost")+`
		FROM expenses e JOIN plans p ON p.id = e.plan_id JOIN currency_digits d ON d.code = p.currency
		WHERE e.id = i.expense_id;

		UPDATE activities a SET details = jsonb_set(a.details, '{amount}', to_jsonb(`+scaled("(a.details->>'amount')::bigint")+`))
		FROM currency_digits d WHERE d.code = a.details->>'currency' AND jsonb_typeof(a.details->'amount') = 'number';

		UPDATE notifications n SET details = jsonb_set(n.details, '{amount}', to_jsonb(`+scaled("(n.details->>'amount')::bigint")+`))
		FROM currency_digits d WHERE d.code = n.details->>'currency' AND jsonb_typeof(n.details->'amount') = 'number';

		UPDATE deleted_time_blocks t SET snapshot = jsonb_set(t.snapshot, '{expense_items}', (
		    SELECT COALESCE(jsonb_agg(jsonb_set(x.i, '{cost}', to_jsonb(`+scaled("(x.i->>'cost')::bigint")+`)) ORDER BY x.n), '[]')
		    FROM jsonb_array_elements(t.snapshot->'expense_items') WITH ORDINALITY AS x(i, n)))
		FROM plans p JOIN currency_digits d ON d.code = p.currency
		WHERE p.id = t.plan_id AND jsonb_typeof(t.snapshot->'expense_items') = 'array'`)
	return err
}

// fillCurrencyDigits makes the temporary table currency_digits: each code present in plans
// or in the details of activities and notifications that has minor units, with the factor
// 10^digits between its major and minor units.
func fillCurrencyDigits(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `CREATE TEMPORARY TABLE currency_digits (code text PRIMARY KEY, factor bigint NOT NULL) ON COMMIT DROP`); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `
		SELECT currency FROM plans
		UNION SELECT details->>'currency' FROM activities WHERE details ? 'currency'
		UNION SELECT details->>'currency' FROM notifications WHERE details ? 'currency'`)
	if err != nil {
		return err
	}
	var codes []string
	for rows.Next() {
		var code string
		if err := rows.Scan(&code); err != nil {
			rows.Close()
			return err
		}
		codes = append(codes, code)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, code := range codes {
		c := money.Stored(code)
		if c.Digits() == 0 {
			continue
		}
		factor := int64(1)
		for range c.Digits() {
			factor *= 10
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO currency_digits VALUES ($1, $2)`, code, factor); err != nil {
			return err
		}
	}
	return nil
}

func upMinorUnits(ctx context.Context, tx *sql.Tx) error {
	if err := fillCurrencyDigits(ctx, tx); err != nil {
		return err
	}
	return scaleAmounts(ctx, tx, func(amount string) string { return amount + " * d.factor" })
}

func downMinorUnits(ctx context.Context, tx *sql.Tx) error {
	if err := fillCurrencyDigits(ctx, tx); err != nil {
		return err
	}
	var fractional int
	if err := tx.QueryRowContext(ctx, `
		SELECT (SELECT count(*) FROM budgets b JOIN plans p ON p.id = b.plan_id JOIN currency_digits d ON d.code = p.currency
		        WHERE b.total_budget % d.factor <> 0)
		     + (SELECT count(*) FROM expense_items i JOIN expenses e ON e.id = i.expense_id JOIN plans p ON p.id = e.plan_id
		        JOIN currency_digits d ON d.code = p.currency WHERE i.cost % d.factor <> 0)`).Scan(&fractional); err != nil {
		return err
	}
	if fractional > 0 {
		return fmt.Errorf("00025 down: %d budgets or expense items are not whole units of their currency, which the schema before cannot hold", fractional)
	}
	return scaleAmounts(ctx, tx, func(amount string) string { return "round(" + amount + "::numeric / d.factor)::bigint" })
}
