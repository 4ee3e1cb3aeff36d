// Package rates answers exchange rates between currencies (web.RateSource): how many units of
// one currency a unit of another is worth today. ECB reads them from the European Central
// Bank's daily euro foreign exchange reference rates (RATES_URL).
//
// # Arithmetic
//
// The ECB publishes, for each of about thirty currencies, its units per euro as a short decimal
// (KRW 1698.12, USD 1.1603). A rate between two of them goes through the euro: units of to per
// unit of from = (to per euro) / (from per euro). The rates are read as exact decimals
// (shopspring/decimal, never binary floating point). A rate from the euro is the published
// number as it is; any other is a quotient, rounded half up (a 5 goes away from zero) to
// SignificantDigits significant digits: KRW per USD = 1698.12 / 1.1603 = 1463.518055675…,
// which gives 1463.51805568. The rounding moves a rate by less than 5×10^-12 of itself, so a
// converted amount below 10^11 minor units (a billion dollars in cents) differs from one
// converted at the unrounded quotient by less than half a minor unit; the ECB's own numbers
// have five or six significant digits.
//
// A currency to itself is 1, asked of nobody, whatever its code.
//
// # Errors
//
// Every error of Rate means there is no rate to use, and the web layer answers 400
// EXCHANGE_RATE_REQUIRED for it (docs/API.md §Money: the client gives the rate by hand):
//   - ErrUnknown: the ECB lists no rate for one of the currencies (ISO 4217 codes in capitals;
//     "usd" is unknown too);
//   - ErrUnavailable: no recent enough rates could be read (the source fails or answers
//     nonsense, and the last good rates are too old or there are none); the cause is wrapped;
//   - the caller's context ending while it waited for the source.
package rates

import (
	"errors"

	"github.com/shopspring/decimal"
)

// SignificantDigits is how many significant digits a rate computed by division keeps.
const SignificantDigits = 12

var (
	// ErrUnknown: the source lists no rate for the currency.
	ErrUnknown = errors.New("rates: no reference rate for the currency")
	// ErrUnavailable: the source gives no recent rates (and none recent enough are kept).
	ErrUnavailable = errors.New("rates: no recent exchange rates")
)

// quotient is a/b for positive a and b, rounded half up to SignificantDigits significant
// digits.
func quotient(a, b decimal.Decimal) decimal.Decimal {
	// e is the exponent of the quotient's first digit, 10^e <= a/b < 10^(e+1): a/b lies between
	// 10^(ma-mb-1) and 10^(ma-mb+1), so it is ma-mb or one less.
	e := magnitude(a) - magnitude(b)
	if a.Cmp(b.Shift(e)) < 0 {
		e--
	}
	return a.DivRound(b, SignificantDigits-1-e)
}

// magnitude is the exponent of a positive d's first digit, floor(log10(d)).
func magnitude(d decimal.Decimal) int32 {
	return int32(d.NumDigits()) - 1 + d.Exponent()
}
