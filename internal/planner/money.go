package planner

import (
	"errors"

	"tripplan/internal/money"
)

// NewItem is a line of an expense as a client sent it: its cost is a decimal in major units of
// the plan's currency, which the store knows (PriceItems).
type NewItem struct {
	ID   string
	Name string
	Cost money.Decimal
}

// PriceItems turns the lines a client sent into lines with costs in minor units of the plan's
// currency (code): INVALID_REQUEST on items when a cost has more decimals than the currency or
// is too large (API-additions §5).
func PriceItems(items []NewItem, code string) ([]ExpenseItem, error) {
	c := money.Stored(code)
	var v Validation
	out := make([]ExpenseItem, len(items))
	for i, it := range items {
		out[i] = ExpenseItem{ID: it.ID, Name: it.Name, Cost: MinorUnits(&v, "items", true, it.Cost, c)}
	}
	return out, v.Err()
}

// MinorUnits is d in minor units of c, or records field as bad when d has more decimals than c
// or is beyond money.Max; each says the field is a list, whose reasons speak of each cost.
func MinorUnits(v *Validation, field string, each bool, d money.Decimal, c money.Currency) int64 {
	m, err := d.Minor(c)
	switch {
	case errors.Is(err, money.ErrTooPrecise) && c.Digits() == 0 && each:
		v.Addf(field, "each cost must be a whole amount in %s", c.Code())
	case errors.Is(err, money.ErrTooPrecise) && c.Digits() == 0:
		v.Addf(field, "must be a whole amount in %s", c.Code())
	case errors.Is(err, money.ErrTooPrecise) && each:
		v.Addf(field, "each cost may have at most %d decimals in %s", c.Digits(), c.Code())
	case errors.Is(err, money.ErrTooPrecise):
		v.Addf(field, "may have at most %d decimals in %s", c.Digits(), c.Code())
	case err != nil && each:
		v.Add(field, "each cost is too large")
	case err != nil:
		v.Add(field, "is too large")
	}
	return m
}
