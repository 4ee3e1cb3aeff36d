package planner

import (
	"slices"
	"strings"
	"testing"
)

func TestBlockStatus(t *testing.T) {
	selected := Candidate{Selected: true}
	other := Candidate{}
	for _, tc := range []struct {
		name       string
		typ        BlockType
		candidates []Candidate
		want       BlockStatus
	}{
		{"free", BlockFree, []Candidate{other}, StatusNothing},
		{"place without candidates", BlockPlace, nil, StatusDirect},
		{"one selected candidate", BlockPlace, []Candidate{selected}, StatusDirect},
		{"two, none selected", BlockPlace, []Candidate{other, other}, StatusPending},
		{"two, one selected", BlockPlace, []Candidate{other, selected}, StatusFixed},
		{"three, one selected", BlockPlace, []Candidate{other, other, selected}, StatusFixed},
	} {
		b := TimeBlock{Type: tc.typ, Candidates: tc.candidates}
		if got := b.Status(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	b := TimeBlock{Type: BlockPlace, Candidates: []Candidate{{ID: "a"}, {ID: "b", Selected: true}}}
	if s := b.Selected(); s == nil || s.ID != "b" {
		t.Errorf("Selected = %+v, want b", s)
	}
	if s := (&TimeBlock{Candidates: []Candidate{{ID: "a"}}}).Selected(); s != nil {
		t.Errorf("Selected = %+v, want nil", s)
	}
}

func TestNewBlockValidate(t *testing.T) {
	slot := Slot{Day: 1, Start: Clock(10, 0), End: Clock(12, 0)}
	for _, tc := range []struct {
		name  string
		block NewBlock
		bad   []string
	}{
		{"place", NewBlock{Type: BlockPlace, CollectionPlaceID: "x", Slot: slot}, nil},
		{"free with a 300-character memo", NewBlock{Type: BlockFree, Slot: slot, Memo: strings.Repeat("가", 300)}, nil},
		{"place without a collection place", NewBlock{Type: BlockPlace, Slot: slot}, []string{"collection_place_id"}},
		{"free with a collection place", NewBlock{Type: BlockFree, CollectionPlaceID: "x", Slot: slot}, []string{"collection_place_id"}},
		{"unknown type", NewBlock{Type: "LUNCH", Slot: slot}, []string{"type"}},
		{"everything wrong", NewBlock{Type: BlockFree, Slot: Slot{Day: 31, Start: Clock(12, 0), End: Clock(12, 0)}, Memo: strings.Repeat("a", 301)},
			[]string{"day", "start_time", "memo"}},
		{"day 0", NewBlock{Type: BlockFree, Slot: Slot{Start: Clock(1, 0), End: Clock(2, 0)}}, []string{"day"}},
	} {
		var v Validation
		tc.block.Validate(&v)
		var got []string
		if e, ok := v.Err().(*Error); ok {
			for _, f := range e.Fields {
				got = append(got, f.Field)
			}
		}
		if !slices.Equal(got, tc.bad) {
			t.Errorf("%s: bad fields %v, want %v", tc.name, got, tc.bad)
		}
	}
}
