package money

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestConvertByHand(t *testing.T) {
	for _, c := range []struct {
		minor      int64
		rate       string
		from, to   string
		want       int64
		wantInside bool
	}{
		{1250, "1463.51805568", "USD", "KRW", 18294, true}, // 12.50 $ = 18,293.98 → 18,294 ₩
		{3000, "9.05", "JPY", "KRW", 27150, true},          // ¥3,000 at 9.05
		{1000, "0.00685", "KRW", "USD", 685, true},         // ₩1,000 = $6.85
		{1, "0.005", "KRW", "USD", 1, true},                // half a cent rounds up
		{1, "0.00499", "KRW", "USD", 0, true},
		{12345, "0.12345", "JPY", "KWD", 1523990, true}, // 1,523.99025 → 1,523.990 (3 digits)
		{Max, "2", "KRW", "JPY", 0, false},
	} {
		got, ok := Convert(c.minor, decimal.RequireFromString(c.rate), MustLookup(c.from), MustLookup(c.to))
		if got != c.want || ok != c.wantInside {
			t.Errorf("Convert(%d %s at %s to %s) = %d, %v; want %d, %v", c.minor, c.from, c.rate, c.to, got, ok, c.want, c.wantInside)
		}
	}
}

func TestParseRate(t *testing.T) {
	for s, ok := range map[string]bool{
		"1463.51805568": true, "0.000123456789012": true, "1": true, "1e3": false, ".5": false,
		"0": false, "-1": false, "abc": false, "": false, "1000000001": false, "1.234567890123456789012": false,
	} {
		if _, got := ParseRate(s); got != ok {
			t.Errorf("ParseRate(%q) ok = %v, want %v", s, got, ok)
		}
	}
}
