package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/signin"
	"tripplan/internal/signin/fakeoidc"
)

var asBrowser = map[string]string{"Accept": "text/html"}

// oidcApp is a test app with the fake OpenID Connect provider enabled as "Test SSO".
func oidcApp(t *testing.T, mutate ...func(*Config)) (*testApp, *fakeoidc.Server) {
	op := fakeoidc.New(t)
	enable := func(c *Config) {
		c.SignIn = signin.Config{Key: []byte("flow-key-flow-key-flow-key-flow-key"),
			OIDC: signin.OIDC{Issuer: op.URL, ClientID: fakeoidc.ClientID, Secret: fakeoidc.Secret, Name: "Test SSO"}}
	}
	return newTestApp(t, append([]func(*Config){enable}, mutate...)...), op
}

// toProvider starts a sign-in in browser b and follows it to the provider, which approves at
// once; it returns the callback URL (a path of the app) the provider sends the browser to.
func (a *testApp) toProvider(t *testing.T, b *http.Client, start string) string {
	t.Helper()
	res := a.do(req{Method: "GET", Path: start, Client: b, Header: asBrowser})
	if res.Status != http.StatusFound {
		t.Fatalf("GET %s: %d %s", start, res.Status, res.Body)
	}
	at, err := b.Get(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	at.Body.Close()
	callback := at.Header.Get("Location")
	if at.StatusCode != http.StatusFound || !strings.HasPrefix(callback, a.http.URL+"/login/oauth2/code/oidc?") {
		t.Fatalf("the provider answered %d Location=%q", at.StatusCode, callback)
	}
	return strings.TrimPrefix(callback, a.http.URL)
}

// socialSignIn signs browser b in through the provider and returns the callback's answer.
func (a *testApp) socialSignIn(t *testing.T, b *http.Client, start string) response {
	t.Helper()
	return a.do(req{Method: "GET", Path: a.toProvider(t, b, start), Client: b, Header: asBrowser})
}

// setCookies are the cookies a response sets, by name, with their max-age.
func setCookies(res response) map[string]*http.Cookie {
	out := map[string]*http.Cookie{}
	for _, ck := range (&http.Response{Header: res.Header}).Cookies() {
		out[ck.Name] = ck
	}
	return out
}

func TestSocialSignInThroughOIDC(t *testing.T) {
	a, op := oidcApp(t)
	page := a.do(req{Method: "GET", Path: "/login?next=%2Fhome", Header: asBrowser})
	if page.Status != http.StatusOK || !strings.Contains(string(page.Body), `href="/oauth2/authorization/oidc?next=%2Fhome"`) ||
		!strings.Contains(string(page.Body), "Continue with Test SSO") {
		t.Fatalf("sign-in page: %d %s", page.Status, page.Body)
	}

	op.SetUser(map[string]any{"sub": "oidc-1", "name": "Mina Kim", "email": "mina@example.com", "picture": "https://img.example/mina.png"})
	b := browser(t)
	start := a.do(req{Method: "GET", Path: "/oauth2/authorization/oidc?next=/home", Client: b, Header: asBrowser})
	flow := setCookies(start)[signin.FlowCookie]
	if start.Status != http.StatusFound || !strings.HasPrefix(start.Header.Get("Location"), op.URL+"/authorize?") ||
		flow == nil || !flow.HttpOnly || flow.SameSite != http.SameSiteLaxMode || flow.Path != "/login/oauth2/code/" || flow.MaxAge != 600 {
		t.Fatalf("start: %d Location=%q flow cookie %+v", start.Status, start.Header.Get("Location"), flow)
	}
	res := a.socialSignIn(t, b, "/oauth2/authorization/oidc?next=/home")
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/onboarding/terms?next=%2Fhome" {
		t.Fatalf("callback: %d Location=%q %s", res.Status, res.Header.Get("Location"), res.Body)
	}
	set := setCookies(res)
	// The session and the refresh token are set (the latter HttpOnly), the sign-in flow's cookie cleared.
	type cookiesShape struct{ Session, Refresh, RefreshHttpOnly, FlowCleared bool }
	gotCookies := cookiesShape{
		Session:     set[sessionName] != nil && set[sessionName].Value != "",
		Refresh:     set[refreshCookie] != nil && set[refreshCookie].Value != "",
		FlowCleared: set[signin.FlowCookie] != nil && set[signin.FlowCookie].MaxAge < 0,
	}
	if set[refreshCookie] != nil {
		gotCookies.RefreshHttpOnly = set[refreshCookie].HttpOnly
	}
	if diff := cmp.Diff(cookiesShape{Session: true, Refresh: true, RefreshHttpOnly: true, FlowCleared: true}, gotCookies); diff != "" {
		t.Fatalf("callback cookies (-want +got):\n%s\n%v", diff, res.Header.Values("Set-Cookie"))
	}
	if ch := op.Challenges(); len(ch) != 1 || ch[0] == "" {
		t.Fatalf("PKCE challenges %q", ch)
	}

	// The browser is signed in, pre-terms, as the provider's account.
	me := a.do(req{Method: "GET", Path: "/users/me", Client: b}).json(t)
	if me["provider"] != "OIDC" || me["nickname"] != "MinaKim" || me["picture"] != "https://img.example/mina.png" ||
		me["email"] != "mi***@e******.com" || me["terms_accepted"] != false {
		t.Fatalf("/users/me = %v", me)
	}
	res = a.do(req{Method: "POST", Path: "/onboarding/terms?next=%2Fhome", Client: b, Header: map[string]string{"Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/onboarding/nickname?next=%2Fhome" {
		t.Fatalf("accept terms: %d %q", res.Status, res.Header.Get("Location"))
	}

	// A later sign-in keeps the user's own nickname and goes straight on.
	if _, err := a.db.Exec(`UPDATE users SET nickname = 'Minnie' WHERE provider = 'OIDC' AND provider_id = 'oidc-1'`); err != nil {
		t.Fatal(err)
	}
	b2 := browser(t)
	res = a.socialSignIn(t, b2, "/oauth2/authorization/oidc?next=%2Fplans")
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/plans" {
		t.Fatalf("second sign-in: %d Location=%q", res.Status, res.Header.Get("Location"))
	}
	if me := a.do(req{Method: "GET", Path: "/users/me", Client: b2}).json(t); me["nickname"] != "Minnie" || me["user_id"] == nil {
		t.Fatalf("after the second sign-in /users/me = %v", me)
	}

	// Another account with the same name gets it numbered; no next goes home.
	op.SetUser(map[string]any{"sub": "oidc-2", "nickname": "Minnie!"})
	b3 := browser(t)
	if res := a.socialSignIn(t, b3, "/oauth2/authorization/oidc"); res.Header.Get("Location") != "/onboarding/terms?next=%2Fhome" {
		t.Fatalf("third sign-in: %d Location=%q", res.Status, res.Header.Get("Location"))
	}
	if me := a.do(req{Method: "GET", Path: "/users/me", Client: b3}).json(t); me["nickname"] != "Minnie2" {
		t.Fatalf("a second Minnie is %v", me["nickname"])
	}
	// An open redirect through next is refused.
	op.SetUser(map[string]any{"sub": "oidc-1"})
	if res := a.socialSignIn(t, browser(t), "/oauth2/authorization/oidc?next=//evil.example"); res.Header.Get("Location") != "/home" {
		t.Fatalf("next=//evil.example went to %q", res.Header.Get("Location"))
	}
}

func TestSocialSignInOfWithdrawnAccountIsRefused(t *testing.T) {
	a, op := oidcApp(t)
	op.SetUser(map[string]any{"sub": "gone-1", "name": "Gone"})
	if res := a.socialSignIn(t, browser(t), "/oauth2/authorization/oidc"); res.Status != http.StatusFound {
		t.Fatalf("first sign-in: %d", res.Status)
	}
	if _, err := a.db.Exec(`UPDATE users SET withdrawn_at = now() WHERE provider_id = 'gone-1'`); err != nil {
		t.Fatal(err)
	}
	res := a.socialSignIn(t, browser(t), "/oauth2/authorization/oidc")
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/login?error=withdrawn" {
		t.Fatalf("withdrawn: %d Location=%q", res.Status, res.Header.Get("Location"))
	}
	if set := setCookies(res); set[refreshCookie] != nil || set[sessionName] != nil {
		t.Fatalf("withdrawn sign-in set cookies: %v", res.Header.Values("Set-Cookie"))
	}
	page := a.do(req{Method: "GET", Path: "/login?error=withdrawn", Header: asBrowser})
	if !strings.Contains(string(page.Body), "This account was deleted and cannot sign in again.") {
		t.Fatalf("sign-in page without the withdrawn message: %s", page.Body)
	}
}

func TestSocialSignInWithForgedOrMissingStateFails(t *testing.T) {
	a, _ := oidcApp(t)
	b := browser(t)
	callback := a.toProvider(t, b, "/oauth2/authorization/oidc")
	u, _ := url.Parse(callback)
	q := u.Query()

	forged := u.Path + "?" + url.Values{"code": {q.Get("code")}, "state": {"forged"}}.Encode()
	noState := u.Path + "?" + url.Values{"code": {q.Get("code")}}.Encode()
	for name, tc := range map[string]struct {
		client *http.Client
		path   string
	}{
		"forged state":     {b, forged},
		"no state":         {b, noState},
		"no flow cookie":   {browser(t), callback},
		"provider refused": {b, u.Path + "?error=access_denied&state=" + url.QueryEscape(q.Get("state"))},
	} {
		res := a.do(req{Method: "GET", Path: tc.path, Client: tc.client, Header: asBrowser})
		if res.Status != http.StatusFound || res.Header.Get("Location") != "/login?error=failed" {
			t.Errorf("%s: %d Location=%q, want /login?error=failed", name, res.Status, res.Header.Get("Location"))
		}
		if set := setCookies(res); set[refreshCookie] != nil || set[sessionName] != nil {
			t.Errorf("%s: cookies set: %v", name, res.Header.Values("Set-Cookie"))
		}
	}
	page := a.do(req{Method: "GET", Path: "/login?error=failed", Header: asBrowser})
	if !strings.Contains(string(page.Body), "Sign-in did not complete. Please try again.") {
		t.Fatalf("sign-in page without the failure message: %s", page.Body)
	}
}

func TestDisabledProvidersAre404(t *testing.T) {
	a, _ := oidcApp(t)
	for _, path := range []string{"/oauth2/authorization/google", "/oauth2/authorization/apple", "/login/oauth2/code/kakao?code=x&state=y", "/oauth2/authorization/OIDC"} {
		a.do(req{Method: "GET", Path: path}).problem(t, http.StatusNotFound, "NOT_FOUND")
	}
	none := newTestApp(t)
	none.do(req{Method: "GET", Path: "/oauth2/authorization/oidc"}).problem(t, http.StatusNotFound, "NOT_FOUND")
	page := none.do(req{Method: "GET", Path: "/login", Header: asBrowser})
	if page.Status != http.StatusOK || strings.Contains(string(page.Body), "/oauth2/authorization/") {
		t.Fatalf("sign-in page without providers: %d %s", page.Status, page.Body)
	}
}

func TestSocialSignInIsRateLimited(t *testing.T) {
	a, _ := oidcApp(t, func(c *Config) { c.SignInRate, c.SignInBurst = 0.5, 3 })
	var last response
	for range 5 {
		last = a.do(req{Method: "GET", Path: "/oauth2/authorization/oidc"})
	}
	last.problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
	if last.Header.Get("Retry-After") != "2" {
		t.Fatalf("Retry-After = %q, want 2", last.Header.Get("Retry-After"))
	}
	a.do(req{Method: "GET", Path: "/login/oauth2/code/oidc?code=x&state=y"}).problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
	// Apps' sign-in shares the limit.
	a.do(req{Method: "POST", Path: "/auth/token", Body: map[string]string{"grant_type": "authorization_code", "code": "x"}}).
		problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
	a.do(req{Method: "POST", Path: "/auth/oidc/token", Body: map[string]string{"id_token": "x"}}).
		problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
}

// TestHostileInputsToSocialSignIn: malformed callbacks, cookies and paths are refused
// without a 5xx and without signing anyone in.
func TestHostileInputsToSocialSignIn(t *testing.T) {
	a, _ := oidcApp(t)
	long := strings.Repeat("x", 6000)
	for _, path := range []string{
		"/login/oauth2/code/oidc",
		"/login/oauth2/code/oidc?code=" + long + "&state=" + long,
		"/login/oauth2/code/oidc?code=a&code=b&state=s&state=t",
		"/login/oauth2/code/oidc?code=%00&state=%ff%fe",
		"/login/oauth2/code/oidc?error=" + long + "&error_description=%3Cscript%3E",
		"/login/oauth2/code/oidc?code=x&state=y&redirect_uri=https://evil.example/",
	} {
		for _, cookie := range []string{"", signin.FlowCookie + "=garbage", signin.FlowCookie + "=" + long} {
			res := a.do(req{Method: "GET", Path: path, Header: map[string]string{"Accept": "text/html", "Cookie": cookie}})
			if res.Status != http.StatusFound || res.Header.Get("Location") != "/login?error=failed" || setCookies(res)[refreshCookie] != nil {
				t.Errorf("%.80s with cookie %.40q: %d Location=%q", path, cookie, res.Status, res.Header.Get("Location"))
			}
		}
	}
	for _, path := range []string{"/oauth2/authorization/..%2Foidc", "/oauth2/authorization/%00", "/login/oauth2/code/" + long, "/oauth2/authorization/"} {
		if res := a.do(req{Method: "GET", Path: path}); res.Status != http.StatusNotFound {
			t.Errorf("%.80s: %d, want 404", path, res.Status)
		}
	}
	var users int
	if err := a.db.Get(&users, `SELECT count(*) FROM users WHERE provider = 'OIDC'`); err != nil || users != 0 {
		t.Fatalf("%d OIDC users after hostile callbacks (%v)", users, err)
	}
	// A hostile next is dropped: the sign-in ends at home.
	for _, next := range []string{"javascript:alert(1)", "https://evil.example/", "/\r\nSet-Cookie: x=y", `\\evil.example`} {
		if res := a.socialSignIn(t, browser(t), "/oauth2/authorization/oidc?next="+url.QueryEscape(next)); res.Header.Get("Location") != "/onboarding/terms?next=%2Fhome" {
			t.Errorf("next=%q went to %q", next, res.Header.Get("Location"))
		}
	}
}
