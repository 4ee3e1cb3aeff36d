package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/views"
)

// activityJSON is one entry of a plan's or collection's history (docs/API.md §Activity); M is the
// JSON of a plan or collection member.
type activityJSON[M any] struct {
	ActivityID string             `json:"activity_id"`
	Kind       string             `json:"kind"`
	Actor      *M                 `json:"actor"`
	Target     activityTargetJSON `json:"target"`
	Summary    string             `json:"summary"`
	CreatedAt  string             `json:"created_at"`
}

type activityTargetJSON struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// activityLoader is the store's reading of one resource's history.
type activityLoader func(ctx context.Context, userID, id string, page planner.Page) ([]planner.Activity, bool, error)

// planActivity answers a page of a plan's history, newest first: JSON, or for htmx the plan
// page's activity panel (its first page) or the next page's entries.
func (s *Server) planActivity(c echo.Context) error {
	return listActivity(c, i18n.For(s.answerLanguage(c)), "plan", paths.Plan(c.Param("planId")), c.Param("planId"), s.store.PlanActivity, toPlanMemberJSON)
}

// collectionActivity answers a page of a collection's history, as planActivity does.
func (s *Server) collectionActivity(c echo.Context) error {
	id := c.Param("collectionId")
	return listActivity(c, i18n.For(s.answerLanguage(c)), "collection", "/collections/"+id, id, s.store.CollectionActivity, toMemberJSON)
}

// listActivity reads page and size, loads the page and answers it; the sentences are rendered
// here, in the answer's language l, from the facts the store kept (views.ActivitySentence).
func listActivity[M any](c echo.Context, l *i18n.Localizer, noun, base, id string, load activityLoader, member func(planner.Member) M) error {
	var v planner.Validation
	page := pageParams(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	list, hasNext, err := load(c.Request().Context(), caller(c).UserID, id, page)
	if err != nil {
		return err
	}
	out := make([]activityJSON[M], len(list))
	view := views.ActivityView{Href: base + "/activity", Page: page.Number, Items: make([]views.ActivityItem, len(list))}
	now := time.Now()
	for i, a := range list {
		summary := views.ActivitySentence(l, a, noun)
		out[i] = activityJSON[M]{ActivityID: a.ID, Kind: string(a.Kind), Summary: summary, CreatedAt: instant(a.CreatedAt),
			Target: activityTargetJSON{Type: string(a.Target.Type), ID: a.Target.ID, Name: views.TargetName(l, a)}}
		item := views.ActivityItem{Sentence: summary, When: l.Ago(a.CreatedAt, now), Exact: views.Moment(l, a.CreatedAt),
			At: instant(a.CreatedAt)}
		if a.Actor != nil {
			m := member(*a.Actor)
			out[i].Actor = &m
			item.Actor, item.Picture = a.Actor.Nickname, a.Actor.Picture
		}
		view.Items[i] = item
	}
	if hasNext {
		q := url.Values{"page": {strconv.Itoa(page.Number + 1)}, "size": {strconv.Itoa(page.Size)}}
		view.MoreHref = base + "/activity?" + q.Encode()
	}
	return respond(c, http.StatusOK, newPage(out, hasNext, page), nil, views.ActivityPanel(view))
}
