package web

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"tripplan/internal/auth"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/views"
)

const refreshCookie = "refresh_token"

// tokenResponse is the body of dev login, reissue and apps' sign-in.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	// TermsAccepted is false while the access token is a pre-terms one.
	TermsAccepted bool `json:"terms_accepted"`
}

type devLoginRequest struct {
	Provider   string `json:"provider" form:"provider"`
	ProviderID string `json:"provider_id" form:"provider_id"`
	Nickname   string `json:"nickname" form:"nickname"`
	Picture    string `json:"picture" form:"picture"`
	Email      string `json:"email" form:"email"`
	Next       string `json:"-" form:"next"`
}

func (in *devLoginRequest) validate() error {
	var v planner.Validation
	in.Provider = strings.ToUpper(strings.TrimSpace(in.Provider))
	in.ProviderID = strings.TrimSpace(in.ProviderID)
	in.Nickname = strings.TrimSpace(in.Nickname)
	v.Check(slices.Contains(planner.DevLoginProviders, planner.Provider(in.Provider)), "provider", "must be one of GOOGLE, KAKAO, NAVER")
	v.Check(planner.ValidText(in.ProviderID, 1, 255), "provider_id", "is required, at most 255 characters")
	v.Check(planner.ValidNickname(in.Nickname), "nickname", "must be 2–10 letters or digits")
	if in.Picture != "" {
		u, err := url.Parse(in.Picture)
		v.Check(err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && len(in.Picture) <= 2048,
			"picture", "must be an http(s) URL of at most 2048 characters")
	}
	if in.Email != "" {
		at := strings.IndexByte(in.Email, '@')
		v.Check(at > 0 && at < len(in.Email)-1 && len(in.Email) <= 320, "email", "must be an email address")
	}
	return v.Err()
}

// devLogin signs a user in without a provider (development only): it upserts the user and
// answers like a completed social login.
func (s *Server) devLogin(c echo.Context) error {
	var in devLoginRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	if err := in.validate(); err != nil {
		return err
	}
	u, err := s.store.SignInUser(c.Request().Context(), planner.User{
		Provider: planner.Provider(in.Provider), ProviderID: in.ProviderID,
		Nickname: in.Nickname, Picture: in.Picture, Email: in.Email,
	})
	if err != nil {
		return err
	}
	tokens, err := s.startSession(c, u)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, tokens, nil, s.afterSignIn(c, u, in.Next))
}

// afterSignIn joins the user to the invite link the browser held as a guest, and answers where
// the browser goes once signed in: that plan or collection, else the local next path, else
// home — through the terms first when they are pending; with FRONTEND_URL, the front end's
// signed-in or terms page (signedInPage).
func (s *Server) afterSignIn(c echo.Context, u *planner.User, next string) string {
	next = localPath(next, views.HomePath)
	if joined := s.joinHeldInvite(c, u.ID); joined != "" {
		next = joined
	}
	return s.signedInPage(u.TermsAccepted(), next)
}

// newSignIn issues the access and refresh tokens of a fresh sign-in (a new refresh-token
// family, which names the sign-in session).
func (s *Server) newSignIn(ctx context.Context, u *planner.User) (tokens *tokenResponse, session string, err error) {
	secret, hash := auth.NewRefreshToken()
	session, err = s.store.CreateRefreshToken(ctx, u.ID, hash, time.Now().Add(auth.RefreshTTL))
	if err != nil {
		return nil, "", err
	}
	access, expiresIn, err := s.tokens.Issue(u.ID, session, u.TermsAccepted())
	if err != nil {
		return nil, "", err
	}
	return &tokenResponse{AccessToken: access, ExpiresIn: expiresIn, RefreshToken: secret, TermsAccepted: u.TermsAccepted()}, session, nil
}

// startSession issues the access and refresh tokens of a fresh sign-in and sets the browser
// session and refresh cookies.
func (s *Server) startSession(c echo.Context, u *planner.User) (*tokenResponse, error) {
	tokens, session, err := s.newSignIn(c.Request().Context(), u)
	if err != nil {
		return nil, err
	}
	s.setRefreshCookie(c, tokens.RefreshToken)
	if u.Language != nil { // the user's language comes along to this browser
		s.setLanguageCookie(c, u.Language)
	}
	sess, err := s.sessions.New(c.Request(), sessionName)
	if err != nil {
		return nil, err
	}
	// A new session id at every sign-in (no session fixation). The browser session belongs to
	// the sign-in's session too: signing out of either ends both.
	sess.ID = ""
	sess.Values = map[any]any{postgres.SessionUserKey: u.ID, sessionTerms: u.TermsAccepted(), sessionID: session}
	if err := sess.Save(c.Request(), c.Response()); err != nil {
		return nil, err
	}
	return tokens, nil
}

// cookie is a cookie the server sets (refresh, guest, sign-in flow) with the attributes every
// one of them has (cookieOptions).
func (s *Server) cookie(name, value string, maxAge int) *http.Cookie {
	o := cookieOptions(s.cfg, maxAge)
	return sessions.NewCookie(name, value, &o)
}

func (s *Server) setRefreshCookie(c echo.Context, secret string) {
	c.SetCookie(s.cookie(refreshCookie, secret, int(auth.RefreshTTL.Seconds())))
}

// SessionOptions are the browser session cookie's options for a configuration.
func SessionOptions(cfg Config) sessions.Options {
	return cookieOptions(cfg, int(auth.RefreshTTL.Seconds()))
}

// cookieOptions are the one place the attributes of the server's cookies are decided: for the
// whole site, never readable by scripts, Secure outside development, SameSite as configured
// (COOKIE_SAMESITE; Lax unless set) and Secure whenever it is None, for the configured domain
// (COOKIE_DOMAIN; unset, this host only).
func cookieOptions(cfg Config, maxAge int) sessions.Options {
	sameSite := cmp.Or(cfg.CookieSameSite, http.SameSiteLaxMode)
	return sessions.Options{Path: "/", Domain: cfg.CookieDomain, MaxAge: maxAge, HttpOnly: true,
		Secure: cfg.SecureCookies || sameSite == http.SameSiteNoneMode, SameSite: sameSite}
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token" form:"refresh_token"`
}

// presentedRefreshToken is the refresh token from the body or, failing that, the cookie.
func presentedRefreshToken(c echo.Context) (string, error) {
	var in refreshRequest
	if err := c.Bind(&in); err != nil {
		return "", err
	}
	if in.RefreshToken != "" {
		return in.RefreshToken, nil
	}
	if ck, err := c.Cookie(refreshCookie); err == nil {
		return ck.Value, nil
	}
	return "", nil
}

// reissue exchanges a refresh token for a new access token and a rotated refresh token.
func (s *Server) reissue(c echo.Context) error {
	presented, err := presentedRefreshToken(c)
	if err != nil {
		return err
	}
	if presented == "" || len(presented) > 256 {
		return planner.Errorf(planner.CodeInvalidToken, "A refresh token is required (cookie or body).")
	}
	secret, hash := auth.NewRefreshToken()
	u, session, err := s.store.RotateRefreshToken(c.Request().Context(), auth.HashRefreshToken(presented), hash, time.Now().Add(auth.RefreshTTL), s.cfg.RefreshReuseGrace)
	if err != nil {
		if planner.ErrorCode(err) == planner.CodeInvalidToken {
			c.SetCookie(s.cookie(refreshCookie, "", -1))
		}
		return err
	}
	access, expiresIn, err := s.tokens.Issue(u.ID, session, u.TermsAccepted())
	if err != nil {
		return err
	}
	s.setRefreshCookie(c, secret)
	return c.JSON(http.StatusOK, tokenResponse{AccessToken: access, ExpiresIn: expiresIn, RefreshToken: secret, TermsAccepted: u.TermsAccepted()})
}

// logout ends the caller's sign-in session — the one its access token or browser session
// names, and the presented refresh token's family — so that their refresh and access tokens
// stop working on every instance, deletes the browser session and clears the cookies.
func (s *Server) logout(c echo.Context) error {
	presented, err := presentedRefreshToken(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if presented != "" {
		if err := s.store.RevokeRefreshToken(ctx, auth.HashRefreshToken(presented)); err != nil {
			return err
		}
	}
	if p := caller(c); p.Session != "" {
		if err := s.store.RevokeSession(ctx, p.UserID, p.Session); err != nil {
			return err
		}
	}
	if err := s.clearSignIn(c); err != nil {
		return err
	}
	// The browser's HTTP cache goes too (the service worker drops its kept pages itself: the
	// request, then the signed-out page after it; static/js/sw.js).
	c.Response().Header().Set("Clear-Site-Data", `"cache"`)
	return respondChange(c, http.StatusNoContent, nil, nil, "/")
}

// clearSignIn deletes this browser's session and clears the session and refresh cookies.
func (s *Server) clearSignIn(c echo.Context) error {
	if _, err := c.Cookie(sessionName); err == nil {
		sess, err := s.sessions.Get(c.Request(), sessionName)
		if err != nil {
			return err
		}
		sess.Options.MaxAge = -1
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			return err
		}
	}
	c.SetCookie(s.cookie(refreshCookie, "", -1))
	return nil
}
