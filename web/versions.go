package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/views"
)

// Conditional writes (API-additions §1). PUT, PATCH and DELETE on a versioned resource accept
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
func (s *Server) currentJSON(v any) any {
	switch r := v.(type) {
	case *planner.Plan:
		return toPlanJSON(r)
	case *planner.TimeBlock:
		return s.toTimeBlockJSON(r)
	case *planner.BlockDetail:
		return s.toBlockDetailJSON(r)
	case *planner.Expense:
		return s.toExpenseJSON(r)
	case *planner.Budget:
		return toBudgetJSON(r)
	case *planner.CollectionSummary:
		return toCollectionJSON(*r)
	case *planner.CollectionPlace:
		return toCollectionPlaceDetailJSON(s.toCollectionPlaceJSON(r), r.SocialMedia)
	case *planner.Opinion:
		return toOpinionJSON(*r)
	}
	return nil
}

// staleView tells a person that what they edited was changed by someone else meanwhile,
// showing it as it is now (current: the domain value of a PRECONDITION_FAILED error).
func staleView(ctx context.Context, current any) views.StaleView {
	const reopen = "Close this and open it again to edit the current version."
	when := func(day int, start, end planner.TimeOfDay) string {
		return "Day " + strconv.Itoa(day) + ", " + clock(start) + "–" + clock(end)
	}
	orNone := func(s string) string {
		if strings.TrimSpace(s) == "" {
			return "(none)"
		}
		return s
	}
	switch r := current.(type) {
	case *planner.BlockDetail:
		return views.StaleView{Title: "Someone changed this block while you were editing", Hint: reopen, Lines: []views.StaleLine{
			{Label: "When", Value: when(r.Day.Day, r.Start, r.End)}, {Label: "Memo", Value: orNone(r.Block.Memo)}}}
	case *planner.TimeBlock:
		lines := []views.StaleLine{{Label: "Block", Value: blockTitle(ctx, r.Type == planner.BlockFree, r.Candidates)},
			{Label: "When", Value: when(r.Day.Day, r.Start, r.End)}}
		if r.Type == planner.BlockPlace {
			lines = append(lines, views.StaleLine{Label: "Candidates", Value: strconv.Itoa(len(r.Candidates))})
		}
		return views.StaleView{Title: "Someone changed this block meanwhile", Lines: lines,
			Hint: "Look at the block as it is now and try again if you still want to."}
	case *planner.Plan:
		return views.StaleView{Title: "Someone changed this plan while you were editing", Hint: reopen, Lines: []views.StaleLine{
			{Label: "Title", Value: r.Title}, {Label: "Dates", Value: planDates(ctx, r)}, {Label: "Time zone", Value: r.TimeZone}}}
	case *planner.Budget:
		total := "not set"
		if r.TotalBudget != nil {
			total = views.Money(*r.TotalBudget, r.Currency)
		}
		return views.StaleView{Title: "Someone changed the budget while you were editing", Hint: "Reload the page to edit the current budget.",
			Lines: []views.StaleLine{{Label: "Total budget", Value: total}, {Label: "Travelers", Value: strconv.Itoa(r.TravelerCount)}}}
	case *planner.Expense:
		lines := make([]views.StaleLine, 0, len(r.Items)+1)
		for _, it := range r.Items {
			lines = append(lines, views.StaleLine{Label: it.Name, Value: strconv.FormatInt(it.Cost, 10)})
		}
		if len(lines) == 0 {
			lines = append(lines, views.StaleLine{Label: "Items", Value: "(none)"})
		}
		return views.StaleView{Title: "Someone changed this expense while you were editing", Hint: "Reload the page to edit the current items.", Lines: lines}
	case *planner.CollectionSummary:
		return views.StaleView{Title: "Someone renamed this collection while you were editing", Hint: "Open the form again to rename it.",
			Lines: []views.StaleLine{{Label: "Title", Value: r.Title}}}
	case *planner.CollectionPlace:
		return views.StaleView{Title: "Someone changed this place's memo while you were editing", Hint: "Open the memo again to edit the current one.",
			Lines: []views.StaleLine{{Label: "Place", Value: r.Place.Name}, {Label: "Memo", Value: orNone(r.Memo)}}}
	case *planner.Opinion:
		return views.StaleView{Title: "This opinion was changed in another window", Hint: "Reload to see it as it is now.",
			Lines: []views.StaleLine{{Label: "Opinion", Value: strings.ToLower(string(r.Type))}, {Label: "Comment", Value: orNone(r.Comment)}}}
	}
	return views.StaleView{Title: "Someone changed this while you were editing", Hint: "Reload the page to see it as it is now."}
}

// staleBlockChoices names who changed the block the edit dialog was opened on ("Ben changed
// this block while you were editing", when the change feed still knows) and offers the
// viewer's own values again, to keep them, or the block's as they are now, to take them.
func (s *Server) staleBlockChoices(c echo.Context, v *views.StaleView, d *planner.BlockDetail) {
	if who, err := s.store.LastChangedBy(c.Request().Context(), caller(c).UserID, c.Param("planId"), d.TimeBlockID); err == nil && who != "" {
		v.Title = who + " changed this block while you were editing"
	}
	v.Hint = "Keep yours to save it over theirs, or use theirs."
	v.Version = d.Version
	v.Theirs = []views.StaleLine{{Label: "day", Value: strconv.Itoa(d.Day.Day)}, {Label: "start_time", Value: clock(d.Start)},
		{Label: "end_time", Value: clock(d.End)}, {Label: "memo", Value: d.Block.Memo}}
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
	out := "Overlaps “" + blockTitle(c.Request().Context(), free, cs) + "” " + clock(l.Start) + "–" + clock(l.End)
	if next, _ := pe.Extra["next_free_start"].(*planner.TimeOfDay); next != nil {
		return out + " — the next free start is " + clock(*next) + "."
	}
	return out + " — nothing this long fits later that day."
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
			return views.ErrorPartial(views.ErrorView{Status: status, Title: "This time is taken", Detail: where})
		}
	}
	return views.ErrorPartial(errorView(status, pe))
}
