package web

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/internal/route"
	"tripplan/internal/tour"
	"tripplan/views"
)

// Optimising a day (issue 25): the day's confirmed places with coordinates, except those
// marked "fixed time", trade slots so that the day's travel is shortest. Each stretch of them
// between blocks that stay (planner.Runs) is ordered by tour.Order, from the located stop
// before it to the one after it, and laid out again by planner.Reorder (same start, gaps and
// lengths). GET …/optimised shows the result; POST …/arrangement applies it (and undoes it).

// optimisation is a day's blocks reordered: the travel before and after, and the blocks that
// move with their new slots.
type optimisation struct {
	Info          planner.DayInfo
	Source        route.Source
	Exact         bool // every stretch was ordered exactly (tour.ExactLimit)
	Before, After dayTravel
	Moves         []planner.Arranged  // the blocks that move, at their new slots, with their versions
	Blocks        []planner.TimeBlock // the day's blocks at their new slots, in time order
}

// dayTravel is the day's travel as the day route counts it: the quickest sensible way between
// each two consecutive confirmed places with coordinates.
type dayTravel struct {
	S    int
	Legs []travelStep
}

// travelStep is one leg of a dayTravel, between two time blocks.
type travelStep struct {
	From, To string // time block ids
	S        int
	Mode     route.Mode
}

// optimiseDay reorders a day's blocks (in time order): TOO_MANY_STOPS beyond tour.MaxStops
// movable stops.
func (s *Server) optimiseDay(ctx context.Context, info planner.DayInfo, blocks []planner.TimeBlock) (*optimisation, error) {
	out := &optimisation{Info: info, Source: route.SourceEstimate, Exact: true}
	// at[i] is block i's position among the located confirmed stops (the matrix), or -1.
	at := make([]int, len(blocks))
	var points []route.Point
	for i := range blocks {
		at[i] = -1
		if c := blocks[i].Confirmed(); c != nil {
			if p := pointOf(c.Place); p != nil {
				at[i] = len(points)
				points = append(points, *p)
			}
		}
	}
	movable := func(i int) bool { return at[i] >= 0 && !blocks[i].FixedTime }
	runs := planner.Runs(len(blocks), movable)
	n := 0
	for _, run := range runs {
		n += len(run)
	}
	if n > tour.MaxStops {
		return nil, planner.Errorf(planner.CodeTooManyStops, "The day has %d places that could move; at most %d can be optimised.", n, tour.MaxStops)
	}
	out.Blocks = slices.Clone(blocks)
	if len(points) < 2 {
		return out, nil
	}
	m, source, err := s.router.Matrix(ctx, points)
	if err != nil {
		return nil, err
	}
	out.Source = source
	cost := make(tour.Cost, len(points))
	for i := range m {
		cost[i] = make([]int, len(points))
		for j := range m[i] {
			_, cost[i][j] = m[i][j].Fastest()
		}
	}
	out.Before = travel(blocks, m, at)
	for _, run := range runs {
		out.Exact = out.Exact && len(run) <= tour.ExactLimit
		// The run's ends are the confirmed places next to it (free time and undecided blocks
		// are passed over, as the day's travel does); one without coordinates is a free end,
		// since the travel to it is not counted either.
		from, to := tour.None, tour.None
		for i := run[0] - 1; i >= 0; i-- {
			if stopAt(blocks, i) {
				from = at[i]
				break
			}
		}
		for i := run[len(run)-1] + 1; i < len(blocks); i++ {
			if stopAt(blocks, i) {
				to = at[i]
				break
			}
		}
		stops := make([]int, len(run))
		pos := make(map[int]int, len(run)) // matrix index → position in run
		inRun := make([]planner.TimeBlock, len(run))
		for k, i := range run {
			stops[k], pos[at[i]], inRun[k] = at[i], k, blocks[i]
		}
		order, _ := tour.Order(cost, from, stops, to)
		positions := make([]int, len(order))
		for k, stop := range order {
			positions[k] = pos[stop]
		}
		for k, slot := range planner.Reorder(inRun, positions) {
			b := &out.Blocks[run[k]]
			if b.Start != slot.Start || b.End != slot.End {
				b.Start, b.End = slot.Start, slot.End
				out.Moves = append(out.Moves, planner.Arranged{TimeBlockID: b.ID, Version: b.Version, Start: slot.Start, End: slot.End})
			}
		}
	}
	// The new times keep the blocks between each run's start and end, so sorting by start is
	// the day's new order; at follows the blocks.
	idx := make([]int, len(blocks))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(out.Blocks[a].Start, out.Blocks[b].Start) })
	sorted, sortedAt := make([]planner.TimeBlock, len(blocks)), make([]int, len(blocks))
	for k, i := range idx {
		sorted[k], sortedAt[k] = out.Blocks[i], at[i]
	}
	out.Blocks = sorted
	out.After = travel(sorted, m, sortedAt)
	if out.After.S >= out.Before.S { // nothing gained: the day stays as it is
		out.Moves, out.Blocks, out.After = nil, blocks, out.Before
	}
	return out, nil
}

// stopAt reports whether block i is a stop of the day's travel: a confirmed place.
func stopAt(blocks []planner.TimeBlock, i int) bool {
	c := blocks[i].Confirmed()
	return c != nil && c.Place != nil
}

// travel is the day's travel over its blocks (in time order; at[i] is block i's point in m,
// or -1): a leg between each two consecutive confirmed places where both have coordinates.
func travel(blocks []planner.TimeBlock, m route.Matrix, at []int) dayTravel {
	out := dayTravel{Legs: []travelStep{}}
	prev := -1 // the previous confirmed place's block
	for i := range blocks {
		if !stopAt(blocks, i) {
			continue
		}
		if prev >= 0 && at[prev] >= 0 && at[i] >= 0 {
			mode, s := m[at[prev]][at[i]].Fastest()
			out.S += s
			out.Legs = append(out.Legs, travelStep{From: blocks[prev].ID, To: blocks[i].ID, S: s, Mode: mode})
		}
		prev = i
	}
	return out
}

// optimisedJSON is GET …/days/{d}/optimised.
type optimisedJSON struct {
	DayInfo dayInfoJSON    `json:"day_info"`
	Source  string         `json:"source"`
	Exact   bool           `json:"exact"`
	Before  travelJSON     `json:"before"`
	After   travelJSON     `json:"after"`
	Blocks  []arrangedJSON `json:"blocks"`
}

type travelJSON struct {
	TravelS int             `json:"travel_s"`
	Legs    []travelLegJSON `json:"legs"`
}

type travelLegJSON struct {
	FromTimeBlockID string `json:"from_time_block_id"`
	ToTimeBlockID   string `json:"to_time_block_id"`
	TravelS         int    `json:"travel_s"`
	Mode            string `json:"mode"`
}

func toTravelJSON(d dayTravel) travelJSON {
	out := travelJSON{TravelS: d.S, Legs: make([]travelLegJSON, len(d.Legs))}
	for i, l := range d.Legs {
		out.Legs[i] = travelLegJSON{FromTimeBlockID: l.From, ToTimeBlockID: l.To, TravelS: l.S, Mode: string(l.Mode)}
	}
	return out
}

// arrangedJSON is a time block at its new time, against its version.
type arrangedJSON struct {
	TimeBlockID string  `json:"time_block_id"`
	Version     int     `json:"version"`
	StartTime   *string `json:"start_time"`
	EndTime     *string `json:"end_time"`
}

func toArrangedJSON(moves []planner.Arranged) []arrangedJSON {
	out := make([]arrangedJSON, len(moves))
	for i, m := range moves {
		start, end := m.Start.String(), m.End.String()
		out[i] = arrangedJSON{TimeBlockID: m.TimeBlockID, Version: m.Version, StartTime: &start, EndTime: &end}
	}
	return out
}

// optimisedDayHandler shows how the day would be reordered (readers may look): JSON, or the
// optimise dialog's body for the plan page.
func (s *Server) optimisedDayHandler(c echo.Context) error {
	var v planner.Validation
	day := pathDay(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	ctx, planID := c.Request().Context(), c.Param("planId")
	listing, err := s.store.DayBlocks(ctx, caller(c).UserID, planID, day, planner.Page{Size: planDayPageSize})
	if err != nil {
		return err
	}
	o, err := s.optimiseDay(ctx, listing.Info, listing.Blocks)
	if err != nil {
		return err
	}
	out := optimisedJSON{DayInfo: toDayInfoJSON(o.Info), Source: string(o.Source), Exact: o.Exact,
		Before: toTravelJSON(o.Before), After: toTravelJSON(o.After), Blocks: toArrangedJSON(o.Moves)}
	if negotiate(c.Request()) == asJSON {
		return respond(c, http.StatusOK, out, nil, nil)
	}
	values, err := formValues(arrangementJSON{Blocks: out.Blocks, Expenses: []expensePlaceJSON{}}, false)
	if err != nil {
		return err
	}
	pv := views.OptimiseView{URL: paths.Plan(planID) + "/days/" + strconv.Itoa(day) + "/arrangement",
		Before: duration(ctx, o.Before.S), After: duration(ctx, o.After.S), Improved: len(o.Moves) > 0,
		Exact: o.Exact, Estimated: o.Source != route.SourceOSRM, Values: values}
	moved := map[string]bool{}
	for _, m := range o.Moves {
		moved[m.TimeBlockID] = true
	}
	for i := range o.Blocks {
		b := &o.Blocks[i]
		c := b.Confirmed()
		if c == nil || c.Place == nil {
			continue
		}
		pv.Stops = append(pv.Stops, views.OptimiseStop{Time: views.TimeSpan(ctx, b.Start.HHMM(), b.End.HHMM()),
			Name: shownName(ctx, *c.Place), Moved: moved[b.ID], Fixed: b.FixedTime})
	}
	return respond(c, http.StatusOK, out, nil, views.OptimisePreview(pv))
}

// formValues are the page's values (hx-vals) for POST …/arrangement: the blocks and the
// expenses to put back each as one JSON form field, and whether it is the Undo.
func formValues(a arrangementJSON, undo bool) (string, error) {
	vals := map[string]string{}
	for name, list := range map[string]any{"blocks": a.Blocks, "expenses": a.Expenses} {
		b, err := json.Marshal(list)
		if err != nil {
			return "", err
		}
		vals[name] = string(b)
	}
	if undo {
		vals["undo"] = "true"
	}
	b, err := json.Marshal(vals)
	return string(b), err
}

// formJSON reads a list of an arrangement from JSON, or from a form field holding it as JSON
// (the plan page's Apply and Undo send hx-vals).
type formJSON[T any] []T

func (l *formJSON[T]) UnmarshalParam(s string) error {
	return json.Unmarshal([]byte(s), (*[]T)(l))
}

// expensePlaceJSON puts an additional expense of the day after a time block, or at the day's
// start (after_time_block_id null).
type expensePlaceJSON struct {
	ExpenseID        string  `json:"expense_id"`
	AfterTimeBlockID *string `json:"after_time_block_id"`
}

// arrangementJSON is an arrangement of a day: what POST …/arrangement takes, and the undo its
// answer gives.
type arrangementJSON struct {
	Blocks   []arrangedJSON     `json:"blocks"`
	Expenses []expensePlaceJSON `json:"expenses"`
}

func toArrangementJSON(a planner.Arrangement) arrangementJSON {
	out := arrangementJSON{Blocks: toArrangedJSON(a.Blocks), Expenses: make([]expensePlaceJSON, len(a.Expenses))}
	for i, e := range a.Expenses {
		out.Expenses[i] = expensePlaceJSON{ExpenseID: e.ExpenseID}
		if e.AfterTimeBlockID != "" {
			out.Expenses[i].AfterTimeBlockID = &e.AfterTimeBlockID
		}
	}
	return out
}

// arrangementRequest is an arrangementJSON as POST …/arrangement reads it (Echo binds no form
// fields of an embedded struct).
type arrangementRequest struct {
	Blocks   formJSON[arrangedJSON]     `json:"blocks" form:"blocks"`
	Expenses formJSON[expensePlaceJSON] `json:"expenses" form:"expenses"`
	// Undo marks the plan page's Undo, whose answer takes the toast away.
	Undo bool `json:"-" form:"undo"`
}

// arrangedDayJSON is the day after an arrangement, and the arrangement that undoes it.
type arrangedDayJSON struct {
	swappedDayJSON
	Undo arrangementJSON `json:"undo"`
}

// arrangeDay gives blocks of a day new times at once (an optimisation, or its undo, which also
// puts back the additional expenses it moved): 200 with the day's blocks now and the undo; for
// the plan page, the day, announced, with an Undo toast that sends that undo.
func (s *Server) arrangeDay(c echo.Context) error {
	var in arrangementRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	day := pathDay(c, &v)
	v.Check(len(in.Blocks) > 0, "blocks", "must name at least one block")
	v.Check(len(in.Blocks) <= planner.ArrangementMax, "blocks", "must name at most 100 blocks") // planner.ArrangementMax
	arranged := make([]planner.Arranged, 0, len(in.Blocks))
	seen := map[string]bool{}
	for i, b := range in.Blocks {
		if i >= planner.ArrangementMax {
			break
		}
		at := "blocks[" + strconv.Itoa(i) + "]"
		v.Check(planner.ValidID(b.TimeBlockID) && !seen[b.TimeBlockID], at+".time_block_id", "must be a time block id, each once")
		seen[b.TimeBlockID] = true
		v.Check(b.Version > 0, at+".version", "must be the version read")
		slot := planner.Slot{Day: day, Start: timeField(&v, at+".start_time", b.StartTime), End: timeField(&v, at+".end_time", b.EndTime)}
		if !v.Has(at+".start_time") && !v.Has(at+".end_time") {
			v.Check(slot.Start < slot.End, at+".end_time", "must be after start_time")
		}
		arranged = append(arranged, planner.Arranged{TimeBlockID: b.TimeBlockID, Version: b.Version, Start: slot.Start, End: slot.End})
	}
	v.Check(len(in.Expenses) <= planner.ArrangementMax, "expenses", "must name at most 100 expenses") // planner.ArrangementMax
	places := make([]planner.ExpensePlace, 0, len(in.Expenses))
	seenExpense := map[string]bool{}
	for i, e := range in.Expenses {
		if i >= planner.ArrangementMax {
			break
		}
		at := "expenses[" + strconv.Itoa(i) + "]"
		v.Check(planner.ValidID(e.ExpenseID) && !seenExpense[e.ExpenseID], at+".expense_id", "must be an expense id, each once")
		seenExpense[e.ExpenseID] = true
		after := deref(e.AfterTimeBlockID)
		v.Check(after == "" || planner.ValidID(after), at+".after_time_block_id", "must be a time block id of the day, or null for the day's start")
		places = append(places, planner.ExpensePlace{ExpenseID: e.ExpenseID, AfterTimeBlockID: after})
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx, planID := c.Request().Context(), c.Param("planId")
	got, back, err := s.store.ArrangeDay(ctx, caller(c).UserID, planID, day, planner.Arrangement{Blocks: arranged, Expenses: places})
	if err != nil {
		return err
	}
	out := arrangedDayJSON{swappedDayJSON: swappedDayJSON{DayInfo: toDayInfoJSON(got.Info), Contents: make([]timeBlockJSON, len(got.Blocks))},
		Undo: toArrangementJSON(back)}
	for i := range got.Blocks {
		out.Contents[i] = s.toTimeBlockJSON(ctx, &got.Blocks[i])
	}
	if !wantsPartial(c) {
		return respondChange(c, http.StatusOK, out, nil, paths.Plan(planID))
	}
	p, err := s.store.Plan(ctx, caller(c).UserID, planID)
	if err != nil {
		return err
	}
	dv, err := s.dayView(ctx, p, got.Info, got.Blocks)
	if err != nil {
		return err
	}
	if in.Undo {
		return respondChange(c, http.StatusOK, out, views.Undone(views.DayChanged(dv, i18n.T(ctx, "optimise.undone", "Day", day))), paths.Plan(planID))
	}
	values, err := formValues(out.Undo, true)
	if err != nil {
		return err
	}
	said := i18n.T(ctx, "optimise.applied", "Day", day)
	partial := views.WithUndo(views.DayChanged(dv, said), views.UndoView{Text: said, URL: c.Request().URL.Path,
		Values: values})
	return respondChange(c, http.StatusOK, out, partial, paths.Plan(planID))
}
