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
	c, _ = loadConfig(env(map[string]string{"NOMINATIM_URL": "https://nominatim.example", "GOOGLE_PLACES_API_KEY": "k"}))
	if _, ok := c.placeProvider().(*places.Google); !ok {
		t.Errorf("GOOGLE_PLACES_API_KEY: provider %T", c.placeProvider())
	}
	for _, bad := range []map[string]string{{"APP_ENV": "staging"}, {"DEV_LOGIN": "maybe"}, {"JWT_SECRET": "short"}, {"NOMINATIM_URL": "ftp://x"},
		{"MAP_TILE_URL": "https://tiles.example/tile.png"}, {"MAP_TILE_URL": "javascript:{z}{x}{y}"}} {
		if _, err := loadConfig(env(bad)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestRunServesAndShutsDown starts the real program on a fresh database, signs in as a demo
// user over HTTP, and stops it the way SIGTERM does.
func TestRunServesAndShutsDown(t *testing.T) {
	dbURL := pgtest.URL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, nil, env(map[string]string{"DATABASE_URL": dbURL, "ADDR": "127.0.0.1:0"}), w)
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

	res, err := http.Post(base+"/dev/auth/login", "application/json",
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
