package views

import (
	"testing"
	"time"

	"tripplan/internal/planner"
)

// The sentences the HTTP tests do not reach: undecided blocks, neutral opinions, passes, how
// long ago, and notifications written before their facts were kept.
func TestSentences(t *testing.T) {
	ana := &planner.Member{Nickname: "Ana"}
	cases := []struct{ got, want string }{
		{ActivitySentence(planner.Activity{Kind: planner.ActBlockMoved, Actor: ana, Details: planner.Details{
			Places: []string{"Tosokchon", "Gwangjang Market"}, Day: 1, Start: "12:00", FromDay: 2, FromStart: "12:00"}}, "plan"),
			"Ana moved Tosokchon or Gwangjang Market to Day 1, 12:00"},
		{ActivitySentence(planner.Activity{Kind: planner.ActOpinionAdded, Details: planner.Details{Place: "Tosokchon", Opinion: planner.OpinionNeutral}}, "plan"),
			"Someone is unsure about Tosokchon"},
		{TargetName(planner.Activity{Target: planner.Target{Type: planner.TargetTimeBlock}, Details: planner.Details{Places: []string{"A", "B"}}}), "A or B"},
		{NotificationMessage(planner.Notification{EventType: string(planner.ActPreferenceAdded), Count: 1,
			Details: &planner.Details{Actor: "Ben", In: "Seoul", Place: "Tosokchon", Preference: planner.PreferencePass}}),
			"Ben passed on Tosokchon, which you added to Seoul"},
		{NotificationMessage(planner.Notification{EventType: string(planner.ActBlockAdded), Count: 3,
			Details: &planner.Details{Actor: "Ben", In: "Seoul trip", Places: []string{"Tosokchon"}, Day: 2, Start: "12:00"}}),
			"Ben added Tosokchon and 2 more blocks to Day 2 in Seoul trip"},
		{NotificationMessage(planner.Notification{EventType: string(planner.ActBlockAdded), Message: "Ben added a block to Seoul trip (day 2)"}),
			"Ben added a block to Seoul trip (day 2)"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %q, want %q", i, c.got, c.want)
		}
	}
	now := time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)
	for ago, want := range map[time.Duration]string{
		0: "just now", 59 * time.Second: "just now", time.Minute: "1 min ago", 59 * time.Minute: "59 min ago",
		time.Hour: "1 h ago", 23 * time.Hour: "23 h ago", 30 * time.Hour: "yesterday", 3 * 24 * time.Hour: "3 days ago",
		20 * 24 * time.Hour: "5 Nov", 400 * 24 * time.Hour: "21 Oct 2025",
	} {
		if got := RelativeTime(now.Add(-ago), now); got != want {
			t.Errorf("%v ago: %q, want %q", ago, got, want)
		}
	}
}
