package i18n

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"
	"golang.org/x/text/message"

	"tripplan/internal/money"
)

var weekdaysKo = [...]string{"일", "월", "화", "수", "목", "금", "토"}

// Date is a day as people write it: "11월 27일 (금)", "Fri 27 Nov".
func (l *Localizer) Date(t time.Time) string {
	if l.lang == Korean {
		return strconv.Itoa(int(t.Month())) + "월 " + strconv.Itoa(t.Day()) + "일 (" + weekdaysKo[t.Weekday()] + ")"
	}
	return t.Format("Mon 2 Jan")
}

// DateYear is Date with the year: "2026년 11월 27일 (금)", "Fri 27 Nov 2026".
func (l *Localizer) DateYear(t time.Time) string {
	if l.lang == Korean {
		return strconv.Itoa(t.Year()) + "년 " + l.Date(t)
	}
	return t.Format("Mon 2 Jan 2006")
}

// Clock is a time of day given as "15:04": "오후 3:04", "3:04 PM"; anything else as given.
func (l *Localizer) Clock(hhmm string) string {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return hhmm
	}
	if l.lang == Korean {
		half := "오전 "
		if t.Hour() >= 12 {
			half = "오후 "
		}
		return half + t.Format("3:04")
	}
	return t.Format("3:04 PM")
}

// Ago is how long before now t was, in words: "방금", "3분 전", "2 hours ago"; after a week
// the date.
func (l *Localizer) Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return l.T("time.just_now")
	case d < time.Hour:
		return l.T("time.minutes_ago", "Count", int(d/time.Minute))
	case d < 24*time.Hour:
		return l.T("time.hours_ago", "Count", int(d/time.Hour))
	case d < 48*time.Hour:
		return l.T("time.yesterday")
	case d < 7*24*time.Hour:
		return l.T("time.days_ago", "Count", int(d/(24*time.Hour)))
	}
	return l.Date(t)
}

// Number is n with the language's digit grouping: "12,500".
func (l *Localizer) Number(n int64) string {
	return message.NewPrinter(l.lang.Tag()).Sprint(n)
}

// Money is an amount of a currency (an ISO 4217 code), given in the currency's minor units
// (cents; won for KRW), as the language writes prices with the currency's decimals:
// "₩12,000", "$12.50", "¥1,200", "€12.00" in English; "12,000원", "US$12.50", "JP¥1,200",
// "€12.00" in Korean. Symbols are CLDR's for the language (golang.org/x/text/currency), which
// in Korean tells the dollars and yens apart; Korean writes its own won after the number, as
// prices in Korea are written (₩ is for foreign readers). A symbol ending in a letter ("THB")
// is kept off the digits by a no-break space, as CLDR does; a code that is not a currency is
// written after the number, in whole units (money.Stored). Both languages write decimals
// after a point, so the digits are grouped whole units, a point and the minor digits.
func (l *Localizer) Money(amount int64, code string) string {
	c := money.Stored(code)
	digits := money.Format(amount, c)
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "−", digits[1:]
	}
	whole, frac, _ := strings.Cut(digits, ".")
	n, _ := strconv.ParseUint(whole, 10, 64)
	digits = message.NewPrinter(l.lang.Tag()).Sprint(n)
	if frac != "" {
		digits += "." + frac
	}
	if _, err := money.Lookup(code); err != nil {
		return sign + digits + " " + code
	}
	unit := currency.MustParseISO(code)
	if l.lang == Korean && unit == currency.KRW {
		return sign + digits + "원"
	}
	symbol := message.NewPrinter(l.lang.Tag()).Sprint(currency.Symbol(unit))
	if r, _ := utf8.DecodeLastRuneInString(symbol); unicode.IsLetter(r) {
		symbol += "\u00a0"
	}
	return sign + symbol + digits
}
