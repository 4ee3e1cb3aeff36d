// Package gapfill finds a day's free time and ranks places to fill it (issue 25, "Fill the
// gaps").
//
// A gap is time with no block in it, of at least MinLength: between two blocks, before the
// day's first block and after its last, within the day's usual hours (DayFrom to DayUntil,
// widened by blocks outside them, as the plan page's timeline draws the day). A FREE block
// ("free time") is not a gap: it holds its time, so a place block could not be put there
// without overlapping it; someone chose to keep that time free.
//
// A place's fit is the travel it adds (Rank): the quickest way, as the route package's offline
// estimate measures it, from the stop before the gap to the place and on to the stop after it,
// less the way straight from one stop to the other. A gap with a stop on one side only ranks
// places by the way between that stop and the place; a gap with no stop keeps the places'
// order. The stops are the nearest confirmed places before and after the gap (free time and
// undecided blocks are passed over, as the day's travel does); one without coordinates is an
// open end, since no travel to it is counted either.
package gapfill

import (
	"cmp"
	"context"
	"slices"
	"time"

	"tripplan/internal/planner"
	"tripplan/internal/route"
)

const (
	// MinLength is the shortest free time that is offered places: an hour.
	MinLength = planner.TimeOfDay(time.Hour)
	// BlockLength is how long a block added to a gap is: an hour, or the gap if shorter.
	BlockLength = planner.TimeOfDay(time.Hour)
	// DayFrom and DayUntil are the day's usual hours; earlier or later blocks widen them.
	DayFrom  = planner.TimeOfDay(9 * time.Hour)
	DayUntil = planner.TimeOfDay(21 * time.Hour)
	// Suggestions is how many places a gap is offered at most.
	Suggestions = 5
	// Candidates is how many places of the plan's linked collections are weighed at most.
	Candidates = 200
)

// Gap is free time of a day, with the blocks of the confirmed places nearest before and
// after it (nil when there is none).
type Gap struct {
	Start, End planner.TimeOfDay
	Prev, Next *planner.TimeBlock
}

// BlockEnd is where a block added at the gap's start ends: BlockLength on, or the gap's end.
func (g Gap) BlockEnd() planner.TimeOfDay { return min(g.Start+BlockLength, g.End) }

// Find lists the gaps of a day whose blocks are given in time order (start, then end).
func Find(blocks []planner.TimeBlock) []Gap {
	from, until := DayFrom, DayUntil
	for _, b := range blocks {
		from, until = min(from, b.Start), max(until, b.End)
	}
	var out []Gap
	at := from
	prev := -1 // the last confirmed place so far
	gap := func(end planner.TimeOfDay, next int) {
		if end-at < MinLength {
			return
		}
		g := Gap{Start: at, End: end}
		if prev >= 0 {
			g.Prev = &blocks[prev]
		}
		if next >= 0 {
			g.Next = &blocks[next]
		}
		out = append(out, g)
	}
	for i := range blocks {
		gap(blocks[i].Start, nextStop(blocks, i))
		at = max(at, blocks[i].End)
		if isStop(&blocks[i]) {
			prev = i
		}
	}
	gap(until, -1)
	return out
}

// isStop reports whether the block is a stop of the day's travel: a confirmed place.
func isStop(b *planner.TimeBlock) bool {
	c := b.Confirmed()
	return c != nil && c.Place != nil
}

// nextStop is the first stop at or after block i, or -1.
func nextStop(blocks []planner.TimeBlock, i int) int {
	for ; i < len(blocks); i++ {
		if isStop(&blocks[i]) {
			return i
		}
	}
	return -1
}

// Ranked is a place offered for a gap: its index among the places weighed and the travel it
// adds in seconds (Measured false when the gap has no located stop to measure from).
type Ranked struct {
	Index    int
	AddedS   int
	Measured bool
}

// Rank offers up to n of the places (nil: a place without coordinates, never offered) for a
// gap whose stops are at prev and next (nil: an open end), least added travel first; equal
// ones keep the places' order.
func Rank(ctx context.Context, prev, next *route.Point, places []*route.Point, n int) []Ranked {
	out := make([]Ranked, 0, len(places))
	through := 0
	if prev != nil && next != nil {
		through = TravelS(ctx, *prev, *next)
	}
	for i, p := range places {
		if p == nil {
			continue
		}
		r := Ranked{Index: i, Measured: prev != nil || next != nil}
		if prev != nil {
			r.AddedS += TravelS(ctx, *prev, *p)
		}
		if next != nil {
			r.AddedS += TravelS(ctx, *p, *next)
		}
		r.AddedS = max(0, r.AddedS-through)
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b Ranked) int { return cmp.Compare(a.AddedS, b.AddedS) })
	return out[:min(n, len(out))]
}

// TravelS is the quickest way from a to b in seconds, as the route package's offline estimate
// has it (a great-circle distance with each mode's detour, speed and overhead). The points are
// places' positions, which the database keeps within range; one that is not a position
// (which the estimate refuses) counts as no travel.
func TravelS(ctx context.Context, a, b route.Point) int {
	legs, _, err := route.Estimator{}.Legs(ctx, []route.Point{a, b})
	if err != nil || len(legs) == 0 {
		return 0
	}
	_, s := legs[0].Fastest()
	return s
}
