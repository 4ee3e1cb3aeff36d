package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/money"
	"tripplan/internal/planner"

	"github.com/shopspring/decimal"
)

// This file reads the request fields several bodies share.

// lenientInt is an integer field that also accepts a JSON string holding an integer ("3"), as
// existing clients send (docs/API.md §Conventions), and form values. A value that is neither is remembered as
// bad rather than failing the whole body, so validation names the field.
type lenientInt struct {
	Value int
	Set   bool // the field was present and not null
	Bad   bool // present but not an integer
}

// UnmarshalJSON reads 3 or "3"; null leaves the field unset.
func (n *lenientInt) UnmarshalJSON(b []byte) error {
	*n = lenientInt{}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			n.Set, n.Bad = true, true
			return nil
		}
	}
	return n.UnmarshalParam(s)
}

// UnmarshalParam reads a form or query value.
func (n *lenientInt) UnmarshalParam(s string) error {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	*n = lenientInt{Value: v, Set: true, Bad: err != nil}
	return nil
}

// read records the field as bad when it is required but absent or not an integer, and
// returns its value.
func (n lenientInt) read(v *planner.Validation, field string, required bool) int {
	switch {
	case !n.Set && required:
		v.Add(field, "is required")
	case n.Bad:
		v.Add(field, "must be an integer")
	}
	return n.Value
}

// readDay reads a day of the plan: as read, and recorded as bad when given but not a day a
// plan can have (planner.CheckDay).
func (n lenientInt) readDay(v *planner.Validation, field string, required bool) int {
	day := n.read(v, field, required)
	if n.Set && !n.Bad {
		planner.CheckDay(v, field, day)
	}
	return day
}

// pathDay reads the path's {day}, a day of the plan; anything else, a number or not, is a bad
// field "day".
func pathDay(c echo.Context, v *planner.Validation) int {
	day, err := strconv.Atoi(c.Param("day"))
	if err != nil {
		day = 0 // no day
	}
	planner.CheckDay(v, "day", day)
	return day
}

// amountField is an amount of money in major units of a currency the store knows: a JSON
// number, a JSON string holding one ("12.50", as lenient clients send) or a form value, read
// exactly (money.ParseDecimal, never through float64). A value that is neither is remembered
// as bad rather than failing the whole body, so validation names the field.
type amountField struct {
	Value money.Decimal
	Set   bool  // the field was present and not null
	Err   error // present but not a decimal number (money's ErrSyntax, ErrRange, ErrTooPrecise)
}

// UnmarshalJSON reads 12.50 or "12.50"; null leaves the field unset.
func (a *amountField) UnmarshalJSON(b []byte) error {
	*a = amountField{}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			*a = amountField{Set: true, Err: money.ErrSyntax}
			return nil
		}
	}
	return a.UnmarshalParam(s)
}

// UnmarshalParam reads a form value.
func (a *amountField) UnmarshalParam(s string) error {
	d, err := money.ParseDecimal(strings.TrimSpace(s))
	*a = amountField{Value: d, Set: true, Err: err}
	return nil
}

// read records the field as bad when it is required but absent, not a decimal number, or
// negative, and returns its value; each says the field is a list, whose reasons speak of each
// cost. Its decimals are checked against the currency by planner.MinorUnits.
func (a amountField) read(v *planner.Validation, field string, required, each bool) money.Decimal {
	switch {
	case !a.Set && required:
		v.Add(field, "is required")
	case errors.Is(a.Err, money.ErrRange) && each:
		v.Add(field, "each cost is too large")
	case errors.Is(a.Err, money.ErrRange):
		v.Add(field, "is too large")
	case (a.Err != nil || a.Value.Sign() < 0) && each:
		v.Add(field, "each cost must be an amount from 0, such as 12.50")
	case a.Err != nil || a.Value.Sign() < 0:
		v.Add(field, "must be an amount from 0, such as 12.50")
	}
	return a.Value
}

// timeField reads a required time of day (HH:MM:SS.sssZ, HH:MM:SS or HH:MM) into v's errors.
func timeField(v *planner.Validation, field string, s *string) planner.TimeOfDay {
	if s == nil || strings.TrimSpace(*s) == "" {
		v.Add(field, "is required")
		return 0
	}
	t, err := planner.ParseTimeOfDay(strings.TrimSpace(*s))
	if err != nil {
		v.Add(field, "must be a time of day as HH:MM:SS.sssZ, HH:MM:SS or HH:MM")
	}
	return t
}

// deref is the string s points to, or "".
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// validWebURL reports whether s is an absolute http(s) URL of at most max characters.
func validWebURL(s string, max int) bool {
	if len(s) > max {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// rateField is an exchange rate: a JSON number, a JSON string holding one, or a form value,
// read exactly (money.ParseRate). Like amountField, a bad value is remembered, not fatal.
type rateField struct {
	Value decimal.Decimal
	Set   bool
	Bad   bool
}

// UnmarshalJSON reads 9.05 or "9.05"; null leaves the field unset.
func (r *rateField) UnmarshalJSON(b []byte) error {
	*r = rateField{}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' && json.Unmarshal(b, &s) != nil {
		*r = rateField{Set: true, Bad: true}
		return nil
	}
	return r.UnmarshalParam(s)
}

// UnmarshalParam reads a form value.
func (r *rateField) UnmarshalParam(s string) error {
	d, ok := money.ParseRate(strings.TrimSpace(s))
	*r = rateField{Value: d, Set: true, Bad: !ok}
	return nil
}

// read records the field as bad when it is not a rate, and returns it (nil when not given).
func (r rateField) read(v *planner.Validation, field string) *decimal.Decimal {
	if !r.Set {
		return nil
	}
	v.Check(!r.Bad, field, "must be a positive number such as 9.05")
	return &r.Value
}
