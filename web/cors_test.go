package web

import (
	"net/http"
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
	// A conditional write's preflight: If-Match may be sent (API-additions §1, §3).
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
