package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"tripplan/internal/planner"
)

// TestHostileInputsToAuthEndpoints throws malformed, oversized and malicious input at every
// authentication and account endpoint: each answer is a 4xx problem with a code, never a 5xx,
// and nothing is stored.
func TestHostileInputsToAuthEndpoints(t *testing.T) {
	a := newTestApp(t)
	token := a.member("hostile-1", "Hostile")
	var users int
	a.mustGet(t, &users, `SELECT count(*) FROM users`)

	bodies := []any{
		"{", "[]", "null", `"string"`, "1e999", `{"provider":{"$ne":1}}`,
		`{"provider":"GOOGLE","provider_id":"x","nickname":"a\u0000b"}`,
		`{"provider":"GOOGLE'; DROP TABLE users;--","provider_id":"x","nickname":"Robert"}`,
		`{"provider":"GOOGLE","provider_id":"` + strings.Repeat("x", 300) + `","nickname":"Long"}`,
		`{"provider":"GOOGLE","provider_id":"x","nickname":"` + strings.Repeat("가", 11) + `"}`,
		`{"provider":"GOOGLE","provider_id":"x","nickname":"ok","picture":"javascript:alert(1)"}`,
		`{"provider":"GOOGLE","provider_id":"x","nickname":"ok","email":"` + strings.Repeat("a", 400) + `@x.com"}`,
		`{"refresh_token":"` + strings.Repeat("r", 5000) + `"}`,
		`{"refresh_token":123}`,
		`{"nickname":"<script>"}`, `{"nickname":["a"]}`, `{"reason":""}`, `{"reason":{"a":1}}`,
		strings.Repeat("[", 10000),
		`{"a":"` + strings.Repeat("x", 2<<20) + `"}`, // over the body limit
	}
	endpoints := []struct {
		method, path string
		auth         bool
		mayAccept    bool // some bodies are valid (a nickname in them, or nothing needed)
	}{
		{"POST", "/dev/auth/login", false, false},
		{"POST", "/auth/reissue", false, false},
		{"POST", "/auth/logout", true, true},
		{"PUT", "/users/me", true, true},
		{"DELETE", "/users/me", true, false},
		{"PATCH", "/users/me/terms", true, false},
	}
	headers := []map[string]string{
		nil,
		{"Content-Type": "text/plain"},
		{"Content-Type": "application/json; charset=utf-16"},
		{"Authorization": "Bearer"},
		{"Authorization": "Bearer " + strings.Repeat("a", 8000)},
		{"Authorization": "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."},
		{"Authorization": "Basic dXNlcjpwYXNz"},
		{"Cookie": "refresh_token=" + strings.Repeat("z", 3000) + "; tripplan_session=garbage"},
	}
	for _, ep := range endpoints {
		for _, h := range headers {
			for _, body := range bodies {
				rq := req{Method: ep.method, Path: ep.path, Body: body, Header: map[string]string{}}
				if ep.auth {
					rq.Token = token
				}
				for k, v := range h {
					rq.Header[k] = v
				}
				res := a.do(rq)
				if res.Status >= 500 || (res.Status < 300 && !ep.mayAccept) {
					t.Fatalf("%s %s with %v and %.60q: %d %.200s", ep.method, ep.path, h, body, res.Status, res.Body)
				}
				if ep.path == "/auth/logout" && res.Status == http.StatusNoContent {
					token = a.login("hostile-1", "Hostile").AccessToken // signed out: its token is revoked
				}
				if res.Status >= 400 {
					var p map[string]any
					if err := json.Unmarshal(res.Body, &p); err != nil || p["code"] == nil {
						t.Fatalf("%s %s: %d without a problem body: %.200s", ep.method, ep.path, res.Status, res.Body)
					}
				}
			}
		}
	}
	var after int
	a.mustGet(t, &after, `SELECT count(*) FROM users`)
	if after != users {
		t.Fatalf("hostile input created users: %d → %d", users, after)
	}
	// The account survived, with a valid nickname.
	var me userJSON
	res := a.do(req{Method: "GET", Path: "/users/me", Token: token})
	if json.Unmarshal(res.Body, &me); res.Status != http.StatusOK || !planner.ValidNickname(me.Nickname) {
		t.Fatalf("after the barrage: %d %s", res.Status, res.Body)
	}
}
