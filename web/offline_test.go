package web

import (
	"bytes"
	"encoding/json"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tripplan/static"
)

// The manifest makes Tripplan installable (what Lighthouse's installability checks ask): it
// parses, is served as application/manifest+json and not cached long, names the app, starts
// in its scope, displays standalone in the palette's colours, and its icons — the SVG logo,
// PNGs of 192 and 512 pixels and a maskable one — are reachable, of the sizes they say.
// Every page links it.
func TestWebManifestMakesTheAppInstallable(t *testing.T) {
	a := newTestApp(t)
	res := a.do(req{Method: "GET", Path: "/manifest.webmanifest", Header: map[string]string{"Accept": "*/*", "Accept-Language": "ko"}})
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "application/manifest+json" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("manifest: %d %v", res.Status, res.Header)
	}
	var m struct {
		ID, Name, ShortName, StartURL, Scope, Display, ThemeColor, BackgroundColor, Lang, Description string
		Icons                                                                                         []manifestIcon
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(res.Body, &raw); err != nil {
		t.Fatalf("the manifest does not parse: %v\n%s", err, res.Body)
	}
	for k, v := range map[string]*string{"id": &m.ID, "name": &m.Name, "short_name": &m.ShortName, "start_url": &m.StartURL, "scope": &m.Scope,
		"display": &m.Display, "theme_color": &m.ThemeColor, "background_color": &m.BackgroundColor, "lang": &m.Lang, "description": &m.Description} {
		if err := json.Unmarshal(raw[k], v); err != nil || *v == "" {
			t.Errorf("the manifest's %s is %s", k, raw[k])
		}
	}
	json.Unmarshal(raw["icons"], &m.Icons)
	if m.Name != "Tripplan" || m.ShortName != "Tripplan" || m.Display != "standalone" || m.Lang != "ko" || !strings.Contains(m.Description, "여행") {
		t.Errorf("manifest: %+v", m)
	}
	base, _ := url.Parse("http://tripplan.test/manifest.webmanifest")
	start, scope := base.ResolveReference(&url.URL{Path: m.StartURL}), base.ResolveReference(&url.URL{Path: m.Scope})
	if !strings.HasPrefix(start.String(), scope.String()) {
		t.Errorf("start_url %s is outside the scope %s", start, scope)
	}
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	if m.ThemeColor != "#0d9488" || !hex.MatchString(m.BackgroundColor) { // brand-600, the layout's theme-color
		t.Errorf("colours: theme %s, background %s", m.ThemeColor, m.BackgroundColor)
	}
	found := map[string]bool{}
	for _, ic := range m.Icons {
		r := a.do(req{Method: "GET", Path: ic.Src, Header: map[string]string{"Accept": "image/*"}})
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != ic.Type || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("icon %s: %d %v", ic.Src, r.Status, r.Header)
			continue
		}
		if ic.Type == "image/png" {
			img, err := png.Decode(bytes.NewReader(r.Body))
			if err != nil {
				t.Errorf("icon %s: %v", ic.Src, err)
				continue
			}
			if size := strconv.Itoa(img.Bounds().Dx()) + "x" + strconv.Itoa(img.Bounds().Dy()); ic.Sizes != size {
				t.Errorf("icon %s says %s, is %v", ic.Src, ic.Sizes, img.Bounds())
			}
		}
		found[ic.Type+" "+ic.Sizes+" "+ic.Purpose] = true
	}
	for _, want := range []string{"image/svg+xml any any", "image/png 192x192 any", "image/png 512x512 any", "image/png 512x512 maskable"} {
		if !found[want] {
			t.Errorf("no icon %q in %v", want, found)
		}
	}
	if page := a.page(t, browser(t), "/"); !strings.Contains(page, `<link rel="manifest" href="/manifest.webmanifest">`) {
		t.Error("the landing page does not link the manifest")
	}
}

// /sw.js is static/js/sw.js after the line naming the release's hashed static files for the
// worker to keep; each is served, immutable, and the list leaves out the worker itself.
func TestServiceWorkerKeepsTheReleasesStaticFiles(t *testing.T) {
	a := newTestApp(t)
	res := a.do(req{Method: "GET", Path: "/sw.js", Header: map[string]string{"Accept": "*/*"}})
	first, rest, _ := strings.Cut(string(res.Body), "\n")
	sw, _ := static.Files.Lookup("js/sw.js")
	if res.Status != http.StatusOK || rest != string(sw.Body) || !strings.HasPrefix(first, "self.TRIPPLAN = ") || !strings.HasSuffix(first, ";") {
		t.Fatalf("/sw.js: %d %.200s", res.Status, res.Body)
	}
	var config struct {
		Version, Offline string
		Assets           []string
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(first, "self.TRIPPLAN = "), ";")), &config); err != nil {
		t.Fatal(err)
	}
	if config.Offline != "/offline" || len(config.Version) != 10 || len(config.Assets) < 10 {
		t.Fatalf("config: %+v", config)
	}
	for _, want := range []string{"css/app.css", "js/app.js", "js/htmx.min.js", "img/icon-192.png"} {
		if !strings.Contains(strings.Join(config.Assets, " "), static.URL(want)) {
			t.Errorf("the worker does not keep %s", want)
		}
	}
	for _, p := range config.Assets {
		if strings.Contains(p, "sw.") || strings.Contains(p, "input.") || strings.Contains(p, "LICENSE") {
			t.Errorf("the worker keeps %s", p)
		}
		if r := a.do(req{Method: "GET", Path: p, Header: map[string]string{"Accept": "*/*"}}); r.Status != http.StatusOK || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d %s", p, r.Status, r.Header.Get("Cache-Control"))
		}
	}
}

// Answers to a browser signed in with its session say whose they are (the worker keeps pages
// per viewer): the same tag for one user's answers, another for another user, none for a
// browser signed out or a bearer client. Signing out clears the browser's HTTP cache.
func TestAnswersNameTheirViewerAndSignOutClearsTheCache(t *testing.T) {
	a := newTestApp(t)
	ana, ben := a.signedInBrowser(t, "vw-ana", "Ana"), a.signedInBrowser(t, "vw-ben", "Ben")
	html := map[string]string{"Accept": "text/html"}
	tagOf := func(b *http.Client, path string) string {
		t.Helper()
		return a.do(req{Method: "GET", Path: path, Client: b, Header: html}).Header.Get(viewerHeader)
	}
	anaTag := tagOf(ana, "/home")
	if anaTag == "" || tagOf(ana, "/plans") != anaTag || tagOf(ben, "/home") == anaTag || tagOf(ben, "/home") == "" {
		t.Errorf("tags: Ana %q/%q, Ben %q", anaTag, tagOf(ana, "/plans"), tagOf(ben, "/home"))
	}
	if got := tagOf(browser(t), "/"); got != "" {
		t.Errorf("signed out, the answer names %q", got)
	}
	token := a.member("vw-cy", "Cy")
	if got := a.do(req{Method: "GET", Path: "/plans", Token: token}).Header.Get(viewerHeader); got != "" {
		t.Errorf("a bearer client's answer names %q", got)
	}
	res := a.do(req{Method: "POST", Path: "/auth/logout", Client: ana, Header: map[string]string{"Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"}, Body: ""})
	if res.Status != http.StatusSeeOther || res.Header.Get("Clear-Site-Data") != `"cache"` {
		t.Fatalf("sign-out: %d %v", res.Status, res.Header)
	}
	if got := tagOf(ana, "/"); got != "" {
		t.Errorf("after signing out, the answer names %q", got)
	}
}

// The offline page is in the reader's language and names nobody: it is kept for whoever uses
// the browser next.
func TestOfflinePageNamesNobody(t *testing.T) {
	a := newTestApp(t)
	ana := a.signedInBrowser(t, "of-ana", "Anastasia")
	en := a.page(t, ana, "/offline")
	if !strings.Contains(en, "You&#39;re offline") || !strings.Contains(en, "data-offline-plans") || strings.Contains(en, "Anastasia") {
		t.Errorf("English offline page: %.2000s", en)
	}
	res := a.do(req{Method: "GET", Path: "/offline", Header: map[string]string{"Accept": "text/html", "Accept-Language": "ko"}})
	if !strings.Contains(string(res.Body), "오프라인 상태예요") {
		t.Errorf("Korean offline page: %d %.2000s", res.Status, res.Body)
	}
}
