package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// planCollectionJSON is a collection linked to a plan.
type planCollectionJSON struct {
	CollectionID string      `json:"collection_id"`
	Title        string      `json:"title"`
	AddedBy      addedByJSON `json:"added_by"`
}

// addedByJSON is the plan member who added something.
type addedByJSON struct {
	PlanMemberID string `json:"plan_member_id"`
	Nickname     string `json:"nickname"`
	Picture      string `json:"picture"`
}

func toAddedByJSON(m planner.Member) addedByJSON {
	return addedByJSON{PlanMemberID: m.ID, Nickname: m.Nickname, Picture: m.Picture}
}

func toPlanCollectionsJSON(list []planner.PlanCollection) []planCollectionJSON {
	out := make([]planCollectionJSON, len(list))
	for i, pc := range list {
		out[i] = planCollectionJSON{CollectionID: pc.CollectionID, Title: pc.Title, AddedBy: toAddedByJSON(pc.AddedBy)}
	}
	return out
}

// planCollections lists the collections linked to the plan.
func (s *Server) planCollections(c echo.Context) error {
	list, err := s.store.PlanCollections(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toPlanCollectionsJSON(list), nil, nil)
}

type linkCollectionsRequest struct {
	CollectionIDs []string `json:"collection_ids" form:"collection_ids"`
}

// linkCollections links collections the caller belongs to; if any is linked already, none is.
func (s *Server) linkCollections(c echo.Context) error {
	var in linkCollectionsRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	ids := make([]string, 0, len(in.CollectionIDs))
	for _, id := range in.CollectionIDs {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	var v planner.Validation
	v.Check(len(ids) > 0 && len(ids) == len(in.CollectionIDs), "collection_ids", "must be a non-empty list of collection ids")
	v.Checkf(len(ids) <= planner.LinkCollectionsMax, "collection_ids", "must list at most %d collections", planner.LinkCollectionsMax)
	if err := v.Err(); err != nil {
		return err
	}
	linked, err := s.store.LinkCollections(c.Request().Context(), caller(c).UserID, c.Param("planId"), ids)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusCreated, toPlanCollectionsJSON(linked), nil, paths.Plan(c.Param("planId")))
}

// unlinkCollection unlinks a collection; blocks made from its places stay.
func (s *Server) unlinkCollection(c echo.Context) error {
	if err := s.store.UnlinkCollection(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("collectionId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, paths.Plan(c.Param("planId")))
}

// planCollectionPlaces lists a linked collection's places, as the collection places list does.
func (s *Server) planCollectionPlaces(c echo.Context) error {
	q, err := readPlaceListQuery(c)
	if err != nil {
		return err
	}
	list, hasNext, err := s.store.PlanCollectionPlaces(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("collectionId"), q.page, q.sort, q.filter)
	if err != nil {
		return err
	}
	partial := s.planPlacesPartial(c.Request().Context(), c.Param("planId"), c.Param("collectionId"), list, hasNext, q.page)
	return respond(c, http.StatusOK, s.collectionPlacesPage(c.Request().Context(), list, hasNext, q.page), nil, partial)
}

// planCollectionPlace answers one place of a linked collection with its source.
func (s *Server) planCollectionPlace(c echo.Context) error {
	cp, err := s.store.PlanCollectionPlace(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("collectionId"), c.Param("collectionPlaceId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toCollectionPlaceDetailJSON(s.toCollectionPlaceJSON(c.Request().Context(), cp), cp.SocialMedia), nil, nil)
}
