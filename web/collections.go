package web

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/views"
)

// collectionJSON is the Collection resource.
type collectionJSON struct {
	CollectionID string  `json:"collection_id"`
	Title        string  `json:"title"`
	Thumbnail    *string `json:"thumbnail"`
	MemberCount  int     `json:"member_count"`
	PlaceCount   int     `json:"place_count"`
	Version      int     `json:"version"`
}

func toCollectionJSON(c planner.CollectionSummary) collectionJSON {
	out := collectionJSON{CollectionID: c.ID, Title: c.Title, MemberCount: c.MemberCount, PlaceCount: c.PlaceCount, Version: c.Version}
	if c.Thumbnail != "" {
		out.Thumbnail = &c.Thumbnail
	}
	return out
}

type collectionRequest struct {
	Title string `json:"title" form:"title"`
}

func (in *collectionRequest) validate() error {
	var v planner.Validation
	in.Title = planner.CheckTitle(&v, in.Title)
	return v.Err()
}

// titleFormError shows a collection's title form again with the title as typed and what to
// change (see fieldErrorAnswer): the rename form's field of collection id (an htmx form), or
// for id "" the new-collection page (a plain form).
func (s *Server) titleFormError(c echo.Context, err error, title, id string) error {
	errs, ok := formErrors(c.Request().Context(), err, title)
	if !ok {
		return err
	}
	if id != "" {
		if !wantsPartial(c) {
			return err
		}
		return fieldErrorAnswer(c, err, "#rename-fields", views.RenameFields(title, errs["title"]), nil)
	}
	return fieldErrorAnswer(c, err, "#new-collection-fields", views.NewCollectionFields(title, errs["title"]),
		views.NewCollection(s.pageFor(c, i18n.T(c.Request().Context(), "collection.new")), views.NewCollectionView{Title: title, Error: errs["title"]}))
}

// createCollection creates a collection owned by the caller.
func (s *Server) createCollection(c echo.Context) error {
	var in collectionRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	typed := in.Title
	if err := in.validate(); err != nil {
		return s.titleFormError(c, err, typed, "")
	}
	col, err := s.store.CreateCollection(c.Request().Context(), caller(c).UserID, in.Title)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, paths.Collection(col.ID))
	return respondChange(c, http.StatusCreated, toCollectionJSON(*col), nil, paths.Collection(col.ID))
}

// collectionSorts are the accepted ?sort values; true means oldest first.
var collectionSorts = map[string]bool{"CREATED_AT_DESC": false, "CREATED_AT_ASC": true}

// listCollections lists the caller's collections by join time, one page.
func (s *Server) listCollections(c echo.Context) error {
	var v planner.Validation
	page := pageParams(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	oldestFirst, err := sortParam(c, collectionSorts, "CREATED_AT_DESC")
	if err != nil {
		return err
	}
	list, hasNext, err := s.store.Collections(c.Request().Context(), caller(c).UserID, page, oldestFirst)
	if err != nil {
		return err
	}
	out := make([]collectionJSON, len(list))
	view := views.CollectionsView{Collections: make([]views.CollectionCard, len(list))}
	for i, col := range list {
		out[i], view.Collections[i] = toCollectionJSON(col), toCollectionCard(col)
	}
	if hasNext {
		view.NextHref = collectionsNextHref(c, page)
	}
	return respond(c, http.StatusOK, newPage(out, hasNext, page), s.lazyPage(c, "collection.collections", func(p views.Page) templ.Component { return views.Collections(p, view) }), views.CollectionCards(view))
}

// getCollection answers one collection to a member; browsers get the collection page, and
// htmx its partial: the place list as the page's query sorts and filters it.
func (s *Server) getCollection(c echo.Context) error {
	col, err := s.store.Collection(c.Request().Context(), caller(c).UserID, c.Param("collectionId"))
	if err != nil {
		return err
	}
	switch negotiate(c.Request()) {
	case asJSON:
		return respond(c, http.StatusOK, toCollectionJSON(*col), nil, nil)
	case asPartial:
		places, pins, err := s.collectionPlacesView(c, col.ID)
		if err != nil {
			return err
		}
		// The filters' form asks for this: the page's address becomes the one of its filters.
		c.Response().Header().Set("HX-Replace-Url", withQuery(paths.Collection(col.ID), places.Query()))
		return respond(c, http.StatusOK, toCollectionJSON(*col), nil, templ.Join(views.PlaceCards(places), views.CollectionMapPins(pins, true)))
	}
	v, err := s.collectionView(c, col)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toCollectionJSON(*col), views.Collection(s.pageFor(c, col.Title), v), nil)
}

// renameCollection changes the title; any member may.
func (s *Server) renameCollection(c echo.Context) error {
	var in collectionRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	typed := in.Title
	if err := in.validate(); err != nil {
		return s.titleFormError(c, err, typed, c.Param("collectionId"))
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	col, err := s.store.RenameCollection(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), in.Title, expect)
	if err != nil {
		return err
	}
	partial := templ.Join(views.CollectionTitle(col.ID, col.Title), views.RenameForm(col.ID, col.Title, col.Version, true))
	return respondChange(c, http.StatusOK, toCollectionJSON(*col), partial, paths.Collection(col.ID))
}

// deleteCollection deletes the collection; only its owner may.
func (s *Server) deleteCollection(c echo.Context) error {
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteCollection(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), expect); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, "/collections")
}

type planRefJSON struct {
	PlanID string `json:"plan_id"`
	Title  string `json:"title"`
}

// collectionPlans lists the plans the collection is linked to that the caller can see.
func (s *Server) collectionPlans(c echo.Context) error {
	plans, err := s.store.CollectionPlans(c.Request().Context(), caller(c).UserID, c.Param("collectionId"))
	if err != nil {
		return err
	}
	out := make([]planRefJSON, len(plans))
	for i, p := range plans {
		out[i] = planRefJSON{PlanID: p.ID, Title: p.Title}
	}
	return respond(c, http.StatusOK, out, nil, nil)
}

// memberGroupJSON is the MemberGroup resource: M is a collection's or a plan's member shape.
type memberGroupJSON[M any] struct {
	IsAuthenticated bool `json:"is_authenticated"`
	Me              *M   `json:"me"`
	Members         []M  `json:"members"`
}

// toMemberGroupJSON is the group as the caller sees it; a guest is not authenticated.
func toMemberGroupJSON[M any](c echo.Context, g *planner.MemberGroup, member func(planner.Member) M) memberGroupJSON[M] {
	out := memberGroupJSON[M]{IsAuthenticated: !caller(c).Guest, Members: make([]M, len(g.Members))}
	for i, m := range g.Members {
		out.Members[i] = member(m)
	}
	if g.Me != nil {
		me := member(*g.Me)
		out.Me = &me
	}
	return out
}

// collectionMembers lists the collection's members and which one is the caller.
func (s *Server) collectionMembers(c echo.Context) error {
	ctx, userID, id := c.Request().Context(), caller(c).UserID, c.Param("collectionId")
	g, err := s.store.CollectionMembers(ctx, userID, id)
	if err != nil {
		return err
	}
	var partial templ.Component
	if wantsPartial(c) {
		if partial, err = s.membersDrawer(ctx, userID, collectionShares, id, g); err != nil {
			return err
		}
	}
	return respond(c, http.StatusOK, toMemberGroupJSON(c, g, toMemberJSON), nil, partial)
}

type collectionOwnerRequest struct {
	CollectionMemberID string `json:"collection_member_id" form:"collection_member_id"`
}

// changeCollectionOwner hands the collection to another member; only the owner may.
func (s *Server) changeCollectionOwner(c echo.Context) error {
	var in collectionOwnerRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	v.Check(strings.TrimSpace(in.CollectionMemberID) != "", "collection_member_id", "is required")
	if err := v.Err(); err != nil {
		return err
	}
	id := c.Param("collectionId")
	if err := s.store.ChangeCollectionOwner(c.Request().Context(), caller(c).UserID, id, strings.TrimSpace(in.CollectionMemberID)); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, paths.Collection(id))
}

// leaveCollection ends the caller's membership; the owner must hand the collection over first.
func (s *Server) leaveCollection(c echo.Context) error {
	if err := s.store.LeaveCollection(c.Request().Context(), caller(c).UserID, c.Param("collectionId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, "/collections")
}

// removeCollectionMember removes another member; only the owner may.
func (s *Server) removeCollectionMember(c echo.Context) error {
	id := c.Param("collectionId")
	if err := s.store.RemoveCollectionMember(c.Request().Context(), caller(c).UserID, id, c.Param("collectionMemberId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, paths.Collection(id))
}

// withQuery is path with its query, if any.
func withQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}
