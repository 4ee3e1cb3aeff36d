package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/views"
)

// This file answers the plan page's moves of time blocks (static/js/arrange.js drags, keys and
// "Move to…", and the edit dialog): the day after a move, announced, with an Undo toast; a
// refused time in words, with the next free start offered.

// dayPartialAfterUpdate is the day after the viewer changed the block d, for htmx requests:
// the day the page shows (?day=, else the block's). A move is announced, with an Undo toast
// that moves the block back (a PATCH against its new version); ?undo=1 says the move was that
// undo, which takes the toast away.
func (s *Server) dayPartialAfterUpdate(c echo.Context, d *planner.BlockDetail) (templ.Component, error) {
	if !wantsPartial(c) {
		return nil, nil
	}
	day := d.Day.Day
	var shown lenientInt
	if q := c.QueryParam("day"); q != "" {
		if shown.UnmarshalParam(q); !shown.Bad && planner.ValidDay(shown.Value) {
			day = shown.Value
		}
	}
	p, err := s.dayPartialAfterChange(c, day)
	if err != nil || d.MovedFrom == nil {
		return p, err
	}
	ctx := c.Request().Context()
	sentence := func(id string) string {
		return i18n.T(ctx, id, "Name", i18n.Word(movedName(ctx, d)), "Day", d.Day.Day, "Time", views.TimeSpan(ctx, d.Start.HHMM(), d.End.HHMM()))
	}
	if c.QueryParam("undo") == "1" {
		return views.Undone(views.Announced(p, sentence("arrange.moved_back"))), nil
	}
	from := d.MovedFrom
	back, err := json.Marshal(map[string]string{"day": strconv.Itoa(from.Day), "start_time": from.Start.HHMM(), "end_time": from.End.HHMM()})
	if err != nil {
		return nil, err
	}
	text := sentence("arrange.moved")
	undo := paths.Plan(c.Param("planId")) + "/blocks/" + url.PathEscape(c.Param("blockId")) + "?" + url.Values{"day": {strconv.Itoa(day)}, "undo": {"1"}}.Encode()
	return views.WithUndo(views.Announced(p, text), views.UndoView{Text: text, URL: undo, Values: string(back), Version: d.Version, Announced: true}), nil
}

// movedName names a moved block by the candidate the page edits: its place, or free time.
func movedName(ctx context.Context, d *planner.BlockDetail) string {
	if d.Type == planner.BlockFree || d.Block.Place == nil {
		return i18n.T(ctx, "plan.free_time_lower")
	}
	return shownName(ctx, *d.Block.Place)
}

// moveConflictPartial answers an htmx change whose time another block holds: which block and
// where the next free start is, in words, and a button that sends the same change at that
// start (same day, length and memo, against the same version). Other errors are returned for
// the error handler.
func (s *Server) moveConflictPartial(c echo.Context, err error, ch planner.BlockChange, expect planner.IfMatch) error {
	var pe *planner.Error
	if !wantsPartial(c) || !errors.As(err, &pe) || pe.Code != planner.CodeTimeBlockOverlap && pe.Code != planner.CodeTimeBlockExactDuplicate {
		return err
	}
	ctx := c.Request().Context()
	v := views.MoveConflictView{Title: i18n.T(ctx, "errors.time_is_taken"), Detail: s.overlapSentence(c, pe), Code: string(pe.Code),
		URL: c.Request().URL.RequestURI(), Version: int(expect)}
	if v.Detail == "" {
		v.Detail = said(ctx, pe).Detail
	}
	if next, _ := pe.Extra["next_free_start"].(*planner.TimeOfDay); next != nil && ch.Start != nil {
		end := *next + (*ch.End - *ch.Start)
		vals := map[string]string{"start_time": next.HHMM(), "end_time": end.HHMM()}
		if ch.Day != nil {
			vals["day"] = strconv.Itoa(*ch.Day)
		}
		if ch.Memo != nil {
			vals["memo"] = *ch.Memo
		}
		b, err := json.Marshal(vals)
		if err != nil {
			return err
		}
		v.Values, v.Next, v.NextLabel = string(b), next.HHMM(), views.TimeSpan(ctx, next.HHMM(), end.HHMM())
	}
	return render(c, httpStatus(pe.Code), views.MoveConflict(v))
}
