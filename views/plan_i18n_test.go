package views

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"tripplan/internal/i18n"
)

var (
	koCtx = i18n.With(context.Background(), i18n.For(i18n.Korean))
	enCtx = context.Background()
)

// The plan pages' words built in Go: English as they have always been (24-hour times), Korean
// as Korean apps write them.
func TestPlanWordsInBothLanguages(t *testing.T) {
	start, end := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 3, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ got, want string }{
		{TimeSpan(enCtx, "14:00", "15:30"), "14:00–15:30"},
		{TimeSpan(koCtx, "14:00", "15:30"), "오후 2:00–3:30"},
		{TimeSpan(koCtx, "11:00", "12:30"), "오전 11:00–오후 12:30"},
		{TimeSpan(koCtx, "23:00", "00:00"), "오후 11:00–오전 12:00"},
		{hourLabel(enCtx, 9), "09:00"}, {hourLabel(enCtx, 14), "14:00"},
		{hourLabel(koCtx, 0), "오전 12시"}, {hourLabel(koCtx, 9), "오전 9시"}, {hourLabel(koCtx, 12), "오후 12시"}, {hourLabel(koCtx, 14), "오후 2시"},
		{DayName(enCtx, 2), "Day 2"}, {DayName(koCtx, 2), "2일차"},
		{PlanDates(enCtx, start, end), "Apr 1 – Apr 3, 2026"},
		{PlanDates(koCtx, start, end), "2026년 4월 1일 – 4월 3일"},
		{PlanDates(koCtx, start.AddDate(0, 8, 30), end.AddDate(1, 0, 0)), "2026년 12월 31일 – 2027년 4월 3일"},
		{DayDate(enCtx, start), "Wednesday 1 April"}, {DayDate(koCtx, start), "4월 1일 (수)"},
		{TabDate(enCtx, start), "Wed 1"}, {TabDate(koCtx, start), "4월 1일 (수)"},
		{FreeLabel(enCtx, 45), "45 min free"}, {FreeLabel(enCtx, 120), "2 h free"}, {FreeLabel(enCtx, 90), "1 h 30 min free"},
		{FreeLabel(koCtx, 45), "45분 비어 있음"}, {FreeLabel(koCtx, 90), "1시간 30분 비어 있음"},
		{Duration(koCtx, 120), "2시간"},
		{statusLabel(enCtx, "PENDING"), "Deciding"}, {statusLabel(koCtx, "PENDING"), "결정 중"}, {statusLabel(koCtx, "NOTHING"), "자유 시간"},
		{opinionLabel(koCtx, "NEGATIVE"), "별로예요"}, {opinionLabel(enCtx, "NEGATIVE"), "Negative"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	if got, want := timelineIn(koCtx, day([2]int{14 * 60, 15 * 60})), "gap 09:00–14:00 5시간 비어 있음, block 14:00, gap 15:00–21:00 6시간 비어 있음"; got != want {
		t.Errorf("Korean timeline %q, want %q", got, want)
	}
}

func TestPresenceSentenceInKorean(t *testing.T) {
	ben, minji := MemberView{Nickname: "Ben"}, MemberView{Nickname: "민지"}
	for _, c := range []struct {
		v    PresenceView
		want string
	}{
		{PresenceView{}, ""},
		{PresenceView{Others: []MemberView{minji}}, "민지 님이 함께 보고 있어요"},
		{PresenceView{Others: []MemberView{ben, minji}}, "Ben 님과 민지 님이 함께 보고 있어요"},
		{PresenceView{Guests: 1}, "게스트 1명이 보고 있어요"},
		{PresenceView{Guests: 3}, "게스트 3명이 보고 있어요"},
		{PresenceView{Others: []MemberView{ben, minji}, Guests: 2}, "Ben 님, 민지 님과 게스트 2명이 함께 보고 있어요"},
	} {
		if got := c.v.Sentence(koCtx); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
}

// The day in Korean: its words from the catalogue, its times as Korean clocks read, and the
// times the scripts read (data-start, data-end) still 24-hour.
func TestDayInKorean(t *testing.T) {
	v := day([2]int{14 * 60, 15*60 + 30})
	v.Date = DayDate(koCtx, time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC))
	p := parsed(t, renderIn(t, koCtx, Day(v)))
	p.says("1일차 · 4월 1일 (수)", "일정 1개", "장소 추가", "오후 2:00–3:30", "오전 9시", "후보 1곳", "예정", "5시간 비어 있음")
	p.has(`[data-start="14:00"]`, `[data-end="15:30"]`, `[aria-label="오전 9:00에 추가"]`)
	p.nowhere("Add place", "Time blocks", "h free")
	p.noTextNode("Day ", false)
}

func renderIn(t *testing.T, ctx context.Context, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(ctx, &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	return b.String()
}
