package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/views"
)

// Day operations (issue 24): copy or duplicate a time block, swap two days. Moving a block to
// another day is PATCH …/blocks/{blockId} with day.

type copyBlockRequest struct {
	Day       lenientInt `json:"day" form:"day"`
	StartTime *string    `json:"start_time" form:"start_time"`
	EndTime   *string    `json:"end_time" form:"end_time"`
}

// blank reports whether a time was left out (absent, or empty as a form sends it).
func blank(s *string) bool { return s == nil || strings.TrimSpace(*s) == "" }

// copyBlock adds a copy of a time block with its candidates: 201 with the new time block, as
// adding one answers; for the plan page, the copy's day with it, announced.
func (s *Server) copyBlock(c echo.Context) error {
	var in copyBlockRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	var to planner.BlockCopy
	to.Day, to.Start, to.End = blockTarget(&v, in.Day, in.StartTime, in.EndTime, blank)
	if err := v.Err(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	tb, err := s.store.CopyTimeBlock(ctx, caller(c).UserID, c.Param("planId"), c.Param("blockId"), to)
	if err != nil {
		return err
	}
	partial, err := s.dayPartialAfterAdd(c, tb, func() string {
		return blockSentence(ctx, "dayops.copied", tb, toBlockView(ctx, tb).Title)
	})
	if err != nil {
		return err
	}
	if partial != nil {
		c.Response().Header().Set("HX-Push-Url", paths.Plan(c.Param("planId"))+"?day="+strconv.Itoa(tb.Day.Day))
	}
	return respondChange(c, http.StatusCreated, s.toTimeBlockJSON(ctx, tb), partial, paths.Plan(c.Param("planId")))
}

type swapDaysRequest struct {
	With lenientInt `json:"with" form:"with"`
	// Undo marks the plan page's Undo of a swap (a swap again), whose answer takes the toast
	// away rather than offering to undo the undo.
	Undo bool `json:"-" form:"undo"`
}

// daySwapJSON is the two swapped days, each with all its time blocks now.
type daySwapJSON struct {
	Days []swappedDayJSON `json:"days"`
}

type swappedDayJSON struct {
	DayInfo  dayInfoJSON     `json:"day_info"`
	Contents []timeBlockJSON `json:"contents"`
}

// swapDays swaps every time block of two days, both ways: 200 with both days; for the plan
// page, the day swapped from, announced, with an Undo toast (a swap again).
func (s *Server) swapDays(c echo.Context) error {
	var in swapDaysRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	var day lenientInt
	day.UnmarshalParam(c.Param("day"))
	day.readDay(&v, "day", true)
	if b := in.With.readDay(&v, "with", true); !v.Has("with") {
		v.Check(b != day.Value || v.Has("day"), "with", "must be another day than the one swapped")
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx, planID := c.Request().Context(), c.Param("planId")
	swap, err := s.store.SwapDays(ctx, caller(c).UserID, planID, day.Value, in.With.Value)
	if err != nil {
		return err
	}
	out := daySwapJSON{Days: make([]swappedDayJSON, len(swap.Days))}
	for i, d := range swap.Days {
		out.Days[i] = swappedDayJSON{DayInfo: toDayInfoJSON(d.Info), Contents: make([]timeBlockJSON, len(d.Blocks))}
		for j := range d.Blocks {
			out.Days[i].Contents[j] = s.toTimeBlockJSON(ctx, &d.Blocks[j])
		}
	}
	if !wantsPartial(c) {
		return respondChange(c, http.StatusOK, out, nil, paths.Plan(planID))
	}
	p, err := s.store.Plan(ctx, caller(c).UserID, planID)
	if err != nil {
		return err
	}
	dv, err := s.dayView(ctx, p, swap.Days[0].Info, swap.Days[0].Blocks)
	if err != nil {
		return err
	}
	said := i18n.T(ctx, "dayops.swapped", "Day", day.Value, "With", in.With.Value)
	partial := views.DayChanged(dv, said)
	if in.Undo {
		partial = views.Undone(partial)
	} else {
		partial = views.WithUndo(partial, views.UndoView{Text: said, URL: c.Request().URL.Path,
			Values: `{"with": "` + strconv.Itoa(in.With.Value) + `", "undo": "true"}`})
	}
	return respondChange(c, http.StatusOK, out, partial, paths.Plan(planID))
}
