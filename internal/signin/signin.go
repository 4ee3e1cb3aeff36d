// Package signin is social sign-in: the goth providers the environment enables (Google,
// Kakao, Naver, Apple and a generic OpenID Connect provider) and the authorization-code flow
// through them, with state and, where the provider's goth package can send it, PKCE.
//
// The flow is kept in the browser between its start and the provider's callback, in a
// short-lived cookie that is signed and encrypted with keys derived from the session secret,
// so any instance can finish a sign-in another started. An app may start the flow too, to be
// sent back to with a one-time code (App).
//
// Apps that sign in with a provider's own SDK hand over its ID token or access token instead,
// which is checked with the provider (Native, native.go): ID tokens with go-oidc.
package signin

import (
	"context"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gorilla/securecookie"
	"github.com/markbates/goth"
	"github.com/markbates/goth/providers/apple"
	"github.com/markbates/goth/providers/google"
	"github.com/markbates/goth/providers/kakao"
	"github.com/markbates/goth/providers/naver"
	"golang.org/x/oauth2"

	"tripplan/internal/planner"
)

// The sign-in routes are StartPath and CallbackPath followed by a provider's ID.
const (
	StartPath    = "/oauth2/authorization/"
	CallbackPath = "/login/oauth2/code/"
)

// FlowCookie holds a sign-in in progress; it is sent only to CallbackPath and lives FlowTTL.
const (
	FlowCookie = "signin_flow"
	FlowTTL    = 10 * time.Minute
)

// Client is an OAuth client registered with a provider; it is enabled when both are set.
type Client struct{ ID, Secret string }

func (c Client) enabled() bool { return c.ID != "" && c.Secret != "" }

// Apple is a Sign in with Apple client: its Services ID, and the team, key id and PKCS #8
// private key (PEM) that its client secret — a short-lived ES256 JWT — is signed with.
type Apple struct{ ClientID, TeamID, KeyID, PrivateKey string }

func (a Apple) enabled() bool {
	return a.ClientID != "" && a.TeamID != "" && a.KeyID != "" && a.PrivateKey != ""
}

// OIDC is a generic OpenID Connect provider, found by discovery at Issuer. Name labels its
// button; its ID is "oidc".
type OIDC struct{ Issuer, ClientID, Secret, Name string }

func (o OIDC) enabled() bool { return o.Issuer != "" && o.ClientID != "" && o.Secret != "" }

// Config is the sign-in configuration, from the environment.
type Config struct {
	Google, Kakao, Naver Client
	Apple                Apple
	OIDC                 OIDC
	// GoogleClientIDs, AppleClientIDs and OIDCClientIDs are apps' client ids (iOS, Android;
	// Apple: bundle ids) whose ID tokens apps may sign in with, besides the web client's.
	GoogleClientIDs, AppleClientIDs, OIDCClientIDs []string
	// GoogleIssuer, AppleIssuer, KakaoAPI and NaverAPI replace the real issuers and APIs that
	// apps' tokens are checked with (tests); empty: the real ones (see the constants).
	GoogleIssuer, AppleIssuer, KakaoAPI, NaverAPI string
	// Key is the secret the flow cookie's keys are derived from (the session secret).
	Key []byte
	// HTTPClient talks to the providers; nil means one with a 10-second timeout.
	HTTPClient *http.Client
}

// Provider is one enabled provider.
type Provider struct {
	ID   string           // in the paths: google, kakao, naver, apple, oidc
	Name string           // on the sign-in button: "Google"
	Kind planner.Provider // stored with the user: GOOGLE, …, OIDC
	// pkce sends an S256 code challenge and its verifier. Only goth's openidConnect passes a
	// verifier to the token exchange; its google, kakao, naver and apple packages cannot.
	pkce bool
	// goth returns the goth provider (Apple's is built per use to sign a fresh secret).
	goth func() (goth.Provider, error)
	// verify, when set, checks the token response before the user is read.
	verify func(ctx context.Context, s goth.Session) error
}

// Providers are the enabled providers, those apps may sign in with through their SDKs, and
// the flow cookie's codec.
type Providers struct {
	list   []*Provider
	native []*Native
	codec  *securecookie.SecureCookie
}

// New sets up the providers cfg enables, with callbacks at baseURL + CallbackPath + id.
// The OpenID Connect provider's discovery document is fetched here when its web client is
// configured.
func New(ctx context.Context, baseURL string, cfg Config) (*Providers, error) {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	callback := func(id string) string { return baseURL + CallbackPath + id }
	ps := &Providers{}
	var oidcIssuer *issuer
	if cfg.OIDC.Issuer != "" {
		oidcIssuer = &issuer{url: cfg.OIDC.Issuer, hc: hc}
	}
	if c := cfg.Google; c.enabled() {
		g := google.New(c.ID, c.Secret, callback("google"), "openid", "email", "profile")
		g.HTTPClient = hc
		ps.list = append(ps.list, &Provider{ID: "google", Name: "Google", Kind: planner.ProviderGoogle, goth: fixed(g)})
	}
	if c := cfg.Kakao; c.enabled() {
		k := kakao.New(c.ID, c.Secret, callback("kakao"))
		k.HTTPClient = hc
		ps.list = append(ps.list, &Provider{ID: "kakao", Name: "Kakao", Kind: planner.ProviderKakao, goth: fixed(k)})
	}
	if c := cfg.Naver; c.enabled() {
		n := naver.New(c.ID, c.Secret, callback("naver"))
		n.HTTPClient = hc
		ps.list = append(ps.list, &Provider{ID: "naver", Name: "Naver", Kind: planner.ProviderNaver, goth: fixed(n)})
	}
	if a := cfg.Apple; a.enabled() {
		p, err := appleProvider(a, callback("apple"), hc)
		if err != nil {
			return nil, err
		}
		ps.list = append(ps.list, p)
	}
	if o := cfg.OIDC; o.enabled() {
		p, err := oidcProvider(ctx, o, oidcIssuer, callback("oidc"))
		if err != nil {
			return nil, err
		}
		ps.list = append(ps.list, p)
	}
	var err error
	if ps.native, err = natives(cfg, hc, oidcIssuer); err != nil {
		return nil, err
	}
	if len(ps.list) == 0 {
		return ps, nil
	}
	if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("social sign-in needs the public base URL for its callbacks, not %q", baseURL)
	}
	if len(cfg.Key) < 32 {
		return nil, errors.New("social sign-in needs a key of at least 32 bytes")
	}
	keys, err := hkdf.Key(sha256.New, cfg.Key, nil, "tripplan sign-in flow cookie", 64)
	if err != nil {
		return nil, err
	}
	ps.codec = securecookie.New(keys[:32], keys[32:]).MaxAge(int(FlowTTL.Seconds())).SetSerializer(securecookie.JSONEncoder{})
	return ps, nil
}

func fixed(p goth.Provider) func() (goth.Provider, error) {
	return func() (goth.Provider, error) { return p, nil }
}

// appleProvider signs in with Apple. It asks for no scopes: with name or email Apple posts the
// callback cross-site (response_mode=form_post), which the SameSite=Lax flow cookie and the
// cross-origin protection rightly refuse. So Apple gives only its stable user id, and the
// user starts with the default nickname.
func appleProvider(a Apple, callback string, hc *http.Client) (*Provider, error) {
	// Apple PEM keys often arrive in one environment line with \n escapes.
	key := strings.ReplaceAll(a.PrivateKey, `\n`, "\n")
	secret := func() (string, error) {
		now := time.Now()
		s, err := apple.MakeSecret(apple.SecretParams{PKCS8PrivateKey: key, TeamId: a.TeamID, KeyId: a.KeyID, ClientId: a.ClientID,
			Iat: int(now.Unix()), Exp: int(now.Add(FlowTTL).Unix())})
		if err != nil {
			return "", fmt.Errorf("apple client secret: %w", err)
		}
		return *s, nil
	}
	if _, err := secret(); err != nil {
		return nil, err
	}
	return &Provider{ID: "apple", Name: "Apple", Kind: planner.ProviderApple, goth: func() (goth.Provider, error) {
		s, err := secret()
		if err != nil {
			return nil, err
		}
		return apple.New(a.ClientID, s, callback, hc), nil
	}}, nil
}

// List is the enabled providers in a fixed order.
func (ps *Providers) List() []*Provider { return ps.list }

// Get is the enabled provider with the id, or nil.
func (ps *Providers) Get(id string) *Provider {
	for _, p := range ps.list {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// App is a sign-in that an app started in the browser (docs/API.md §App sign-in): once signed in, the
// browser goes back to the app at RedirectURI with a one-time code, which only the holder of
// the PKCE verifier that Challenge (S256) was made from can exchange for tokens.
type App struct {
	RedirectURI string `json:"r"`
	Challenge   string `json:"c"`
}

// Return is where a sign-in goes back to: the app, or else the local path Next.
type Return struct {
	Next string
	App  *App
}

// flow is what the flow cookie holds between the start of a sign-in and its callback.
type flow struct {
	Provider string `json:"p"`
	State    string `json:"s"`
	Verifier string `json:"v,omitempty"` // PKCE code verifier
	Next     string `json:"n,omitempty"` // where to go once signed in
	App      *App   `json:"a,omitempty"` // or the app to go back to
	Session  string `json:"g"`           // goth's marshalled session
}

// Begin starts a sign-in with p that returns to ret: the URL to send the browser to, and
// the value of the flow cookie to set.
func (ps *Providers) Begin(p *Provider, ret Return) (authURL, cookie string, err error) {
	f := flow{Provider: p.ID, State: rand.Text(), Next: ret.Next, App: ret.App}
	gp, err := p.goth()
	if err != nil {
		return "", "", err
	}
	sess, err := gp.BeginAuth(f.State)
	if err != nil {
		return "", "", err
	}
	if authURL, err = sess.GetAuthURL(); err != nil {
		return "", "", err
	}
	if p.pkce {
		f.Verifier = oauth2.GenerateVerifier()
		u, err := url.Parse(authURL)
		if err != nil {
			return "", "", err
		}
		q := u.Query()
		q.Set("code_challenge", oauth2.S256ChallengeFromVerifier(f.Verifier))
		q.Set("code_challenge_method", "S256")
		u.RawQuery = q.Encode()
		authURL = u.String()
	}
	f.Session = sess.Marshal()
	cookie, err = ps.codec.Encode(FlowCookie, f)
	return authURL, cookie, err
}

// Complete finishes a sign-in at p's callback, given the flow cookie's value and the
// callback's query. The state must be the flow's; then the code is exchanged (with the PKCE
// verifier) and the account read. It returns the account as a user to sign in — with a valid
// nickname made from the provider's names — and where the sign-in was to return to, which is
// known, even when the sign-in failed, once the flow cookie is read.
func (ps *Providers) Complete(ctx context.Context, p *Provider, cookie string, callback url.Values) (planner.User, Return, error) {
	var f flow
	if cookie == "" {
		return planner.User{}, Return{}, errors.New("no sign-in in progress (flow cookie missing or expired)")
	}
	if err := ps.codec.Decode(FlowCookie, cookie, &f); err != nil {
		return planner.User{}, Return{}, fmt.Errorf("flow cookie: %w", err)
	}
	ret := Return{Next: f.Next, App: f.App}
	u, err := ps.complete(ctx, p, f, callback)
	return u, ret, err
}

func (ps *Providers) complete(ctx context.Context, p *Provider, f flow, callback url.Values) (planner.User, error) {
	if f.Provider != p.ID {
		return planner.User{}, fmt.Errorf("the sign-in in progress is with %s, not %s", f.Provider, p.ID)
	}
	if e := callback.Get("error"); e != "" {
		return planner.User{}, fmt.Errorf("the provider refused: %s %s", e, callback.Get("error_description"))
	}
	if subtle.ConstantTimeCompare([]byte(callback.Get("state")), []byte(f.State)) != 1 {
		return planner.User{}, errors.New("state does not match the sign-in in progress")
	}
	code := callback.Get("code")
	if code == "" {
		return planner.User{}, errors.New("the callback has no code")
	}
	gp, err := p.goth()
	if err != nil {
		return planner.User{}, err
	}
	sess, err := gp.UnmarshalSession(f.Session)
	if err != nil {
		return planner.User{}, err
	}
	// Only the code and the verifier: goth's openidConnect would also take a redirect_uri.
	params := url.Values{"code": {code}}
	if f.Verifier != "" {
		params.Set("code_verifier", f.Verifier)
	}
	if _, err := sess.Authorize(gp, params); err != nil {
		return planner.User{}, fmt.Errorf("token exchange: %w", err)
	}
	if p.verify != nil {
		if err := p.verify(ctx, sess); err != nil {
			return planner.User{}, err
		}
	}
	gu, err := gp.FetchUser(sess)
	if err != nil {
		return planner.User{}, fmt.Errorf("fetch user: %w", err)
	}
	return account(p.Kind, gu.UserID, gu.AvatarURL, gu.Email, gu.NickName, gu.Name, gu.FirstName+gu.LastName)
}

// account is a provider's account as a user to sign in: its id (1–255 characters), a valid
// nickname made from the first usable of names, and the picture and email address when they
// look like ones.
func account(kind planner.Provider, id, picture, email string, names ...string) (planner.User, error) {
	if id == "" || utf8.RuneCountInString(id) > 255 {
		return planner.User{}, fmt.Errorf("unusable user id %q", id)
	}
	return planner.User{Provider: kind, ProviderID: id, Nickname: planner.NicknameFrom(names...), Picture: webURL(picture), Email: emailAddress(email)}, nil
}

// webURL is s if it is an http(s) URL of at most 2048 characters, else "".
func webURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(s) > 2048 {
		return ""
	}
	return s
}

// emailAddress is s if it looks like an email address of at most 320 characters, else "".
func emailAddress(s string) string {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || len(s) > 320 {
		return ""
	}
	return s
}
