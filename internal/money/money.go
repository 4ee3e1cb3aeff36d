// Package money holds exact amounts of money: ISO 4217 currencies with their minor digits
// (from golang.org/x/text/currency, CLDR's maintained list), amounts as int64 counts of a
// currency's minor unit (cents, or won), and the decimal text in major units ("12.50") that
// the API reads and writes. No binary floating point is used on the way in or out.
package money

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"golang.org/x/text/currency"
)

// Currency is an ISO 4217 currency with the number of decimals of its minor unit.
type Currency struct {
	code   string
	digits int
}

// ErrUnknownCurrency: the code is not an ISO 4217 currency.
var ErrUnknownCurrency = errors.New("money: not an ISO 4217 currency")

// Lookup is the currency of an ISO 4217 code in capitals ("USD"). XXX (no currency) and XTS
// (reserved for tests) are not currencies anyone pays in.
//
// The digits are CLDR's standard rounding, which x/text carries. It agrees with ISO 4217's
// minor units for the currencies the spec names (KRW, JPY 0; USD, EUR 2; KWD 3) but not for
// every code: IDR has 2 in ISO 4217 and 0 in CLDR (as Indonesian prices are written), and
// x/text v0.43's table predates MRU, VES and SLE, which it does not know.
func Lookup(code string) (Currency, error) {
	if len(code) != 3 || strings.ToUpper(code) != code || code == "XXX" || code == "XTS" {
		return Currency{}, ErrUnknownCurrency
	}
	unit, err := currency.ParseISO(code)
	if err != nil {
		return Currency{}, ErrUnknownCurrency
	}
	digits, _ := currency.Standard.Rounding(unit)
	return Currency{code: unit.String(), digits: digits}, nil
}

// MustLookup is Lookup for codes known to be right; it panics on any other.
func MustLookup(code string) Currency {
	c, err := Lookup(code)
	if err != nil {
		panic(err)
	}
	return c
}

// Stored is the currency of a code a plan holds: Lookup's, or, for a code that is not an ISO
// 4217 currency (plans made before currencies were checked took any three capitals), whole
// units, as its amounts were always written.
func Stored(code string) Currency {
	if c, err := Lookup(code); err == nil {
		return c
	}
	return Currency{code: code}
}

// Code is the currency's ISO 4217 code.
func (c Currency) Code() string { return c.code }

// Digits is the number of decimals of the currency's minor unit: 0 for KRW and JPY, 2 for
// USD and EUR, 3 for KWD.
func (c Currency) Digits() int { return c.digits }

// Max is the largest amount, in minor units, that money holds: far from int64's edge, so
// that sums of many amounts never overflow.
const Max = 1_000_000_000_000_000

// Errors of Decimal.
var (
	// ErrSyntax: not a plain decimal number ("12", "-3.5"; no exponent, no spaces).
	ErrSyntax = errors.New("money: not a decimal number")
	// ErrTooPrecise: more decimals than the currency's minor unit has.
	ErrTooPrecise = errors.New("money: more decimals than the currency has")
	// ErrRange: beyond Max minor units.
	ErrRange = errors.New("money: amount too large")
)

// Decimal is an exact decimal number as a client wrote it, in major units of a currency not
// yet known: Coef × 10^−Scale, with no trailing zeros after the point (so "12.50" and
// "12.5" are the same Decimal, and 12.0 fits a currency without decimals).
type Decimal struct {
	coef  int64
	scale int
}

// ParseDecimal reads a plain decimal number: an optional minus sign, digits, and optionally a
// point and more digits ("12", "12.50", "-0.125", ".5" and "5." are refused, as JSON does).
func ParseDecimal(s string) (Decimal, error) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	whole, frac, hasPoint := strings.Cut(s, ".")
	if !digitsOnly(whole) || hasPoint && !digitsOnly(frac) {
		return Decimal{}, ErrSyntax
	}
	frac = strings.TrimRight(frac, "0")
	whole = strings.TrimLeft(whole, "0")
	if len(frac) > 18 { // more than any currency has
		return Decimal{}, ErrTooPrecise
	}
	if len(whole)+len(frac) > 18 { // more than int64 holds exactly
		return Decimal{}, ErrRange
	}
	var coef int64
	if digits := whole + frac; digits != "" {
		var err error
		if coef, err = strconv.ParseInt(digits, 10, 64); err != nil {
			return Decimal{}, ErrRange
		}
	}
	if neg {
		coef = -coef
	}
	return Decimal{coef: coef, scale: len(frac)}, nil
}

func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Sign is −1, 0 or +1.
func (d Decimal) Sign() int {
	switch {
	case d.coef < 0:
		return -1
	case d.coef > 0:
		return 1
	}
	return 0
}

// Minor is the amount in minor units of c: ErrTooPrecise when it has more decimals than c,
// ErrRange beyond ±Max.
func (d Decimal) Minor(c Currency) (int64, error) {
	if d.scale > c.digits {
		return 0, ErrTooPrecise
	}
	m := d.coef
	for range c.digits - d.scale {
		if m > math.MaxInt64/10 || m < math.MinInt64/10 {
			return 0, ErrRange
		}
		m *= 10
	}
	if m > Max || m < -Max {
		return 0, ErrRange
	}
	return m, nil
}

// Format writes an amount of minor units of c in major units with c's decimals: "12.50",
// "1200", "0.125" (KWD), "-3.05".
func Format(minor int64, c Currency) string {
	s := strconv.FormatInt(minor, 10)
	sign := ""
	if minor < 0 {
		sign, s = "-", s[1:]
	}
	if c.digits == 0 {
		return sign + s
	}
	if len(s) <= c.digits {
		s = strings.Repeat("0", c.digits-len(s)+1) + s
	}
	return sign + s[:len(s)-c.digits] + "." + s[len(s)-c.digits:]
}

// Amount is an amount in minor units of a currency, written to JSON as a number in major units
// with the currency's decimals (12.50, not 1250).
type Amount struct {
	Minor    int64
	Currency Currency
}

// MarshalJSON writes the amount as a JSON number: Format's text.
func (a Amount) MarshalJSON() ([]byte, error) { return []byte(Format(a.Minor, a.Currency)), nil }

// UnmarshalJSON reads what MarshalJSON writes: a JSON number whose written decimals are the
// currency's, so Minor counts units of its last decimal (12.50 → 1250). The currency's code is
// not in the number and stays empty.
func (a *Amount) UnmarshalJSON(b []byte) error {
	s := string(b)
	d, err := ParseDecimal(s)
	if err != nil {
		return err
	}
	digits := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		digits = len(frac)
	}
	c := Currency{digits: digits}
	m, err := d.Minor(c)
	if err != nil {
		return err
	}
	*a = Amount{Minor: m, Currency: c}
	return nil
}

// String is Format's text.
func (a Amount) String() string { return Format(a.Minor, a.Currency) }
