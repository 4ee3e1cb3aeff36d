package views

import (
	"context"
	"time"

	"tripplan/internal/i18n"
)

// The words of the pages come from the message catalogues (internal/i18n/locales), in the
// language the request's context carries (web's speak middleware puts it there).

// t is the message id in the page's language, filled with the named values given as pairs:
// t(ctx, "plan.gap_free", "Hours", 3). Korean particles after a value: pass i18n.Word(v) and
// write {{.Name.Eul}} in the Korean message.
func t(ctx context.Context, id string, pairs ...any) string { return i18n.T(ctx, id, pairs...) }

// lang is the page's language code, for <html lang>.
func lang(ctx context.Context) string { return string(i18n.From(ctx).Lang()) }

// date is a day in the page's language: "11월 27일 (금)", "Fri 27 Nov".
func date(ctx context.Context, d time.Time) string { return i18n.From(ctx).Date(d) }

// clock is a "15:04" time of day in the page's language: "오후 3:04", "3:04 PM".
func clock(ctx context.Context, hhmm string) string { return i18n.From(ctx).Clock(hhmm) }

// number is n with the page language's digit grouping.
func number(ctx context.Context, n int64) string { return i18n.From(ctx).Number(n) }

// money is an amount of the currency as the page's language writes prices: "₩12,000", "12,000원".
func money(ctx context.Context, amount int64, currency string) string {
	return i18n.From(ctx).Money(amount, currency)
}
