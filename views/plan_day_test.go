package views

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// day is a day with blocks at [start, end) minutes.
func day(spans ...[2]int) DayView {
	v := DayView{PlanID: "p1", Day: 1, Tabs: []DayTab{{Day: 1, Current: true}}}
	for i, s := range spans {
		v.Blocks = append(v.Blocks, BlockView{ID: fmt.Sprintf("b%d", i), Title: fmt.Sprintf("Place %d", i), Start: clockLabel(s[0]), End: clockLabel(s[1]), StartMin: s[0], EndMin: s[1], Status: "DIRECT", CandidateCount: 1})
	}
	return v
}

// timeline writes a day's timeline as "gap 09:00–14:00 5 h free, block 14:00, …".
func timeline(v DayView) string {
	return timelineIn(context.Background(), v)
}

func timelineIn(ctx context.Context, v DayView) string {
	var parts []string
	for _, it := range v.Timeline(ctx) {
		if it.Block != nil {
			parts = append(parts, "block "+it.Block.Start)
		} else {
			parts = append(parts, "gap "+clockLabel(it.Gap.StartMin)+"–"+clockLabel(it.Gap.EndMin)+" "+it.Gap.Label)
		}
	}
	return strings.Join(parts, ", ")
}

func TestDayTimelineShowsTheGapsBetweenBlocks(t *testing.T) {
	for _, c := range []struct {
		name string
		day  DayView
		want string
	}{
		{"empty day", day(), "gap 09:00–21:00 12 h free"},
		{"one block", day([2]int{14 * 60, 15 * 60}), "gap 09:00–14:00 5 h free, block 14:00, gap 15:00–21:00 6 h free"},
		{"back to back, a short gap skipped", day([2]int{9 * 60, 10 * 60}, [2]int{10 * 60, 11*60 + 50}, [2]int{12 * 60, 13*60 + 30}),
			"block 09:00, block 10:00, block 12:00, gap 13:30–21:00 7 h 30 min free"},
		{"a 15-minute gap shows", day([2]int{9 * 60, 10 * 60}, [2]int{10*60 + 15, 11 * 60}),
			"block 09:00, gap 10:00–10:15 15 min free, block 10:15, gap 11:00–21:00 10 h free"},
		{"early and late blocks widen the day", day([2]int{6 * 60, 7 * 60}, [2]int{22 * 60, 23*60 + 30}),
			"block 06:00, gap 07:00–22:00 15 h free, block 22:00"},
	} {
		if got := timeline(c.day); got != c.want {
			t.Errorf("%s: timeline %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFirstFreeHour(t *testing.T) {
	full := make([][2]int, 0, 24)
	for h := 0; h < 24; h++ {
		full = append(full, [2]int{h * 60, h*60 + 60})
	}
	for _, c := range []struct {
		name string
		day  DayView
		want string
	}{
		{"empty day", day(), "09:00"},
		{"morning taken", day([2]int{9 * 60, 10 * 60}, [2]int{10 * 60, 12*60 + 15}), "13:00"},
		{"a half hour free is not an hour", day([2]int{9 * 60, 9*60 + 30}), "10:00"},
		{"only the night is free", day([2]int{8 * 60, 24*60 - 1}), "00:00"},
		{"a quarter hour left", day(append(full[:23:23], [2]int{23 * 60, 23*60 + 30})...), "23:30"},
	} {
		if got := clockLabel(c.day.FirstFreeHour()); got != c.want {
			t.Errorf("%s: first free hour %s, want %s", c.name, got, c.want)
		}
	}
}

// TestShortBlocksAreOneLine: a block under 45 minutes is one line (time and name) with its
// actions in a "⋯" menu; longer ones are the full card.
func TestShortBlocksAreOneLine(t *testing.T) {
	v := day([2]int{9 * 60, 9*60 + 15}, [2]int{10 * 60, 10*60 + 44}, [2]int{11 * 60, 11*60 + 45})
	p := parsed(t, render(t, Day(v)))
	for _, c := range []struct {
		id      string
		compact bool
	}{{"b0", true}, {"b1", true}, {"b2", false}} {
		card := p.doc.Find(`li[data-time-block-id="` + c.id + `"]`)
		if card.Length() != 1 {
			t.Fatalf("block %s: %d cards", c.id, card.Length())
		}
		in := func(sel string) bool { return card.Is(sel) || card.Find(sel).Length() > 0 }
		if got := in("[data-compact]"); got != c.compact {
			t.Errorf("block %s: one line %v, want %v", c.id, got, c.compact)
		}
		if got := in("[data-block-menu]"); got != c.compact {
			t.Errorf("block %s: ⋯ menu %v, want %v", c.id, got, c.compact)
		}
	}
	p.has(`[aria-label="Actions for Place 0, 09:00–09:15"]`, `[data-first-free="720"]`, `[data-add-here="720"]`, `[data-gap="555"]`, `[data-gap="644"]`)
	v.ReadOnly = true
	readOnly := parsed(t, render(t, Day(v)))
	readOnly.lacks("[data-add-here]", "[data-gap]")
	readOnly.noTextNode("Edit", true)
}
