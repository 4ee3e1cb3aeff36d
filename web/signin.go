package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/internal/signin"
)

// beginSignIn sends the browser to the provider (GET /oauth2/authorization/{provider}),
// keeping the sign-in's state, PKCE verifier and next path — or the app that started it — in
// the flow cookie.
func (s *Server) beginSignIn(c echo.Context) error {
	p := s.signin.Get(c.Param("provider"))
	if p == nil {
		return echo.ErrNotFound
	}
	app, err := s.appRequest(c)
	if err != nil {
		return err
	}
	authURL, flow, err := s.signin.Begin(p, signin.Return{Next: localPath(c.QueryParam("next"), ""), App: app})
	if err != nil {
		return err
	}
	c.SetCookie(s.flowCookie(flow, int(signin.FlowTTL.Seconds())))
	return c.Redirect(http.StatusFound, authURL)
}

// completeSignIn is the provider's callback (GET /login/oauth2/code/{provider}). It signs the
// account's user in as dev login does — browser session and refresh cookie — and continues
// to the next path, through onboarding while the terms are pending (afterSignIn). A failed or
// refused sign-in goes back to the sign-in page with its message (signInErrorPage). A sign-in
// an app started goes back to the app instead (completeAppSignIn).
func (s *Server) completeSignIn(c echo.Context) error {
	p := s.signin.Get(c.Param("provider"))
	if p == nil {
		return echo.ErrNotFound
	}
	var flow string
	if ck, err := c.Cookie(signin.FlowCookie); err == nil {
		flow = ck.Value
	}
	c.SetCookie(s.flowCookie("", -1)) // one callback per flow
	ctx := c.Request().Context()
	account, ret, err := s.signin.Complete(ctx, p, flow, c.QueryParams())
	if ret.App != nil {
		return s.completeAppSignIn(c, p, ret.App, account, err)
	}
	if err != nil {
		s.log.WarnContext(ctx, "social sign-in failed", "provider", p.ID, "err", err)
		return c.Redirect(http.StatusFound, s.signInErrorPage(codeSignInFailed))
	}
	u, err := s.store.SignInSocial(ctx, account)
	if planner.ErrorCode(err) == planner.CodeUserWithdrawn {
		return c.Redirect(http.StatusFound, s.signInErrorPage(planner.CodeUserWithdrawn))
	}
	if err != nil {
		return err
	}
	if _, err := s.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, s.afterSignIn(c, u, ret.Next))
}

// flowCookie is the sign-in flow cookie, sent only to the callbacks of this host. The
// provider sends the browser back from its own site, so a Strict cookie would stay behind:
// with COOKIE_SAMESITE=strict it is Lax.
func (s *Server) flowCookie(value string, maxAge int) *http.Cookie {
	ck := s.cookie(signin.FlowCookie, value, maxAge)
	ck.Path, ck.Domain = signin.CallbackPath, ""
	if ck.SameSite == http.SameSiteStrictMode {
		ck.SameSite = http.SameSiteLaxMode
	}
	return ck
}
