package web

import (
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

type opinionRequest struct {
	Type    string   `json:"type" form:"type"`
	TagIDs  []string `json:"tag_ids" form:"tag_ids"`
	Comment *string  `json:"comment" form:"comment"`
}

// opinionCommentMax bounds an opinion's comment, in characters.
const opinionCommentMax = 300

// tagID is the shape of a reason tag: "view", "long_queue".
var tagID = regexp.MustCompile(`^[a-z0-9_-]{1,40}$`)

// readOpinion binds an opinion's body and checks it.
func readOpinion(c echo.Context) (planner.OpinionInput, error) {
	var in opinionRequest
	if err := c.Bind(&in); err != nil {
		return planner.OpinionInput{}, err
	}
	return in.input()
}

func (in opinionRequest) input() (planner.OpinionInput, error) {
	out := planner.OpinionInput{Type: planner.OpinionType(in.Type), TagIDs: in.TagIDs}
	var v planner.Validation
	switch out.Type {
	case planner.OpinionPositive, planner.OpinionNeutral, planner.OpinionNegative:
	default:
		v.Add("type", "must be POSITIVE, NEUTRAL or NEGATIVE")
	}
	out.Comment = planner.CheckOptionalText(&v, "comment", deref(in.Comment), opinionCommentMax)
	v.Checkf(len(in.TagIDs) <= planner.OpinionTagsMax, "tag_ids", "must list at most %d tags", planner.OpinionTagsMax)
	for _, t := range in.TagIDs {
		v.Check(tagID.MatchString(t), "tag_ids", "must hold tag ids of lower-case letters, digits, _ and -")
	}
	return out, v.Err()
}

// opinionsPath is where a candidate's opinions are.
func opinionsPath(c echo.Context) string {
	return paths.Plan(c.Param("planId")) + "/blocks/" + c.Param("blockId") + "/opinions"
}

// addOpinion records the caller's opinion of a place candidate.
func (s *Server) addOpinion(c echo.Context) error {
	op, err := readOpinion(c)
	if err != nil {
		return err
	}
	o, err := s.store.AddOpinion(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"), op)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, opinionsPath(c)+"/"+o.ID)
	return s.opinionChanged(c, http.StatusCreated, toOpinionJSON(*o))
}

// listOpinions lists a candidate's opinions, oldest first.
func (s *Server) listOpinions(c echo.Context) error {
	list, err := s.store.Opinions(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"))
	if err != nil {
		return err
	}
	out := make([]opinionJSON, len(list))
	for i, o := range list {
		out[i] = toOpinionJSON(o)
	}
	return respond(c, http.StatusOK, out, nil, nil)
}

// getOpinion answers one opinion.
func (s *Server) getOpinion(c echo.Context) error {
	o, err := s.store.Opinion(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"), c.Param("opinionId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toOpinionJSON(*o), nil, nil)
}

// updateOpinion replaces the caller's own opinion.
func (s *Server) updateOpinion(c echo.Context) error {
	op, err := readOpinion(c)
	if err != nil {
		return err
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	o, err := s.store.UpdateOpinion(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"), c.Param("opinionId"), op, expect)
	if err != nil {
		return err
	}
	return s.opinionChanged(c, http.StatusOK, toOpinionJSON(*o))
}

// deleteOpinion deletes the caller's own opinion.
func (s *Server) deleteOpinion(c echo.Context) error {
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteOpinion(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"), c.Param("opinionId"), expect); err != nil {
		return err
	}
	return s.opinionChanged(c, http.StatusNoContent, nil)
}

// opinionChanged answers an opinion change: JSON, or for the plan page the candidate picker
// with the new tallies.
func (s *Server) opinionChanged(c echo.Context, status int, data any) error {
	partial, err := s.pickerAfterOpinion(c)
	if err != nil {
		return err
	}
	return respondChange(c, status, data, partial, paths.Plan(c.Param("planId")))
}
