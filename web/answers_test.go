package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// serverTiming is the shape of every answer's Server-Timing header.
var serverTiming = regexp.MustCompile(`^db;dur=[0-9.]+;desc="([0-9]+) statements"(, render;dur=[0-9.]+)?(, cache;desc="(hit|miss)")?, app;dur=[0-9.]+$`)

// timingOf is an answer's Server-Timing: its statements, whether it rendered HTML, and its
// cache entry ("hit", "miss" or "").
func timingOf(t *testing.T, res response) (statements int, rendered bool, cache string) {
	t.Helper()
	st := res.Header.Get("Server-Timing")
	m := serverTiming.FindStringSubmatch(st)
	if m == nil {
		t.Fatalf("Server-Timing %q", st)
	}
	n, _ := strconv.Atoi(m[1])
	return n, m[2] != "", m[4]
}

// cacheOf is the cache entry of an answer's Server-Timing: "hit", "miss" or "".
func cacheOf(t *testing.T, res response) string {
	t.Helper()
	_, _, cache := timingOf(t, res)
	return cache
}

// TestKeptDayListingAnswers: a repeated day listing is sent from the bytes kept beside the
// cached page — per reader (each has their own "my" opinion), per language and per content
// coding — the same bytes as the first answer, with the same ETag; a change to the plan or to
// the reader's language setting is never answered with the old bytes.
func TestKeptDayListingAnswers(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	opinions := f.blocks + "/" + tb.Candidates[0].BlockID + "/opinions"
	if r := a.do(req{Method: "POST", Path: opinions, Token: f.ben, Body: map[string]any{"type": "POSITIVE"}}); r.Status != 201 {
		t.Fatalf("Ben's opinion: %d %s", r.Status, r.Body)
	}
	get := func(token, enc, lang string) (response, dayBlocksJSON) {
		t.Helper()
		h := map[string]string{"Accept-Encoding": enc} // set, so the client leaves the body as sent
		if lang != "" {
			h["Accept-Language"] = lang
		}
		res := a.do(req{Method: "GET", Path: f.blocks + "?day=1", Token: token, Header: h})
		var d dayBlocksJSON
		if err := json.Unmarshal(decoded(t, res.Header.Get("Content-Encoding"), res.Body), &d); err != nil || res.Status != http.StatusOK {
			t.Fatalf("day: %d %s", res.Status, res.Body)
		}
		return res, d
	}
	my := func(d dayBlocksJSON) string {
		if m := d.Contents[0].Candidates[0].OpinionSummary.My; m != nil {
			return m.Type
		}
		return ""
	}

	// Each reader, each coding: rendered once, then the same bytes from memory.
	first := map[string][]byte{}
	for _, enc := range []string{"br", "gzip", "identity"} {
		for who, token := range map[string]string{"ana": f.ana, "ben": f.ben} {
			res, d := get(token, enc, "en")
			if c := cacheOf(t, res); c != "miss" {
				t.Errorf("%s %s first: cache %q, want miss", who, enc, c)
			}
			if want := map[string]string{"ana": "", "ben": "POSITIVE"}[who]; my(d) != want {
				t.Errorf("%s %s: my opinion %q, want %q", who, enc, my(d), want)
			}
			again, d2 := get(token, enc, "en")
			if c := cacheOf(t, again); c != "hit" {
				t.Errorf("%s %s again: cache %q, want hit", who, enc, c)
			}
			if !bytes.Equal(again.Body, res.Body) || again.Header.Get("ETag") != res.Header.Get("ETag") ||
				again.Header.Get("Content-Encoding") != res.Header.Get("Content-Encoding") || my(d2) != my(d) {
				t.Errorf("%s %s: the kept answer differs from the first", who, enc)
			}
			if want := map[string]string{"br": "br", "gzip": "gzip", "identity": ""}[enc]; res.Header.Get("Content-Encoding") != want {
				t.Errorf("%s %s: Content-Encoding %q", who, enc, res.Header.Get("Content-Encoding"))
			}
			if res.Header.Get("Content-Language") != "en" || !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Language") {
				t.Errorf("%s %s: Content-Language %q, Vary %q", who, enc, res.Header.Get("Content-Language"), res.Header.Values("Vary"))
			}
			first[who+enc] = decoded(t, res.Header.Get("Content-Encoding"), res.Body)
			// The client holding it is told so.
			held := a.do(req{Method: "GET", Path: f.blocks + "?day=1", Token: token,
				Header: map[string]string{"Accept-Encoding": enc, "Accept-Language": "en", "If-None-Match": res.Header.Get("ETag")}})
			if held.Status != http.StatusNotModified || held.Header.Get("ETag") != res.Header.Get("ETag") || len(held.Body) != 0 {
				t.Errorf("%s %s If-None-Match: %d, ETag %q", who, enc, held.Status, held.Header.Get("ETag"))
			}
		}
	}
	if bytes.Equal(first["anabr"], first["benbr"]) {
		t.Error("Ana and Ben were sent the same listing")
	}
	if !bytes.Equal(first["anabr"], first["anagzip"]) || !bytes.Equal(first["anabr"], first["anaidentity"]) {
		t.Error("one listing decodes differently by coding")
	}

	// Another language is another answer, kept apart.
	ko, _ := get(f.ana, "br", "ko")
	if cacheOf(t, ko) != "miss" || ko.Header.Get("Content-Language") != "ko" || bytes.Equal(decoded(t, ko.Header.Get("Content-Encoding"), ko.Body), first["anabr"]) {
		t.Fatalf("Korean: cache %q, Content-Language %q", cacheOf(t, ko), ko.Header.Get("Content-Language"))
	}
	if en, _ := get(f.ana, "br", "en"); cacheOf(t, en) != "hit" || !bytes.Equal(decoded(t, en.Header.Get("Content-Encoding"), en.Body), first["anabr"]) {
		t.Fatal("the English listing changed after the Korean one")
	}
	if again, _ := get(f.ana, "br", "ko"); !bytes.Equal(decoded(t, again.Header.Get("Content-Encoding"), again.Body), decoded(t, ko.Header.Get("Content-Encoding"), ko.Body)) {
		t.Fatal("the Korean listing changed")
	}

	// Ana's opinion changes the plan: both readers get fresh answers at once.
	if r := a.do(req{Method: "POST", Path: opinions, Token: f.ana, Body: map[string]any{"type": "NEGATIVE"}}); r.Status != 201 {
		t.Fatalf("Ana's opinion: %d %s", r.Status, r.Body)
	}
	for who, token := range map[string]string{"ana": f.ana, "ben": f.ben} {
		res, d := get(token, "br", "en")
		if cacheOf(t, res) != "miss" || d.Contents[0].Candidates[0].OpinionSummary.TotalCount != 2 {
			t.Errorf("%s after Ana's opinion: cache %q, %+v", who, cacheOf(t, res), d.Contents[0].Candidates[0].OpinionSummary)
		}
	}
	if _, d := get(f.ana, "br", "en"); my(d) != "NEGATIVE" {
		t.Errorf("Ana's own opinion: %q", my(d))
	}

	// Ana's language setting outranks Accept-Language: choosing Korean is seen at once.
	if r := a.do(req{Method: "PUT", Path: "/users/me", Token: f.ana, Body: map[string]any{"language": "ko"}}); r.Status != 200 {
		t.Fatalf("language: %d %s", r.Status, r.Body)
	}
	if res, _ := get(f.ana, "br", "en"); res.Header.Get("Content-Language") != "ko" {
		t.Errorf("after choosing Korean: Content-Language %q", res.Header.Get("Content-Language"))
	}
}

// TestServerTimingOnEveryAnswer: pages, JSON reads, problems, static files and cached
// answers all say where their time went, and CORS clients may read it.
func TestServerTimingOnEveryAnswer(t *testing.T) {
	const spa = "http://localhost:5173"
	f := newPlanFixtureOn(t, newTestApp(t, func(c *Config) { c.CORSOrigins = []string{spa} }))
	a := f.a
	page := a.do(req{Method: "GET", Path: "/", Header: map[string]string{"Accept": "text/html"}})
	read := a.do(req{Method: "GET", Path: "/users/me", Token: f.ben, Header: map[string]string{"Origin": spa}})
	missing := a.do(req{Method: "GET", Path: "/plans/" + strings.Repeat("x", 21), Token: f.ben})
	asset := a.do(req{Method: "GET", Path: "/static/css/app.css"})
	for name, res := range map[string]response{"page": page, "JSON read": read, "404 problem": missing, "static file": asset} {
		if c := cacheOf(t, res); c != "" {
			t.Errorf("%s: cache %q", name, c)
		}
	}
	if page.Status != 200 || read.Status != 200 || asset.Status != 200 {
		t.Fatalf("statuses %d %d %d", page.Status, read.Status, asset.Status)
	}
	missing.problem(t, 404, "PLAN_NOT_FOUND")
	if !strings.Contains(read.Header.Get("Access-Control-Expose-Headers"), "Server-Timing") {
		t.Errorf("Access-Control-Expose-Headers %q", read.Header.Get("Access-Control-Expose-Headers"))
	}
	// Statements and render time: the page renders, the JSON read and the 404 ask the
	// database (the user, the plan), the static file neither.
	for name, tc := range map[string]struct {
		res            response
		asks, rendered bool
	}{"page": {page, false, true}, "JSON read": {read, true, false}, "404 problem": {missing, true, false}, "static file": {asset, false, false}} {
		if n, r := statementsRendered(t, tc.res); (n > 0) != tc.asks || r != tc.rendered {
			t.Errorf("%s: %d statements, rendered %v; want statements %v, rendered %v", name, n, r, tc.asks, tc.rendered)
		}
	}
	f.a.do(req{Method: "GET", Path: f.blocks + "?day=1", Token: f.ben})
	hit := a.do(req{Method: "GET", Path: f.blocks + "?day=1", Token: f.ben})
	// A hit runs two statements: one confirms the kept page against the plan's events (another
	// instance may have written), one reads the reader's language setting.
	if n, _, c := timingOf(t, hit); c != "hit" || n != 2 {
		t.Errorf("repeated day listing: cache %q, %d statements", c, n)
	}
}

func statementsRendered(t *testing.T, res response) (int, bool) {
	t.Helper()
	n, r, _ := timingOf(t, res)
	return n, r
}

// TestRequestLogCountsBytesSent: the request log's byte count is what went to the client,
// compressed.
func TestRequestLogCountsBytesSent(t *testing.T) {
	a := newTestApp(t)
	r, _ := http.NewRequest("GET", a.http.URL+"/", nil)
	r.Header.Set("Accept", "text/html")
	r.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	want := regexp.MustCompile(`path=/ status=200 bytes=(\d+) `)
	m := want.FindStringSubmatch(a.logBuf.String())
	if m == nil || m[1] != strconv.Itoa(len(body)) {
		t.Fatalf("logged %v, sent %d bytes:\n%s", m, len(body), a.logBuf.String())
	}
}

// BenchmarkDayBlocksCacheHit answers a day of 15 time blocks × 3 candidates × 5 opinions
// from the day cache, in the server alone (no client, no connection), by content coding: its
// allocations are the server's.
func BenchmarkDayBlocksCacheHit(b *testing.B) {
	f := newPlanFixture(b)
	f.fillDay(b, 1, 15)
	for _, enc := range []string{"identity", "gzip", "br"} {
		b.Run(enc, func(b *testing.B) {
			send := func() *httptest.ResponseRecorder {
				r := httptest.NewRequest("GET", f.blocks+"?day=1", nil)
				r.Header.Set("Authorization", "Bearer "+f.ben)
				r.Header.Set("Accept", "application/json")
				r.Header.Set("Accept-Encoding", enc)
				w := httptest.NewRecorder()
				f.a.srv.ServeHTTP(w, r)
				return w
			}
			if w := send(); w.Code != http.StatusOK {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				send()
			}
		})
	}
}
