package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/signin"
)

// TestCookieAttributes: COOKIE_SAMESITE and COOKIE_DOMAIN decide the attributes of the session,
// refresh and guest cookies — set and cleared alike —, None making them Secure even where
// cookies are otherwise not (development); the sign-in flow cookie keeps to this host and its callbacks, and stays Lax
// under Strict, since the provider's redirect back is a cross-site navigation.
func TestCookieAttributes(t *testing.T) {
	for _, tc := range []struct {
		name           string
		sameSite       http.SameSite // configured
		domain         string
		want, wantFlow http.SameSite
		secure         bool
	}{
		{"default", 0, "", http.SameSiteLaxMode, http.SameSiteLaxMode, false},
		{"lax for a parent domain", http.SameSiteLaxMode, "example.com", http.SameSiteLaxMode, http.SameSiteLaxMode, false},
		{"strict", http.SameSiteStrictMode, "", http.SameSiteStrictMode, http.SameSiteLaxMode, false},
		{"none", http.SameSiteNoneMode, "", http.SameSiteNoneMode, http.SameSiteNoneMode, true},
		{"none for a parent domain", http.SameSiteNoneMode, "example.com", http.SameSiteNoneMode, http.SameSiteNoneMode, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := oidcApp(t, func(c *Config) { c.CookieSameSite, c.CookieDomain = tc.sameSite, tc.domain })
			check := func(what string, ck *http.Cookie, path, domain string, sameSite http.SameSite, cleared bool) {
				t.Helper()
				if ck == nil {
					t.Fatalf("%s: no cookie set", what)
				}
				type cookieShape struct {
					Path, Domain              string
					SameSite                  http.SameSite
					Secure, HttpOnly, Cleared bool
				}
				if diff := cmp.Diff(cookieShape{Path: path, Domain: domain, SameSite: sameSite, Secure: tc.secure, HttpOnly: true, Cleared: cleared},
					cookieShape{Path: ck.Path, Domain: ck.Domain, SameSite: ck.SameSite, Secure: ck.Secure, HttpOnly: ck.HttpOnly, Cleared: ck.MaxAge < 0}); diff != "" {
					t.Errorf("%s: %s (-want +got):\n%s", what, ck.String(), diff)
				}
			}

			login := a.do(req{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{"provider": "GOOGLE", "provider_id": "ck-ana", "nickname": "Ana"}})
			set := setCookies(login)
			check("session", set[sessionName], "/", tc.domain, tc.want, false)
			check("refresh", set[refreshCookie], "/", tc.domain, tc.want, false)
			// Signing out clears both with the same attributes (else the browser would keep them).
			token := login.json(t)["access_token"].(string)
			out := a.do(req{Method: "POST", Path: "/auth/logout", Token: token, Header: map[string]string{
				"Cookie": sessionName + "=" + set[sessionName].Value + "; " + refreshCookie + "=" + set[refreshCookie].Value}})
			if out.Status != http.StatusNoContent {
				t.Fatalf("logout: %d %s", out.Status, out.Body)
			}
			cleared := setCookies(out)
			check("session cleared", cleared[sessionName], "/", tc.domain, tc.want, true)
			check("refresh cleared", cleared[refreshCookie], "/", tc.domain, tc.want, true)

			ana := a.member("ck-ana", "Ana")
			link := a.invite(ana, "/plans/"+a.createPlan(ana, "Busan", "2026-09-01", "2026-09-02").PlanID)
			open := a.do(req{Method: "GET", Path: a.linkPath(link), Header: asBrowser})
			check("guest", setCookies(open)[guestCookie], "/", tc.domain, tc.want, false)

			start := a.do(req{Method: "GET", Path: "/oauth2/authorization/oidc", Header: asBrowser})
			check("sign-in flow", setCookies(start)[signin.FlowCookie], signin.CallbackPath, "", tc.wantFlow, false)
		})
	}
}

// frontendApp is an app with a separate front end at https://app.example (the default paths)
// and the fake OpenID Connect provider.
func frontendApp(t *testing.T, mutate ...func(*Config)) *testApp {
	a, _ := oidcApp(t, append([]func(*Config){func(c *Config) { c.Frontend = Frontend{URL: "https://app.example"} }}, mutate...)...)
	return a
}

// TestSignInLandsOnTheFrontend: with FRONTEND_URL, a browser signed in by social sign-in or the
// dev sign-in form goes to the front end's terms page while the terms are pending and to its
// signed-in page after, with the session and refresh cookies set as always; a failed or
// refused sign-in goes to the signed-in page with ?error=. JSON clients see no change.
func TestSignInLandsOnTheFrontend(t *testing.T) {
	a, op := oidcApp(t, func(c *Config) { c.Frontend = Frontend{URL: "https://app.example"} })
	op.SetUser(map[string]any{"sub": "fe-1", "name": "Mina"})
	b := browser(t)
	res := a.socialSignIn(t, b, "/oauth2/authorization/oidc?next=/home")
	if res.Status != http.StatusFound || res.Header.Get("Location") != "https://app.example/onboard" {
		t.Fatalf("first sign-in: %d Location=%q", res.Status, res.Header.Get("Location"))
	}
	if set := setCookies(res); set[sessionName] == nil || set[refreshCookie] == nil || set[refreshCookie].Value == "" {
		t.Fatalf("first sign-in cookies: %v", res.Header.Values("Set-Cookie"))
	}
	if me := a.do(req{Method: "GET", Path: "/users/me", Client: b}).json(t); me["nickname"] != "Mina" || me["terms_accepted"] != false {
		t.Fatalf("signed in by the cookie: %v", me)
	}
	if r := a.do(req{Method: "PATCH", Path: "/users/me/terms", Client: b, Header: sameOrigin()}); r.Status != http.StatusOK {
		t.Fatalf("terms: %d %s", r.Status, r.Body)
	}
	if res := a.socialSignIn(t, browser(t), "/oauth2/authorization/oidc"); res.Header.Get("Location") != "https://app.example/login" {
		t.Fatalf("later sign-in: %d Location=%q", res.Status, res.Header.Get("Location"))
	}

	// Failures: a refused approval, then a withdrawn account.
	refused := a.do(req{Method: "GET", Path: "/login/oauth2/code/oidc?error=access_denied", Client: browser(t), Header: asBrowser})
	if refused.Header.Get("Location") != "https://app.example/login?error=SIGN_IN_FAILED" {
		t.Fatalf("refused: %d Location=%q", refused.Status, refused.Header.Get("Location"))
	}
	if _, err := a.db.Exec(`UPDATE users SET withdrawn_at = now() WHERE provider_id = 'fe-1'`); err != nil {
		t.Fatal(err)
	}
	gone := a.socialSignIn(t, browser(t), "/oauth2/authorization/oidc")
	if gone.Header.Get("Location") != "https://app.example/login?error=USER_WITHDRAWN" {
		t.Fatalf("withdrawn: %d Location=%q", gone.Status, gone.Header.Get("Location"))
	}
	if set := setCookies(gone); set[sessionName] != nil || set[refreshCookie] != nil {
		t.Fatalf("withdrawn sign-in set cookies: %v", gone.Header.Values("Set-Cookie"))
	}

	// A signed-in path with a query of its own gets the error added to it.
	q := frontendApp(t, func(c *Config) { c.Frontend.SignedInPath = "/auth?from=api" })
	if r := q.do(req{Method: "GET", Path: "/login/oauth2/code/oidc?error=access_denied", Client: browser(t), Header: asBrowser}); r.Header.Get("Location") != "https://app.example/auth?from=api&error=SIGN_IN_FAILED" {
		t.Fatalf("failure with a query: Location=%q", r.Header.Get("Location"))
	}

	// The dev sign-in form: to the terms page, then to the signed-in page.
	form := func(providerID string) response {
		return a.do(req{Method: "POST", Path: "/dev/auth/login", Client: browser(t), Body: "provider=GOOGLE&provider_id=" + providerID + "&nickname=Dana&next=%2Fhome",
			Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	}
	if r := form("fe-dev"); r.Status != http.StatusSeeOther || r.Header.Get("Location") != "https://app.example/onboard" || setCookies(r)[sessionName] == nil {
		t.Fatalf("dev sign-in form: %d Location=%q", r.Status, r.Header.Get("Location"))
	}
	a.member("fe-dev", "Dana")
	if r := form("fe-dev"); r.Status != http.StatusSeeOther || r.Header.Get("Location") != "https://app.example/login" {
		t.Fatalf("dev sign-in form after the terms: %d Location=%q", r.Status, r.Header.Get("Location"))
	}
	// A JSON client gets its tokens, as without a front end.
	if tr := a.login("fe-dev", "Dana"); tr.AccessToken == "" || tr.RefreshToken == "" {
		t.Fatalf("JSON dev login: %+v", tr)
	}
}

// TestInviteLinksLandOnTheFrontend: with FRONTEND_URL, a browser opening an invite link goes to
// the front end's plan or collection page (anonymous: with the guest cookie, which still joins
// at sign-in), and a link that does not work to its link error page with the problem code;
// JSON clients see no change.
func TestInviteLinksLandOnTheFrontend(t *testing.T) {
	a := frontendApp(t)
	ana, ben := a.member("fl-ana", "Ana"), a.member("fl-ben", "Ben")
	plan := a.createPlan(ana, "Jeju", "2026-09-01", "2026-09-03")
	col := a.createCollection(ana, "Osaka")
	planLink, colLink := a.invite(ana, "/plans/"+plan.PlanID), a.invite(ana, "/collections/"+col.CollectionID)
	lands := func(what string, res response, want string) {
		t.Helper()
		if res.Status != http.StatusFound || res.Header.Get("Location") != want {
			t.Fatalf("%s: %d Location=%q, want %q", what, res.Status, res.Header.Get("Location"), want)
		}
	}

	// Anonymous: the plan's page, holding the guest cookie; signing in joins and goes on to the
	// front end's terms page.
	guest := browser(t)
	res := a.do(req{Method: "GET", Path: a.linkPath(planLink), Client: guest, Header: asBrowser})
	lands("anonymous plan link", res, "https://app.example/projects/"+plan.PlanID)
	if setCookies(res)[guestCookie] == nil {
		t.Fatalf("no guest cookie: %v", res.Header.Values("Set-Cookie"))
	}
	if r := a.do(req{Method: "GET", Path: "/plans/" + plan.PlanID, Client: guest}); r.Status != http.StatusOK {
		t.Fatalf("the guest reads the plan: %d %s", r.Status, r.Body)
	}
	signIn := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: guest, Body: "provider=GOOGLE&provider_id=fl-new&nickname=Newcomer",
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if signIn.Header.Get("Location") != "https://app.example/onboard" {
		t.Fatalf("sign-in holding the link: %d Location=%q", signIn.Status, signIn.Header.Get("Location"))
	}
	var g memberGroupJSON[planMemberJSON]
	if r := a.do(req{Method: "GET", Path: "/plans/" + plan.PlanID + "/members", Token: ana}); json.Unmarshal(r.Body, &g) != nil || len(g.Members) != 2 {
		t.Fatalf("members after the guest signed in: %d %s", r.Status, r.Body)
	}

	// Signed in with the browser session: joins, then the collection's page (/s/ too).
	cy := a.signedInBrowser(t, "fl-cy", "Cy")
	lands("signed-in collection link", a.do(req{Method: "GET", Path: strings.Replace(a.linkPath(colLink), "/invite/", "/s/", 1), Client: cy, Header: asBrowser}),
		"https://app.example/home/"+col.CollectionID)
	// A JSON client is sent to the API's own resource, as always.
	lands("JSON client", a.do(req{Method: "GET", Path: a.linkPath(planLink), Token: ben}), "/plans/"+plan.PlanID)

	// Links that do not work: unknown, revoked, expired, and a removed member.
	lands("unknown link", a.do(req{Method: "GET", Path: "/invite/no-such-code", Header: asBrowser}), "https://app.example/403?error=INVALID_LINK")
	revoked := a.invite(ana, "/plans/"+plan.PlanID)
	if r := a.do(req{Method: "DELETE", Path: "/plans/" + plan.PlanID + "/invitations/" + linkCode(revoked), Token: ana}); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	lands("revoked link", a.do(req{Method: "GET", Path: a.linkPath(revoked), Client: cy, Header: asBrowser}), "https://app.example/403?error=INVALID_LINK")
	expired := a.invite(ana, "/collections/"+col.CollectionID)
	if _, err := a.db.Exec(`UPDATE share_links SET expires_at = now() - interval '1 second' WHERE code = $1`, linkCode(expired)); err != nil {
		t.Fatal(err)
	}
	lands("expired link", a.do(req{Method: "GET", Path: a.linkPath(expired), Header: asBrowser}), "https://app.example/403?error=EXPIRED_LINK")
	a.do(req{Method: "GET", Path: a.linkPath(expired), Token: ben}).problem(t, http.StatusNotFound, "EXPIRED_LINK")
	cyID := a.myMemberID(t, a.login("fl-cy", "Cy").AccessToken, "/collections/"+col.CollectionID, "collection_member_id")
	if r := a.do(req{Method: "DELETE", Path: "/collections/" + col.CollectionID + "/members/" + cyID, Token: ana}); r.Status != http.StatusNoContent {
		t.Fatalf("remove Cy: %d %s", r.Status, r.Body)
	}
	lands("removed member", a.do(req{Method: "GET", Path: a.linkPath(colLink), Client: cy, Header: asBrowser}), "https://app.example/403?error=MEMBER_REMOVED")

	// Configured paths, under a front end's own prefix.
	p := frontendApp(t, func(c *Config) {
		c.Frontend = Frontend{URL: "http://localhost:5173/app", PlanPath: "/#/trips/{id}", LinkErrorPath: "/oops?code={error}&from=link"}
	})
	pana := p.member("fp-ana", "Ana")
	pplan := p.createPlan(pana, "Seoul", "2026-09-01", "2026-09-02")
	lands("configured plan path", p.do(req{Method: "GET", Path: p.linkPath(p.invite(pana, "/plans/"+pplan.PlanID)), Header: asBrowser}),
		"http://localhost:5173/app/#/trips/"+pplan.PlanID)
	lands("configured error path", p.do(req{Method: "GET", Path: "/s/nope", Header: asBrowser}), "http://localhost:5173/app/oops?code=INVALID_LINK&from=link")
}
