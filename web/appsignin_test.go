package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"golang.org/x/oauth2"

	"tripplan/internal/signin"
	"tripplan/internal/signin/fakeoidc"
	"tripplan/internal/signin/fakeuserinfo"
)

// appFakes are the providers of an app sign-in test: the OpenID Connect provider of the web
// flow, Google's and Apple's issuers, Kakao's and Naver's user APIs.
type appFakes struct {
	oidc, google, apple *fakeoidc.Server
	kakao, naver        *fakeuserinfo.Server
}

// appRedirect is the app's registered redirect URI, a custom scheme.
const appRedirect = "tripplan://auth"

// appsApp is a test app that apps may sign in to: two registered redirect URIs; the web
// clients of the OpenID Connect provider, Google, Kakao and Naver; apps' client ids of
// Google (iOS), Apple (iOS; no web client) and OpenID Connect (Android).
func appsApp(t *testing.T, mutate ...func(*Config)) (*testApp, *appFakes) {
	f := &appFakes{google: fakeoidc.New(t), apple: fakeoidc.New(t), kakao: fakeuserinfo.Kakao(t), naver: fakeuserinfo.Naver(t)}
	enable := func(c *Config) {
		c.ClientRedirectURIs = []string{appRedirect, "https://app.example/signed-in"}
		s := &c.SignIn
		s.Google, s.GoogleClientIDs, s.GoogleIssuer = signin.Client{ID: fakeoidc.ClientID, Secret: "g"}, []string{"ios.tripplan"}, f.google.URL
		s.AppleClientIDs, s.AppleIssuer = []string{"com.tripplan.ios"}, f.apple.URL
		s.Kakao, s.KakaoAPI = signin.Client{ID: "k", Secret: "ks"}, f.kakao.URL
		s.Naver, s.NaverAPI = signin.Client{ID: "n", Secret: "ns"}, f.naver.URL
		s.OIDCClientIDs = []string{"android.sso"}
	}
	a, op := oidcApp(t, append([]func(*Config){enable}, mutate...)...)
	f.oidc = op
	return a, f
}

// appStart is the path an app opens in the browser to sign in through the OpenID Connect
// provider and come back to redirect.
func appStart(redirect, verifier string) string {
	return "/oauth2/authorization/oidc?" + url.Values{"redirect_uri": {redirect},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)}, "code_challenge_method": {"S256"}}.Encode()
}

// appCallback runs an app's browser sign-in to the provider's callback and returns its answer.
func (a *testApp) appCallback(t *testing.T, redirect, verifier string) response {
	t.Helper()
	b := browser(t)
	return a.do(req{Method: "GET", Path: a.toProvider(t, b, appStart(redirect, verifier)), Client: b, Header: asBrowser})
}

// appCode runs an app's browser sign-in and returns the one-time code the app is sent back with.
func (a *testApp) appCode(t *testing.T, redirect, verifier string) string {
	t.Helper()
	res := a.appCallback(t, redirect, verifier)
	loc, err := url.Parse(res.Header.Get("Location"))
	if res.Status != http.StatusFound || err != nil || !strings.HasPrefix(loc.String(), redirect+"?code=") || len(loc.Query()) != 1 {
		t.Fatalf("callback: %d Location=%q", res.Status, res.Header.Get("Location"))
	}
	return loc.Query().Get("code")
}

// redeem is POST /auth/token for the code.
func redeem(code, verifier, redirect string) req {
	return req{Method: "POST", Path: "/auth/token", Body: map[string]string{
		"grant_type": "authorization_code", "code": code, "code_verifier": verifier, "redirect_uri": redirect}}
}

func TestAppSignInThroughTheBrowser(t *testing.T) {
	a, f := appsApp(t)
	f.oidc.SetUser(map[string]any{"sub": "app-1", "name": "Mina Kim"})
	verifier := oauth2.GenerateVerifier()
	res := a.appCallback(t, appRedirect, verifier)
	loc, _ := url.Parse(res.Header.Get("Location"))
	if res.Status != http.StatusFound || loc.Scheme != "tripplan" || loc.Host != "auth" || loc.Query().Get("code") == "" {
		t.Fatalf("callback: %d Location=%q", res.Status, res.Header.Get("Location"))
	}
	set := setCookies(res)
	if set[sessionName] != nil || set[refreshCookie] != nil || set[signin.FlowCookie] == nil || set[signin.FlowCookie].MaxAge >= 0 {
		t.Fatalf("the app's callback set cookies: %v", res.Header.Values("Set-Cookie"))
	}
	code := loc.Query().Get("code")
	var stored int
	if err := a.db.Get(&stored, `SELECT count(*) FROM app_sign_in_codes WHERE code_hash = $1 AND code_hash <> $2`, appCodeHash(code), []byte(code)); err != nil || stored != 1 {
		t.Fatalf("the code is not kept as its hash: %d, %v", stored, err)
	}

	exchange := redeem(code, verifier, appRedirect)
	res = a.do(exchange)
	tokens := res.json(t)
	type exchangeShape struct {
		Status                    int
		AccessToken, RefreshToken bool // a non-empty string
		ExpiresIn, TermsAccepted  any
		Cookies                   int
	}
	nonEmpty := func(v any) bool { s, ok := v.(string); return ok && s != "" }
	if diff := cmp.Diff(exchangeShape{Status: http.StatusOK, AccessToken: true, RefreshToken: true, ExpiresIn: 3600.0, TermsAccepted: false},
		exchangeShape{Status: res.Status, AccessToken: nonEmpty(tokens["access_token"]), RefreshToken: nonEmpty(tokens["refresh_token"]),
			ExpiresIn: tokens["expires_in"], TermsAccepted: tokens["terms_accepted"], Cookies: len(setCookies(res))}); diff != "" {
		t.Fatalf("exchange (-want +got):\n%s\n%s %v", diff, res.Body, res.Header.Values("Set-Cookie"))
	}
	access := tokens["access_token"].(string)
	if me := a.do(req{Method: "GET", Path: "/users/me", Token: access}).json(t); me["provider"] != "OIDC" || me["nickname"] != "MinaKim" {
		t.Fatalf("/users/me = %v", me)
	}
	// The code worked once.
	replay := a.do(exchange)
	replay.problem(t, http.StatusBadRequest, "INVALID_GRANT")
	// The refresh token is an ordinary one.
	res = a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]any{"refresh_token": tokens["refresh_token"]}})
	if res.Status != http.StatusOK || res.json(t)["terms_accepted"] != false {
		t.Fatalf("reissue: %d %s", res.Status, res.Body)
	}
	// Once the terms are accepted, the next sign-in says so.
	if res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: access}); res.Status != http.StatusOK {
		t.Fatalf("accept terms: %d %s", res.Status, res.Body)
	}
	verifier = oauth2.GenerateVerifier()
	res = a.do(redeem(a.appCode(t, "https://app.example/signed-in", verifier), verifier, "https://app.example/signed-in"))
	if res.Status != http.StatusOK || res.json(t)["terms_accepted"] != true {
		t.Fatalf("second sign-in: %d %s", res.Status, res.Body)
	}
	if plans := a.do(req{Method: "GET", Path: "/plans", Token: res.json(t)["access_token"].(string)}); plans.Status != http.StatusOK {
		t.Fatalf("the full token: %d %s", plans.Status, plans.Body)
	}
}

// TestAppSignInCodeIsUsedUpByAnyAttempt: a wrong verifier or redirect URI spends the code, so
// it cannot be guessed at; an expired code, a missing or malformed one, are refused alike.
func TestAppSignInCodeIsUsedUpByAnyAttempt(t *testing.T) {
	a, _ := appsApp(t)
	verifier := oauth2.GenerateVerifier()
	other := oauth2.GenerateVerifier()

	code := a.appCode(t, appRedirect, verifier)
	a.do(redeem(code, other, appRedirect)).problem(t, http.StatusBadRequest, "INVALID_GRANT")
	a.do(redeem(code, verifier, appRedirect)).problem(t, http.StatusBadRequest, "INVALID_GRANT")

	code = a.appCode(t, appRedirect, verifier)
	a.do(redeem(code, verifier, "https://app.example/signed-in")).problem(t, http.StatusBadRequest, "INVALID_GRANT")
	a.do(redeem(code, verifier, appRedirect)).problem(t, http.StatusBadRequest, "INVALID_GRANT")

	// Expired: 60 seconds after it was made (moved back here rather than waited for).
	code = a.appCode(t, appRedirect, verifier)
	var ttl float64
	if err := a.db.Get(&ttl, `SELECT extract(epoch FROM expires_at - now()) FROM app_sign_in_codes WHERE code_hash = $1`, appCodeHash(code)); err != nil ||
		ttl <= 50 || ttl > 60 {
		t.Fatalf("the code expires in %.1f s (%v), want 60", ttl, err)
	}
	if _, err := a.db.Exec(`UPDATE app_sign_in_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, appCodeHash(code)); err != nil {
		t.Fatal(err)
	}
	a.do(redeem(code, verifier, appRedirect)).problem(t, http.StatusBadRequest, "INVALID_GRANT")

	// A wrong grant type is refused before the code is looked at: the code still works, here
	// as a form, as OAuth clients send it.
	code = a.appCode(t, appRedirect, verifier)
	wrongGrant := redeem(code, verifier, appRedirect)
	wrongGrant.Body.(map[string]string)["grant_type"] = "refresh_token"
	a.do(wrongGrant).problem(t, http.StatusBadRequest, "INVALID_GRANT")
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {appRedirect}}
	res := a.do(req{Method: "POST", Path: "/auth/token", Body: form.Encode(), Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
	if res.Status != http.StatusOK || res.json(t)["access_token"] == "" {
		t.Fatalf("form exchange: %d %s", res.Status, res.Body)
	}

	var left int
	if err := a.db.Get(&left, `SELECT count(*) FROM app_sign_in_codes`); err != nil || left != 0 {
		t.Fatalf("%d codes left after every one was tried (%v)", left, err)
	}
	for _, body := range []any{
		map[string]string{"grant_type": "authorization_code"},
		map[string]string{"grant_type": "authorization_code", "code": strings.Repeat("A", 65), "code_verifier": verifier, "redirect_uri": appRedirect},
		map[string]string{"grant_type": "authorization_code", "code": "nope", "code_verifier": "short", "redirect_uri": appRedirect},
		map[string]any{"grant_type": "authorization_code", "code": "x", "code_verifier": strings.Repeat("é", 100)},
		map[string]string{},
	} {
		a.do(req{Method: "POST", Path: "/auth/token", Body: body}).problem(t, http.StatusBadRequest, "INVALID_GRANT")
	}
	a.do(req{Method: "POST", Path: "/auth/token", Body: `{"code": 5}`}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
}

// TestAppSignInRefusesUnknownRedirects: only a registered redirect URI, exactly, with an S256
// challenge, starts an app's sign-in; anything else stops at a page, with no redirect.
func TestAppSignInRefusesUnknownRedirects(t *testing.T) {
	a, _ := appsApp(t)
	challenge := oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return "/oauth2/authorization/oidc?" + v.Encode()
	}
	s256 := func(redirect string) string {
		return q("redirect_uri", redirect, "code_challenge", challenge, "code_challenge_method", "S256")
	}
	for _, path := range []string{
		s256("https://evil.example/"),
		s256("tripplan://auth/evil"),
		s256("tripplan://auth?next=x"),
		s256("TRIPPLAN://auth"),
		s256("tripplan://auth/"),
		s256(""),
		q("redirect_uri", appRedirect),
		q("redirect_uri", appRedirect, "code_challenge", challenge),
		q("redirect_uri", appRedirect, "code_challenge", challenge, "code_challenge_method", "plain"),
		q("redirect_uri", appRedirect, "code_challenge", challenge[:42], "code_challenge_method", "S256"),
		q("redirect_uri", appRedirect, "code_challenge", challenge+"=", "code_challenge_method", "S256"),
		q("redirect_uri", appRedirect, "code_challenge", strings.Repeat("!", 43), "code_challenge_method", "S256"),
		q("redirect_uri", appRedirect, "redirect_uri", "https://evil.example/", "code_challenge", challenge, "code_challenge_method", "S256"),
		q("code_challenge", challenge, "code_challenge_method", "S256"),
	} {
		res := a.do(req{Method: "GET", Path: path, Header: asBrowser})
		if res.Status != http.StatusBadRequest || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			res.Header.Get("Location") != "" || len(setCookies(res)) != 0 || !strings.Contains(string(res.Body), "so sign-in stops here") {
			t.Errorf("%s: %d %q Location=%q cookies %v", path, res.Status, res.Header.Get("Content-Type"), res.Header.Get("Location"), res.Header.Values("Set-Cookie"))
		}
	}
	page := a.do(req{Method: "GET", Path: s256("https://evil.example/"), Header: asBrowser})
	if !strings.Contains(string(page.Body), "This app asked to be sent back to an address that this server does not know, so sign-in stops here.") {
		t.Errorf("the page does not say why: %s", page.Body)
	}
	a.do(req{Method: "GET", Path: s256("https://evil.example/")}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	// Without any redirect URI registered, no app may sign in.
	none, _ := oidcApp(t)
	none.do(req{Method: "GET", Path: s256(appRedirect)}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
}

// TestAppSignInFailureGoesBackToTheApp: a sign-in that fails at the provider, or of a deleted
// account, sends the browser back to the app with the reason, and makes no code.
func TestAppSignInFailureGoesBackToTheApp(t *testing.T) {
	a, f := appsApp(t)
	verifier := oauth2.GenerateVerifier()
	b := browser(t)
	callback, _ := url.Parse(a.toProvider(t, b, appStart(appRedirect, verifier)))
	refused := callback.Path + "?" + url.Values{"error": {"access_denied"}, "state": {callback.Query().Get("state")}}.Encode()
	res := a.do(req{Method: "GET", Path: refused, Client: b, Header: asBrowser})
	if res.Status != http.StatusFound || res.Header.Get("Location") != appRedirect+"?error=failed" {
		t.Fatalf("refused at the provider: %d Location=%q", res.Status, res.Header.Get("Location"))
	}

	f.oidc.SetUser(map[string]any{"sub": "gone-app"})
	a.appCode(t, appRedirect, verifier)
	if _, err := a.db.Exec(`UPDATE users SET withdrawn_at = now() WHERE provider_id = 'gone-app'`); err != nil {
		t.Fatal(err)
	}
	res = a.appCallback(t, appRedirect, verifier)
	if res.Status != http.StatusFound || res.Header.Get("Location") != appRedirect+"?error=withdrawn" || len(setCookies(res)) != 1 {
		t.Fatalf("withdrawn: %d Location=%q %v", res.Status, res.Header.Get("Location"), res.Header.Values("Set-Cookie"))
	}
	// A code made before the withdrawal does not sign the account in either.
	var left int
	if err := a.db.Get(&left, `SELECT count(*) FROM app_sign_in_codes`); err != nil || left != 1 {
		t.Fatalf("codes: %d, %v", left, err)
	}
	var hash []byte
	if err := a.db.Get(&hash, `SELECT code_hash FROM app_sign_in_codes`); err != nil {
		t.Fatal(err)
	}
	if code, err := a.db.RedeemAppCode(t.Context(), hash); err != nil || code != nil {
		t.Fatalf("the withdrawn user's code redeemed: %+v, %v", code, err)
	}
}

// providerToken is POST /auth/{provider}/token with the body.
func providerToken(provider string, body map[string]string) req {
	return req{Method: "POST", Path: "/auth/" + provider + "/token", Body: body}
}

func TestSignInWithProviderTokens(t *testing.T) {
	a, f := appsApp(t)
	f.google.SetUser(map[string]any{"sub": "g-1", "name": "Mina Kim", "email": "mina@example.com"})
	f.apple.SetUser(map[string]any{"sub": "001234.abcd"})
	kakaoToken := f.kakao.Issue(map[string]any{"id": 4242424242, "properties": map[string]any{"nickname": "민아"}})
	naverToken := f.naver.Issue(map[string]any{"id": "nv-32a8", "nickname": "Minnie"})
	idToken := func(s *fakeoidc.Server, tok fakeoidc.Token) map[string]string {
		return map[string]string{"id_token": s.Mint(t, tok)}
	}
	aud := func(aud string) fakeoidc.Token { return fakeoidc.Token{Claims: map[string]any{"aud": aud}} }

	users := map[string]string{} // provider → user id
	for _, tc := range []struct {
		name, provider string
		body           map[string]string
		want           string // the user's provider
	}{
		{"google, web client", "google", idToken(f.google, fakeoidc.Token{}), "GOOGLE"},
		{"google, iOS client", "google", idToken(f.google, aud("ios.tripplan")), "GOOGLE"},
		{"apple, iOS app", "apple", idToken(f.apple, aud("com.tripplan.ios")), "APPLE"},
		{"oidc, Android app", "oidc", idToken(f.oidc, aud("android.sso")), "OIDC"},
		{"kakao", "kakao", map[string]string{"access_token": kakaoToken}, "KAKAO"},
		{"naver", "naver", map[string]string{"access_token": naverToken}, "NAVER"},
	} {
		call := providerToken(tc.provider, tc.body)
		res := a.do(call)
		if res.Status != http.StatusOK || len(setCookies(res)) != 0 {
			t.Errorf("%s: %d %s %v", tc.name, res.Status, res.Body, res.Header.Values("Set-Cookie"))
			continue
		}
		tokens := res.json(t)
		me := a.do(req{Method: "GET", Path: "/users/me", Token: tokens["access_token"].(string)}).json(t)
		if me["provider"] != tc.want || tokens["terms_accepted"] != false || tokens["refresh_token"] == "" {
			t.Errorf("%s: /users/me = %v, tokens %v", tc.name, me, tokens)
		}
		if id, seen := users[tc.provider]; seen && id != me["user_id"] {
			t.Errorf("%s: signed in user %v, the same account was %v", tc.name, me["user_id"], id)
		}
		users[tc.provider] = me["user_id"].(string)
	}

	hourAgo := time.Now().Add(-time.Hour).Unix()
	for _, tc := range []struct {
		name, provider string
		body           map[string]string
	}{
		{"another app's", "google", idToken(f.google, aud("someone-else"))},
		{"expired", "google", idToken(f.google, fakeoidc.Token{Claims: map[string]any{"exp": hourAgo, "iat": hourAgo - 60}})},
		{"of an unknown key", "google", idToken(f.google, fakeoidc.Token{Stranger: true, KeyID: "unknown"})},
		{"of another issuer", "google", idToken(f.google, fakeoidc.Token{Claims: map[string]any{"iss": f.apple.URL}})},
		{"google's for apple", "apple", idToken(f.google, aud("com.tripplan.ios"))},
		{"apple's web client, not configured", "apple", idToken(f.apple, fakeoidc.Token{})},
		{"unknown to kakao", "kakao", map[string]string{"access_token": "not-a-kakao-token"}},
		{"unknown to naver", "naver", map[string]string{"access_token": "not-a-naver-token"}},
		{"naver's at kakao", "kakao", map[string]string{"access_token": naverToken}},
		{"garbage", "google", map[string]string{"id_token": "<script>"}},
	} {
		call := providerToken(tc.provider, tc.body)
		res := a.do(call)
		res.problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	}

	// The issuer rotates its key: tokens signed with the new one are accepted.
	f.google.RotateKey(t)
	if res := a.do(providerToken("google", idToken(f.google, fakeoidc.Token{}))); res.Status != http.StatusOK {
		t.Fatalf("after the key rotation: %d %s", res.Status, res.Body)
	}

	for _, call := range []req{
		providerToken("google", map[string]string{"access_token": "x"}),
		providerToken("kakao", map[string]string{"id_token": "x"}),
		providerToken("naver", map[string]string{"access_token": strings.Repeat("x", providerTokenMax+1)}),
	} {
		res := a.do(call)
		res.problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
	// A provider that cannot answer is no reason to refuse the token.
	f.kakao.Break()
	call := providerToken("kakao", map[string]string{"access_token": kakaoToken})
	res := a.do(call)
	res.problem(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")

	// A deleted account cannot sign in again.
	if _, err := a.db.Exec(`UPDATE users SET withdrawn_at = now() WHERE provider_id = 'nv-32a8'`); err != nil {
		t.Fatal(err)
	}
	call = providerToken("naver", map[string]string{"access_token": naverToken})
	res = a.do(call)
	res.problem(t, http.StatusForbidden, "USER_WITHDRAWN")
}

func TestProviderTokensOfUnconfiguredProvidersAre404(t *testing.T) {
	a := newTestApp(t)
	for _, provider := range []string{"google", "apple", "oidc", "kakao", "naver", "GOOGLE", "unknown"} {
		call := providerToken(provider, map[string]string{"id_token": "x", "access_token": "x"})
		res := a.do(call)
		res.problem(t, http.StatusNotFound, "NOT_FOUND")
		if provider == "google" {
		}
	}
}

// TestWebAndAppSignInAreTheSameUser: one account of the OpenID Connect provider signs in as
// one user through the web, an app's browser sign-in, and the app's SDK token.
func TestWebAndAppSignInAreTheSameUser(t *testing.T) {
	a, f := appsApp(t)
	f.oidc.SetUser(map[string]any{"sub": "same-1", "name": "Mina"})
	b := browser(t)
	if res := a.socialSignIn(t, b, "/oauth2/authorization/oidc"); res.Status != http.StatusFound {
		t.Fatalf("web sign-in: %d", res.Status)
	}
	web := a.do(req{Method: "GET", Path: "/users/me", Client: b}).json(t)["user_id"]

	verifier := oauth2.GenerateVerifier()
	res := a.do(redeem(a.appCode(t, appRedirect, verifier), verifier, appRedirect))
	browserApp := a.do(req{Method: "GET", Path: "/users/me", Token: res.json(t)["access_token"].(string)}).json(t)["user_id"]

	res = a.do(providerToken("oidc", map[string]string{"id_token": f.oidc.Mint(t, fakeoidc.Token{Claims: map[string]any{"aud": "android.sso"}})}))
	native := a.do(req{Method: "GET", Path: "/users/me", Token: res.json(t)["access_token"].(string)}).json(t)["user_id"]

	if web == nil || web != browserApp || web != native {
		t.Fatalf("web %v, app through the browser %v, app with its SDK's token %v", web, browserApp, native)
	}
	var users int
	if err := a.db.Get(&users, `SELECT count(*) FROM users WHERE provider = 'OIDC'`); err != nil || users != 1 {
		t.Fatalf("%d OIDC users (%v)", users, err)
	}
}
