package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tripplan/internal/places"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
	"tripplan/internal/rates"
	"tripplan/internal/route"
	"tripplan/internal/signin"
	"tripplan/internal/signin/fakeoidc"
	"tripplan/web"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfig(t *testing.T) {
	c, err := loadConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Env != "development" || c.Addr != ":8080" || !c.DevLogin || len(c.JWTSecret) < 32 {
		t.Fatalf("defaults: %+v", c)
	}
	if _, err := loadConfig(env(map[string]string{"APP_ENV": "production"})); err == nil ||
		!strings.Contains(err.Error(), "SESSION_SECRET") || !strings.Contains(err.Error(), "JWT_SECRET") {
		t.Fatalf("production without secrets: %v", err)
	}
	secret := strings.Repeat("s", 32)
	c, err = loadConfig(env(map[string]string{"APP_ENV": "production", "SESSION_SECRET": secret, "JWT_SECRET": secret, "BASE_URL": "https://tripplan.example/"}))
	if err != nil || c.DevLogin || c.BaseURL != "https://tripplan.example" {
		t.Fatalf("production: %+v %v", c, err)
	}
	if p := c.placeProvider(); p != nil {
		t.Errorf("no provider configured, got %T", p)
	}
	if c.MapTileURL != defaultMapTileURL || c.MapTileAttribution != defaultMapTileAttribution {
		t.Errorf("default tiles: %q %q", c.MapTileURL, c.MapTileAttribution)
	}
	c, _ = loadConfig(env(map[string]string{"MAP_TILE_URL": "http://tiles.local:8081/{z}/{x}/{y}.png", "MAP_TILE_ATTRIBUTION": "Local"}))
	if c.MapTileURL != "http://tiles.local:8081/{z}/{x}/{y}.png" || c.MapTileAttribution != "Local" {
		t.Errorf("configured tiles: %q %q", c.MapTileURL, c.MapTileAttribution)
	}
	c, _ = loadConfig(env(map[string]string{"NOMINATIM_URL": "https://nominatim.example"}))
	if _, ok := c.placeProvider().(*places.Nominatim); !ok {
		t.Errorf("NOMINATIM_URL: provider %T", c.placeProvider())
	}
	if r := c.router(); r != nil {
		t.Errorf("no OSRM_URL: router %T, want the default (nil: estimates)", r)
	}
	c, _ = loadConfig(env(map[string]string{"OSRM_URL": "https://osrm.example", "OSRM_WALK_URL": "https://foot.example/"}))
	if _, ok := c.router().(*route.OSRM); !ok {
		t.Errorf("OSRM_URL: router %T", c.router())
	}
	if r := c.rates(nil); r != nil {
		t.Errorf("no RATES_URL: rates %T, want none (nil: rates given by hand)", r)
	}
	c, _ = loadConfig(env(map[string]string{"RATES_URL": "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"}))
	if _, ok := c.rates(nil).(*rates.ECB); !ok {
		t.Errorf("RATES_URL: rates %T", c.rates(nil))
	}
	c, _ = loadConfig(env(map[string]string{"NOMINATIM_URL": "https://nominatim.example", "GOOGLE_PLACES_API_KEY": "k"}))
	if _, ok := c.placeProvider().(*places.Google); !ok {
		t.Errorf("GOOGLE_PLACES_API_KEY: provider %T", c.placeProvider())
	}
	if c.SignIn.Google.ID != "" || c.SignIn.OIDC.Issuer != "" || c.publicURL() != "http://localhost:8080" {
		t.Errorf("no sign-in configured: %+v, public URL %s", c.SignIn, c.publicURL())
	}
	c, err = loadConfig(env(map[string]string{"ADDR": ":9000", "GOOGLE_CLIENT_ID": "g", "GOOGLE_CLIENT_SECRET": "gs",
		"OIDC_ISSUER": "https://sso.example", "OIDC_CLIENT_ID": "o", "OIDC_CLIENT_SECRET": "os", "OIDC_NAME": "Company SSO",
		"APPLE_CLIENT_ID": "a", "APPLE_TEAM_ID": "t", "APPLE_KEY_ID": "k", "APPLE_PRIVATE_KEY": "pem"}))
	if err != nil || c.SignIn.Google != (signin.Client{ID: "g", Secret: "gs"}) || c.SignIn.Kakao.ID != "" ||
		c.SignIn.OIDC != (signin.OIDC{Issuer: "https://sso.example", ClientID: "o", Secret: "os", Name: "Company SSO"}) ||
		c.SignIn.Apple != (signin.Apple{ClientID: "a", TeamID: "t", KeyID: "k", PrivateKey: "pem"}) ||
		string(c.SignIn.Key) != string(c.SessionSecret) || c.publicURL() != "http://localhost:9000" {
		t.Errorf("sign-in configuration: %+v %v", c.SignIn, err)
	}
	c, err = loadConfig(env(map[string]string{"CLIENT_REDIRECT_URIS": "tripplan://auth, https://app.example/signed-in",
		"GOOGLE_CLIENT_IDS": "ios.apps.googleusercontent.com,android.apps.googleusercontent.com", "APPLE_CLIENT_IDS": "com.tripplan.ios",
		"OIDC_ISSUER": "https://sso.example", "OIDC_CLIENT_IDS": "mobile", "GOOGLE_ISSUER": "http://127.0.0.1:9999", "APPLE_ISSUER": "https://apple.test"}))
	if err != nil || len(c.ClientRedirectURIs) != 2 || c.ClientRedirectURIs[0] != "tripplan://auth" || len(c.SignIn.GoogleClientIDs) != 2 ||
		c.SignIn.AppleClientIDs[0] != "com.tripplan.ios" || c.SignIn.OIDCClientIDs[0] != "mobile" || c.SignIn.OIDC.ClientID != "" ||
		c.SignIn.GoogleIssuer != "http://127.0.0.1:9999" || c.SignIn.AppleIssuer != "https://apple.test" {
		t.Errorf("app sign-in configuration: %+v %q %v", c.SignIn, c.ClientRedirectURIs, err)
	}
	c, _ = loadConfig(env(map[string]string{"CORS_ORIGINS": "http://localhost:5173, https://app.example/",
		"JWT_PREVIOUS_SECRETS": "old-secret-old-secret-old-secret-0,older-secret-older-secret-older-1"}))
	if len(c.CORSOrigins) != 2 || c.CORSOrigins[1] != "https://app.example" || len(c.JWTPreviousSecrets) != 2 {
		t.Errorf("lists: %q %d", c.CORSOrigins, len(c.JWTPreviousSecrets))
	}
	c, _ = loadConfig(env(map[string]string{"EXTRACT_ALLOW_HOSTS": "127.0.0.1:8099, pages.local:80", "LLM_BASE_URL": "http://127.0.0.1:9000/v1/", "LLM_API_KEY": "k"}))
	if len(c.ExtractAllowHosts) != 2 || c.ExtractAllowHosts[1] != "pages.local:80" || c.LLM == nil ||
		c.LLM.BaseURL != "http://127.0.0.1:9000/v1" || c.LLM.APIKey != "k" || c.LLM.Model != "gpt-4o-mini" {
		t.Errorf("extraction settings: %q %+v", c.ExtractAllowHosts, c.LLM)
	}
	if c, _ := loadConfig(env(nil)); c.LLM != nil {
		t.Error("no LLM unless configured")
	}
	for v, want := range map[string]time.Duration{"": 30 * time.Second, "0": 0, "2m": 2 * time.Minute} {
		if c, err := loadConfig(env(map[string]string{"REFRESH_REUSE_GRACE": v})); err != nil || c.RefreshReuseGrace != want {
			t.Errorf("REFRESH_REUSE_GRACE=%q: %v, %v; want %v", v, c.RefreshReuseGrace, err, want)
		}
	}
	c, _ = loadConfig(env(map[string]string{"STREAM_LIMIT": "500", "STREAM_LIMIT_PER_USER": "4", "STREAM_LIMIT_PER_ADDRESS": "20"}))
	if c.StreamLimit != 500 || c.StreamLimitPerUser != 4 || c.StreamLimitPerAddress != 20 {
		t.Errorf("stream limits: %d %d %d", c.StreamLimit, c.StreamLimitPerUser, c.StreamLimitPerAddress)
	}
	for v, want := range map[string]bool{"": true, "true": true, "false": false, "0": false} {
		if c, err := loadConfig(env(map[string]string{"MIGRATE_ON_START": v})); err != nil || c.MigrateOnStart != want {
			t.Errorf("MIGRATE_ON_START=%q: %v, %v; want %v", v, c.MigrateOnStart, err, want)
		}
	}
	for vars, want := range map[string]postgres.Pool{
		"":                                       postgres.DefaultPool,
		"DB_MAX_CONNS=8":                         {MaxConns: 8, MaxIdle: 8, MaxIdleTime: 5 * time.Minute},
		"DB_MAX_CONNS=8 DB_MAX_IDLE_CONNS=0":     {MaxConns: 8, MaxIdle: 0, MaxIdleTime: 5 * time.Minute},
		"DB_MAX_IDLE_CONNS=2 DB_MAX_IDLE_TIME=0": {MaxConns: 20, MaxIdle: 2, MaxIdleTime: 0},
		"DB_MAX_CONNS=50 DB_MAX_IDLE_TIME=90s":   {MaxConns: 50, MaxIdle: 50, MaxIdleTime: 90 * time.Second},
		"DB_MAX_CONNS=50 DB_MAX_IDLE_CONNS=50":   {MaxConns: 50, MaxIdle: 50, MaxIdleTime: 5 * time.Minute},
	} {
		m := map[string]string{}
		for _, kv := range strings.Fields(vars) {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		if c, err := loadConfig(env(m)); err != nil || c.DBPool != want {
			t.Errorf("%s: pool %+v, %v; want %+v", vars, c.DBPool, err, want)
		}
	}
	for _, bad := range []map[string]string{{"MIGRATE_ON_START": "later"}, {"LLM_BASE_URL": "ftp://x"},
		{"DB_MAX_CONNS": "0"}, {"DB_MAX_CONNS": "1"}, {"DB_MAX_CONNS": "many"}, {"DB_MAX_CONNS": "8", "DB_MAX_IDLE_CONNS": "9"}, {"DB_MAX_IDLE_CONNS": "-1"},
		{"DB_MAX_IDLE_TIME": "soon"}, {"DB_MAX_IDLE_TIME": "-1m"}, {"APP_ENV": "staging"}, {"DEV_LOGIN": "maybe"}, {"JWT_SECRET": "short"}, {"NOMINATIM_URL": "ftp://x"}, {"OSRM_URL": "ftp://x"}, {"DATABASE_STATEMENT_TIMEOUT": "soon"}, {"DATABASE_STATEMENT_TIMEOUT": "-1s"}, {"REFRESH_REUSE_GRACE": "1h"}, {"REFRESH_REUSE_GRACE": "soon"}, {"OSRM_WALK_URL": "https://foot.example"},
		{"RATES_URL": "ftp://x"}, {"RATES_URL": "www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"},
		{"MAP_TILE_URL": "https://tiles.example/tile.png"}, {"MAP_TILE_URL": "javascript:{z}{x}{y}"},
		{"KAKAO_CLIENT_ID": "k"}, {"NAVER_CLIENT_SECRET": "n"}, {"APPLE_CLIENT_ID": "a", "APPLE_TEAM_ID": "t", "APPLE_KEY_ID": "k"},
		{"OIDC_ISSUER": "sso.example", "OIDC_CLIENT_ID": "o", "OIDC_CLIENT_SECRET": "os"}, {"OIDC_CLIENT_ID": "o", "OIDC_CLIENT_SECRET": "os"},
		{"OIDC_ISSUER": "https://sso.example"}, {"OIDC_CLIENT_IDS": "mobile"}, {"OIDC_ISSUER": "https://sso.example", "OIDC_CLIENT_ID": "o"},
		{"GOOGLE_ISSUER": "accounts.google.com"}, {"APPLE_ISSUER": "ftp://apple.test"},
		{"CLIENT_REDIRECT_URIS": "/signed-in"}, {"CLIENT_REDIRECT_URIS": "tripplan://auth#top"}, {"CLIENT_REDIRECT_URIS": "javascript:alert(1)"},
		{"JWT_PREVIOUS_SECRETS": "short"}, {"CORS_ORIGINS": "localhost:5173"}, {"CORS_ORIGINS": "https://app.example/path"},
		{"STORAGE_URL": "file:///tmp"}, {"STREAM_LIMIT": "0"}, {"STREAM_LIMIT_PER_USER": "ten"}, {"STREAM_LIMIT_PER_ADDRESS": "-5"}} {
		if _, err := loadConfig(env(bad)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestRunServesAndShutsDown starts the real program on a fresh database with an OpenID
// Connect provider configured, signs in as a demo user over HTTP, and stops it the way
// SIGTERM does.
func TestRunServesAndShutsDown(t *testing.T) {
	dbURL := pgtest.URL(t)
	op := fakeoidc.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, nil, env(map[string]string{"DATABASE_URL": dbURL, "ADDR": "127.0.0.1:0",
			"OIDC_ISSUER": op.URL, "OIDC_CLIENT_ID": fakeoidc.ClientID, "OIDC_CLIENT_SECRET": fakeoidc.Secret, "OIDC_NAME": "Test SSO"}), w)
		w.Close()
	}()
	urlRe := regexp.MustCompile(`Tripplan is running at (http://\S+)`)
	var base string
	lines := bufio.NewScanner(out)
	for base == "" && lines.Scan() {
		if m := urlRe.FindStringSubmatch(lines.Text()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatalf("no URL printed; run returned %v", <-done)
	}
	go io.Copy(io.Discard, out)

	// The configured OpenID Connect provider is offered on the sign-in page.
	res, err := http.Get(base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), "Continue with Test SSO") {
		t.Fatalf("the sign-in page does not offer the OpenID Connect provider: %s", page)
	}

	res, err = http.Post(base+"/dev/auth/login", "application/json",
		strings.NewReader(`{"provider":"GOOGLE","provider_id":"demo-ana","nickname":"Ana"}`))
	if err != nil {
		t.Fatal(err)
	}
	var tokens struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(res.Body).Decode(&tokens)
	res.Body.Close()
	if res.StatusCode != 200 || tokens.AccessToken == "" {
		t.Fatalf("demo login: %d", res.StatusCode)
	}
	r, _ := http.NewRequest("GET", base+"/users/me", nil)
	r.Header.Set("Authorization", "Bearer "+tokens.AccessToken)
	res, err = http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	var me struct {
		Nickname      string `json:"nickname"`
		TermsAccepted bool   `json:"terms_accepted"`
	}
	json.NewDecoder(res.Body).Decode(&me)
	res.Body.Close()
	if me.Nickname != "Ana" || !me.TermsAccepted {
		t.Fatalf("the seeded demo user is not Ana with terms accepted: %+v", me)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run did not shut down")
	}
}

// TestUnsafeConfigurationRefusesToStart starts the program with configurations that must not
// serve: it exits 1 having printed one line that says why, and nothing else.
func TestUnsafeConfigurationRefusesToStart(t *testing.T) {
	secret, other := strings.Repeat("s", 32), strings.Repeat("o", 32)
	production := func(extra map[string]string) map[string]string {
		m := map[string]string{"APP_ENV": "production", "BASE_URL": "https://tripplan.example", "SESSION_SECRET": secret, "JWT_SECRET": other}
		maps.Copy(m, extra)
		return m
	}
	cases := []struct {
		name string
		env  map[string]string
		says string
	}{
		{"dev sign-in in production", production(map[string]string{"DEV_LOGIN": "true"}), "DEV_LOGIN=true is refused with APP_ENV=production"},
		{"development session secret in production", production(map[string]string{"SESSION_SECRET": devSessionSecret}), "SESSION_SECRET holds a built-in development secret, refused with APP_ENV=production"},
		{"development JWT secret in production", production(map[string]string{"JWT_SECRET": devJWTSecret}), "JWT_SECRET holds a built-in development secret, refused with APP_ENV=production"},
		{"development JWT secret as a previous one", production(map[string]string{"JWT_PREVIOUS_SECRETS": secret + "," + devJWTSecret}), "JWT_PREVIOUS_SECRETS holds a built-in development secret"},
		{"development JWT secret in test", map[string]string{"APP_ENV": "test", "JWT_SECRET": devJWTSecret}, "JWT_SECRET holds a built-in development secret, refused with APP_ENV=test"},
		{"development session secret in test", map[string]string{"APP_ENV": "test", "SESSION_SECRET": devSessionSecret}, "SESSION_SECRET holds a built-in development secret, refused with APP_ENV=test"},
		{"development Web Push key in production", production(map[string]string{"VAPID_PUBLIC_KEY": devVAPID.PublicKey, "VAPID_PRIVATE_KEY": devVAPID.PrivateKey, "VAPID_SUBJECT": devVAPID.Subject}), "VAPID_PRIVATE_KEY holds the built-in development key, refused with APP_ENV=production"},
		{"an unknown SameSite", map[string]string{"COOKIE_SAMESITE": "loose"}, `COOKIE_SAMESITE must be lax, strict or none, not "loose"`},
		{"a front end that is no URL", map[string]string{"FRONTEND_URL": "app.example"}, `FRONTEND_URL must be an absolute http(s) URL such as https://app.example, not "app.example"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// run returns the reason, one line, before touching a database or printing anything
			// (were it to go on, the database it would find is unreachable).
			vars := map[string]string{"ADDR": "127.0.0.1:0", "DATABASE_URL": "postgres://127.0.0.1:1/unreachable"}
			maps.Copy(vars, tc.env)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var stdout strings.Builder
			err := run(ctx, nil, env(vars), &stdout)
			if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("run: %v, want one line saying %q", err, tc.says)
			}
			if stdout.Len() > 0 {
				t.Fatalf("run printed before refusing: %q", stdout.String())
			}
			// The program prints it once, on stderr, and exits 1.
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			cmd.Env = []string{"TRIPPLAN_TEST_SERVE=1"}
			for k, v := range vars {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			var out, errOut strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err = cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1", err)
			}
			if want := "tripplan: " + tc.says; out.Len() > 0 || strings.Count(errOut.String(), "\n") != 1 || !strings.HasPrefix(errOut.String(), want) {
				t.Fatalf("stdout %q, stderr %q; want one line starting %q", out.String(), errOut.String(), want)
			}
		})
	}
}

// TestSecretsOutsideDevelopment: development uses the fixed development secrets (sessions
// survive a restart of make run), test mode random ones, different at every start.
func TestSecretsOutsideDevelopment(t *testing.T) {
	dev, err := loadConfig(env(nil))
	if err != nil || string(dev.SessionSecret) != devSessionSecret || string(dev.JWTSecret) != devJWTSecret {
		t.Fatalf("development: %q %q %v", dev.SessionSecret, dev.JWTSecret, err)
	}
	first, err := loadConfig(env(map[string]string{"APP_ENV": "test"}))
	if err != nil {
		t.Fatal(err)
	}
	second, _ := loadConfig(env(map[string]string{"APP_ENV": "test"}))
	for _, s := range [][]byte{first.SessionSecret, first.JWTSecret} {
		if len(s) < 32 || string(s) == devSessionSecret || string(s) == devJWTSecret {
			t.Fatalf("test mode secret %q: want 32 random bytes or more", s)
		}
	}
	if string(first.JWTSecret) == string(second.JWTSecret) || string(first.SessionSecret) == string(second.SessionSecret) ||
		string(first.JWTSecret) == string(first.SessionSecret) {
		t.Fatal("test mode secrets repeat")
	}
	if !first.DevLogin || string(first.SignIn.Key) != string(first.SessionSecret) {
		t.Fatalf("test mode: dev login %v, sign-in key from the session secret %v", first.DevLogin, string(first.SignIn.Key) == string(first.SessionSecret))
	}
}

func TestTrustedProxiesConfig(t *testing.T) {
	c, err := loadConfig(env(nil))
	if err != nil || len(c.TrustedProxies) != 0 {
		t.Fatalf("default: %v %v, want no trusted proxy", c.TrustedProxies, err)
	}
	c, err = loadConfig(env(map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.10,fd00::/8, 2001:db8::1"}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range c.TrustedProxies {
		got = append(got, r.String())
	}
	if want := []string{"10.0.0.0/8", "192.0.2.10/32", "fd00::/8", "2001:db8::1/128"}; !slices.Equal(got, want) {
		t.Fatalf("TRUSTED_PROXIES: %v, want %v", got, want)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.local", "10.0.0"} {
		if _, err := loadConfig(env(map[string]string{"TRUSTED_PROXIES": bad})); err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXIES") {
			t.Errorf("TRUSTED_PROXIES=%s: %v", bad, err)
		}
	}
}

func TestCookieConfig(t *testing.T) {
	c, err := loadConfig(env(nil))
	if err != nil || c.CookieSameSite != http.SameSiteLaxMode || c.CookieDomain != "" {
		t.Fatalf("default: %v %q %v", c.CookieSameSite, c.CookieDomain, err)
	}
	for v, want := range map[string]http.SameSite{"lax": http.SameSiteLaxMode, "Strict": http.SameSiteStrictMode, "NONE": http.SameSiteNoneMode} {
		if c, err := loadConfig(env(map[string]string{"COOKIE_SAMESITE": v, "BASE_URL": "https://api.example.com"})); err != nil || c.CookieSameSite != want {
			t.Errorf("COOKIE_SAMESITE=%s: %v %v, want %v", v, c.CookieSameSite, err, want)
		}
	}
	// None means Secure, which browsers keep from https or from this machine only.
	for _, base := range []string{"", "http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080", "https://api.example.com"} {
		if _, err := loadConfig(env(map[string]string{"COOKIE_SAMESITE": "none", "BASE_URL": base})); err != nil {
			t.Errorf("COOKIE_SAMESITE=none with BASE_URL=%q: %v", base, err)
		}
	}
	for domain, base := range map[string]string{"example.com": "https://api.example.com", ".Example.com": "https://api.example.com",
		"api.example.com": "https://api.example.com", "tripplan.co.kr": "http://tripplan.co.kr:8080"} {
		c, err := loadConfig(env(map[string]string{"COOKIE_DOMAIN": domain, "BASE_URL": base}))
		if want := strings.ToLower(strings.TrimPrefix(domain, ".")); err != nil || c.CookieDomain != want {
			t.Errorf("COOKIE_DOMAIN=%s with BASE_URL=%s: %q %v, want %q", domain, base, c.CookieDomain, err, want)
		}
	}
	for _, bad := range []struct {
		env  map[string]string
		says string
	}{
		{map[string]string{"COOKIE_SAMESITE": "loose"}, `COOKIE_SAMESITE must be lax, strict or none, not "loose"`},
		{map[string]string{"COOKIE_SAMESITE": "none", "BASE_URL": "http://tripplan.example"}, "COOKIE_SAMESITE=none makes the cookies Secure"},
		{map[string]string{"COOKIE_DOMAIN": "other.example", "BASE_URL": "https://api.example.com"}, "COOKIE_DOMAIN must be a domain name that covers the server's host api.example.com"},
		{map[string]string{"COOKIE_DOMAIN": "ample.com", "BASE_URL": "https://api.example.com"}, "COOKIE_DOMAIN must be"},
		{map[string]string{"COOKIE_DOMAIN": "com", "BASE_URL": "https://api.example.com"}, "COOKIE_DOMAIN must be"},
		{map[string]string{"COOKIE_DOMAIN": "co.kr", "BASE_URL": "https://tripplan.co.kr"}, "COOKIE_DOMAIN must be"},
		{map[string]string{"COOKIE_DOMAIN": "https://example.com", "BASE_URL": "https://api.example.com"}, "COOKIE_DOMAIN must be"},
		{map[string]string{"COOKIE_DOMAIN": "0.0.1", "BASE_URL": "http://127.0.0.1:8080"}, "COOKIE_DOMAIN must be"},
		{map[string]string{"COOKIE_DOMAIN": "example.com"}, "covers the server's host localhost"},
	} {
		if _, err := loadConfig(env(bad.env)); err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%v: %v, want an error saying %q", bad.env, err, bad.says)
		}
	}
}

func TestFrontendConfig(t *testing.T) {
	c, err := loadConfig(env(nil))
	if err != nil || c.Frontend != (web.Frontend{}) {
		t.Fatalf("default: %+v %v, want no front end", c.Frontend, err)
	}
	c, err = loadConfig(env(map[string]string{"FRONTEND_URL": "https://app.example/"}))
	if err != nil || c.Frontend != (web.Frontend{URL: "https://app.example"}) {
		t.Fatalf("FRONTEND_URL alone: %+v %v (the paths' defaults are web's)", c.Frontend, err)
	}
	c, err = loadConfig(env(map[string]string{"FRONTEND_URL": "http://localhost:5173/app", "FRONTEND_SIGNED_IN_PATH": "/auth/done",
		"FRONTEND_TERMS_PATH": "/welcome?step=terms", "FRONTEND_PLAN_PATH": "/#/trips/{id}", "FRONTEND_COLLECTION_PATH": "/lists?id={id}",
		"FRONTEND_LINK_ERROR_PATH": "/oops/{error}"}))
	want := web.Frontend{URL: "http://localhost:5173/app", SignedInPath: "/auth/done", TermsPath: "/welcome?step=terms",
		PlanPath: "/#/trips/{id}", CollectionPath: "/lists?id={id}", LinkErrorPath: "/oops/{error}"}
	if err != nil || c.Frontend != want {
		t.Fatalf("front end: %+v %v, want %+v", c.Frontend, err, want)
	}
	const app = "https://app.example"
	for _, bad := range []struct {
		env  map[string]string
		says string
	}{
		{map[string]string{"FRONTEND_URL": "app.example"}, `FRONTEND_URL must be an absolute http(s) URL such as https://app.example, not "app.example"`},
		{map[string]string{"FRONTEND_URL": "/app"}, "FRONTEND_URL must be an absolute http(s) URL"},
		{map[string]string{"FRONTEND_URL": "javascript:alert(1)"}, "FRONTEND_URL must be an absolute http(s) URL"},
		{map[string]string{"FRONTEND_URL": "https://app.example/?x=1"}, "FRONTEND_URL must be an absolute http(s) URL"},
		{map[string]string{"FRONTEND_URL": "https://user:pw@app.example"}, "FRONTEND_URL must be an absolute http(s) URL"},
		{map[string]string{"FRONTEND_PLAN_PATH": "/projects/{id}"}, "FRONTEND_PLAN_PATH needs FRONTEND_URL"},
		{map[string]string{"FRONTEND_URL": app, "FRONTEND_SIGNED_IN_PATH": "login"}, `FRONTEND_SIGNED_IN_PATH must be a path starting with /, not "login"`},
		{map[string]string{"FRONTEND_URL": app, "FRONTEND_TERMS_PATH": "//evil.example/onboard"}, "FRONTEND_TERMS_PATH must be a path starting with /"},
		{map[string]string{"FRONTEND_URL": app, "FRONTEND_TERMS_PATH": "/on board"}, "FRONTEND_TERMS_PATH must be a path starting with /"},
		{map[string]string{"FRONTEND_URL": app, "FRONTEND_PLAN_PATH": "/projects"}, `FRONTEND_PLAN_PATH must hold {id} (filled in by the server), not "/projects"`},
		{map[string]string{"FRONTEND_URL": app, "FRONTEND_COLLECTION_PATH": "/home/:id"}, "FRONTEND_COLLECTION_PATH must hold {id}"},
		{map[string]string{"FRONTEND_URL": app, "FRONTEND_LINK_ERROR_PATH": "/403"}, "FRONTEND_LINK_ERROR_PATH must hold {error}"},
	} {
		if _, err := loadConfig(env(bad.env)); err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%v: %v, want an error saying %q", bad.env, err, bad.says)
		}
	}
}
