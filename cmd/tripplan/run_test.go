package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"tripplan/internal/places"
	"tripplan/internal/postgres/pgtest"
	"tripplan/internal/route"
	"tripplan/internal/signin"
	"tripplan/internal/signin/fakeoidc"
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
	c, _ = loadConfig(env(map[string]string{"STREAM_LIMIT": "500", "STREAM_LIMIT_PER_USER": "4", "STREAM_LIMIT_PER_ADDRESS": "20"}))
	if c.StreamLimit != 500 || c.StreamLimitPerUser != 4 || c.StreamLimitPerAddress != 20 {
		t.Errorf("stream limits: %d %d %d", c.StreamLimit, c.StreamLimitPerUser, c.StreamLimitPerAddress)
	}
	for _, bad := range []map[string]string{{"LLM_BASE_URL": "ftp://x"}, {"APP_ENV": "staging"}, {"DEV_LOGIN": "maybe"}, {"JWT_SECRET": "short"}, {"NOMINATIM_URL": "ftp://x"}, {"OSRM_URL": "ftp://x"}, {"DATABASE_STATEMENT_TIMEOUT": "soon"}, {"DATABASE_STATEMENT_TIMEOUT": "-1s"}, {"OSRM_WALK_URL": "https://foot.example"},
		{"MAP_TILE_URL": "https://tiles.example/tile.png"}, {"MAP_TILE_URL": "javascript:{z}{x}{y}"},
		{"KAKAO_CLIENT_ID": "k"}, {"NAVER_CLIENT_SECRET": "n"}, {"APPLE_CLIENT_ID": "a", "APPLE_TEAM_ID": "t", "APPLE_KEY_ID": "k"},
		{"OIDC_ISSUER": "sso.example", "OIDC_CLIENT_ID": "o", "OIDC_CLIENT_SECRET": "os"}, {"OIDC_CLIENT_ID": "o", "OIDC_CLIENT_SECRET": "os"},
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
