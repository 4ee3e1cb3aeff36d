package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tripplan/static"
)

// A static file under its hashed name: kept a year, its brotli and gzip forms made once and
// validated by their own tags; under its plain name: kept five minutes; under a hash that is
// not its own: 404.
func TestStaticFiles(t *testing.T) {
	a := newTestApp(t)
	as, _ := static.Files.Lookup("css/app.css")
	hashed := static.URL("css/app.css")
	if !regexp.MustCompile(`^/static/css/app\.[0-9a-f]{10}\.css$`).MatchString(hashed) || hashed != "/static/"+as.Hashed {
		t.Fatalf("hashed name %s", hashed)
	}
	get := func(path string, header ...string) response {
		h := map[string]string{}
		for i := 0; i+1 < len(header); i += 2 {
			h[header[i]] = header[i+1]
		}
		return a.do(req{Method: "GET", Path: path, Header: h})
	}
	plain := get(hashed, "Accept-Encoding", "identity")
	if plain.Status != 200 || plain.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
		plain.Header.Get("ETag") != `"`+as.Hash+`"` || !strings.HasPrefix(plain.Header.Get("Content-Type"), "text/css") ||
		string(plain.Body) != string(as.Body) || !varies(plain.Header) {
		t.Fatalf("identity: %d %v", plain.Status, plain.Header)
	}
	for ae, want := range map[string]string{"br, gzip": "br", "gzip": "gzip"} {
		res := get(hashed, "Accept-Encoding", ae)
		suffix := map[string]string{"br": "-br", "gzip": "-gz"}[want]
		if res.Status != 200 || res.Header.Get("Content-Encoding") != want || res.Header.Get("ETag") != `"`+as.Hash+suffix+`"` ||
			res.Header.Get("Content-Length") != strconv.Itoa(len(res.Body)) || string(decoded(t, want, res.Body)) != string(as.Body) {
			t.Fatalf("%s: %d %v", ae, res.Status, res.Header)
		}
		again := get(hashed, "Accept-Encoding", ae, "If-None-Match", res.Header.Get("ETag"))
		if again.Status != http.StatusNotModified || len(again.Body) != 0 || again.Header.Get("ETag") != res.Header.Get("ETag") {
			t.Fatalf("%s revalidated: %d %v", ae, again.Status, again.Header)
		}
	}
	// A range of the plain bytes.
	if res := get(hashed, "Accept-Encoding", "br", "Range", "bytes=0-9"); res.Status != http.StatusPartialContent ||
		res.Header.Get("Content-Encoding") != "" || string(res.Body) != string(as.Body[:10]) {
		t.Errorf("range: %d %v %q", res.Status, res.Header, res.Body)
	}
	if res := get("/static/css/app.css"); res.Status != 200 || res.Header.Get("Cache-Control") != "public, max-age=300" {
		t.Errorf("plain name: %d %v", res.Status, res.Header)
	}
	for _, path := range []string{"/static/css/app.0123456789.css", "/static/css/nope.css", "/static/css/", "/static/" + as.Hashed + ".map"} {
		if res := get(path); res.Status != http.StatusNotFound {
			t.Errorf("%s: %d", path, res.Status)
		}
	}
	// Leaflet's style sheet points at its images by their hashed names.
	leafletCSS := get(static.URL("vendor/leaflet/leaflet.css"))
	icon, _ := static.Files.Lookup("vendor/leaflet/images/marker-icon.png")
	if !strings.Contains(string(leafletCSS.Body), "url(images/"+strings.TrimPrefix(icon.Hashed, "vendor/leaflet/images/")+")") {
		t.Errorf("leaflet.css does not name %s", icon.Hashed)
	}
}

// assetRefs finds the /static/ paths a page loads: scripts, style sheets, images, icons and
// the files map.js loads later (data-leaflet-*, data-cluster-*), and url()s of style sheets.
var assetRefs = regexp.MustCompile(`(?:src|href|data-(?:leaflet|cluster)-[a-z0-9-]+)="(/static/[^"]+)"|url\(([^)]+)\)`)

// Every page loads its assets by hashed name, and each of them, and each file their style
// sheets point at, answers 200 to be kept a year.
func TestPagesLoadHashedAssets(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "12:00", "13:00")))
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	seen := map[string]bool{}
	var check func(from, ref string)
	check = func(from, ref string) {
		if seen[ref] {
			return
		}
		seen[ref] = true
		if _, hashed := static.Files.Lookup(strings.TrimPrefix(ref, "/static/")); !hashed {
			t.Errorf("%s loads %s, not a hashed name", from, ref)
		}
		res := a.do(req{Method: "GET", Path: ref, Client: b})
		if res.Status != 200 || res.Header.Get("Cache-Control") != immutableCache {
			t.Errorf("%s (from %s): %d %q", ref, from, res.Status, res.Header.Get("Cache-Control"))
			return
		}
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") {
			return
		}
		for _, m := range assetRefs.FindAllStringSubmatch(string(res.Body), -1) {
			u := strings.Trim(m[2], `'"`)
			if u == "" || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "#") {
				continue
			}
			base, _ := url.Parse(ref)
			next, _ := base.Parse(u)
			if _, ok := static.Files.Lookup(strings.TrimPrefix(next.Path, "/static/")); !ok {
				continue // a Leaflet control's image this app does not vendor (layers.png), never drawn
			}
			check(ref, next.Path)
		}
	}
	pages := []string{"/home", "/plans", "/collections", "/collections/" + f.collection, "/plans/" + f.plan.PlanID,
		"/collections/" + f.collection + "/places/" + f.places[0].CollectionPlaceID, "/plans/" + f.plan.PlanID + "/budget", "/login"}
	for _, p := range pages {
		client := b
		if p == "/login" {
			client = browser(t)
		}
		page := a.page(t, client, p)
		found := 0
		for _, m := range assetRefs.FindAllStringSubmatch(page, -1) {
			if m[1] != "" {
				found++
				check(p, m[1])
			}
		}
		if found < 5 || strings.Count(page, `="/static/`) != found {
			t.Errorf("%s: %d of its %d /static/ paths found", p, found, strings.Count(page, `="/static/`))
		}
	}
	// The plan page and place page load map.js and name Leaflet's files without loading them.
	for _, p := range pages[4:6] {
		page := a.page(t, b, p)
		if !strings.Contains(page, `src="`+static.URL("js/map.js")+`"`) || strings.Contains(page, `src="`+static.URL("vendor/leaflet/leaflet.js")+`"`) ||
			!strings.Contains(page, `data-leaflet-js="`+static.URL("vendor/leaflet/leaflet.js")+`"`) {
			t.Errorf("%s: map.js or Leaflet wrongly loaded", p)
		}
	}
	for _, name := range []string{"vendor/leaflet/leaflet.js", "vendor/leaflet/leaflet.css", "vendor/leaflet/images/marker-icon.png"} {
		if !seen[static.URL(name)] {
			t.Errorf("no page names %s", name)
		}
	}
}
