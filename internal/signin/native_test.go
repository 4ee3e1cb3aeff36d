package signin_test

import (
	"errors"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/markbates/goth/providers/kakao"
	"github.com/markbates/goth/providers/naver"

	"tripplan/internal/planner"
	"tripplan/internal/signin"
	"tripplan/internal/signin/fakeoidc"
	"tripplan/internal/signin/fakeuserinfo"
)

// refused checks that err is the refusal of an invalid token.
func refused(t *testing.T, name string, err error) {
	t.Helper()
	if !errors.Is(err, signin.ErrInvalidToken) {
		t.Errorf("%s: %v, want an invalid token", name, err)
	}
}

func TestNativeIDTokensOfGoogle(t *testing.T) {
	google := fakeoidc.New(t)
	google.SetUser(map[string]any{"sub": "g-1", "name": "Mina Kim", "email": "mina@example.com", "picture": "https://img.example/m.png"})
	ps, err := signin.New(t.Context(), base, signin.Config{Key: key, Google: signin.Client{ID: fakeoidc.ClientID, Secret: "s"},
		GoogleClientIDs: []string{"ios.tripplan", "android.tripplan"}, GoogleIssuer: google.URL})
	if err != nil {
		t.Fatal(err)
	}
	n := ps.Native("google")
	if n == nil || n.AccessToken || n.Kind != planner.ProviderGoogle {
		t.Fatalf("native google: %+v", n)
	}
	want := planner.User{Provider: planner.ProviderGoogle, ProviderID: "g-1", Nickname: "MinaKim", Picture: "https://img.example/m.png", Email: "mina@example.com"}
	for name, claims := range map[string]map[string]any{
		"web client":              nil,
		"iOS client":              {"aud": "ios.tripplan"},
		"Android among audiences": {"aud": []string{"someone-else", "android.tripplan"}},
	} {
		got, err := n.SignIn(t.Context(), google.Mint(t, fakeoidc.Token{Claims: claims}))
		if err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", name, got, err, want)
		}
	}
	hourAgo := time.Now().Add(-time.Hour).Unix()
	for name, tok := range map[string]fakeoidc.Token{
		"another app's":            {Claims: map[string]any{"aud": "someone-else"}},
		"expired":                  {Claims: map[string]any{"exp": hourAgo, "iat": hourAgo - 3600}},
		"without expiry":           {Claims: map[string]any{"exp": nil}},
		"of another issuer":        {Claims: map[string]any{"iss": "https://evil.example"}},
		"without subject":          {Claims: map[string]any{"sub": nil}},
		"signed by an unknown key": {Stranger: true, KeyID: "unknown-1"},
		"forged under a known key": {Stranger: true},
	} {
		_, err := n.SignIn(t.Context(), google.Mint(t, tok))
		refused(t, name, err)
	}
	for _, garbage := range []string{"not-a-jwt", "a.b.c", "with space", "line\nbreak"} {
		_, err := n.SignIn(t.Context(), garbage)
		refused(t, garbage, err)
	}
}

// TestNativeIDTokensAcrossKeyRotation: the issuer publishes a new key and drops the old one;
// tokens signed with the new key verify (the keys are fetched again for a key id not seen),
// and tokens signed with the dropped key no longer do.
func TestNativeIDTokensAcrossKeyRotation(t *testing.T) {
	apple := fakeoidc.New(t)
	apple.SetUser(map[string]any{"sub": "001234.abcd", "email": "x@privaterelay.appleid.com"})
	ps, err := signin.New(t.Context(), base, signin.Config{AppleClientIDs: []string{"com.tripplan.ios"}, AppleIssuer: apple.URL})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.List()) != 0 {
		t.Fatalf("apps' client ids alone enabled a web provider: %v", ps.List())
	}
	n := ps.Native("apple")
	if n == nil || n.Kind != planner.ProviderApple {
		t.Fatalf("native apple: %+v", n)
	}
	ios := map[string]any{"aud": "com.tripplan.ios"}
	before := apple.Mint(t, fakeoidc.Token{Claims: ios})
	if u, err := n.SignIn(t.Context(), before); err != nil || u.ProviderID != "001234.abcd" || u.Nickname != planner.DefaultNickname ||
		u.Email != "x@privaterelay.appleid.com" {
		t.Fatalf("before the rotation: %+v, %v", u, err)
	}
	apple.RotateKey(t)
	after := apple.Mint(t, fakeoidc.Token{Claims: ios})
	if u, err := n.SignIn(t.Context(), after); err != nil || u.ProviderID != "001234.abcd" {
		t.Fatalf("signed with the new key: %+v, %v", u, err)
	}
	// go-oidc hands keys it fetched to the verification waiting for them a moment before it
	// caches them (RemoteKeySet.keysFromRemote), so until that caching is done the old cache
	// may still hold the dropped key: wait for that condition, then it must be refused.
	for deadline := time.Now().Add(30 * time.Second); ; runtime.Gosched() {
		if _, err = n.SignIn(t.Context(), before); err != nil || time.Now().After(deadline) {
			break
		}
	}
	refused(t, "signed with the dropped key", err)
	// Without Apple's web client, its client id is no audience of ours.
	_, err = n.SignIn(t.Context(), apple.Mint(t, fakeoidc.Token{}))
	refused(t, "for the web client id, not configured", err)
}

func TestNativeIDTokensOfOIDCShareTheWebProvider(t *testing.T) {
	op := fakeoidc.New(t)
	op.SetUser(map[string]any{"sub": "sso-7", "nickname": "Minnie"})
	cfg := oidcConfig(op.URL)
	cfg.OIDCClientIDs = []string{"android.sso"}
	ps, err := signin.New(t.Context(), base, cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := ps.Native("oidc")
	for _, aud := range []string{fakeoidc.ClientID, "android.sso"} {
		if u, err := n.SignIn(t.Context(), op.Mint(t, fakeoidc.Token{Claims: map[string]any{"aud": aud}})); err != nil ||
			u != (planner.User{Provider: planner.ProviderOIDC, ProviderID: "sso-7", Nickname: "Minnie"}) {
			t.Errorf("aud %s: %+v, %v", aud, u, err)
		}
	}
	if _, err := signin.New(t.Context(), base, signin.Config{OIDCClientIDs: []string{"android.sso"}}); err == nil {
		t.Error("OpenID Connect app client ids without an issuer accepted")
	}
}

func TestNativeProvidersFromConfig(t *testing.T) {
	ps, err := signin.New(t.Context(), base, signin.Config{Key: key, Google: signin.Client{ID: "g", Secret: "s"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"kakao", "naver", "apple", "oidc", "GOOGLE", ""} {
		if ps.Native(id) != nil {
			t.Errorf("native %q is on without its configuration", id)
		}
	}
	if ps.Native("google") == nil {
		t.Error("the web client of Google does not enable its app sign-in")
	}
	// Discovery waits for the first token, and a provider that cannot be reached is no
	// refusal of the token.
	ps, err = signin.New(t.Context(), base, signin.Config{GoogleClientIDs: []string{"ios"}, GoogleIssuer: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatalf("an unreachable issuer stopped the start: %v", err)
	}
	if _, err := ps.Native("google").SignIn(t.Context(), "a.b.c"); err == nil || errors.Is(err, signin.ErrInvalidToken) {
		t.Errorf("unreachable issuer: %v, want an error that is not the token's", err)
	}
}

// redirectTo is a client that sends every request to the server at base instead, as goth's
// kakao and naver would reach the real APIs.
func redirectTo(base string) *http.Client {
	u, _ := url.Parse(base)
	return &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host, r.Host = u.Scheme, u.Host, u.Host
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestNativeAccessTokensOfKakaoAndNaver: the access token is checked with the provider's user
// API, and the account's id is the one goth reads in the web flow from the same API.
func TestNativeAccessTokensOfKakaoAndNaver(t *testing.T) {
	kapi, napi := fakeuserinfo.Kakao(t), fakeuserinfo.Naver(t)
	ps, err := signin.New(t.Context(), base, signin.Config{Key: key,
		Kakao: signin.Client{ID: "k", Secret: "ks"}, Naver: signin.Client{ID: "n", Secret: "ns"}, KakaoAPI: kapi.URL, NaverAPI: napi.URL})
	if err != nil {
		t.Fatal(err)
	}
	kn, nn := ps.Native("kakao"), ps.Native("naver")
	if kn == nil || !kn.AccessToken || nn == nil || !nn.AccessToken {
		t.Fatalf("native kakao %+v, naver %+v", kn, nn)
	}

	ktoken := kapi.Issue(map[string]any{"id": 4242424242, "properties": map[string]any{"nickname": "민아", "profile_image": "https://k.example/p.jpg"}})
	got, err := kn.SignIn(t.Context(), ktoken)
	if want := (planner.User{Provider: planner.ProviderKakao, ProviderID: "4242424242", Nickname: "민아", Picture: "https://k.example/p.jpg"}); err != nil || got != want {
		t.Fatalf("kakao: %+v, %v; want %+v", got, err, want)
	}
	gk := kakao.New("k", "ks", base+"/cb")
	gk.HTTPClient = redirectTo(kapi.URL)
	if gu, err := gk.FetchUser(&kakao.Session{AccessToken: ktoken}); err != nil || gu.UserID != got.ProviderID {
		t.Errorf("goth's kakao reads the user id %q (%v), app sign-in %q", gu.UserID, err, got.ProviderID)
	}

	ntoken := napi.Issue(map[string]any{"id": "nv-32a8", "nickname": "Mina", "name": "Kim Mina", "email": "mina@naver.com", "profile_image": "https://n.example/p.png"})
	got, err = nn.SignIn(t.Context(), ntoken)
	if want := (planner.User{Provider: planner.ProviderNaver, ProviderID: "nv-32a8", Nickname: "Mina", Picture: "https://n.example/p.png", Email: "mina@naver.com"}); err != nil || got != want {
		t.Fatalf("naver: %+v, %v; want %+v", got, err, want)
	}
	gn := naver.New("n", "ns", base+"/cb")
	gn.HTTPClient = redirectTo(napi.URL)
	if gu, err := gn.FetchUser(&naver.Session{AccessToken: ntoken}); err != nil || gu.UserID != got.ProviderID {
		t.Errorf("goth's naver reads the user id %q (%v), app sign-in %q", gu.UserID, err, got.ProviderID)
	}

	for _, n := range []*signin.Native{kn, nn} {
		for _, bad := range []string{"unknown-token", strings.Repeat("x", 100), "two words", "line\r\nX-Injected: 1"} {
			_, err := n.SignIn(t.Context(), bad)
			refused(t, n.ID+" "+bad, err)
		}
	}
	// A provider that fails is no refusal of the token.
	kapi.Break()
	if _, err := kn.SignIn(t.Context(), ktoken); err == nil || errors.Is(err, signin.ErrInvalidToken) {
		t.Errorf("kakao down: %v, want an error that is not the token's", err)
	}
}

// TestAppFlowIsKeptInTheFlowCookie: the app that started a sign-in is known at the callback,
// also when the sign-in fails there, so that the browser can be sent back to it.
func TestAppFlowIsKeptInTheFlowCookie(t *testing.T) {
	op := fakeoidc.New(t)
	ps, err := signin.New(t.Context(), base, oidcConfig(op.URL))
	if err != nil {
		t.Fatal(err)
	}
	p := ps.Get("oidc")
	app := &signin.App{RedirectURI: "tripplan://auth", Challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}
	authURL, cookie, err := ps.Begin(p, signin.Return{App: app})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cookie, "tripplan") || strings.Contains(authURL, app.Challenge) {
		t.Fatal("the app's redirect URI or challenge shows in the cookie or goes to the provider")
	}
	back := authorize(t, authURL)
	forged := url.Values{"code": {back.Get("code")}, "state": {"forged"}}
	if _, ret, err := ps.Complete(t.Context(), p, cookie, forged); err == nil || ret.App == nil || *ret.App != *app {
		t.Fatalf("forged state: %+v, %v", ret, err)
	}
	u, ret, err := ps.Complete(t.Context(), p, cookie, back)
	if err != nil || u.ProviderID != "user-1" || ret.App == nil || *ret.App != *app || ret.Next != "" {
		t.Fatalf("Complete = %+v, %+v, %v", u, ret, err)
	}
	if _, ret, err := ps.Complete(t.Context(), p, "", back); err == nil || ret.App != nil {
		t.Fatalf("no cookie: %+v, %v", ret, err)
	}
}
