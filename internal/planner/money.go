package planner

import (
	"cmp"
	"errors"

	"github.com/shopspring/decimal"

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
// is too large (docs/API.md §Money).
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

// NewPart is a payer's or a split's part as a client sent it: an amount in major units of the
// expense's currency, or a number of shares.
type NewPart struct {
	MemberID string
	Amount   money.Decimal
	Shares   int64
}

// NewSplit is how an expense is shared, as a client sent it.
type NewSplit struct {
	Mode    SplitMode
	Members []string  // EQUAL: none for everyone
	Parts   []NewPart // EXACT: amounts; SHARES: shares
	Field   string    // the request's field it came from, which errors name: split or split_among
}

// NewTerms are an expense's currency, rate, payers and split as a client sent them.
type NewTerms struct {
	Currency string           // "": the plan's for a new expense, unchanged for another
	Rate     *decimal.Decimal // nil: not given
	PaidBy   string           // the one payer of all of it
	Payers   []NewPart        // or several payers, with the amounts each paid
	Split    NewSplit         // no mode: equally among everyone
}

// CheckTerms checks the lists of terms as a client sent them, before anything is read: no
// member twice in payers or split, and not paid_by with payers.
func CheckTerms(v *Validation, t NewTerms) {
	v.Check(t.PaidBy == "" || len(t.Payers) == 0, "payers", "give paid_by or payers, not both")
	CheckParts(v, "payers", partsOf(t.Payers))
	CheckSharers(v, t.Split.Field, t.Split.Members)
	CheckParts(v, t.Split.Field, partsOf(t.Split.Parts))
}

func partsOf(in []NewPart) []Part {
	out := make([]Part, len(in))
	for i, p := range in {
		out[i] = Part{MemberID: p.MemberID, Shares: p.Shares}
	}
	return out
}

// PriceTerms turns terms a client sent into an expense's terms, for costs totalling total minor
// units of currency in a plan in plan (rate: units of plan per unit of currency, zero when
// they are the same): payers' and EXACT amounts in minor units of currency that must add up to
// total, SHARES with at least one share (INVALID_REQUEST with field errors, docs/API.md §Money).
func PriceTerms(in NewTerms, total int64, currency string, rate decimal.Decimal) (Terms, error) {
	c := money.Stored(currency)
	var v Validation
	out := Terms{Currency: currency, Rate: rate, PaidBy: in.PaidBy, Split: Split{Mode: cmp.Or(in.Split.Mode, SplitEqual), Members: in.Split.Members}}
	price := func(field string, parts []NewPart) []Part {
		ps := make([]Part, len(parts))
		var sum int64
		for i, p := range parts {
			ps[i] = Part{MemberID: p.MemberID, Amount: MinorUnits(&v, field, true, p.Amount, c)}
			sum += ps[i].Amount
		}
		if !v.Has(field) && sum != total {
			v.Addf(field, "the amounts must add up to the total, %s %s", money.Format(total, c), c.Code())
		}
		return ps
	}
	if len(in.Payers) > 0 {
		out.Payers = price("payers", in.Payers)
	}
	switch out.Split.Mode {
	case SplitExact:
		v.Check(len(in.Split.Members) == 0, "split", "EXACT lists amounts, not members")
		out.Split.Parts = price("split", in.Split.Parts)
	case SplitShares:
		v.Check(len(in.Split.Members) == 0, "split", "SHARES lists shares, not members")
		var shares int64
		out.Split.Parts = make([]Part, len(in.Split.Parts))
		for i, p := range in.Split.Parts {
			out.Split.Parts[i] = Part{MemberID: p.MemberID, Shares: p.Shares}
			shares += p.Shares
		}
		v.Check(shares > 0, "split", "SHARES needs at least one share")
	case SplitEqual:
		v.Check(len(in.Split.Parts) == 0, "split", "EQUAL lists members, not amounts or shares")
	default:
		v.Add("split", "mode must be EQUAL, EXACT or SHARES")
	}
	return out, v.Err()
}

// Named are the member ids the terms name: the payer or payers, and the sharers.
func (t Terms) Named() []string {
	out := PartIDs(t.PayerParts())
	out = append(out, t.Split.Members...)
	return append(out, PartIDs(t.Split.Parts)...)
}

// Fits checks that terms kept from before still fit costs now totalling total: payers' and
// EXACT amounts must add up to it.
func (t Terms) Fits(total int64) error {
	var v Validation
	sum := func(parts []Part) (s int64) {
		for _, p := range parts {
			s += p.Amount
		}
		return s
	}
	c := money.Stored(t.Currency)
	v.Checkf(len(t.Payers) == 0 || sum(t.Payers) == total, "payers", "the amounts must add up to the total, %s %s: send payers with the items", money.Format(total, c), c.Code())
	v.Checkf(t.Split.Mode != SplitExact || sum(t.Split.Parts) == total, "split", "the amounts must add up to the total, %s %s: send split with the items", money.Format(total, c), c.Code())
	return v.Err()
}

// ExpenseRate decides an expense's currency and rate from what a client sent, the plan's
// currency and, for an expense that exists, its terms now (nil for a new one): the currency
// sent, else the expense's, else the plan's; the plan's own needs no rate (1, or none given);
// another takes the rate sent, else keeps the expense's when its currency does not change,
// else EXCHANGE_RATE_REQUIRED (the web layer has asked the rates source before this).
func ExpenseRate(in NewTerms, plan string, now *Terms) (string, decimal.Decimal, error) {
	code := in.Currency
	if code == "" && now != nil {
		code = now.Currency
	}
	switch {
	case code == "" || code == plan:
		if in.Rate != nil && !in.Rate.Equal(decimal.New(1, 0)) {
			var v Validation
			v.Add("exchange_rate", "must be 1, or left out, when the currency is the plan's")
			return "", decimal.Decimal{}, v.Err()
		}
		return plan, decimal.Decimal{}, nil
	case in.Rate != nil:
		return code, *in.Rate, nil
	case now != nil && now.Currency == code && now.Foreign():
		return code, now.Rate, nil
	}
	return "", decimal.Decimal{}, Errorf(CodeExchangeRateRequired, "No exchange rate from %s to %s is known: give exchange_rate, the units of %s per unit of %s.", code, plan, plan, code)
}
