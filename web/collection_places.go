package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/paths"
	"tripplan/internal/places"
	"tripplan/internal/planner"
	"tripplan/views"
)

// memberJSON is a collection member as shown beside what they did.
type memberJSON struct {
	CollectionMemberID string `json:"collection_member_id"`
	Nickname           string `json:"nickname"`
	Picture            string `json:"picture"`
	Role               string `json:"role"`
}

type preferenceGroupJSON struct {
	Members []memberJSON `json:"members"`
	Count   int          `json:"count"`
}

type pickPassJSON struct {
	Picked       preferenceGroupJSON `json:"picked"`
	Passed       preferenceGroupJSON `json:"passed"`
	MyPreference string              `json:"my_preference"`
}

// collectionPlaceJSON is the CollectionPlace resource.
type collectionPlaceJSON struct {
	CollectionPlaceID string       `json:"collection_place_id"`
	Memo              *string      `json:"memo"`
	Place             placeJSON    `json:"place"`
	AddedBy           memberJSON   `json:"added_by"`
	PickPass          pickPassJSON `json:"pick_pass"`
	Version           int          `json:"version"` // counts changes to the memo
}

func toMemberJSON(m planner.Member) memberJSON {
	return memberJSON{CollectionMemberID: m.ID, Nickname: m.Nickname, Picture: m.Picture, Role: string(m.Role)}
}

func toGroupJSON(ms []planner.Member) preferenceGroupJSON {
	g := preferenceGroupJSON{Members: make([]memberJSON, len(ms)), Count: len(ms)}
	for i, m := range ms {
		g.Members[i] = toMemberJSON(m)
	}
	return g
}

func toPickPassJSON(cp *planner.CollectionPlace) pickPassJSON {
	return pickPassJSON{Picked: toGroupJSON(cp.Picked), Passed: toGroupJSON(cp.Passed), MyPreference: string(cp.MyPreference)}
}

func (s *Server) toCollectionPlaceJSON(ctx context.Context, cp *planner.CollectionPlace) collectionPlaceJSON {
	out := collectionPlaceJSON{CollectionPlaceID: cp.ID, Place: s.toPlaceJSON(ctx, cp.Place),
		AddedBy: toMemberJSON(cp.AddedBy), PickPass: toPickPassJSON(cp), Version: cp.Version}
	if cp.Memo != "" {
		out.Memo = &cp.Memo
	}
	return out
}

type addCollectionPlaceRequest struct {
	PlaceID string `json:"place_id" form:"place_id"`
}

// addCollectionPlace adds a place found by search to the collection.
func (s *Server) addCollectionPlace(c echo.Context) error {
	var in addCollectionPlaceRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	v.Check(strings.TrimSpace(in.PlaceID) != "", "place_id", "is required")
	if err := v.Err(); err != nil {
		return err
	}
	cp, err := s.store.AddCollectionPlace(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), strings.TrimSpace(in.PlaceID))
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, paths.Collection(cp.CollectionID)+"/places/"+cp.ID)
	var added templ.Component
	if wantsPartial(c) {
		col, err := s.store.Collection(c.Request().Context(), caller(c).UserID, cp.CollectionID)
		if err != nil {
			return err
		}
		added = views.PlaceAdded(col.PlaceCount)
		c.Response().Header().Set("HX-Trigger", views.PlacesChanged)
	}
	return respondChange(c, http.StatusCreated, s.toCollectionPlaceJSON(c.Request().Context(), cp), added, paths.Collection(cp.CollectionID))
}

// collectionPlaceSorts are the accepted ?sort values.
var collectionPlaceSorts = map[string]planner.CollectionPlaceSort{
	"LATEST":          {Column: "created_at"},
	"OLDEST":          {Column: "created_at", OldestFirst: true},
	"CREATED_AT_DESC": {Column: "created_at"},
	"CREATED_AT_ASC":  {Column: "created_at", OldestFirst: true},
	"UPDATED_AT_DESC": {Column: "updated_at"},
	"UPDATED_AT_ASC":  {Column: "updated_at", OldestFirst: true},
}

// listCollectionPlaces lists a page of the collection's places.
func (s *Server) listCollectionPlaces(c echo.Context) error {
	q, err := readPlaceListQuery(c)
	if err != nil {
		return err
	}
	list, hasNext, err := s.store.CollectionPlaces(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), q.page, q.sort, q.filter)
	if err != nil {
		return err
	}
	partial := views.PlaceCards(s.placeListView(c, c.Param("collectionId"), list, hasNext, q.page, sortName(c, "LATEST"), q.filter))
	return respond(c, http.StatusOK, s.collectionPlacesPage(c.Request().Context(), list, hasNext, q.page), nil, partial)
}

// placeListQuery is how a list of collection places is asked for.
type placeListQuery struct {
	page   planner.Page
	sort   planner.CollectionPlaceSort
	filter planner.PlaceFilter
}

// readPlaceListQuery reads page, size, sort (alias sortType) and the filters: added_by (alias
// addedByMemberId), category (a level-1 category id) and picked (ME or ANYONE).
func readPlaceListQuery(c echo.Context) (placeListQuery, error) {
	var v planner.Validation
	q := placeListQuery{page: pageParams(c, &v), filter: planner.PlaceFilter{
		AddedBy: queryParam(c, "added_by", "addedByMemberId"), Category: c.QueryParam("category"), Picked: planner.PickedBy(c.QueryParam("picked")),
	}}
	v.Check(q.filter.AddedBy == "" || planner.ValidID(q.filter.AddedBy), "added_by", "must be a collection member id")
	v.Check(q.filter.Category == "" || places.IsTopLevel(q.filter.Category), "category", "must be a level-1 category id")
	v.Check(q.filter.Picked == "" || q.filter.Picked == planner.PickedByMe || q.filter.Picked == planner.PickedByAnyone, "picked", "must be ME or ANYONE")
	if err := v.Err(); err != nil {
		return q, err
	}
	var err error
	q.sort, err = sortParam(c, collectionPlaceSorts, "LATEST")
	return q, err
}

// collectionPlacesPage is a page of collection places as JSON.
func (s *Server) collectionPlacesPage(ctx context.Context, list []planner.CollectionPlace, hasNext bool, page planner.Page) pageJSON[collectionPlaceJSON] {
	out := make([]collectionPlaceJSON, len(list))
	for i := range list {
		out[i] = s.toCollectionPlaceJSON(ctx, &list[i])
	}
	return newPage(out, hasNext, page)
}

// collectionPlaceDetailJSON is a collection place with its source.
type collectionPlaceDetailJSON struct {
	collectionPlaceJSON
	SocialMedia *socialMediaJSON `json:"social_media"`
}

// socialMediaJSON is the page or video a place was extracted from.
type socialMediaJSON struct {
	SocialMediaID string `json:"social_media_id"`
	MediaType     string `json:"media_type"`
	URL           string `json:"url"`
	AuthorName    string `json:"author_name"`
	Title         string `json:"title"`
	Summary       string `json:"summary"`
}

func toCollectionPlaceDetailJSON(cp collectionPlaceJSON, sm *planner.SocialMedia) collectionPlaceDetailJSON {
	out := collectionPlaceDetailJSON{collectionPlaceJSON: cp}
	if sm != nil {
		out.SocialMedia = &socialMediaJSON{SocialMediaID: sm.ID, MediaType: sm.MediaType, URL: sm.URL,
			AuthorName: sm.AuthorName, Title: sm.Title, Summary: sm.Summary}
	}
	return out
}

// getCollectionPlace answers one collection place with its source (null for places added
// from search).
func (s *Server) getCollectionPlace(c echo.Context) error {
	cp, err := s.store.CollectionPlace(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), c.Param("collectionPlaceId"))
	if err != nil {
		return err
	}
	out := toCollectionPlaceDetailJSON(s.toCollectionPlaceJSON(c.Request().Context(), cp), cp.SocialMedia)
	if !wantsHTML(c) {
		return respond(c, http.StatusOK, out, nil, nil)
	}
	v, err := s.placeDetailView(c, cp)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, out, views.PlaceDetail(s.pageFor(c, shownName(c.Request().Context(), cp.Place)), v), nil)
}

type memoRequest struct {
	Memo *string `json:"memo" form:"memo"`
}

// memoMax bounds memos, in characters.
const memoMax = 300

// setCollectionPlaceMemo replaces the memo; null or "" clears it.
func (s *Server) setCollectionPlaceMemo(c echo.Context) error {
	var in memoRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	memo := planner.CheckOptionalText(&v, "memo", deref(in.Memo), memoMax)
	if err := v.Err(); err != nil {
		return err
	}
	ctx, userID, colID, cpID := c.Request().Context(), caller(c).UserID, c.Param("collectionId"), c.Param("collectionPlaceId")
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	if err := s.store.SetCollectionPlaceMemo(ctx, userID, colID, cpID, memo, expect); err != nil {
		return err
	}
	var partial templ.Component
	if wantsPartial(c) {
		cp, err := s.store.CollectionPlace(ctx, userID, colID, cpID)
		if err != nil {
			return err
		}
		partial = views.Memo(s.toPlaceCard(ctx, cp))
	}
	return respondChange(c, http.StatusNoContent, nil, partial, paths.Collection(colID))
}

// deleteCollectionPlace removes the place from the collection.
func (s *Server) deleteCollectionPlace(c echo.Context) error {
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteCollectionPlace(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), c.Param("collectionPlaceId"), expect); err != nil {
		return err
	}
	// htmx swaps the card out for nothing.
	return respondChange(c, http.StatusNoContent, nil, templ.NopComponent, paths.Collection(c.Param("collectionId")))
}

// togglePreference records PICK or PASS (?type=); the same again removes it.
func (s *Server) togglePreference(c echo.Context) error {
	pref := planner.Preference(c.QueryParam("type"))
	var v planner.Validation
	v.Check(pref == planner.PreferencePick || pref == planner.PreferencePass, "type", "must be PICK or PASS")
	if err := v.Err(); err != nil {
		return err
	}
	cp, err := s.store.TogglePreference(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), c.Param("collectionPlaceId"), pref)
	if err != nil {
		return err
	}
	var partial templ.Component
	if wantsPartial(c) { // only the card has words (its category): JSON answers never read the language
		partial = views.PickPass(s.toPlaceCard(c.Request().Context(), cp))
	}
	return respondChange(c, http.StatusOK, toPickPassJSON(cp), partial, paths.Collection(cp.CollectionID))
}
