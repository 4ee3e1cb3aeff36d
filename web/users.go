package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// userJSON is the User resource (API.md §4); the email is masked.
type userJSON struct {
	UserID        string `json:"user_id"`
	Provider      string `json:"provider"`
	Nickname      string `json:"nickname"`
	Picture       string `json:"picture"`
	Email         string `json:"email"`
	TermsAccepted bool   `json:"terms_accepted"`
}

func toUserJSON(u *planner.User) userJSON {
	return userJSON{UserID: u.ID, Provider: string(u.Provider), Nickname: u.Nickname, Picture: u.Picture,
		Email: planner.MaskEmail(u.Email), TermsAccepted: u.TermsAccepted()}
}

// me answers the signed-in user's own record.
func (s *Server) me(c echo.Context) error {
	u, err := s.store.User(c.Request().Context(), caller(c).UserID)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toUserJSON(u), nil, nil)
}

type termsResponse struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
}

// acceptTerms records acceptance and answers a full access token; a browser session is
// upgraded in place and sent on to where it was going.
func (s *Server) acceptTerms(c echo.Context) error {
	ctx := c.Request().Context()
	p := caller(c)
	u, err := s.store.AcceptTerms(ctx, p.UserID)
	browser := negotiate(c.Request()) != asJSON
	if planner.ErrorCode(err) == planner.CodeTermsAlreadyAccepted && browser {
		// A stale browser session (terms accepted elsewhere): just bring it up to date.
		u, err = s.store.User(ctx, p.UserID)
	}
	if err != nil {
		return err
	}
	if !p.Bearer {
		sess, err := s.sessions.Get(c.Request(), sessionName)
		if err != nil {
			return err
		}
		sess.Values[postgres.SessionUserKey] = u.ID
		sess.Values[sessionTerms] = true
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			return err
		}
	}
	access, expiresIn, err := s.tokens.Issue(u.ID, true)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, termsResponse{AccessToken: access, ExpiresIn: expiresIn}, nil, localPath(c.QueryParam("next"), "/home"))
}
