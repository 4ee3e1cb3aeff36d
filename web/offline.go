package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/static"
	"tripplan/views"
)

// Installing and reading offline (issue 25): the web app manifest, the service worker and the
// page it shows when a page was never opened (docs/ARCHITECTURE.md, "Installing and reading
// offline").

// viewerHeader names, on every answer to a browser signed in with its session cookie, whose
// answer it is (viewerTag): the service worker keeps pages per viewer and drops a viewer's
// pages when an answer is for someone else or for nobody (static/js/sw.js).
const viewerHeader = "Tripplan-Viewer"

// viewerTag is a user's tag in viewerHeader: a label, not a secret (the browser already shows
// whose pages they are), but not the user's id either.
func viewerTag(userID string) string {
	sum := sha256.Sum256([]byte("tripplan viewer\x00" + userID))
	return hex.EncodeToString(sum[:8])
}

// workerScript is what /sw.js serves: static/js/sw.js after a line naming the release's
// hashed static files (each stored when the worker installs) and the offline page. The line
// changes with any static file, so a release makes browsers install the worker again, which
// drops the previous release's files.
var workerScript = sync.OnceValue(func() []byte {
	var assets []string
	for _, as := range static.Files.All() {
		if as.Name == "js/sw.js" || as.Name == "css/input.css" || strings.HasSuffix(as.Name, "/LICENSE") {
			continue
		}
		assets = append(assets, "/static/"+as.Hashed)
	}
	sum := sha256.Sum256([]byte(strings.Join(assets, "\n")))
	config, _ := json.Marshal(map[string]any{"version": hex.EncodeToString(sum[:5]), "assets": assets, "offline": views.OfflinePath})
	sw, _ := static.Files.Lookup("js/sw.js")
	return append([]byte("self.TRIPPLAN = "+string(config)+";\n"), sw.Body...)
})

// serviceWorker serves the worker at /sw.js, so that it may control every page (a worker
// controls only the paths under its own), never cached for long: browsers look for a new one
// at most a day apart anyway, and a stale worker would outlive a release.
func serviceWorker(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Service-Worker-Allowed", "/")
	h.Set(echo.HeaderCacheControl, "no-cache")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", workerScript())
}

// manifestIcon is an icon of the web app manifest.
type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose"`
}

// webManifest is the web app manifest: Tripplan installs as a standalone app starting at the
// home page, in the colours of its Tailwind palette (brand-600 over slate-50), its name the
// brand's, its description in the reader's language.
func webManifest(c echo.Context) error {
	ctx := c.Request().Context()
	icons := []manifestIcon{
		{Src: static.URL("img/logo.svg"), Sizes: "any", Type: "image/svg+xml", Purpose: "any"},
		{Src: static.URL("img/icon-192.png"), Sizes: "192x192", Type: "image/png", Purpose: "any"},
		{Src: static.URL("img/icon-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "any"},
		{Src: static.URL("img/icon-maskable-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
	}
	body, err := json.Marshal(map[string]any{
		"id": "/", "name": "Tripplan", "short_name": "Tripplan",
		"description": i18n.T(ctx, "offline.manifest_description"),
		"lang":        string(i18n.From(ctx).Lang()), "dir": "ltr",
		"start_url": views.HomePath, "scope": "/", "display": "standalone",
		"theme_color": "#0d9488", "background_color": "#f8fafc",
		"icons": icons,
	})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.Blob(http.StatusOK, "application/manifest+json", body)
}

// offlinePage is what the service worker shows for a page never opened while the network
// fails: in the reader's language, about nobody (it is kept for whoever uses the browser
// next), listing the plans kept on this device (app.js reads them from the worker's store).
func (s *Server) offlinePage(c echo.Context) error {
	p := views.Page{Title: i18n.T(c.Request().Context(), "offline.title"), Path: views.OfflinePath}
	return render(c, http.StatusOK, views.Offline(p))
}
