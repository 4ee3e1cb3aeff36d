package web

import (
	"net/http/httptest"
	"testing"
)

func TestNegotiate(t *testing.T) {
	cases := []struct {
		name    string
		headers map[string]string
		want    representation
	}{
		{"no Accept", nil, asJSON},
		{"JSON", map[string]string{"Accept": "application/json"}, asJSON},
		{"browser", map[string]string{"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, asPage},
		{"wildcard only", map[string]string{"Accept": "*/*"}, asJSON},
		{"JSON ranked above HTML", map[string]string{"Accept": "text/html;q=0.5, application/json"}, asJSON},
		{"HTML ranked above JSON", map[string]string{"Accept": "application/json;q=0.5, text/html"}, asPage},
		{"bearer beats HTML", map[string]string{"Accept": "text/html", "Authorization": "Bearer x"}, asJSON},
		{"htmx", map[string]string{"HX-Request": "true", "Accept": "*/*"}, asPartial},
		{"htmx with HTML accept", map[string]string{"HX-Request": "true", "Accept": "text/html, */*"}, asPartial},
		{"htmx boosted", map[string]string{"HX-Request": "true", "HX-Boosted": "true", "Accept": "text/html"}, asPage},
		{"htmx history restore", map[string]string{"HX-Request": "true", "HX-History-Restore-Request": "true"}, asPage},
		{"htmx asking for JSON", map[string]string{"HX-Request": "true", "Accept": "application/json"}, asJSON},
		{"bad q ignored", map[string]string{"Accept": "application/json;q=abc, text/html;q=0.1"}, asJSON},
	}
	for _, tc := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		for k, v := range tc.headers {
			r.Header.Set(k, v)
		}
		if got := negotiate(r); got != tc.want {
			t.Errorf("%s: negotiate = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestLocalPath(t *testing.T) {
	cases := map[string]string{
		"/plans/abc":           "/plans/abc",
		"":                     "/fallback",
		"//evil.example":       "/fallback",
		"/\\evil.example":      "/fallback",
		"https://evil.example": "/fallback",
		"/ok\r\nSet-Cookie:x":  "/fallback",
	}
	for in, want := range cases {
		if got := localPath(in, "/fallback"); got != want {
			t.Errorf("localPath(%q) = %q, want %q", in, got, want)
		}
	}
}
