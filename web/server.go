// Package web is Tripplan's HTTP server: Echo routes, handlers that serve both JSON and
// templ-rendered HTML, middleware, and the one error handler.
package web

import (
	"cmp"
	"context"
	"database/sql"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tripplan/internal/auth"
	"tripplan/internal/i18n"
	"tripplan/internal/money"
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
	// (parallel refreshes; REFRESH_REUSE_GRACE, API-additions §3); after it, a replay.
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

// Store is the persistence the handlers call. postgres.DB implements it.
type Store interface {
	PingContext(ctx context.Context) error
	SignInUser(ctx context.Context, in planner.User) (*planner.User, error)
	SignInSocial(ctx context.Context, in planner.User) (*planner.User, error)
	User(ctx context.Context, id string) (*planner.User, error)
	Language(ctx context.Context, userID string) (*string, error)
	AcceptTerms(ctx context.Context, id string) (*planner.User, error)
	UpdateProfile(ctx context.Context, userID string, ch planner.ProfileChange) (*planner.User, error)
	SetPicture(ctx context.Context, userID, picture, key string) (oldKey string, err error)
	StartPictureUpload(ctx context.Context, userID, key string, ttl time.Duration) error
	ClaimPictureUpload(ctx context.Context, key string) (userID string, err error)
	WithdrawUser(ctx context.Context, userID, reason string) error
	CreateRefreshToken(ctx context.Context, userID string, hash []byte, expiresAt time.Time) (session string, err error)
	RotateRefreshToken(ctx context.Context, oldHash, newHash []byte, expiresAt time.Time, grace time.Duration) (*planner.User, string, error)
	RevokeRefreshToken(ctx context.Context, hash []byte) error
	CreateAppCode(ctx context.Context, hash []byte, userID, redirectURI, challenge string, ttl time.Duration) error
	RedeemAppCode(ctx context.Context, hash []byte) (*postgres.AppCode, error)
	RevokeSession(ctx context.Context, userID, session string) error
	SessionRevoked(ctx context.Context, userID, session string) (bool, error)
	RecentPlans(ctx context.Context, userID string, limit int) ([]planner.PlanSummary, error)
	CreateCollection(ctx context.Context, userID, title string) (*planner.CollectionSummary, error)
	Collections(ctx context.Context, userID string, page planner.Page, oldestFirst bool) ([]planner.CollectionSummary, bool, error)
	Collection(ctx context.Context, userID, id string) (*planner.CollectionSummary, error)
	RenameCollection(ctx context.Context, userID, id, title string, ifMatch planner.IfMatch) (*planner.CollectionSummary, error)
	DeleteCollection(ctx context.Context, userID, id string, ifMatch planner.IfMatch) error
	CollectionPlans(ctx context.Context, userID, collectionID string) ([]planner.PlanRef, error)
	CollectionMembers(ctx context.Context, userID, collectionID string) (*planner.MemberGroup, error)
	ChangeCollectionOwner(ctx context.Context, userID, collectionID, memberID string) error
	LeaveCollection(ctx context.Context, userID, collectionID string) error
	RemoveCollectionMember(ctx context.Context, userID, collectionID, memberID string) error
	AddCollectionPlace(ctx context.Context, userID, collectionID, placeID string) (*planner.CollectionPlace, error)
	CollectionPlaces(ctx context.Context, userID, collectionID string, page planner.Page, sort planner.CollectionPlaceSort, filter planner.PlaceFilter) ([]planner.CollectionPlace, bool, error)
	CollectionMap(ctx context.Context, userID, collectionID string, sort planner.CollectionPlaceSort, filter planner.PlaceFilter, limit int) ([]planner.CollectionPlace, int, error)
	CollectionPlace(ctx context.Context, userID, collectionID, cpID string) (*planner.CollectionPlace, error)
	SetCollectionPlaceMemo(ctx context.Context, userID, collectionID, cpID, memo string, ifMatch planner.IfMatch) error
	DeleteCollectionPlace(ctx context.Context, userID, collectionID, cpID string, ifMatch planner.IfMatch) error
	TogglePreference(ctx context.Context, userID, collectionID, cpID string, pref planner.Preference) (*planner.CollectionPlace, error)
	CreatePlan(ctx context.Context, userID string, in planner.PlanInput) (*planner.Plan, error)
	Plans(ctx context.Context, userID string, page planner.Page) ([]planner.Plan, bool, error)
	Plan(ctx context.Context, userID, planID string) (*planner.Plan, error)
	UpdatePlan(ctx context.Context, userID, planID string, in planner.PlanInput, confirm bool, ifMatch planner.IfMatch) (*planner.PlanUpdate, error)
	DeletePlan(ctx context.Context, userID, planID string, ifMatch planner.IfMatch) error
	PlanMembers(ctx context.Context, userID, planID string) (*planner.MemberGroup, error)
	ChangePlanOwner(ctx context.Context, userID, planID, memberID string) error
	LeavePlan(ctx context.Context, userID, planID string) error
	RemovePlanMember(ctx context.Context, userID, planID, memberID string) error
	LinkCollections(ctx context.Context, userID, planID string, collectionIDs []string) ([]planner.PlanCollection, error)
	PlanCollections(ctx context.Context, userID, planID string) ([]planner.PlanCollection, error)
	UnlinkCollection(ctx context.Context, userID, planID, collectionID string) error
	PlanCollectionPlaces(ctx context.Context, userID, planID, collectionID string, page planner.Page, sort planner.CollectionPlaceSort, filter planner.PlaceFilter) ([]planner.CollectionPlace, bool, error)
	PlanPlaces(ctx context.Context, userID, planID, needle string, limit int) ([]planner.CollectionPlace, error)
	PlanCollectionPlace(ctx context.Context, userID, planID, collectionID, cpID string) (*planner.CollectionPlace, error)
	DayBlocks(ctx context.Context, userID, planID string, day int, page planner.Page) (planner.DayPage, error)
	AddBlock(ctx context.Context, userID, planID string, in planner.NewBlock) (*planner.TimeBlock, error)
	AddBlockByPlace(ctx context.Context, userID, planID, placeID string, slot planner.Slot, memo string) (*planner.TimeBlock, error)
	AddBlockFromSearch(ctx context.Context, userID, planID, placeID string, slot planner.Slot, memo string) (*planner.TimeBlock, error)
	AddManualBlock(ctx context.Context, userID, planID string, place planner.ManualPlace, slot planner.Slot, memo string) (*planner.TimeBlock, error)
	BlockDetail(ctx context.Context, userID, planID, candidateID string) (*planner.BlockDetail, error)
	UpdateBlock(ctx context.Context, userID, planID, candidateID string, ch planner.BlockChange, ifMatch planner.IfMatch) (*planner.BlockDetail, error)
	DeleteTimeBlock(ctx context.Context, userID, planID, timeBlockID string, ifMatch planner.IfMatch) (*planner.Deletion, error)
	RestoreTimeBlock(ctx context.Context, userID, planID, deletionID string) (*planner.TimeBlock, error)
	CopyTimeBlock(ctx context.Context, userID, planID, timeBlockID string, to planner.BlockCopy) (*planner.TimeBlock, error)
	SwapDays(ctx context.Context, userID, planID string, day, with int) (*planner.DaySwap, error)
	ArrangeDay(ctx context.Context, userID, planID string, day int, blocks []planner.Arranged) (*planner.DayBlocks, error)
	AddCandidates(ctx context.Context, userID, planID, timeBlockID string, collectionPlaceIDs, placeIDs []string) (*planner.TimeBlock, error)
	AddCandidateFromSearch(ctx context.Context, userID, planID, timeBlockID, placeID string) (*planner.TimeBlock, error)
	ChangeSelection(ctx context.Context, userID, planID, timeBlockID, candidateID string, ifMatch planner.IfMatch) (*planner.TimeBlock, error)
	Candidates(ctx context.Context, userID, planID, timeBlockID string) (*planner.CandidateList, error)
	Discussion(ctx context.Context, userID, planID, timeBlockID string) (*planner.CandidateList, error)
	LastChangedBy(ctx context.Context, userID, planID, timeBlockID string) (string, error)
	DeleteCandidate(ctx context.Context, userID, planID, timeBlockID, candidateID string, ifMatch planner.IfMatch) error
	CreateShareLink(ctx context.Context, userID string, typ planner.ShareType, referenceID string) (*planner.ShareLink, error)
	ShareLink(ctx context.Context, code string) (*planner.ShareLink, error)
	JoinByLink(ctx context.Context, userID, code string) (*planner.ShareLink, error)
	ShareLinks(ctx context.Context, userID string, typ planner.ShareType, referenceID string) ([]planner.Invitation, error)
	RevokeShareLink(ctx context.Context, userID string, typ planner.ShareType, referenceID, code string) error
	RemovedMembers(ctx context.Context, userID string, typ planner.ShareType, referenceID string) ([]planner.Member, error)
	LetMemberBack(ctx context.Context, userID string, typ planner.ShareType, referenceID, memberID string) error
	AddOpinion(ctx context.Context, userID, planID, candidateID string, in planner.OpinionInput) (*planner.Opinion, error)
	Opinions(ctx context.Context, userID, planID, candidateID string) ([]planner.Opinion, error)
	Opinion(ctx context.Context, userID, planID, candidateID, opinionID string) (*planner.Opinion, error)
	UpdateOpinion(ctx context.Context, userID, planID, candidateID, opinionID string, in planner.OpinionInput, ifMatch planner.IfMatch) (*planner.Opinion, error)
	DeleteOpinion(ctx context.Context, userID, planID, candidateID, opinionID string, ifMatch planner.IfMatch) error
	Budget(ctx context.Context, userID, planID string) (*planner.Budget, error)
	UpdateBudget(ctx context.Context, userID, planID string, ch planner.BudgetChange, ifMatch planner.IfMatch) (*planner.Budget, error)
	AddExpense(ctx context.Context, userID, planID string, in planner.NewExpense) (*planner.Expense, error)
	DayExpenses(ctx context.Context, userID, planID string, day int) ([]planner.ExpenseGroup, error)
	SetExpense(ctx context.Context, userID, planID, expenseID string, items []planner.NewItem, terms *planner.NewTerms, ifMatch planner.IfMatch) (*planner.Expense, error)
	ExpenseCurrency(ctx context.Context, userID, planID, expenseID string) (plan, expense string, err error)
	DeleteExpense(ctx context.Context, userID, planID, expenseID string, ifMatch planner.IfMatch) error
	SettlementData(ctx context.Context, userID, planID string) (*planner.Ledger, error)
	BudgetOverview(ctx context.Context, userID, planID string, recent int) (*planner.BudgetOverview, error)
	RecordSettlement(ctx context.Context, userID, planID, from, to string, amount money.Decimal) (*planner.Settlement, error)
	Settlements(ctx context.Context, userID, planID string, page planner.Page) ([]planner.Settlement, bool, error)
	DeleteSettlement(ctx context.Context, userID, planID, settlementID string) error
	CreateExtractionJob(ctx context.Context, userID, collectionID, url, normalized string, enqueue func(tx *sql.Tx, jobID string) (int64, error)) (*planner.ExtractionJob, error)
	ExtractionJob(ctx context.Context, userID, collectionID, jobID string) (*planner.ExtractionJob, error)
	LatestExtractionJob(ctx context.Context, userID, collectionID string) (*planner.ExtractionJob, error)
	DismissExtractionJob(ctx context.Context, userID, collectionID, jobID string, cancel func(tx *sql.Tx, queueJobID int64) error) error
	AddPlacesFromJob(ctx context.Context, userID, collectionID, jobID string, placeIDs []string) (*planner.AddedFromJob, error)
	AddCustomPlaceFromJob(ctx context.Context, userID, collectionID, jobID, name string) (*planner.CollectionPlace, error)
	ImportPlaces(ctx context.Context, userID, collectionID, format string, rows []planner.ImportRow) (*planner.ImportReport, error)
	RestorePlan(ctx context.Context, userID string, in *planner.Restore) (*planner.Plan, error)
	Notifications(ctx context.Context, userID string, page planner.Page) ([]planner.Notification, bool, int, error)
	UnreadCount(ctx context.Context, userID string) (int, error)
	MarkNotificationRead(ctx context.Context, userID, id string) (*planner.Notification, error)
	MarkAllNotificationsRead(ctx context.Context, userID string) (int, error)
	NotificationSettings(ctx context.Context, userID string) ([]planner.NotificationSetting, error)
	SetNotificationSettings(ctx context.Context, userID string, in []planner.NotificationSetting) ([]planner.NotificationSetting, error)
	TurnOffDigest(ctx context.Context, userID string) error
	SavePushSubscription(ctx context.Context, userID string, s planner.PushSubscription) (*planner.PushSubscription, error)
	DeletePushSubscription(ctx context.Context, userID, endpoint string) error
	PlanActivity(ctx context.Context, userID, planID string, page planner.Page) ([]planner.Activity, bool, error)
	CollectionActivity(ctx context.Context, userID, collectionID string, page planner.Page) ([]planner.Activity, bool, error)
	Subscribe(topic string) (<-chan planner.Event, func(), error)
	EventsSince(ctx context.Context, topic string, afterID int64) ([]planner.Event, error)
	EnterPlan(ctx context.Context, viewer, planID string) (string, error)
	TouchPresence(ctx context.Context, viewer, planID, conn string) error
	LeavePlanPresence(ctx context.Context, conn string) error
	PlanPresence(ctx context.Context, viewer, planID string) (*planner.Presence, error)
	PlanExport(ctx context.Context, viewer, planID string) (*planner.PlanExport, error)
	PlanSchedule(ctx context.Context, viewer, planID string) (*planner.PlanExport, error)
	ExpenseSheet(ctx context.Context, viewer, planID string) (*planner.ExpenseSheet, error)
	CreateCalendarFeed(ctx context.Context, userID, planID string) (string, error)
	DeleteCalendarFeed(ctx context.Context, userID, planID string) error
	HasCalendarFeed(ctx context.Context, userID, planID string) (bool, error)
	CalendarFeed(ctx context.Context, token string) (userID, planID string, err error)
	SearchPlaces(ctx context.Context, query, near string) ([]planner.Place, error)
	SavePlaces(ctx context.Context, places []planner.Place) ([]planner.Place, error)
	ClaimIdempotencyKey(ctx context.Context, owner string, keyHash, fingerprint []byte, claim string) (*postgres.IdempotencyRecord, error)
	RecordIdempotentAnswer(ctx context.Context, owner string, keyHash []byte, claim string, status int, answer []byte) error
	ReleaseIdempotencyKey(ctx context.Context, owner string, keyHash []byte, claim string) error
	TakeToken(ctx context.Context, limit, key string, rate float64, burst int) (bool, error)
	OpenStream(ctx context.Context, p postgres.StreamPlace, caps postgres.StreamCaps) (bool, error)
	TouchStream(ctx context.Context, id string) error
	CloseStream(ctx context.Context, id string) error
	CloseInstanceStreams(ctx context.Context, instance string) error
}

// Deps are the collaborators the server is built from.
type Deps struct {
	Store Store
	// Places is the remote place provider; nil searches the built-in catalog.
	Places   places.Provider
	Sessions sessions.Store
	Tokens   *auth.Issuer
	// Files keeps uploaded pictures.
	Files *storage.Store
	// Jobs queues background work (place extraction).
	Jobs Jobs
	// Router answers travel between places; nil uses the offline estimates.
	Router route.Router
	// Rates converts between currencies (RATES_URL); nil: an expense in another currency than
	// its plan's needs its exchange rate (API-additions §5).
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
	store    Store
	files    *storage.Store
	jobs     Jobs
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
		router: router, rates: d.Rates, cfg: cfg, store: d.Store, files: d.Files, jobs: d.Jobs, finder: &places.Finder{Remote: d.Places, Store: d.Store, Log: d.Log}, sessions: d.Sessions, tokens: d.Tokens, signin: providers, log: d.Log,
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
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

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
