package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/views"
)

// Conditional writes (docs/API.md §Concurrent writes). PUT, PATCH and DELETE on a versioned resource accept
// If-Match: "<version>" — the resource's version as a quoted integer, as its representation
// carries it — or *. The version is not the ETag of a GET answer (a weak
// hash of the body, for If-None-Match; conditional.go): the two are never compared.

// ifMatchMax is the longest If-Match header read; a list of versions fits easily.
const ifMatchMax = 200

// ifMatch reads the request's If-Match: AnyVersion when it is absent or *, else the version
// it names. A header that names no version this way — a weak tag (W/"3": a version is exact, so
// a weak tag could never match), an unquoted or non-positive number, a GET's ETag — is
// INVALID_REQUEST with the field If-Match, so a client sending the wrong thing learns so
// instead of being told the resource changed. So is a list: a resource has one version.
func ifMatch(c echo.Context) (planner.IfMatch, error) {
	values := c.Request().Header.Values("If-Match")
	if len(values) == 0 {
		return planner.AnyVersion, nil
	}
	header := strings.TrimSpace(strings.Join(values, ","))
	if header == "*" {
		return planner.AnyVersion, nil
	}
	bad := &planner.Error{Code: planner.CodeInvalidRequest, Detail: "If-Match must be the version to change, in quotes (\"3\"), or *.",
		Fields: []planner.FieldError{{Field: "If-Match", Reason: `must be the resource's version as a quoted integer, e.g. "3", or *`}}}
	if len(header) > ifMatchMax {
		return 0, bad
	}
	tag, ok := strings.CutPrefix(header, `"`)
	if !ok {
		return 0, bad
	}
	tag, ok = strings.CutSuffix(tag, `"`)
	if !ok || tag == "" || strings.TrimLeft(tag, "0123456789") != "" || tag[0] == '0' {
		return 0, bad
	}
	n, err := strconv.Atoi(tag)
	if err != nil || n < 1 {
		return 0, bad
	}
	return planner.IfMatch(n), nil
}

// currentJSON is the resource a PRECONDITION_FAILED problem carries as current, in the JSON
// shape its GET answers.
func (s *Server) currentJSON(ctx context.Context, v any) any {
	switch r := v.(type) {
	case *planner.Plan:
		return toPlanJSON(r)
	case *planner.TimeBlock:
		return s.toTimeBlockJSON(ctx, r)
	case *planner.BlockDetail:
		return s.toBlockDetailJSON(ctx, r)
	case *planner.Expense:
		return s.toExpenseJSON(ctx, r)
	case *planner.Budget:
		return toBudgetJSON(r)
	case *planner.CollectionSummary:
		return toCollectionJSON(*r)
	case *planner.CollectionPlace:
		return toCollectionPlaceDetailJSON(s.toCollectionPlaceJSON(ctx, r), r.SocialMedia)
	case *planner.Opinion:
		return toOpinionJSON(*r)
	}
	return nil
}

// staleView tells a person, in the request's language, that what they edited was changed by someone
// else meanwhile, showing it as it is now (current: the domain value of a PRECONDITION_FAILED
// error).
func staleView(ctx context.Context, current any) views.StaleView {
	l := i18n.From(ctx)
	reopen := l.T("errors.stale_reopen")
	when := func(day int, start, end planner.TimeOfDay) string {
		return l.T("errors.stale_when", "Day", day, "Start", start.HHMM(), "End", end.HHMM(),
			"StartTime", l.Clock(start.HHMM()), "EndTime", l.Clock(end.HHMM()))
	}
	orNone := func(s string) string {
		if strings.TrimSpace(s) == "" {
			return l.T("errors.stale_none")
		}
		return s
	}
	line := func(label, value string) views.StaleLine { return views.StaleLine{Label: l.T(label), Value: value} }
	switch r := current.(type) {
	case *planner.BlockDetail:
		return views.StaleView{Title: l.T("errors.stale_block_editing"), Hint: reopen, Lines: []views.StaleLine{
			line("errors.label_when", when(r.Day.Day, r.Start, r.End)), line("errors.label_memo", orNone(r.Block.Memo))}}
	case *planner.TimeBlock:
		lines := []views.StaleLine{line("errors.label_block", blockTitle(ctx, r.Type == planner.BlockFree, r.Candidates)),
			line("errors.label_when", when(r.Day.Day, r.Start, r.End))}
		if r.Type == planner.BlockPlace {
			lines = append(lines, line("errors.label_candidates", strconv.Itoa(len(r.Candidates))))
		}
		return views.StaleView{Title: l.T("errors.stale_block"), Lines: lines, Hint: l.T("errors.stale_block_hint")}
	case *planner.Plan:
		return views.StaleView{Title: l.T("errors.stale_plan"), Hint: reopen, Lines: []views.StaleLine{
			line("errors.label_title", r.Title), line("errors.label_dates", views.Dates(l, r.StartDate, r.EndDate)),
			line("errors.label_time_zone", r.TimeZone)}}
	case *planner.Budget:
		total := l.T("errors.not_set")
		if r.TotalBudget != nil {
			total = l.Money(*r.TotalBudget, r.Currency)
		}
		return views.StaleView{Title: l.T("errors.stale_budget"), Hint: l.T("errors.stale_budget_hint"),
			Lines: []views.StaleLine{line("errors.label_total_budget", total), line("errors.label_travelers", strconv.Itoa(r.TravelerCount))}}
	case *planner.Expense:
		lines := make([]views.StaleLine, 0, len(r.Items)+1)
		for _, it := range r.Items {
			lines = append(lines, views.StaleLine{Label: it.Name, Value: l.Money(it.Cost, r.Terms.Currency)})
		}
		if len(lines) == 0 {
			lines = append(lines, line("errors.label_items", l.T("errors.stale_none")))
		}
		return views.StaleView{Title: l.T("errors.stale_expense"), Hint: l.T("errors.stale_expense_hint"), Lines: lines}
	case *planner.CollectionSummary:
		return views.StaleView{Title: l.T("errors.stale_collection"), Hint: l.T("errors.stale_collection_hint"),
			Lines: []views.StaleLine{line("errors.label_title", r.Title)}}
	case *planner.CollectionPlace:
		return views.StaleView{Title: l.T("errors.stale_memo"), Hint: l.T("errors.stale_memo_hint"),
			Lines: []views.StaleLine{line("errors.label_place", shownName(ctx, r.Place)), line("errors.label_memo", orNone(r.Memo))}}
	case *planner.Opinion:
		return views.StaleView{Title: l.T("errors.stale_opinion"), Hint: l.T("errors.stale_opinion_hint"),
			Lines: []views.StaleLine{line("errors.label_opinion", l.T("errors.opinion_"+strings.ToLower(string(r.Type)))),
				line("errors.label_comment", orNone(r.Comment))}}
	}
	return views.StaleView{Title: l.T("errors.stale"), Hint: l.T("errors.stale_hint")}
}

// staleBlockChoices names who changed the block the edit dialog was opened on ("Ben changed
// this block while you were editing", when the change feed still knows) and offers the
// viewer's own values again, to keep them, or the block's as they are now, to take them.
func (s *Server) staleBlockChoices(c echo.Context, v *views.StaleView, d *planner.BlockDetail) {
	l := i18n.From(c.Request().Context())
	if who, err := s.store.LastChangedBy(c.Request().Context(), caller(c).UserID, c.Param("planId"), d.TimeBlockID); err == nil && who != "" {
		v.Title = l.T("errors.stale_block_by", "Name", i18n.Word(who))
	}
	v.Hint = l.T("errors.stale_block_choice")
	v.Version = d.Version
	v.Theirs = []views.StaleLine{{Label: "day", Value: strconv.Itoa(d.Day.Day)}, {Label: "start_time", Value: d.Start.HHMM()},
		{Label: "end_time", Value: d.End.HHMM()}, {Label: "memo", Value: d.Block.Memo}}
}

// overlapSentence says which block a refused time overlaps and where the next free start is,
// for a person: "Overlaps “Lunch” 12:00–13:00 — the next free start is 13:00." It reads the
// overlapping block (only pages ask, only when a time was refused); "" when it cannot be
// read.
func (s *Server) overlapSentence(c echo.Context, pe *planner.Error) string {
	id, _ := pe.Extra["conflicting_time_block_id"].(string)
	if id == "" {
		return ""
	}
	l, err := s.store.Candidates(c.Request().Context(), caller(c).UserID, c.Param("planId"), id)
	if err != nil {
		return ""
	}
	cs := make([]planner.Candidate, len(l.Candidates))
	free := true
	for i := range l.Candidates {
		cs[i] = l.Candidates[i].Candidate
		free = free && cs[i].Place == nil
	}
	loc := i18n.From(c.Request().Context())
	pairs := []any{"Block", blockTitle(c.Request().Context(), free, cs), "Start", l.Start.HHMM(), "End", l.End.HHMM(),
		"StartTime", loc.Clock(l.Start.HHMM()), "EndTime", loc.Clock(l.End.HHMM())}
	if next, _ := pe.Extra["next_free_start"].(*planner.TimeOfDay); next != nil {
		return loc.T("errors.overlaps_next", append(pairs, "Next", next.HHMM(), "NextTime", loc.Clock(next.HHMM()))...)
	}
	return loc.T("errors.overlaps_full", pairs...)
}

// errorPartial is the alert htmx shows for an error: a stale edit with the current values, a
// refused time with the block it overlaps, else the error's own words.
func (s *Server) errorPartial(c echo.Context, status int, pe *planner.Error) templ.Component {
	switch pe.Code {
	case planner.CodePreconditionFailed:
		v := staleView(c.Request().Context(), pe.Current)
		if d, ok := pe.Current.(*planner.BlockDetail); ok {
			s.staleBlockChoices(c, &v, d)
		}
		return views.StaleChange(v)
	case planner.CodeTimeBlockOverlap, planner.CodeTimeBlockExactDuplicate:
		if where := s.overlapSentence(c, pe); where != "" {
			return views.ErrorPartial(views.ErrorView{Status: status, Title: i18n.T(c.Request().Context(), "errors.time_is_taken"), Detail: where})
		}
	}
	return views.ErrorPartial(errorView(status, pe))
}
