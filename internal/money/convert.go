package money

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Convert is an amount in minor units of from, at rate (units of to per unit of from), in
// minor units of to: minor × rate × 10^(to's digits − from's digits), rounded half up (a half
// goes away from zero) to a whole minor unit of to (docs/API.md §Money), computed exactly; false
// when the result is beyond ±Max.
func Convert(minor int64, rate decimal.Decimal, from, to Currency) (int64, bool) {
	v := decimal.New(minor, 0).Mul(rate).Shift(int32(to.digits - from.digits)).Round(0)
	if v.GreaterThan(decimal.New(Max, 0)) || v.LessThan(decimal.New(-Max, 0)) {
		return 0, false
	}
	return v.IntPart(), true
}

// ParseRate reads an exchange rate as a client wrote it: a positive decimal of at most
// RateDigitsMax significant digits, at most RateMax, written as ParseDecimal reads numbers.
func ParseRate(s string) (decimal.Decimal, bool) {
	whole, frac, hasPoint := strings.Cut(s, ".")
	if !digitsOnly(whole) || hasPoint && !digitsOnly(frac) {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsPositive() || d.GreaterThan(decimal.New(RateMax, 0)) || len(d.Coefficient().String()) > RateDigitsMax ||
		d.Exponent() < -2*RateDigitsMax {
		return decimal.Decimal{}, false
	}
	return d, true
}

// The bounds of an exchange rate: the ECB's cross rates have 12 significant digits, and no
// currency is worth a billion of another.
const (
	RateDigitsMax = 20
	RateMax       = 1_000_000_000
)
