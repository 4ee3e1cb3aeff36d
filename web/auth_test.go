package web

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"tripplan/internal/auth"
)

func TestUnauthenticatedRequestsGet401WithCode(t *testing.T) {
	a := newTestApp(t)
	cases := []struct {
		name   string
		header map[string]string
		code   string
	}{
		{"no token", nil, "MISSING_TOKEN"},
		{"garbage token", map[string]string{"Authorization": "Bearer not-a-jwt"}, "INVALID_TOKEN"},
		{"wrong scheme", map[string]string{"Authorization": "Basic dXNlcjpwYXNz"}, "INVALID_TOKEN"},
		{"empty bearer", map[string]string{"Authorization": "Bearer "}, "INVALID_TOKEN"},
		{"alg none", map[string]string{"Authorization": "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4In0."}, "INVALID_TOKEN"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := a.do(req{Method: "GET", Path: "/users/me", Header: tc.header})
			res.problem(t, http.StatusUnauthorized, tc.code)
			if got := res.Header.Get("WWW-Authenticate"); got != `Bearer realm="api", error="invalid_token"` {
				t.Fatalf("WWW-Authenticate = %q", got)
			}
		})
	}
}

func TestExpiredTokenSaysExpired(t *testing.T) {
	a := newTestApp(t)
	token := a.member("exp-1", "Expiring")
	a.now = a.now.Add(61 * time.Minute)
	a.do(req{Method: "GET", Path: "/users/me", Token: token}).problem(t, http.StatusUnauthorized, "EXPIRED_TOKEN")
}

func TestTokenSignedWithAnotherKeyIsInvalid(t *testing.T) {
	a := newTestApp(t)
	a.member("k-1", "Other")
	forger, err := auth.NewIssuer([]byte("another-secret-another-secret-32b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var userID string
	if err := a.db.Get(&userID, `SELECT id FROM users WHERE provider_id = 'k-1'`); err != nil {
		t.Fatal(err)
	}
	token, _, err := forger.Issue(userID, "", true)
	if err != nil {
		t.Fatal(err)
	}
	a.do(req{Method: "GET", Path: "/users/me", Token: token}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
}

func TestDevLoginValidation(t *testing.T) {
	a := newTestApp(t)
	res := a.do(req{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{"provider": "MYSPACE", "nickname": "x"}})
	p := res.problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	fields := map[string]bool{}
	for _, e := range p["errors"].([]any) {
		m := e.(map[string]any)
		if m["reason"] == "" {
			t.Fatalf("field error without reason: %v", m)
		}
		fields[m["field"].(string)] = true
	}
	for _, f := range []string{"provider", "provider_id", "nickname"} {
		if !fields[f] {
			t.Errorf("no error for field %q in %s", f, res.Body)
		}
	}
	if len(fields) != 3 {
		t.Errorf("errors for %v, want exactly provider, provider_id, nickname", fields)
	}
}

func TestDevLoginDisabledIs404(t *testing.T) {
	a := newTestApp(t, func(c *Config) { c.DevLogin = false })
	a.do(req{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{"provider": "GOOGLE", "provider_id": "x", "nickname": "Xavier"}}).
		problem(t, http.StatusNotFound, "NOT_FOUND")
}

func TestTermsFlow(t *testing.T) {
	a := newTestApp(t)
	tr := a.login("terms-1", "Terry")
	if tr.RefreshToken == "" || tr.ExpiresIn != 3600 {
		t.Fatalf("token response %+v", tr)
	}
	me := a.do(req{Method: "GET", Path: "/users/me", Token: tr.AccessToken})
	if me.Status != http.StatusOK {
		t.Fatalf("GET /users/me with a pre-terms token: %d %s", me.Status, me.Body)
	}
	u := me.json(t)
	if u["terms_accepted"] != false || u["nickname"] != "Terry" || u["email"] != "te***@e******.com" || len(u["user_id"].(string)) != 21 {
		t.Fatalf("user = %v", u)
	}
	// Anything else needs the terms first.
	a.do(req{Method: "GET", Path: "/home", Token: tr.AccessToken}).problem(t, http.StatusForbidden, "TERMS_REQUIRED")

	res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: tr.AccessToken})
	if res.Status != http.StatusOK {
		t.Fatalf("accept terms: %d %s", res.Status, res.Body)
	}
	full := res.json(t)["access_token"].(string)
	if got := a.do(req{Method: "GET", Path: "/users/me", Token: full}).json(t)["terms_accepted"]; got != true {
		t.Fatalf("terms_accepted after accepting = %v", got)
	}
	a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: full}).problem(t, http.StatusConflict, "TERMS_ALREADY_ACCEPTED")

	// A later sign-in keeps the user's profile and gets a full token straight away.
	again := a.login("terms-1", "Renamed")
	u2 := a.do(req{Method: "GET", Path: "/users/me", Token: again.AccessToken}).json(t)
	if u2["user_id"] != u["user_id"] || u2["nickname"] != "Terry" || u2["terms_accepted"] != true {
		t.Fatalf("second sign-in changed the user: %v", u2)
	}
}

func TestRefreshRotationAndReplayRevokesFamily(t *testing.T) {
	a := newTestApp(t)
	first := a.login("rot-1", "Rotor")

	res := a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": first.RefreshToken}})
	if res.Status != http.StatusOK {
		t.Fatalf("reissue: %d %s", res.Status, res.Body)
	}
	second := res.json(t)
	if second["refresh_token"] == first.RefreshToken || second["access_token"] == "" {
		t.Fatalf("refresh token not rotated: %v", second)
	}
	if !strings.Contains(res.Header.Get("Set-Cookie"), "refresh_token=") {
		t.Fatalf("rotated cookie not set: %v", res.Header)
	}
	// Within the grace the first token is still exchanged (another tab refreshing at once)...
	if res := a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": first.RefreshToken}}); res.Status != http.StatusOK {
		t.Fatalf("reissue within the grace: %d %s", res.Status, res.Body)
	}
	// ...but once the grace is over, the thief's replay of it is refused, and the legitimate
	// second token dies with it.
	a.pastRefreshGrace(t)
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": first.RefreshToken}}).
		problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": second["refresh_token"].(string)}}).
		problem(t, http.StatusUnauthorized, "INVALID_TOKEN")

	// Another login (another family) is unaffected.
	other := a.login("rot-1", "Rotor")
	if res := a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": other.RefreshToken}}); res.Status != http.StatusOK {
		t.Fatalf("other family: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "POST", Path: "/auth/reissue"}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": "forged"}}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
}

// pastRefreshGrace makes every rotation so old that presenting a rotated token again is a
// replay (REFRESH_REUSE_GRACE is 30 s in the tests, as by default).
func (a *testApp) pastRefreshGrace(t *testing.T) {
	t.Helper()
	if _, err := a.db.Exec(`UPDATE refresh_tokens SET rotated_at = rotated_at - interval '31 seconds' WHERE rotated_at IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
}

// TestParallelReissuesOfOneTokenAllSucceed: five tabs refreshing with the same token at once
// all get a valid pair and the sign-in survives (docs/API.md §App sign-in, refresh reuse grace); after
// the grace, the same token again is a replay that ends the sign-in.
func TestParallelReissuesOfOneTokenAllSucceed(t *testing.T) {
	a := newTestApp(t)
	tr := a.login("race-1", "Racer")
	const n = 5
	var wg sync.WaitGroup
	res := make([]response, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": tr.RefreshToken}})
		}()
	}
	wg.Wait()
	var pairs []map[string]any
	for i, r := range res {
		if r.Status != http.StatusOK {
			t.Fatalf("parallel reissue %d: %d %s", i, r.Status, r.Body)
		}
		pairs = append(pairs, r.json(t))
	}
	// Every new pair works: its access token reads the profile, its refresh token rotates.
	for i, p := range pairs {
		if s := a.meStatus(p["access_token"].(string)); s != http.StatusOK {
			t.Errorf("pair %d's access token: %d", i, s)
		}
		if r := a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": p["refresh_token"].(string)}}); r.Status != http.StatusOK {
			t.Errorf("pair %d's refresh token: %d %s", i, r.Status, r.Body)
		}
	}
	// After the grace the first token again is a replay: the family is revoked.
	a.pastRefreshGrace(t)
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": tr.RefreshToken}}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	if s := a.meStatus(pairs[0]["access_token"].(string)); s != http.StatusUnauthorized {
		t.Errorf("after the replay a pair's access token answers %d, want 401", s)
	}
}

func TestRefreshCookieWorksWithoutBody(t *testing.T) {
	a := newTestApp(t)
	b := browser(t)
	res := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: map[string]string{"provider": "KAKAO", "provider_id": "c-1", "nickname": "쿠키"}})
	if res.Status != http.StatusOK {
		t.Fatalf("login: %d %s", res.Status, res.Body)
	}
	// Bearer-less, cookie-only reissue from the same origin.
	res = a.do(req{Method: "POST", Path: "/auth/reissue", Client: b, Header: map[string]string{"Sec-Fetch-Site": "same-origin"}})
	if res.Status != http.StatusOK {
		t.Fatalf("cookie reissue: %d %s", res.Status, res.Body)
	}
}

func TestLogoutRevokesRefreshTokenAndCopiedSessionCookie(t *testing.T) {
	a := newTestApp(t)
	b := browser(t)
	res := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: map[string]string{"provider": "GOOGLE", "provider_id": "out-1", "nickname": "Leaver"}})
	tr := res.json(t)
	var sessionCookie string
	for _, c := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, sessionName+"=") {
			sessionCookie = strings.SplitN(c, ";", 2)[0]
		}
	}
	if sessionCookie == "" {
		t.Fatalf("no session cookie set: %v", res.Header)
	}
	copied := map[string]string{"Cookie": sessionCookie}
	if res := a.do(req{Method: "GET", Path: "/users/me", Header: copied}); res.Status != http.StatusOK {
		t.Fatalf("session cookie does not authenticate: %d %s", res.Status, res.Body)
	}
	res = a.do(req{Method: "POST", Path: "/auth/logout", Client: b, Header: map[string]string{"Sec-Fetch-Site": "same-origin"}})
	if res.Status != http.StatusNoContent {
		t.Fatalf("logout: %d %s", res.Status, res.Body)
	}
	// The copied cookie is dead server-side, and so is the refresh token.
	a.do(req{Method: "GET", Path: "/users/me", Header: copied}).problem(t, http.StatusUnauthorized, "MISSING_TOKEN")
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": tr["refresh_token"].(string)}}).
		problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
}

func TestCrossOriginCookieWritesAreRefused(t *testing.T) {
	a := newTestApp(t)
	b := browser(t)
	a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: map[string]string{"provider": "GOOGLE", "provider_id": "csrf-1", "nickname": "Victim"}})
	a.do(req{Method: "PATCH", Path: "/users/me/terms", Client: b, Header: map[string]string{"Sec-Fetch-Site": "cross-site"}}).
		problem(t, http.StatusForbidden, "CROSS_ORIGIN_FORBIDDEN")
	a.do(req{Method: "PATCH", Path: "/users/me/terms", Client: b, Header: map[string]string{"Origin": "https://evil.example"}}).
		problem(t, http.StatusForbidden, "CROSS_ORIGIN_FORBIDDEN")
	// Login CSRF is refused too.
	a.do(req{Method: "POST", Path: "/dev/auth/login", Header: map[string]string{"Sec-Fetch-Site": "cross-site"},
		Body: map[string]string{"provider": "GOOGLE", "provider_id": "csrf-2", "nickname": "Forced"}}).
		problem(t, http.StatusForbidden, "CROSS_ORIGIN_FORBIDDEN")
	// Same-origin cookie requests and bearer requests pass.
	if res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Client: b, Header: map[string]string{"Sec-Fetch-Site": "same-origin"}}); res.Status != http.StatusOK {
		t.Fatalf("same-origin: %d %s", res.Status, res.Body)
	}
	tr := a.login("csrf-3", "Bearer")
	if res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: tr.AccessToken, Header: map[string]string{"Sec-Fetch-Site": "cross-site"}}); res.Status != http.StatusOK {
		t.Fatalf("bearer cross-site: %d %s", res.Status, res.Body)
	}
}

func TestSignInIsRateLimited(t *testing.T) {
	a := newTestApp(t, func(c *Config) { c.SignInRate, c.SignInBurst = 0.5, 3 })
	var last response
	for range 5 {
		last = a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": "x"}})
	}
	last.problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
	if last.Header.Get("Retry-After") != "2" {
		t.Fatalf("Retry-After = %q, want 2", last.Header.Get("Retry-After"))
	}
}

func TestBrowserDevLoginRedirectsThroughOnboarding(t *testing.T) {
	a := newTestApp(t)
	b := browser(t)
	form := "provider=GOOGLE&provider_id=demo-form&nickname=Formy&next=%2Fhome"
	res := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: form, Header: map[string]string{
		"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/onboarding/terms?next=%2Fhome" {
		t.Fatalf("form login: %d Location=%q %s", res.Status, res.Header.Get("Location"), res.Body)
	}
	// Signed in but pre-terms: /home sends the browser to onboarding.
	res = a.do(req{Method: "GET", Path: "/home", Client: b, Header: map[string]string{"Accept": "text/html"}})
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/onboarding") {
		t.Fatalf("pre-terms /home: %d %q", res.Status, res.Header.Get("Location"))
	}
	res = a.do(req{Method: "POST", Path: "/onboarding/terms?next=%2Fhome", Client: b, Header: map[string]string{"Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/onboarding/nickname?next=%2Fhome" {
		t.Fatalf("accept terms form: %d %q %s", res.Status, res.Header.Get("Location"), res.Body)
	}
	res = a.do(req{Method: "GET", Path: "/home", Client: b, Header: map[string]string{"Accept": "text/html"}})
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), "Formy") {
		t.Fatalf("home: %d %s", res.Status, res.Body)
	}
	// An open redirect through next is refused.
	res = a.do(req{Method: "POST", Path: "/dev/auth/login", Client: browser(t), Body: "provider=GOOGLE&provider_id=demo-form&nickname=Formy&next=%2F%2Fevil.example", Header: map[string]string{
		"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if loc := res.Header.Get("Location"); loc != "/home" {
		t.Fatalf("next=//evil.example redirected to %q", loc)
	}
}

func TestAnonymousBrowserIsSentToSignIn(t *testing.T) {
	a := newTestApp(t)
	res := a.do(req{Method: "GET", Path: "/home", Header: map[string]string{"Accept": "text/html"}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/login?next=%2Fhome" {
		t.Fatalf("anonymous /home: %d %q", res.Status, res.Header.Get("Location"))
	}
}

func TestHomeListsTheDemoPlanAndCollection(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	if seeded, err := a.db.SeedDemo(t.Context()); err != nil || !seeded {
		t.Fatalf("seed: %v %v", seeded, err)
	}
	b := browser(t)
	res := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: map[string]string{"provider": "GOOGLE", "provider_id": "demo-ana", "nickname": "Ana"}})
	if res.Status != http.StatusOK {
		t.Fatalf("demo login: %d %s", res.Status, res.Body)
	}
	res = a.do(req{Method: "GET", Path: "/home", Client: b, Header: map[string]string{"Accept": "text/html"}})
	body := string(res.Body)
	if res.Status != 200 || !strings.Contains(body, "Seoul weekend") || !strings.Contains(body, "Seoul food") {
		t.Fatalf("home: %d %s", res.Status, body)
	}
	// A new user sees the empty states instead.
	nb := browser(t)
	a.do(req{Method: "POST", Path: "/dev/auth/login", Client: nb, Body: map[string]string{"provider": "GOOGLE", "provider_id": "new-1", "nickname": "Newbie"}})
	a.do(req{Method: "PATCH", Path: "/users/me/terms", Client: nb, Header: map[string]string{"Sec-Fetch-Site": "same-origin"}})
	res = a.do(req{Method: "GET", Path: "/home", Client: nb, Header: map[string]string{"Accept": "text/html"}})
	if body := string(res.Body); res.Status != 200 || strings.Contains(body, "Seoul weekend") || !strings.Contains(body, "No plans yet") {
		t.Fatalf("new user's home: %d %s", res.Status, body)
	}
}
