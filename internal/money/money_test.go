package money

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestDigitsFollowISO4217: the minor digits x/text (CLDR) gives agree with ISO 4217 for the
// currencies the spec names and a few more.
func TestDigitsFollowISO4217(t *testing.T) {
	for code, want := range map[string]int{"KRW": 0, "JPY": 0, "USD": 2, "EUR": 2, "KWD": 3, "BHD": 3, "GBP": 2, "VND": 0, "CLP": 0} {
		c, err := Lookup(code)
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if c.Digits() != want || c.Code() != code {
			t.Errorf("%s: %s with %d digits, want %d", code, c.Code(), c.Digits(), want)
		}
	}
}

func TestLookupRefusesWhatIsNotACurrency(t *testing.T) {
	for _, code := range []string{"", "KR", "KRWW", "krw", "Usd", "ZZZ", "XXX", "XTS", "12A", " KRW"} {
		if c, err := Lookup(code); !errors.Is(err, ErrUnknownCurrency) {
			t.Errorf("Lookup(%q) = %v, %v; want ErrUnknownCurrency", code, c, err)
		}
	}
}

func TestStoredCodesOutsideISO4217AreWholeUnits(t *testing.T) {
	if c := Stored("ZZZ"); c.Code() != "ZZZ" || c.Digits() != 0 {
		t.Errorf("Stored(ZZZ) = %s with %d digits, want ZZZ with 0", c.Code(), c.Digits())
	}
	if c := Stored("USD"); c != MustLookup("USD") {
		t.Errorf("Stored(USD) = %v, want %v", c, MustLookup("USD"))
	}
}

func TestParseDecimalIntoMinorUnits(t *testing.T) {
	usd, krw, kwd := MustLookup("USD"), MustLookup("KRW"), MustLookup("KWD")
	for _, tc := range []struct {
		in   string
		c    Currency
		want int64
		err  error
	}{
		{"12.50", usd, 1250, nil},
		{"12.5", usd, 1250, nil},
		{"12", usd, 1200, nil},
		{"0.01", usd, 1, nil},
		{"0", usd, 0, nil},
		{"-3.05", usd, -305, nil},
		{"12.345", usd, 0, ErrTooPrecise},
		{"12.340", usd, 1234, nil}, // trailing zeros add no precision
		{"1200", krw, 1200, nil},
		{"1200.0", krw, 1200, nil},
		{"1200.5", krw, 0, ErrTooPrecise},
		{"0.125", kwd, 125, nil},
		{"0.1255", kwd, 0, ErrTooPrecise},
		{"1000000000000000", krw, Max, nil},
		{"1000000000000001", krw, 0, ErrRange},
		{"10000000000000.01", usd, 0, ErrRange},
		{"-1000000000000001", krw, 0, ErrRange},
		{"99999999999999999", usd, 0, ErrRange},   // fits int64, not in cents
		{"9999999999999999999", krw, 0, ErrRange}, // beyond int64
		{"0.0000000000000000000001", usd, 0, ErrTooPrecise},
		{"000012", krw, 12, nil},
	} {
		d, err := ParseDecimal(tc.in)
		var got int64
		if err == nil {
			got, err = d.Minor(tc.c)
		}
		if !errors.Is(err, tc.err) || err == nil && got != tc.want {
			t.Errorf("%q in %s = %d, %v; want %d, %v", tc.in, tc.c.Code(), got, err, tc.want, tc.err)
		}
	}
}

func TestParseDecimalRefusesWhatIsNotAPlainNumber(t *testing.T) {
	for _, in := range []string{"", "-", "+1", "1e3", "1E-2", "12.", ".5", "1,000", " 1", "1 ", "NaN", "Inf", "-Inf", "0x10", "1.2.3", "--1", "١٢"} {
		if d, err := ParseDecimal(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseDecimal(%q) = %v, %v; want ErrSyntax", in, d, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		minor int64
		code  string
		want  string
	}{
		{1250, "USD", "12.50"}, {1, "USD", "0.01"}, {0, "USD", "0.00"}, {-305, "USD", "-3.05"}, {-5, "EUR", "-0.05"},
		{1200, "KRW", "1200"}, {1200, "JPY", "1200"}, {-7, "KRW", "-7"},
		{125, "KWD", "0.125"}, {1000, "KWD", "1.000"},
		{math.MinInt64, "USD", "-92233720368547758.08"},
	} {
		if got := Format(tc.minor, MustLookup(tc.code)); got != tc.want {
			t.Errorf("Format(%d, %s) = %q, want %q", tc.minor, tc.code, got, tc.want)
		}
	}
	b, err := json.Marshal(map[string]Amount{"cost": {1250, MustLookup("USD")}})
	if err != nil || string(b) != `{"cost":12.50}` {
		t.Errorf("JSON = %s, %v; want {\"cost\":12.50}", b, err)
	}
	var back map[string]Amount
	if err := json.Unmarshal(b, &back); err != nil || back["cost"].Minor != 1250 || back["cost"].Currency.Digits() != 2 {
		t.Errorf("read back %s: %+v, %v", b, back, err)
	}
	if err := json.Unmarshal([]byte(`{"cost": 1e3}`), &back); err == nil {
		t.Error("an exponent was read as an amount")
	}
}

// FuzzRoundTrip: any amount within Max written in major units reads back as itself, in every
// number of digits, and the written text has exactly the currency's decimals.
func FuzzRoundTrip(f *testing.F) {
	for _, m := range []int64{0, 1, -1, 1250, -305, Max, -Max, 999, 100} {
		f.Add(m)
	}
	currencies := []Currency{MustLookup("KRW"), MustLookup("USD"), MustLookup("KWD")}
	f.Fuzz(func(t *testing.T, minor int64) {
		minor %= Max + 1
		for _, c := range currencies {
			s := Format(minor, c)
			_, frac, _ := strings.Cut(s, ".")
			if len(frac) != c.Digits() {
				t.Fatalf("Format(%d, %s) = %q: %d decimals", minor, c.Code(), s, len(frac))
			}
			d, err := ParseDecimal(s)
			if err != nil {
				t.Fatalf("ParseDecimal(%q): %v", s, err)
			}
			back, err := d.Minor(c)
			if err != nil || back != minor {
				t.Fatalf("%d in %s → %q → %d, %v", minor, c.Code(), s, back, err)
			}
			if !json.Valid([]byte(s)) {
				t.Fatalf("%q is not a JSON number", s)
			}
		}
	})
}

// FuzzParse: whatever text parses, formats back to the same value; nothing panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"12.50", "-0.125", "1e3", "007", "1.", "99999999999999999999"} {
		f.Add(s)
	}
	kwd := MustLookup("KWD")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDecimal(s)
		if err != nil {
			return
		}
		m, err := d.Minor(kwd)
		if err != nil {
			return
		}
		again, err := ParseDecimal(Format(m, kwd))
		if err != nil || again != d {
			t.Fatalf("%q → %d → %q → %v, %v", s, m, Format(m, kwd), again, err)
		}
	})
}
