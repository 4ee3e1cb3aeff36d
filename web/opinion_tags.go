package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
)

// opinionTagJSON is a canned reason for an opinion, labelled in the answer's language.
type opinionTagJSON struct {
	TagID string `json:"tag_id"`
	Type  string `json:"type"`
	Label string `json:"label"`
}

// listOpinionTags answers the canned reasons offered for a category (category_id, of any
// level of the taxonomy), or every one when none is named; a category_id that is not in the
// taxonomy is 400 INVALID_REQUEST naming the field.
func (s *Server) listOpinionTags(c echo.Context) error {
	tags := s.opinionTags.All()
	if id := strings.TrimSpace(c.QueryParam("category_id")); id != "" {
		var ok bool
		if tags, ok = s.opinionTags.For(id); !ok {
			var v planner.Validation
			v.Add("category_id", "must be a category id of the taxonomy, such as 101000")
			return v.Err()
		}
	}
	lang := string(s.answerLanguage(c))
	out := make([]opinionTagJSON, len(tags))
	for i, t := range tags {
		out[i] = opinionTagJSON{TagID: t.ID, Type: string(t.Type), Label: t.Label(lang)}
	}
	return respond(c, http.StatusOK, out, nil, nil)
}
