// Package web is Tripplan's HTTP server: Echo routes, handlers that serve both JSON and
// templ-rendered HTML, middleware, and the one error handler.
package web

import (
	"cmp"
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tripplan/internal/auth"
	"tripplan/internal/i18n"
	"tripplan/internal/places"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/route"
	"tripplan/internal/signin"
	"tripplan/internal/storage"
)

// Config is what the server needs to know about its environment.
type Config struct {
	Env      string // development | test | production
	BaseURL  string // e.g. http://localhost:8080
	DevLogin bool   // enables POST /dev/auth/login and the dev sign-in form
	// SecureCookies marks cookies Secure (everywhere but development).
	SecureCookies bool
	// CookieSameSite is the SameSite attribute of the session, refresh, guest and sign-in flow
	// cookies (COOKIE_SAMESITE; 0 is Lax); None makes them Secure too. CookieDomain is their
	// Domain (COOKIE_DOMAIN; "" keeps them to this host). See cookieOptions.
	CookieSameSite http.SameSite
	CookieDomain   string
	// Frontend is the separate front end browser redirects land on (FRONTEND_URL), if any.
	Frontend Frontend
	// SignInRate and SignInBurst bound sign-in and token requests per client address, counted
	// in PostgreSQL so that every instance draws on the same bucket (see rateLimit).
	SignInRate  float64
	SignInBurst int
	// BodyLimit caps request bodies, e.g. "64KiB" (the default, see DefaultBodyLimit).
	BodyLimit string
	// RefreshReuseGrace is how long after its rotation a refresh token is still exchanged
	// (parallel refreshes; REFRESH_REUSE_GRACE, docs/API.md §App sign-in); after it, a replay.
	RefreshReuseGrace time.Duration
	// CORSOrigins are front-end origins (scheme://host:port) allowed to call the API from
	// the browser with credentials; their unsafe requests also pass the CSRF check.
	CORSOrigins []string
	// TrustedProxies are the reverse proxies' address ranges: only a request from one of them
	// has its X-Forwarded-For believed (see clientAddress). None: the peer is the client.
	TrustedProxies []*net.IPNet
	// MapTileURL is the {z}/{x}/{y} tile template the maps load ("" or "none": no tiles; the
	// maps then show the places without a background). MapTileAttribution credits it.
	MapTileURL, MapTileAttribution string
	// SignIn enables the social sign-in providers; their callbacks are under BaseURL.
	SignIn signin.Config
	// VAPIDPublicKey is the key browsers subscribe to Web Push with (VAPID_PUBLIC_KEY); "":
	// Web Push is off. PushAllowHTTP accepts subscription endpoints over plain http: only the
	// tests' fake push service, never configured by the environment.
	VAPIDPublicKey string
	PushAllowHTTP  bool
	// EmailDigest is on when SMTP_URL is set: the profile offers the daily digest.
	// UnsubscribeKey signs the digest's unsubscribe links (the session secret).
	EmailDigest    bool
	UnsubscribeKey []byte
	// ClientRedirectURIs are the apps' redirect URIs (CLIENT_REDIRECT_URIS) that a sign-in
	// started by an app may go back to with its one-time code; matched exactly.
	ClientRedirectURIs []string
	// StreamLimit caps the live-update streams open at once on this instance,
	// StreamLimitPerUser those of one user or guest, StreamLimitPerAddress those from one client
	// address (defaults 2000, 10, 50), on all instances together: the streams are counted in
	// PostgreSQL (see openStream). Beyond them a new stream is answered 429.
	StreamLimit, StreamLimitPerUser, StreamLimitPerAddress int
	// Heartbeat is how often an open stream sends a comment and checks that its reader may
	// still read (default 15 s).
	Heartbeat time.Duration
}

// Deps are the collaborators the server is built from.
type Deps struct {
	Store *postgres.DB
	// Places is the remote place provider; nil searches the built-in catalog.
	Places   places.Provider
	Sessions sessions.Store
	Tokens   *auth.Issuer
	// Files keeps uploaded pictures.
	Files *storage.Bucket
	// Router answers travel between places; nil uses the offline estimates.
	Router route.Router
	// Rates converts between currencies (RATES_URL); nil: an expense in another currency than
	// its plan's needs its exchange rate (docs/API.md §Money).
	Rates RateSource
	Log   *slog.Logger
}

// RateSource is a source of exchange rates: how many units of currency to one unit of from is
// worth now (ISO 4217 codes).
type RateSource interface {
	Rate(ctx context.Context, from, to string) (decimal.Decimal, error)
}

// Server is the HTTP handler of the whole application.
type Server struct {
	cfg      Config
	store    *postgres.DB
	files    *storage.Bucket
	finder   *places.Finder
	router   route.Router
	rates    RateSource
	sessions sessions.Store
	tokens   *auth.Issuer
	signin   *signin.Providers
	log      *slog.Logger
	echo     *echo.Echo
	openapi  *openapi3.T
	// taxonomies name the categories in each language Tripplan speaks (s.taxonomy).
	taxonomies map[i18n.Lang]*places.Taxonomy
	// opinionTags is the catalogue of canned reasons (GET /opinion-tags, the picker's chips).
	opinionTags *places.OpinionTags
	// pages are the routes that serve HTML only (not part of the JSON API).
	pages map[string]bool
	// instance names this server's rows of open streams; streamsDone ends its streams
	// (EndStreams).
	instance    string
	streamsDone chan struct{}
	endStreams  sync.Once
}

// DefaultBodyLimit caps request bodies (uploads aside) at what the largest a route takes needs:
// an expense of planner.ExpenseItemsMax items with 100-character Korean names, \u-escaped, is
// about 34 KB. A cap far above that only lets one request cost more: decoding a body full of
// ids costs about 15 ms per MB.
const DefaultBodyLimit = "64KiB"

// New builds the server and registers every route.
func New(cfg Config, d Deps) (*Server, error) {
	if cfg.BodyLimit == "" {
		cfg.BodyLimit = DefaultBodyLimit
	}
	if cfg.SignInRate == 0 {
		cfg.SignInRate, cfg.SignInBurst = 1, 10
	}
	cfg.StreamLimit = cmp.Or(cfg.StreamLimit, defaultStreamLimit)
	cfg.StreamLimitPerUser = cmp.Or(cfg.StreamLimitPerUser, defaultStreamLimitPerUser)
	cfg.StreamLimitPerAddress = cmp.Or(cfg.StreamLimitPerAddress, defaultStreamLimitPerAddress)
	cfg.Heartbeat = cmp.Or(cfg.Heartbeat, defaultHeartbeat)
	cfg.Frontend = cfg.Frontend.withDefaults()
	doc, err := loadOpenAPI()
	if err != nil {
		return nil, err
	}
	providers, err := signin.New(context.Background(), cfg.BaseURL, cfg.SignIn)
	if err != nil {
		return nil, err
	}
	router := d.Router
	if router == nil {
		router = route.Estimator{}
	}
	s := &Server{
		router: router, rates: d.Rates, cfg: cfg, store: d.Store, files: d.Files, finder: &places.Finder{Remote: d.Places, Store: d.Store, Log: d.Log}, sessions: d.Sessions, tokens: d.Tokens, signin: providers, log: d.Log,
		echo: echo.New(), openapi: doc, pages: map[string]bool{},
		instance: planner.NewID(), streamsDone: make(chan struct{}),
	}
	s.taxonomies = map[i18n.Lang]*places.Taxonomy{}
	for _, l := range i18n.Langs {
		s.taxonomies[l] = places.NewTaxonomyIn(string(l))
	}
	s.opinionTags = places.NewOpinionTags(s.taxonomies[i18n.English])
	s.echo.HideBanner, s.echo.HidePort = true, true
	s.echo.HTTPErrorHandler = s.handleError
	s.echo.Binder = binder{}
	s.echo.IPExtractor = addressExtractor(cfg.TrustedProxies)
	s.routes()
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A HEAD is answered as the GET of the same address (RFC 9110 §9.3.2: every GET resource
	// answers HEAD), for monitors, link checkers and the link previews of chat apps that look
	// before they fetch: the routes see a GET, and net/http, which still holds the HEAD, sends
	// the headers (with the GET's length) and drops the body. Event streams are left out: their
	// answer never ends, so a HEAD of one stays 405.
	if r.Method == http.MethodHead && !strings.HasSuffix(r.URL.Path, "/events") {
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		r = get
	}
	s.echo.ServeHTTP(w, r)
}

// Routes lists the registered routes (method, path, whether JSON API) for tests and docs.
func (s *Server) Routes() []Route {
	var out []Route
	for _, r := range s.echo.Routes() {
		if r.Method == "echo_route_not_found" {
			continue
		}
		out = append(out, Route{Method: r.Method, Path: r.Path, Page: s.pages[r.Method+" "+r.Path]})
	}
	return out
}

// Route is one registered route; Page routes serve HTML only.
type Route struct {
	Method, Path string
	Page         bool
}
