package web

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestCORSForConfiguredOrigins: a single-page client on another port may call the API with
// credentials (preflight, then the refresh cookie); other origins get no CORS headers and
// their cookie requests are refused.
func TestCORSForConfiguredOrigins(t *testing.T) {
	const spa = "http://localhost:5173"
	a := newTestApp(t, func(c *Config) { c.CORSOrigins = []string{spa} })
	b := browser(t)
	if res := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: map[string]string{
		"provider": "GOOGLE", "provider_id": "cors-1", "nickname": "Cora"}}); res.Status != 200 {
		t.Fatalf("login: %d", res.Status)
	}

	pre := a.do(req{Method: "OPTIONS", Path: "/auth/reissue", Header: map[string]string{
		"Origin": spa, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}})
	if pre.Status != http.StatusNoContent || pre.Header.Get("Access-Control-Allow-Origin") != spa ||
		pre.Header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("preflight: %d %v", pre.Status, pre.Header)
	}
	// A conditional write's preflight: If-Match may be sent (docs/API.md §Concurrent writes, §App sign-in).
	cond := a.do(req{Method: "OPTIONS", Path: "/collections/x", Header: map[string]string{
		"Origin": spa, "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "if-match"}})
	if cond.Status != http.StatusNoContent || !strings.Contains(cond.Header.Get("Access-Control-Allow-Headers"), "If-Match") {
		t.Fatalf("If-Match preflight: %d %v", cond.Status, cond.Header)
	}
	// The cross-origin (same-site) reissue with the refresh cookie works for the trusted origin.
	res := a.do(req{Method: "POST", Path: "/auth/reissue", Client: b, Header: map[string]string{"Origin": spa, "Sec-Fetch-Site": "same-site"}})
	if res.Status != http.StatusOK || res.Header.Get("Access-Control-Allow-Origin") != spa {
		t.Fatalf("reissue from the SPA: %d %v %s", res.Status, res.Header, res.Body)
	}
	// Another origin: no CORS grant, and its cookie request is refused as CSRF.
	evil := a.do(req{Method: "OPTIONS", Path: "/auth/reissue", Header: map[string]string{
		"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}})
	if evil.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("an unlisted origin was allowed: %v", evil.Header)
	}
	a.do(req{Method: "POST", Path: "/auth/reissue", Client: b, Header: map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}}).
		problem(t, http.StatusForbidden, "CROSS_ORIGIN_FORBIDDEN")
}

// corsList is a comma-separated CORS header's names, lower-cased.
func corsList(h http.Header, name string) []string {
	var out []string
	for _, v := range strings.Split(h.Get(name), ",") {
		if v = strings.ToLower(strings.TrimSpace(v)); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// TestCORSHeadersOfFrontEnds: a front end on another origin may send every request header its
// flows need (docs/API.md §App sign-in) — each passes a preflight — and can read the answers' headers
// it needs (Access-Control-Expose-Headers), which the answers carry.
func TestCORSHeadersOfFrontEnds(t *testing.T) {
	const spa = "https://app.example"
	a := newTestApp(t, func(c *Config) { c.CORSOrigins = []string{spa} })
	sent := []string{"Authorization", "Content-Type", "Accept", "Accept-Language", "Cache-Control", "If-Match", "Idempotency-Key"}
	preflight := func(path, method, headers string) response {
		t.Helper()
		pre := a.do(req{Method: "OPTIONS", Path: path, Header: map[string]string{
			"Origin": spa, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers}})
		if pre.Status != http.StatusNoContent || pre.Header.Get("Access-Control-Allow-Origin") != spa ||
			pre.Header.Get("Access-Control-Allow-Credentials") != "true" || !slices.Contains(corsList(pre.Header, "Access-Control-Allow-Methods"), strings.ToLower(method)) {
			t.Fatalf("preflight of %s %s with %s: %d %v", method, path, headers, pre.Status, pre.Header)
		}
		return pre
	}
	for _, h := range sent {
		pre := preflight("/plans/p1", "PATCH", strings.ToLower(h))
		if !slices.Contains(corsList(pre.Header, "Access-Control-Allow-Headers"), strings.ToLower(h)) {
			t.Errorf("%s is not allowed: Access-Control-Allow-Headers %q", h, pre.Header.Get("Access-Control-Allow-Headers"))
		}
	}

	ana := a.member("cors-ana", "Ana")
	from := func(h map[string]string) map[string]string {
		h["Origin"] = spa
		return h
	}
	created := a.do(req{Method: "POST", Path: "/collections", Token: ana, Body: map[string]string{"title": "Busan"}, Header: from(keyed("k-1"))})
	replayed := a.do(req{Method: "POST", Path: "/collections", Token: ana, Body: map[string]string{"title": "Busan"}, Header: from(keyed("k-1"))})
	listed := a.do(req{Method: "GET", Path: "/notifications", Token: ana, Header: from(map[string]string{})})
	limited := newTestApp(t, func(c *Config) { c.CORSOrigins, c.SignInRate, c.SignInBurst = []string{spa}, 0.01, 1 })
	var tooMany response
	for range 2 {
		tooMany = limited.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": "x"}, Header: from(map[string]string{})})
	}
	for _, tc := range []struct {
		header string
		res    response
	}{
		{"Location", created}, {"X-Request-ID", created}, {"Idempotent-Replayed", replayed},
		{"ETag", listed}, {"X-Unread-Count", listed}, {"Retry-After", tooMany},
	} {
		if tc.res.Header.Get(tc.header) == "" {
			t.Errorf("the answer has no %s: %d %v", tc.header, tc.res.Status, tc.res.Header)
		}
		if tc.res.Header.Get("Access-Control-Allow-Origin") != spa || !slices.Contains(corsList(tc.res.Header, "Access-Control-Expose-Headers"), strings.ToLower(tc.header)) {
			t.Errorf("%s is not exposed to %s: %v", tc.header, spa, tc.res.Header)
		}
	}
}

// TestPicturesFromAFrontEnd: a front end on another origin uploads a picture to the signed URL
// as browsers send it (a preflight for Content-Type and Cache-Control, then the PUT with its
// bearer token or without one), reads the answer, and shows the picture, which is served with
// Cross-Origin-Resource-Policy: cross-origin (and CORS for listed origins).
func TestPicturesFromAFrontEnd(t *testing.T) {
	const spa = "https://app.example"
	a := newTestApp(t, func(c *Config) { c.CORSOrigins = []string{spa} })
	ana := a.member("corsp-ana", "Ana")
	for _, withToken := range []bool{false, true} {
		up := a.startUpload(t, ana)
		path := strings.TrimPrefix(up.PresignedURL, a.http.URL)
		headers := "content-type,cache-control"
		if withToken {
			headers += ",authorization"
		}
		pre := a.do(req{Method: "OPTIONS", Path: path, Header: map[string]string{
			"Origin": spa, "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": headers}})
		allowed := corsList(pre.Header, "Access-Control-Allow-Headers")
		if pre.Status != http.StatusNoContent || pre.Header.Get("Access-Control-Allow-Origin") != spa ||
			!slices.Contains(allowed, "content-type") || !slices.Contains(allowed, "cache-control") || !slices.Contains(allowed, "authorization") {
			t.Fatalf("upload preflight: %d %v", pre.Status, pre.Header)
		}
		put := req{Method: "PUT", Path: path, Body: pngBytes(t), Header: map[string]string{
			"Origin": spa, "Sec-Fetch-Site": "cross-site", "Content-Type": "image/png", "Cache-Control": "no-cache"}}
		if withToken {
			put.Token = ana
		}
		res := a.do(put)
		if res.Status != http.StatusOK || res.Header.Get("Access-Control-Allow-Origin") != spa || res.Header.Get("Access-Control-Allow-Credentials") != "true" {
			t.Fatalf("upload from %s (token %v): %d %v %s", spa, withToken, res.Status, res.Header, res.Body)
		}
		if me := a.me(t, ana); me.Picture != up.Picture {
			t.Fatalf("picture = %q, want %q", me.Picture, up.Picture)
		}
		file := strings.TrimPrefix(up.Picture, a.http.URL)
		for _, h := range []map[string]string{{"Accept": "image/*"}, {"Accept": "image/*", "Origin": spa}} {
			got := a.do(req{Method: "GET", Path: file, Header: h})
			if got.Status != http.StatusOK || got.Header.Get("Content-Type") != "image/png" || got.Header.Get("Cross-Origin-Resource-Policy") != "cross-origin" ||
				(h["Origin"] != "" && got.Header.Get("Access-Control-Allow-Origin") != spa) {
				t.Fatalf("GET %s with %v: %d %v", file, h, got.Status, got.Header)
			}
		}
	}
}
