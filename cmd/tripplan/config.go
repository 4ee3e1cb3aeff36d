package main

import (
	"cmp"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"tripplan/internal/extract"
	"tripplan/internal/places"
	"tripplan/internal/postgres"
	"tripplan/internal/rates"
	"tripplan/internal/reach"
	"tripplan/internal/route"
	"tripplan/internal/signin"
	"tripplan/views"
	"tripplan/web"
)

// config is everything read from the environment; nothing else configures the server.
type config struct {
	Env           string // development | test | production
	Addr          string
	BaseURL       string
	DevLogin      bool
	SessionSecret []byte
	JWTSecret     []byte
	// JWTPreviousSecrets still verify access tokens after JWT_SECRET changed (rotation).
	JWTPreviousSecrets [][]byte
	// CORSOrigins are the front-end origins allowed to call the API with credentials.
	CORSOrigins []string
	// CookieSameSite (COOKIE_SAMESITE: lax, the default, strict or none) and CookieDomain
	// (COOKIE_DOMAIN) are attributes of the session, refresh, guest and sign-in flow cookies.
	CookieSameSite http.SameSite
	CookieDomain   string
	// Frontend is a separate front end browser redirects land on (FRONTEND_URL and the
	// FRONTEND_*_PATH variables); its URL is "" when there is none.
	Frontend web.Frontend
	// TrustedProxies are the address ranges of reverse proxies whose X-Forwarded-For is
	// believed (TRUSTED_PROXIES); none: the connection's address is the client's.
	TrustedProxies []*net.IPNet
	// ExtractAllowHosts are host:port pairs link extraction may fetch even though they are
	// private (tests, self-hosters).
	ExtractAllowHosts []string
	// LLM proposes place names to extraction when LLM_BASE_URL is set.
	LLM *extract.LLM
	// Place provider: Google Places when a key is set, else Nominatim when a URL is set,
	// else the built-in catalog.
	GooglePlacesKey string
	NominatimURL    string
	// StorageURL is where uploaded pictures go: "" is the local directory .data/uploads,
	// s3://bucket?region=…&endpoint=… an S3-compatible store.
	StorageURL string
	// StatementTimeout bounds every statement a request runs (DATABASE_STATEMENT_TIMEOUT,
	// default 10s; 0 turns it off): a stuck database answers 503 instead of holding requests.
	StatementTimeout time.Duration
	// RefreshReuseGrace (REFRESH_REUSE_GRACE, default 30s, 0: none): how long a rotated
	// refresh token is still exchanged, for parallel refreshes.
	RefreshReuseGrace time.Duration
	// Routing: OSRM servers for driving (OSRM_URL) and walking (OSRM_WALK_URL, optional); none
	// gives offline estimates.
	OSRMURL, OSRMWalkURL string
	// RatesURL is the ECB's daily euro reference rates document (RATES_URL), for expenses in
	// another currency than their plan's; "": such an expense needs its rate given.
	RatesURL string
	// Map tiles for the place and plan maps: an {z}/{x}/{y} URL template, or "none".
	MapTileURL         string
	MapTileAttribution string
	// SignIn: the social sign-in providers with their clients configured; its key is the
	// session secret.
	SignIn signin.Config
	// ClientRedirectURIs are the apps' redirect URIs (CLIENT_REDIRECT_URIS) an app's browser
	// sign-in may go back to with its one-time code.
	ClientRedirectURIs []string
	// Live-update streams open at once: in all (STREAM_LIMIT), per user or guest
	// (STREAM_LIMIT_PER_USER) and per client address (STREAM_LIMIT_PER_ADDRESS); 0 is the
	// server's default.
	StreamLimit, StreamLimitPerUser, StreamLimitPerAddress int
	// MigrateOnStart (MIGRATE_ON_START, default true): the server brings the database up to date
	// before serving. False when a separate `tripplan migrate` (a Kubernetes Job) does it: the
	// server then waits until the schema is current.
	MigrateOnStart bool
	// DBPool sizes the connection pool: DB_MAX_CONNS (default 20), DB_MAX_IDLE_CONNS (default
	// DB_MAX_CONNS) and DB_MAX_IDLE_TIME (default 5m, 0: kept for ever). The instance's
	// connection budget is the pool and its LISTEN connections (docs/SCALING.md).
	DBPool postgres.Pool
	// VAPID is the Web Push key pair and contact (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY,
	// VAPID_SUBJECT, all or none); zero: Web Push is off.
	VAPID reach.VAPID
	// SMTP sends the daily e-mail digest (SMTP_URL, with MAIL_FROM); nil: no digest.
	SMTP     *reach.SMTP
	MailFrom string
}

// Default map tiles: OpenStreetMap's standard tile server, with its required attribution.
const (
	defaultMapTileURL         = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
	defaultMapTileAttribution = "© OpenStreetMap contributors"
)

// Development-only secrets, so that `make run` needs no configuration. They are public, so no
// other environment starts with them: production requires its own, test generates random ones.
const (
	devSessionSecret = "tripplan-development-session-secret-not-for-production"
	devJWTSecret     = "tripplan-development-jwt-secret-not-for-production"
)

// The development Web Push key pair, so that `make run` can turn push on without configuration.
// It is public too: refused outside development (see refuseDevelopmentSecrets).
var devVAPID = reach.VAPID{
	PublicKey:  "BPVwkqbapKQVf2uxFVVfdH0F9CFnpp_hyZy5TVzeZDVsJMZL-lzCdYaMN8CL3N9PhOv31zncGEEZlIytSJvmnH8",
	PrivateKey: "DzQlYAk-WmABREUDufQwOsdZYy1bfKpDPDMtHmtRB_0",
	Subject:    "mailto:dev@tripplan.localhost",
}

func loadConfig(getenv func(string) string) (config, error) {
	c := config{}
	// Each reader fills its part of c from the environment; later ones may use what earlier
	// ones read (the environment's name, the secrets).
	for _, read := range []func(*config, func(string) string) error{
		loadServer, loadLimits, loadPool, loadServices, loadSignIn, loadSecrets, loadCookies,
		loadFrontend, loadNetwork, loadReach,
	} {
		if err := read(&c, getenv); err != nil {
			return c, err
		}
	}
	return c, nil
}

// loadServer reads which environment this is, where to listen and the public URL, whether
// to migrate on start and whether dev sign-in is on.
func loadServer(c *config, getenv func(string) string) error {
	c.Env = cmp.Or(strings.ToLower(strings.TrimSpace(getenv("APP_ENV"))), "development")
	c.Addr = cmp.Or(getenv("ADDR"), ":8080")
	c.BaseURL = strings.TrimRight(getenv("BASE_URL"), "/")
	switch c.Env {
	case "development", "test", "production":
	default:
		return fmt.Errorf("APP_ENV must be development, test or production, not %q", c.Env)
	}
	var err error
	if c.MigrateOnStart, err = boolean(getenv, "MIGRATE_ON_START", true); err != nil {
		return err
	}
	if c.DevLogin, err = boolean(getenv, "DEV_LOGIN", c.Env != "production"); err != nil {
		return err
	}
	if c.Env == "production" && c.DevLogin {
		return errors.New("DEV_LOGIN=true is refused with APP_ENV=production: dev sign-in lets anyone sign in as anyone")
	}
	return nil
}

// boolean reads a true/false variable, def when unset.
func boolean(getenv func(string) string, name string, def bool) (bool, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return def, fmt.Errorf("%s must be true or false, not %q", name, v)
	}
	return on, nil
}

// loadLimits reads the refresh tokens' reuse grace, the statements' timeout and the caps on
// live streams.
func loadLimits(c *config, getenv func(string) string) error {
	c.RefreshReuseGrace = 30 * time.Second
	if v := getenv("REFRESH_REUSE_GRACE"); v != "" {
		d, err := time.ParseDuration(v)
		if v == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 || d > 10*time.Minute {
			return fmt.Errorf("REFRESH_REUSE_GRACE must be a duration from 0 to 10m such as 30s, not %q", v)
		}
		c.RefreshReuseGrace = d
	}
	c.StatementTimeout = 10 * time.Second
	if v := getenv("DATABASE_STATEMENT_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if v == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return fmt.Errorf("DATABASE_STATEMENT_TIMEOUT must be a duration such as 10s (0: none), not %q", v)
		}
		c.StatementTimeout = d
	}
	for name, limit := range map[string]*int{"STREAM_LIMIT": &c.StreamLimit, "STREAM_LIMIT_PER_USER": &c.StreamLimitPerUser,
		"STREAM_LIMIT_PER_ADDRESS": &c.StreamLimitPerAddress} {
		if v := getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("%s must be a whole number of streams, at least 1, not %q", name, v)
			}
			*limit = n
		}
	}
	return nil
}

// loadServices reads the remote services' addresses: places, routes, exchange rates, map
// tiles, the object store and the LLM.
func loadServices(c *config, getenv func(string) string) error {
	c.GooglePlacesKey, c.NominatimURL = getenv("GOOGLE_PLACES_API_KEY"), getenv("NOMINATIM_URL")
	c.OSRMURL, c.OSRMWalkURL, c.RatesURL = getenv("OSRM_URL"), getenv("OSRM_WALK_URL"), getenv("RATES_URL")
	for name, v := range map[string]string{"NOMINATIM_URL": c.NominatimURL, "OSRM_URL": c.OSRMURL, "OSRM_WALK_URL": c.OSRMWalkURL,
		"RATES_URL": c.RatesURL} {
		if v != "" && !httpURL(v) {
			return fmt.Errorf("%s must be an http(s) URL, not %q", name, v)
		}
	}
	if c.OSRMWalkURL != "" && c.OSRMURL == "" {
		return fmt.Errorf("OSRM_WALK_URL needs OSRM_URL (the driving server) too")
	}
	c.MapTileURL, c.MapTileAttribution = getenv("MAP_TILE_URL"), getenv("MAP_TILE_ATTRIBUTION")
	if c.StorageURL = getenv("STORAGE_URL"); c.StorageURL != "" && !strings.HasPrefix(c.StorageURL, "s3://") {
		return fmt.Errorf("STORAGE_URL must be an s3:// URL (unset keeps pictures in .data/uploads), not %q", c.StorageURL)
	}
	if c.MapTileURL == "" {
		c.MapTileURL, c.MapTileAttribution = defaultMapTileURL, cmp.Or(c.MapTileAttribution, defaultMapTileAttribution)
	}
	if err := checkTileURL(c.MapTileURL); err != nil {
		return err
	}
	c.ExtractAllowHosts = splitList(getenv("EXTRACT_ALLOW_HOSTS"))
	if base := getenv("LLM_BASE_URL"); base != "" {
		if !httpURL(base) {
			return fmt.Errorf("LLM_BASE_URL must be an http(s) URL, not %q", base)
		}
		c.LLM = &extract.LLM{BaseURL: strings.TrimRight(base, "/"), APIKey: getenv("LLM_API_KEY"), Model: cmp.Or(getenv("LLM_MODEL"), "gpt-4o-mini")}
	}
	return nil
}

// httpURL tells whether v is an absolute http or https URL.
func httpURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// loadSecrets reads the session and token secrets: production needs its own, the built-in
// development ones are refused outside development, development and test get defaults.
func loadSecrets(c *config, getenv func(string) string) error {
	c.SessionSecret, c.JWTSecret = []byte(getenv("SESSION_SECRET")), []byte(getenv("JWT_SECRET"))
	if err := refuseDevelopmentSecrets(c.Env, getenv); err != nil {
		return err
	}
	if c.Env == "production" {
		var missing []string
		if len(c.SessionSecret) < 32 {
			missing = append(missing, "SESSION_SECRET")
		}
		if len(c.JWTSecret) < 32 {
			missing = append(missing, "JWT_SECRET")
		}
		if len(missing) > 0 {
			return errors.New("production needs " + strings.Join(missing, " and ") + " (at least 32 random bytes each)")
		}
		if c.BaseURL == "" {
			return errors.New("production needs BASE_URL (the public https URL)")
		}
	}
	if len(c.SessionSecret) == 0 {
		c.SessionSecret = defaultSecret(c.Env, devSessionSecret)
	}
	if len(c.JWTSecret) == 0 {
		c.JWTSecret = defaultSecret(c.Env, devJWTSecret)
	}
	if len(c.SessionSecret) < 32 || len(c.JWTSecret) < 32 {
		return errors.New("SESSION_SECRET and JWT_SECRET must be at least 32 bytes")
	}
	for _, prev := range splitList(getenv("JWT_PREVIOUS_SECRETS")) {
		if len(prev) < 32 {
			return errors.New("JWT_PREVIOUS_SECRETS must each be at least 32 bytes")
		}
		c.JWTPreviousSecrets = append(c.JWTPreviousSecrets, []byte(prev))
	}
	c.SignIn.Key = c.SessionSecret
	return nil
}

// loadNetwork reads the origins allowed to call the API from a browser and the proxies whose
// forwarded addresses are believed.
func loadNetwork(c *config, getenv func(string) string) error {
	for _, origin := range splitList(getenv("CORS_ORIGINS")) {
		u, err := url.Parse(origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return fmt.Errorf("CORS_ORIGINS must list origins such as https://app.example or http://localhost:5173, not %q", origin)
		}
		c.CORSOrigins = append(c.CORSOrigins, u.Scheme+"://"+u.Host)
	}
	for _, r := range splitList(getenv("TRUSTED_PROXIES")) {
		ipNet, err := parseRange(r)
		if err != nil {
			return fmt.Errorf("TRUSTED_PROXIES must list address ranges such as 10.0.0.0/8 or 192.0.2.10, not %q", r)
		}
		c.TrustedProxies = append(c.TrustedProxies, ipNet)
	}
	return nil
}

// loadReach reads Web Push's VAPID keys and the digest's mail server, both optional; development
// without keys uses the development pair.
func loadReach(c *config, getenv func(string) string) error {
	c.VAPID = reach.VAPID{PublicKey: getenv("VAPID_PUBLIC_KEY"), PrivateKey: getenv("VAPID_PRIVATE_KEY"), Subject: getenv("VAPID_SUBJECT")}
	if c.VAPID == (reach.VAPID{}) && c.Env == "development" {
		c.VAPID = devVAPID
	}
	if c.VAPID != (reach.VAPID{}) {
		if c.VAPID.PublicKey == "" || c.VAPID.PrivateKey == "" || c.VAPID.Subject == "" {
			return errors.New("VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT must be set together")
		}
		if err := c.VAPID.Check(); err != nil {
			return err
		}
	}
	if v := getenv("SMTP_URL"); v != "" {
		s, err := reach.NewSMTP(v)
		if err != nil {
			return errors.New("SMTP_URL " + err.Error()) // not the URL: it may hold a password
		}
		c.SMTP = s
		c.MailFrom = getenv("MAIL_FROM")
		if _, err := mail.ParseAddress(c.MailFrom); err != nil {
			return fmt.Errorf("SMTP_URL needs MAIL_FROM, the digest's sender such as \"Tripplan <news@example.com>\", not %q", c.MailFrom)
		}
	}
	return nil
}

// loadPool reads the database connection pool's size.
func loadPool(c *config, getenv func(string) string) error {
	c.DBPool = postgres.DefaultPool
	if v := getenv("DB_MAX_CONNS"); v != "" {
		n, err := strconv.Atoi(v)
		// The job queue's migrations hold two connections at once (db.go, migrateQueue).
		if err != nil || n < 2 {
			return fmt.Errorf("DB_MAX_CONNS must be a whole number of connections, at least 2, not %q", v)
		}
		c.DBPool.MaxConns = n
	}
	c.DBPool.MaxIdle = c.DBPool.MaxConns
	if v := getenv("DB_MAX_IDLE_CONNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > c.DBPool.MaxConns {
			return fmt.Errorf("DB_MAX_IDLE_CONNS must be a whole number from 0 to DB_MAX_CONNS (%d), not %q", c.DBPool.MaxConns, v)
		}
		c.DBPool.MaxIdle = n
	}
	if v := getenv("DB_MAX_IDLE_TIME"); v != "" {
		d, err := time.ParseDuration(v)
		if v == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return fmt.Errorf("DB_MAX_IDLE_TIME must be a duration such as 5m (0: idle connections are kept), not %q", v)
		}
		c.DBPool.MaxIdleTime = d
	}
	return nil
}

// refuseDevelopmentSecrets refuses the built-in development secrets, which are public, outside
// development: as SESSION_SECRET, JWT_SECRET or one of JWT_PREVIOUS_SECRETS, anyone could sign
// cookies and tokens the server accepts; as VAPID_PRIVATE_KEY, anyone could push to its
// subscribers.
func refuseDevelopmentSecrets(env string, getenv func(string) string) error {
	if env == "development" {
		return nil
	}
	public := func(secret string) bool { return secret == devSessionSecret || secret == devJWTSecret }
	if getenv("VAPID_PRIVATE_KEY") == devVAPID.PrivateKey {
		return fmt.Errorf("VAPID_PRIVATE_KEY holds the built-in development key, refused with APP_ENV=%s: make a pair of your own (README, Web Push)", env)
	}
	var name string
	switch {
	case public(getenv("SESSION_SECRET")):
		name = "SESSION_SECRET"
	case public(getenv("JWT_SECRET")):
		name = "JWT_SECRET"
	case slices.ContainsFunc(splitList(getenv("JWT_PREVIOUS_SECRETS")), public):
		name = "JWT_PREVIOUS_SECRETS"
	default:
		return nil
	}
	return fmt.Errorf("%s holds a built-in development secret, refused with APP_ENV=%s: set a random one (e.g. openssl rand -base64 48)", name, env)
}

// defaultSecret is the secret used when none is configured: the fixed development one in
// development (sessions survive restarts of `make run`), 32 random bytes in test (production
// requires its own).
func defaultSecret(env, dev string) []byte {
	if env != "test" {
		return []byte(dev)
	}
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand.Read panics internally on failure since Go 1.24)
	return []byte(base64.RawURLEncoding.EncodeToString(b))
}

// splitList splits a comma-separated variable, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// parseRange reads a CIDR range, or a single address as the range of just that address.
func parseRange(s string) (*net.IPNet, error) {
	if _, ipNet, err := net.ParseCIDR(s); err == nil {
		return ipNet, nil
	}
	ip := net.ParseIP(s)
	if ip == nil {
		return nil, fmt.Errorf("not an address range: %q", s)
	}
	bits := 8 * net.IPv6len
	if ip4 := ip.To4(); ip4 != nil {
		ip, bits = ip4, 8*net.IPv4len
	}
	return &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}, nil
}

// signInVariables are the groups of variables that enable each social sign-in provider's web
// client, all set or none. The OpenID Connect provider needs OIDC_ISSUER too (see loadSignIn).
var signInVariables = [][]string{
	{"GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"},
	{"KAKAO_CLIENT_ID", "KAKAO_CLIENT_SECRET"},
	{"NAVER_CLIENT_ID", "NAVER_CLIENT_SECRET"},
	{"APPLE_CLIENT_ID", "APPLE_TEAM_ID", "APPLE_KEY_ID", "APPLE_PRIVATE_KEY"},
	{"OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"},
}

// loadSignIn reads the social sign-in providers' clients, the apps' client ids and redirect
// URIs; a half-configured provider is an error.
func loadSignIn(c *config, getenv func(string) string) error {
	for _, group := range signInVariables {
		var missing []string
		for _, name := range group {
			if getenv(name) == "" {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 && len(missing) < len(group) {
			return fmt.Errorf("%s must be set together (missing: %s)", strings.Join(group, ", "), strings.Join(missing, ", "))
		}
	}
	if oidcClients := getenv("OIDC_CLIENT_ID") != "" || getenv("OIDC_CLIENT_IDS") != ""; oidcClients != (getenv("OIDC_ISSUER") != "") {
		return errors.New("OIDC_ISSUER goes with the web client (OIDC_CLIENT_ID and OIDC_CLIENT_SECRET), apps' client ids (OIDC_CLIENT_IDS) or both")
	}
	client := func(prefix string) signin.Client {
		return signin.Client{ID: getenv(prefix + "_CLIENT_ID"), Secret: getenv(prefix + "_CLIENT_SECRET")}
	}
	c.SignIn = signin.Config{
		Google: client("GOOGLE"), Kakao: client("KAKAO"), Naver: client("NAVER"),
		Apple: signin.Apple{ClientID: getenv("APPLE_CLIENT_ID"), TeamID: getenv("APPLE_TEAM_ID"), KeyID: getenv("APPLE_KEY_ID"),
			PrivateKey: getenv("APPLE_PRIVATE_KEY")},
		OIDC: signin.OIDC{Issuer: getenv("OIDC_ISSUER"), ClientID: getenv("OIDC_CLIENT_ID"), Secret: getenv("OIDC_CLIENT_SECRET"),
			Name: getenv("OIDC_NAME")},
		GoogleClientIDs: splitList(getenv("GOOGLE_CLIENT_IDS")), AppleClientIDs: splitList(getenv("APPLE_CLIENT_IDS")),
		OIDCClientIDs: splitList(getenv("OIDC_CLIENT_IDS")),
		GoogleIssuer:  getenv("GOOGLE_ISSUER"), AppleIssuer: getenv("APPLE_ISSUER"),
	}
	for _, name := range []string{"OIDC_ISSUER", "GOOGLE_ISSUER", "APPLE_ISSUER"} {
		if iss := getenv(name); iss != "" {
			if u, err := url.Parse(iss); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("%s must be an http(s) URL, not %q", name, iss)
			}
		}
	}
	for _, uri := range splitList(getenv("CLIENT_REDIRECT_URIS")) {
		u, err := url.Parse(uri)
		if err != nil || !u.IsAbs() || u.Fragment != "" || slices.Contains([]string{"javascript", "data", "vbscript"}, strings.ToLower(u.Scheme)) {
			return fmt.Errorf("CLIENT_REDIRECT_URIS must list absolute URIs without a fragment, such as tripplan://auth or https://app.example/signed-in, not %q", uri)
		}
		c.ClientRedirectURIs = append(c.ClientRedirectURIs, uri)
	}
	return nil
}

// loadCookies reads COOKIE_SAMESITE and COOKIE_DOMAIN, refusing values browsers would make
// the cookies useless with: a Secure (SameSite=None) cookie over plain http, a domain that does
// not cover the server's own host or that is a public suffix.
func loadCookies(c *config, getenv func(string) string) error {
	host := hostOf(c.publicURL())
	switch v := strings.ToLower(strings.TrimSpace(getenv("COOKIE_SAMESITE"))); v {
	case "", "lax":
		c.CookieSameSite = http.SameSiteLaxMode
	case "strict":
		c.CookieSameSite = http.SameSiteStrictMode
	case "none":
		c.CookieSameSite = http.SameSiteNoneMode
		if !strings.HasPrefix(c.publicURL(), "https://") && !loopback(host) {
			return errors.New("COOKIE_SAMESITE=none makes the cookies Secure, which browsers keep only over https: set an https BASE_URL")
		}
	default:
		return fmt.Errorf("COOKIE_SAMESITE must be lax, strict or none, not %q", getenv("COOKIE_SAMESITE"))
	}
	v := getenv("COOKIE_DOMAIN")
	if v == "" {
		return nil
	}
	// A leading dot is what old browsers wanted; the cookies go to every host under the domain
	// either way.
	domain := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(v), "."))
	if _, err := publicsuffix.EffectiveTLDPlusOne(domain); err != nil || net.ParseIP(host) != nil ||
		(host != domain && !strings.HasSuffix(host, "."+domain)) {
		return fmt.Errorf("COOKIE_DOMAIN must be a domain name that covers the server's host %s (BASE_URL) and is not "+
			"a public suffix, such as example.com for api.example.com; browsers would refuse the cookies for %q", host, v)
	}
	c.CookieDomain = domain
	return nil
}

// loadFrontend reads FRONTEND_URL and the paths of the front end's pages (unset paths get
// web's defaults).
func loadFrontend(c *config, getenv func(string) string) error {
	if v := getenv("FRONTEND_URL"); v != "" {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("FRONTEND_URL must be an absolute http(s) URL such as https://app.example, not %q", v)
		}
		c.Frontend.URL = strings.TrimRight(v, "/")
	}
	f := &c.Frontend
	for _, p := range []struct {
		name, placeholder string // the variable, and what it must hold
		path              *string
	}{
		{"FRONTEND_SIGNED_IN_PATH", "", &f.SignedInPath},
		{"FRONTEND_TERMS_PATH", "", &f.TermsPath},
		{"FRONTEND_PLAN_PATH", "{id}", &f.PlanPath},
		{"FRONTEND_COLLECTION_PATH", "{id}", &f.CollectionPath},
		{"FRONTEND_LINK_ERROR_PATH", "{error}", &f.LinkErrorPath},
	} {
		v := getenv(p.name)
		if v == "" {
			continue
		}
		if f.URL == "" {
			return fmt.Errorf("%s needs FRONTEND_URL (the front end's address)", p.name)
		}
		if views.SafeNext(v) == "" || strings.ContainsAny(v, " \\") {
			return fmt.Errorf("%s must be a path starting with /, not %q", p.name, v)
		}
		if p.placeholder != "" && !strings.Contains(v, p.placeholder) {
			return fmt.Errorf("%s must hold %s (filled in by the server), not %q", p.name, p.placeholder, v)
		}
		*p.path = v
	}
	return nil
}

// hostOf is the host name of an http(s) URL, without the port.
func hostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// loopback reports whether browsers treat the host as secure over plain http (localhost and
// loopback addresses): they keep Secure cookies from it.
func loopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// publicURL is the URL people reach the server at (social sign-in callbacks are under it):
// BASE_URL, or http://localhost with the port of ADDR when it is unset (never in production).
func (c config) publicURL() string {
	if c.BaseURL != "" {
		return c.BaseURL
	}
	_, port, _ := net.SplitHostPort(c.Addr)
	return "http://localhost:" + port
}

// checkTileURL accepts "none" or an http(s) URL template with {z}, {x} and {y}.
func checkTileURL(tiles string) error {
	if tiles == "none" {
		return nil
	}
	u, err := url.Parse(strings.NewReplacer("{", "", "}", "").Replace(tiles))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		!strings.Contains(tiles, "{z}") || !strings.Contains(tiles, "{x}") || !strings.Contains(tiles, "{y}") {
		return fmt.Errorf("MAP_TILE_URL must be none or an http(s) URL with {z}, {x} and {y}, not %q", tiles)
	}
	return nil
}

// router is the travel router the configuration asks for: OSRM when OSRM_URL is set, else
// nil (offline estimates).
func (c config) router() route.Router {
	if c.OSRMURL == "" {
		return nil
	}
	return route.NewOSRM(c.OSRMURL, c.OSRMWalkURL, nil)
}

// rates is the exchange rates source the configuration asks for: the ECB's document at
// RATES_URL when it is set, else nil (none: rates are given by hand).
func (c config) rates(log *slog.Logger) web.RateSource {
	if c.RatesURL == "" {
		return nil
	}
	return rates.NewECB(c.RatesURL, nil, log)
}

// placeProvider is the remote place provider the configuration chooses, or nil for the
// built-in catalog.
func (c config) placeProvider() places.Provider {
	switch {
	case c.GooglePlacesKey != "":
		return &places.Google{Key: c.GooglePlacesKey}
	case c.NominatimURL != "":
		return &places.Nominatim{BaseURL: c.NominatimURL}
	}
	return nil
}
