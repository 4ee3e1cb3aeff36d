package signin_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tripplan/internal/planner"
	"tripplan/internal/signin"
	"tripplan/internal/signin/fakeoidc"
)

const base = "http://tripplan.test"

var key = []byte("sign-in-test-key-sign-in-test-key")

func oidcConfig(issuer string) signin.Config {
	return signin.Config{Key: key, OIDC: signin.OIDC{Issuer: issuer, ClientID: fakeoidc.ClientID, Secret: fakeoidc.Secret, Name: "Test SSO"}}
}

// authorize follows the authorization URL to the fake provider and returns the query it
// sends the browser back with.
func authorize(t *testing.T, authURL string) url.Values {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(loc.String(), base+signin.CallbackPath+"oidc?") {
		t.Fatalf("authorize: %d Location=%q", res.StatusCode, res.Header.Get("Location"))
	}
	return loc.Query()
}

func TestOIDCSignInWithStateAndPKCE(t *testing.T) {
	op := fakeoidc.New(t)
	op.SetUser(map[string]any{"sub": "abc-123", "name": "Mina Kim", "email": "mina@example.com", "picture": "https://img.example/m.png"})
	ps, err := signin.New(t.Context(), base, oidcConfig(op.URL))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.List()) != 1 || ps.Get("oidc") == nil || ps.Get("oidc").Name != "Test SSO" || ps.Get("google") != nil {
		t.Fatalf("providers %+v", ps.List())
	}
	p := ps.Get("oidc")
	authURL, cookie, err := ps.Begin(p, signin.Return{Next: "/plans/x"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(authURL)
	q := u.Query()
	if !strings.HasPrefix(authURL, op.URL+"/authorize?") || q.Get("redirect_uri") != base+"/login/oauth2/code/oidc" ||
		q.Get("state") == "" || q.Get("code_challenge_method") != "S256" || !strings.Contains(q.Get("scope"), "openid") {
		t.Fatalf("authorization URL %s", authURL)
	}
	if strings.Contains(cookie, q.Get("state")) {
		t.Fatal("the flow cookie shows its state in the clear")
	}
	back := authorize(t, authURL)

	got, ret, err := ps.Complete(t.Context(), p, cookie, back)
	if err != nil {
		t.Fatal(err)
	}
	want := planner.User{Provider: planner.ProviderOIDC, ProviderID: "abc-123", Nickname: "MinaKim", Picture: "https://img.example/m.png", Email: "mina@example.com"}
	if got != want || ret != (signin.Return{Next: "/plans/x"}) {
		t.Fatalf("Complete = %+v, %+v; want %+v, /plans/x", got, ret, want)
	}
	if ch := op.Challenges(); len(ch) != 1 || ch[0] != q.Get("code_challenge") {
		t.Fatalf("challenges %v", ch)
	}
	// The code is spent: the same callback again fails at the token endpoint.
	if _, _, err := ps.Complete(t.Context(), p, cookie, back); err == nil {
		t.Fatal("a replayed callback succeeded")
	}
}

func TestOIDCSignInRefusals(t *testing.T) {
	op := fakeoidc.New(t)
	ps, err := signin.New(t.Context(), base, oidcConfig(op.URL))
	if err != nil {
		t.Fatal(err)
	}
	p := ps.Get("oidc")
	start := func() (string, url.Values) {
		authURL, cookie, err := ps.Begin(p, signin.Return{})
		if err != nil {
			t.Fatal(err)
		}
		return cookie, authorize(t, authURL)
	}
	with := func(v url.Values, k, val string) url.Values {
		v = url.Values(http.Header(v).Clone())
		v.Set(k, val)
		return v
	}
	cookie, back := start()
	other, _ := start()
	strangers, err := signin.New(t.Context(), base, signin.Config{Key: []byte(strings.Repeat("k", 32)), OIDC: oidcConfig(op.URL).OIDC})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		ps       *signin.Providers
		cookie   string
		callback url.Values
	}{
		"no cookie":              {ps, "", back},
		"cookie of another flow": {ps, other, back},
		"cookie under other key": {strangers, cookie, back},
		"tampered cookie":        {ps, cookie[:len(cookie)-2] + "xx", back},
		"forged state":           {ps, cookie, with(back, "state", "forged")},
		"no state":               {ps, cookie, with(back, "state", "")},
		"no code":                {ps, cookie, with(back, "code", "")},
		"provider error":         {ps, cookie, with(back, "error", "access_denied")},
	}
	for name, tc := range cases {
		if _, _, err := tc.ps.Complete(t.Context(), p, tc.cookie, tc.callback); err == nil {
			t.Errorf("%s: signed in", name)
		}
	}
	// Nothing above spent the code: the real callback still works.
	if _, _, err := ps.Complete(t.Context(), p, cookie, back); err != nil {
		t.Fatalf("the genuine callback after the refusals: %v", err)
	}

	// A PKCE verifier that does not answer the challenge is refused by the provider: the
	// flow cookie of one sign-in with the state and code of another.
	_, back1 := start()
	cookie2, back2 := start()
	_, _, err = ps.Complete(t.Context(), p, cookie2, with(back1, "state", back2.Get("state")))
	if err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Errorf("mismatched verifier: %v, want invalid_grant", err)
	}

	// An ID token signed by a key the issuer does not publish.
	op.SignWithStrangerKey(t)
	cookie, back = start()
	if _, _, err := ps.Complete(t.Context(), p, cookie, back); err == nil || !strings.Contains(err.Error(), "id_token") {
		t.Errorf("forged id_token: %v", err)
	}
}

func TestProvidersFromConfig(t *testing.T) {
	ps, err := signin.New(t.Context(), "", signin.Config{Google: signin.Client{ID: "id"}})
	if err != nil || len(ps.List()) != 0 {
		t.Fatalf("a client id without its secret enables nothing: %v %v", ps.List(), err)
	}
	appleKey := applePrivateKey(t)
	ps, err = signin.New(t.Context(), base, signin.Config{
		Key:    key,
		Google: signin.Client{ID: "g-id", Secret: "g-secret"}, Kakao: signin.Client{ID: "k-id", Secret: "k"}, Naver: signin.Client{ID: "n-id", Secret: "n"},
		Apple: signin.Apple{ClientID: "app.tripplan", TeamID: "TEAM", KeyID: "KEY", PrivateKey: strings.ReplaceAll(appleKey, "\n", `\n`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range ps.List() {
		ids = append(ids, p.ID+":"+string(p.Kind))
		authURL, _, err := ps.Begin(p, signin.Return{})
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		q, _ := url.Parse(authURL)
		if q.Query().Get("redirect_uri") != base+"/login/oauth2/code/"+p.ID || q.Query().Get("state") == "" ||
			q.Query().Get("code_challenge") != "" {
			t.Errorf("%s: authorization URL %s", p.ID, authURL)
		}
	}
	if got := strings.Join(ids, " "); got != "google:GOOGLE kakao:KAKAO naver:NAVER apple:APPLE" {
		t.Errorf("providers %s", got)
	}

	bad := []signin.Config{
		{Key: key, Apple: signin.Apple{ClientID: "a", TeamID: "t", KeyID: "k", PrivateKey: "not a key"}},
		{Key: key, OIDC: signin.OIDC{Issuer: "http://127.0.0.1:1", ClientID: "c", Secret: "s"}},
		{Google: signin.Client{ID: "g", Secret: "s"}}, // no key
	}
	for _, cfg := range bad {
		if _, err := signin.New(t.Context(), base, cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	if _, err := signin.New(t.Context(), "", signin.Config{Key: key, Google: signin.Client{ID: "g", Secret: "s"}}); err == nil {
		t.Error("no base URL accepted")
	}
}

func TestOIDCIssuerMustMatchDiscovery(t *testing.T) {
	op := fakeoidc.New(t)
	if _, err := signin.New(t.Context(), base, oidcConfig(op.URL+"/")); err == nil || !strings.Contains(err.Error(), "issuer") {
		t.Fatalf("issuer with a trailing slash: %v", err)
	}
}

// applePrivateKey is a fresh P-256 key in PKCS #8 PEM, as Apple issues them.
func applePrivateKey(t *testing.T) string {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}
