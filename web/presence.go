package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/views"
)

// presenceJSON is who has the plan open: the members (each once) and how many guests.
type presenceJSON struct {
	memberGroupJSON[planMemberJSON]
	Guests int `json:"guests"`
}

// planPresence answers who has the plan open right now (each open event stream counts), as
// JSON or as the plan page's "who's here" strip, which reloads on every `presence` event.
func (s *Server) planPresence(c echo.Context) error {
	p, err := s.store.PlanPresence(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	out := presenceJSON{memberGroupJSON: toMemberGroupJSON(c, &p.MemberGroup, toPlanMemberJSON), Guests: p.Guests}
	return respond(c, http.StatusOK, out, nil, views.Presence(toPresenceView(p)))
}

// toPresenceView is the strip: everyone here but the viewer.
func toPresenceView(p *planner.Presence) views.PresenceView {
	v := views.PresenceView{Guests: p.Guests, Others: []views.MemberView{}}
	for _, m := range p.Members {
		if p.Me == nil || m.ID != p.Me.ID {
			v.Others = append(v.Others, toMemberView(m))
		}
	}
	if p.Me == nil && v.Guests > 0 {
		v.Guests-- // the viewer is a guest
	}
	return v
}
