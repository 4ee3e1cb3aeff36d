package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"

	"tripplan/internal/planner"
	"tripplan/internal/signin"
)

// Sign-in for apps (docs/API.md §App sign-in; docs/MOBILE.md for app developers). An app either runs
// the browser sign-in and is sent back with a one-time code, which POST /auth/token exchanges
// for tokens with the PKCE verifier; or it signs in with the provider's own SDK and hands the
// SDK's token to POST /auth/{provider}/token. Both answer tokens in the body and set no cookie.

const (
	// appCodeTTL is how long an app's one-time sign-in code may be exchanged.
	appCodeTTL = 60 * time.Second
	// providerTokenMax caps the provider's token an app sends (ID tokens are 1–2 KB).
	providerTokenMax = 8192
)

// appRequest is the app sign-in that GET /oauth2/authorization/{provider} asks for, or nil for
// a browser's own: redirect_uri must be one of CLIENT_REDIRECT_URIS exactly and comes with an
// S256 PKCE challenge. Anything else is refused (400) before the browser is sent anywhere.
func (s *Server) appRequest(c echo.Context) (*signin.App, error) {
	q := c.QueryParams()
	if !q.Has("redirect_uri") && !q.Has("code_challenge") && !q.Has("code_challenge_method") {
		return nil, nil
	}
	switch {
	case len(q["redirect_uri"]) != 1 || len(q["code_challenge"]) > 1 || len(q["code_challenge_method"]) > 1:
		return nil, planner.Errorf(planner.CodeInvalidRequest, "This app's sign-in request is malformed (it needs exactly one redirect_uri and one code_challenge), so sign-in stops here.")
	case !slices.Contains(s.cfg.ClientRedirectURIs, q.Get("redirect_uri")):
		return nil, planner.Errorf(planner.CodeInvalidRequest, "This app asked to be sent back to an address that this server does not know, so sign-in stops here.")
	case q.Get("code_challenge_method") != "S256" || !validChallenge(q.Get("code_challenge")):
		return nil, planner.Errorf(planner.CodeInvalidRequest, "This app's sign-in request lacks its security check (an S256 code_challenge), so sign-in stops here.")
	}
	return &signin.App{RedirectURI: q.Get("redirect_uri"), Challenge: q.Get("code_challenge")}, nil
}

// validChallenge reports whether ch is an S256 code challenge: a SHA-256 in unpadded base64url.
func validChallenge(ch string) bool {
	b, err := base64.RawURLEncoding.Strict().DecodeString(ch)
	return err == nil && len(b) == sha256.Size
}

// completeAppSignIn ends a sign-in that an app started: the browser goes back to the app's
// redirect URI with a one-time code (?code=…), or with ?error=failed (the sign-in did not
// complete) or ?error=withdrawn (the account was deleted). No browser session is started: the
// app exchanges the code for tokens of its own.
func (s *Server) completeAppSignIn(c echo.Context, p *signin.Provider, app *signin.App, account planner.User, err error) error {
	ctx := c.Request().Context()
	if err != nil {
		s.log.WarnContext(ctx, "app sign-in failed", "provider", p.ID, "err", err)
		return backToApp(c, app, "error", "failed")
	}
	u, err := s.store.SignInSocial(ctx, account)
	if planner.ErrorCode(err) == planner.CodeUserWithdrawn {
		return backToApp(c, app, "error", "withdrawn")
	}
	if err != nil {
		return err
	}
	code := rand.Text()
	if err := s.store.CreateAppCode(ctx, appCodeHash(code), u.ID, app.RedirectURI, app.Challenge, appCodeTTL); err != nil {
		return err
	}
	return backToApp(c, app, "code", code)
}

// backToApp redirects the browser to the app's redirect URI with key=value added to its query.
func backToApp(c echo.Context, app *signin.App, key, value string) error {
	u, err := url.Parse(app.RedirectURI) // one of CLIENT_REDIRECT_URIS, checked when read
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return c.Redirect(http.StatusFound, u.String())
}

func appCodeHash(code string) []byte {
	h := sha256.Sum256([]byte(code))
	return h[:]
}

// appTokenRequest is the body of POST /auth/token, JSON or a form (as OAuth clients send it).
type appTokenRequest struct {
	GrantType    string `json:"grant_type" form:"grant_type"`
	Code         string `json:"code" form:"code"`
	CodeVerifier string `json:"code_verifier" form:"code_verifier"`
	RedirectURI  string `json:"redirect_uri" form:"redirect_uri"`
}

var errInvalidGrant = planner.Errorf(planner.CodeInvalidGrant,
	"The sign-in code was not accepted: each code works once, for 60 seconds, with the code_verifier and redirect_uri of the sign-in that made it. Sign in again.")

// redeemAppCode exchanges an app's one-time code for the tokens of a new sign-in (POST
// /auth/token). The code is used up by the attempt, even when the verifier or the redirect URI
// is wrong, so that it cannot be tried again.
func (s *Server) redeemAppCode(c echo.Context) error {
	var in appTokenRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	if in.GrantType != "authorization_code" {
		return planner.Errorf(planner.CodeInvalidGrant, "grant_type must be authorization_code.")
	}
	if in.Code == "" || len(in.Code) > 64 {
		return errInvalidGrant
	}
	ctx := c.Request().Context()
	code, err := s.store.RedeemAppCode(ctx, appCodeHash(in.Code))
	if err != nil {
		return err
	}
	if code == nil || in.RedirectURI != code.RedirectURI || !verifierAnswers(in.CodeVerifier, code.Challenge) {
		return errInvalidGrant
	}
	tokens, _, err := s.newSignIn(ctx, &code.User)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, tokens)
}

// verifierAnswers reports whether the PKCE code verifier (RFC 7636: 43–128 characters of
// letters, digits and -._~) is the one the S256 challenge was made from.
func verifierAnswers(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	for _, r := range verifier {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '.' || r == '_' || r == '~') {
			return false
		}
	}
	return subtle.ConstantTimeCompare([]byte(oauth2.S256ChallengeFromVerifier(verifier)), []byte(challenge)) == 1
}

// providerTokenRequest is the body of POST /auth/{provider}/token: the ID token (Google, Apple,
// OpenID Connect) or the access token (Kakao, Naver) the provider's SDK gave the app.
type providerTokenRequest struct {
	IDToken     string `json:"id_token" form:"id_token"`
	AccessToken string `json:"access_token" form:"access_token"`
}

// signInWithProviderToken signs an app in with its provider SDK's token (POST
// /auth/{provider}/token): the token is checked with the provider, and its account signed in
// as the web flow signs in the same account — the same user.
func (s *Server) signInWithProviderToken(c echo.Context) error {
	n := s.signin.Native(c.Param("provider"))
	if n == nil {
		return planner.Errorf(planner.CodeNotFound, "Apps cannot sign in with this provider here: it is not set up on this server.")
	}
	var in providerTokenRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	field, token := "id_token", in.IDToken
	if n.AccessToken {
		field, token = "access_token", in.AccessToken
	}
	var v planner.Validation
	v.Checkf(token != "" && len(token) <= providerTokenMax, field, "is required, at most %d characters", providerTokenMax)
	if err := v.Err(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	account, err := n.SignIn(ctx, token)
	switch {
	case errors.Is(err, signin.ErrInvalidToken):
		s.log.InfoContext(ctx, "app sign-in token refused", "provider", n.ID, "err", err)
		return planner.Errorf(planner.CodeInvalidToken,
			"The provider's token was not accepted: it has expired, was made for another app, or does not come from the provider. Sign in with the provider again.")
	case err != nil:
		s.log.WarnContext(ctx, "app sign-in: the provider could not be asked", "provider", n.ID, "err", err)
		return planner.Errorf(planner.CodeServiceUnavailable, "The sign-in provider could not be asked about the token; try again shortly.")
	}
	u, err := s.store.SignInSocial(ctx, account)
	if err != nil {
		return err
	}
	tokens, _, err := s.newSignIn(ctx, u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, tokens)
}
