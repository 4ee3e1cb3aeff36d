package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/views"
)

// userJSON is the User resource (docs/API.md §Resources); the email is masked.
type userJSON struct {
	UserID        string  `json:"user_id"`
	Provider      string  `json:"provider"`
	Nickname      string  `json:"nickname"`
	Picture       string  `json:"picture"`
	Email         string  `json:"email"`
	TermsAccepted bool    `json:"terms_accepted"`
	Language      *string `json:"language"`
}

func toUserJSON(u *planner.User) userJSON {
	return userJSON{UserID: u.ID, Provider: string(u.Provider), Nickname: u.Nickname, Picture: u.Picture,
		Email: planner.MaskEmail(u.Email), TermsAccepted: u.TermsAccepted(), Language: u.Language}
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
	access, expiresIn, err := s.tokens.Issue(u.ID, p.Session, true)
	if err != nil {
		return err
	}
	next := views.NicknamePath + "?next=" + url.QueryEscape(localPath(c.FormValue("next"), views.HomePath))
	return respondChange(c, http.StatusOK, termsResponse{AccessToken: access, ExpiresIn: expiresIn}, nil, next)
}

type profileRequest struct {
	Nickname *string         `json:"nickname"`
	Language json.RawMessage `json:"language"` // absent, null, "ko" or "en"
}

// updateMe changes the nickname (2–10 letters or digits, copied to the user's memberships)
// and the language ("ko", "en", or null to follow the browser), each when given; at least one.
// The profile page's forms send one of them.
func (s *Server) updateMe(c echo.Context) error {
	var ch planner.ProfileChange
	var v planner.Validation
	if isForm(c) {
		if err := c.Request().ParseForm(); err != nil {
			return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
		}
		f := c.Request().PostForm
		if _, ok := f["nickname"]; ok {
			n := f.Get("nickname")
			ch.Nickname = &n
		}
		if _, ok := f["language"]; ok {
			ch.SetLanguage = true
			if l := f.Get("language"); l != "" {
				ch.Language = &l
			}
		}
	} else {
		var in profileRequest
		if err := c.Bind(&in); err != nil {
			return err
		}
		ch.Nickname = in.Nickname
		if in.Language != nil {
			ch.SetLanguage = true
			if string(in.Language) != "null" {
				var l string
				v.Check(json.Unmarshal(in.Language, &l) == nil, "language", `must be "ko", "en" or null`)
				ch.Language = &l
			}
		}
	}
	v.Check(ch.Nickname != nil || ch.SetLanguage, "nickname", "give a nickname or a language")
	if ch.Nickname != nil {
		n := strings.TrimSpace(*ch.Nickname)
		ch.Nickname = &n
		v.Check(planner.ValidNickname(n), "nickname", "must be 2–10 letters or digits")
	}
	if ch.Language != nil && !v.Has("language") {
		l, ok := i18n.Parse(*ch.Language)
		v.Check(ok, "language", `must be "ko", "en" or null`)
		*ch.Language = string(l)
	}
	if err := v.Err(); err != nil {
		return err
	}
	u, err := s.store.UpdateProfile(c.Request().Context(), caller(c).UserID, ch)
	if err != nil {
		return err
	}
	if ch.SetLanguage {
		s.setLanguageCookie(c, u.Language)
	}
	return respondChange(c, http.StatusOK, toUserJSON(u), nil, localPath(c.QueryParam("next"), views.ProfilePath))
}

type withdrawRequest struct {
	Reason string `json:"reason" form:"reason"`
}

// withdrawReasonMax bounds the reason for deleting an account, in characters.
const withdrawReasonMax = 2000

// withdraw deletes the caller's account (see postgres.WithdrawUser) and signs this client out.
func (s *Server) withdraw(c echo.Context) error {
	var in withdrawRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	reason := planner.CheckText(&v, "reason", in.Reason, withdrawReasonMax)
	if err := v.Err(); err != nil {
		return err
	}
	ctx, userID := c.Request().Context(), caller(c).UserID
	if err := s.store.WithdrawUser(ctx, userID, reason); err != nil {
		return err
	}
	if err := s.files.DeleteUser(ctx, userID); err != nil { // the orphan job deletes what is left
		s.log.WarnContext(ctx, "delete a withdrawn user's pictures", "user_id", userID, "err", err)
	}
	if err := s.clearSignIn(c); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, "/")
}
