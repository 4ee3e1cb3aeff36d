package web

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// FuzzLenientInt decodes {"day": X} for any JSON value X, as request bodies carry lenient
// integers (docs/API.md §Conventions: 3 or "3"). The field never fails the body: null leaves it unset, and
// anything else is set, and bad unless it is an integer in range, written as a number or in
// a string (spaces around it allowed) — compared with math/big's reading. An accepted value
// decodes the same from its number and its string form.
func FuzzLenientInt(f *testing.F) {
	for _, s := range []string{
		`1`, `"1"`, `" 7 "`, `-3`, `"+4"`, `0`, `"-0"`, `null`, `"null"`, `""`, `1.0`, `1e3`, `"1e3"`, `true`, `[1]`,
		`{"n":1}`, `9223372036854775807`, `9223372036854775808`, `"-9223372036854775809"`, `"\u0661"`, `"1_000"`, `"0x10"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		var body struct {
			Day lenientInt `json:"day"`
		}
		if !json.Valid([]byte(value)) {
			return // not a JSON value: the body fails as a whole, not the field
		}
		if err := json.Unmarshal([]byte(`{"day":`+value+`}`), &body); err != nil {
			t.Fatalf("{\"day\":%s} fails the body: %v", value, err)
		}
		n := body.Day
		if strings.TrimSpace(value) == "null" {
			if n.Set || n.Bad {
				t.Fatalf("null read as %+v", n)
			}
			return
		}
		text := strings.TrimSpace(value)
		if err := json.Unmarshal([]byte(value), &text); err != nil {
			text = strings.TrimSpace(value) // not a string: the number as written
		}
		want, ok := new(big.Int).SetString(strings.TrimSpace(text), 10)
		ok = ok && want.Cmp(big.NewInt(math.MinInt)) >= 0 && want.Cmp(big.NewInt(math.MaxInt)) <= 0
		if !n.Set || n.Bad == ok || ok && int64(n.Value) != want.Int64() {
			t.Fatalf("%s read as %+v; an integer: %v (%v)", value, n, ok, want)
		}
		if !ok {
			return
		}
		for _, form := range []string{strconv.Itoa(n.Value), strconv.Quote(strconv.Itoa(n.Value))} {
			var again lenientInt
			if err := again.UnmarshalJSON([]byte(form)); err != nil || again != n {
				t.Fatalf("%s read as %+v, but its form %s as %+v, %v", value, n, form, again, err)
			}
		}
	})
}
