package main

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"tripplan/internal/places"
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
	// Place provider: Google Places when a key is set, else Nominatim when a URL is set,
	// else the built-in catalog.
	GooglePlacesKey string
	NominatimURL    string
	// Map tiles for the place and plan maps: an {z}/{x}/{y} URL template, or "none".
	MapTileURL         string
	MapTileAttribution string
}

// Default map tiles: OpenStreetMap's standard tile server, with its required attribution.
const (
	defaultMapTileURL         = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
	defaultMapTileAttribution = "© OpenStreetMap contributors"
)

// Development-only secrets, so that `make run` needs no configuration. Production refuses to
// start without its own.
const (
	devSessionSecret = "tripplan-development-session-secret-not-for-production"
	devJWTSecret     = "tripplan-development-jwt-secret-not-for-production"
)

func loadConfig(getenv func(string) string) (config, error) {
	c := config{
		Env:     strings.ToLower(strings.TrimSpace(getenv("APP_ENV"))),
		Addr:    getenv("ADDR"),
		BaseURL: strings.TrimRight(getenv("BASE_URL"), "/"),
	}
	if c.Env == "" {
		c.Env = "development"
	}
	switch c.Env {
	case "development", "test", "production":
	default:
		return c, fmt.Errorf("APP_ENV must be development, test or production, not %q", c.Env)
	}
	if c.Addr == "" {
		c.Addr = ":8080"
	}
	c.DevLogin = c.Env != "production"
	if v := getenv("DEV_LOGIN"); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("DEV_LOGIN must be true or false, not %q", v)
		}
		c.DevLogin = on
	}
	c.SessionSecret, c.JWTSecret = []byte(getenv("SESSION_SECRET")), []byte(getenv("JWT_SECRET"))
	c.GooglePlacesKey, c.NominatimURL = getenv("GOOGLE_PLACES_API_KEY"), getenv("NOMINATIM_URL")
	if c.NominatimURL != "" {
		if u, err := url.Parse(c.NominatimURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("NOMINATIM_URL must be an http(s) URL, not %q", c.NominatimURL)
		}
	}
	c.MapTileURL, c.MapTileAttribution = getenv("MAP_TILE_URL"), getenv("MAP_TILE_ATTRIBUTION")
	if c.MapTileURL == "" {
		c.MapTileURL, c.MapTileAttribution = defaultMapTileURL, cmp.Or(c.MapTileAttribution, defaultMapTileAttribution)
	}
	if err := checkTileURL(c.MapTileURL); err != nil {
		return c, err
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
			return c, errors.New("production needs " + strings.Join(missing, " and ") + " (at least 32 random bytes each)")
		}
		if c.BaseURL == "" {
			return c, errors.New("production needs BASE_URL (the public https URL)")
		}
	}
	if len(c.SessionSecret) == 0 {
		c.SessionSecret = []byte(devSessionSecret)
	}
	if len(c.JWTSecret) == 0 {
		c.JWTSecret = []byte(devJWTSecret)
	}
	if len(c.SessionSecret) < 32 || len(c.JWTSecret) < 32 {
		return c, errors.New("SESSION_SECRET and JWT_SECRET must be at least 32 bytes")
	}
	return c, nil
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

// placeProvider is the remote place provider the configuration chooses, or nil for the
// built-in catalog.
func (c config) placeProvider() web.PlaceProvider {
	switch {
	case c.GooglePlacesKey != "":
		return &places.Google{Key: c.GooglePlacesKey}
	case c.NominatimURL != "":
		return &places.Nominatim{BaseURL: c.NominatimURL}
	}
	return nil
}
