package gapfill

import (
	"context"
	"reflect"
	"testing"

	"tripplan/internal/planner"
	"tripplan/internal/route"
)

func at(hm string) planner.TimeOfDay {
	t, err := planner.ParseTimeOfDay(hm)
	if err != nil {
		panic(err)
	}
	return t
}

// place is a PLACE block with one candidate (confirmed); free a FREE block; pending a PLACE
// block with two candidates, none selected.
func place(id, from, to string) planner.TimeBlock {
	return planner.TimeBlock{ID: id, Type: planner.BlockPlace, Start: at(from), End: at(to),
		Candidates: []planner.Candidate{{ID: id + "c", Place: &planner.Place{ID: id + "p"}}}}
}

func free(id, from, to string) planner.TimeBlock {
	return planner.TimeBlock{ID: id, Type: planner.BlockFree, Start: at(from), End: at(to), Candidates: []planner.Candidate{{ID: id + "c"}}}
}

func pending(id, from, to string) planner.TimeBlock {
	b := place(id, from, to)
	b.Candidates = append(b.Candidates, planner.Candidate{ID: id + "d", Place: &planner.Place{ID: id + "q"}})
	return b
}

// span is a gap as the test writes it: "10:00-11:00 a>b", the ids of the stops around it
// ("-" for none).
type span struct{ from, to, prev, next string }

func TestFind(t *testing.T) {
	tests := []struct {
		name   string
		blocks []planner.TimeBlock
		want   []span
	}{
		{"an empty day is one gap over the usual hours", nil, []span{{"09:00", "21:00", "-", "-"}}},
		{"exactly an hour counts, 59 minutes do not",
			[]planner.TimeBlock{place("a", "09:00", "10:00"), place("b", "11:00", "12:00"), place("c", "12:59", "20:00"), place("d", "20:00", "21:00")},
			[]span{{"10:00", "11:00", "a", "b"}}},
		{"back to back leaves no gap; the day's ends are gaps",
			[]planner.TimeBlock{place("a", "11:00", "12:00"), place("b", "12:00", "13:00")},
			[]span{{"09:00", "11:00", "-", "a"}, {"13:00", "21:00", "b", "-"}}},
		{"overlapping blocks: the gap starts after the later end",
			[]planner.TimeBlock{place("a", "09:00", "13:00"), place("b", "10:00", "11:00"), place("c", "15:00", "21:00")},
			[]span{{"13:00", "15:00", "b", "c"}}},
		{"blocks outside the usual hours widen the day, without a gap before them",
			[]planner.TimeBlock{place("a", "07:00", "08:00"), place("b", "22:00", "23:00")},
			[]span{{"08:00", "22:00", "a", "b"}}},
		{"free time is no gap, and no stop either",
			[]planner.TimeBlock{place("a", "09:00", "10:00"), free("f", "10:00", "13:00"), place("b", "14:00", "21:00")},
			[]span{{"13:00", "14:00", "a", "b"}}},
		{"undecided blocks are passed over for the stops",
			[]planner.TimeBlock{place("a", "09:00", "10:00"), pending("p", "10:00", "11:00"), pending("q", "13:00", "14:00"), place("b", "14:00", "21:00")},
			[]span{{"11:00", "13:00", "a", "b"}}},
		{"a gap at the day's end has no next stop",
			[]planner.TimeBlock{place("a", "09:00", "19:00"), pending("p", "19:00", "19:30")},
			[]span{{"19:30", "21:00", "a", "-"}}},
	}
	id := func(b *planner.TimeBlock) string {
		if b == nil {
			return "-"
		}
		return b.ID
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []span{}
			for _, g := range Find(tt.blocks) {
				got = append(got, span{g.Start.String()[:5], g.End.String()[:5], id(g.Prev), id(g.Next)})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Find = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBlockEnd(t *testing.T) {
	if got := (Gap{Start: at("10:00"), End: at("14:00")}).BlockEnd(); got != at("11:00") {
		t.Errorf("a long gap's block ends an hour on, got %v", got)
	}
	if got := (Gap{Start: at("10:00"), End: at("10:45")}).BlockEnd(); got != at("10:45") {
		t.Errorf("a shorter gap's block fills it, got %v", got)
	}
}

func TestRank(t *testing.T) {
	ctx := context.Background()
	// Along a street in Seoul: west, the stops at 126.97 and 126.99, and east of them.
	pt := func(lon float64) *route.Point { return &route.Point{Lat: 37.57, Lon: lon} }
	prev, next := pt(126.97), pt(126.99)
	between, beyond, farBeyond, west := pt(126.98), pt(127.00), pt(127.03), pt(126.965)
	places := []*route.Point{farBeyond, nil, beyond, between, west}
	indices := func(rs []Ranked) []int {
		out := []int{}
		for _, r := range rs {
			out = append(out, r.Index)
		}
		return out
	}
	tests := []struct {
		name       string
		prev, next *route.Point
		n          int
		want       []int
		measured   bool
	}{
		{"between two stops: least added travel first; no coordinates, never", prev, next, 10, []int{3, 4, 2, 0}, true},
		{"capped at n", prev, next, 2, []int{3, 4}, true},
		{"only a previous stop: nearest to it first", prev, nil, 10, []int{4, 3, 2, 0}, true},
		{"only a next stop: nearest to it first", nil, next, 10, []int{2, 3, 4, 0}, true},
		{"no stops: the places' order", nil, nil, 10, []int{0, 2, 3, 4}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Rank(ctx, tt.prev, tt.next, places, tt.n)
			if !reflect.DeepEqual(indices(got), tt.want) {
				t.Errorf("Rank = %v, want %v", indices(got), tt.want)
			}
			for _, r := range got {
				if r.Measured != tt.measured || r.AddedS < 0 || !tt.measured && r.AddedS != 0 {
					t.Errorf("Rank gave %+v", r)
				}
			}
		})
	}
	// A place on the way adds nothing much; the added travel is the detour's, not the sum.
	r := Rank(ctx, prev, next, []*route.Point{between, beyond}, 2)
	through := TravelS(ctx, *prev, *next)
	if want := TravelS(ctx, *prev, *beyond) + TravelS(ctx, *beyond, *next) - through; r[1].AddedS != want {
		t.Errorf("added travel beyond = %d, want %d", r[1].AddedS, want)
	}
}
