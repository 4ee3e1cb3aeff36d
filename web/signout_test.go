package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"tripplan/internal/postgres"
)

// instance is another server on a's database, as a second process would be: a pool of its
// own, its own change-feed listener when listen is set (none otherwise), the same secrets.
func (a *testApp) instance(listen bool) *testApp {
	a.t.Helper()
	db, err := postgres.Open(context.Background(), a.url)
	if err != nil {
		a.t.Fatal(err)
	}
	a.t.Cleanup(func() { db.Close() })
	if listen {
		ctx, stop := context.WithCancel(context.Background())
		a.t.Cleanup(stop)
		if err := db.Listen(ctx, a.url, nil); err != nil {
			a.t.Fatal(err)
		}
	}
	return newTestAppWith(a.t, func(d *Deps) { d.Store = db })
}

// signIn signs a user in through dev login and accepts the terms once, answering the
// sign-in's full access token and its refresh token.
func (a *testApp) signIn(providerID, nickname string) (access, refresh string) {
	a.t.Helper()
	tr := a.login(providerID, nickname)
	res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: tr.AccessToken})
	switch res.Status {
	case http.StatusOK:
		return res.json(a.t)["access_token"].(string), tr.RefreshToken
	case http.StatusConflict: // accepted at an earlier sign-in: the token is a full one already
		return tr.AccessToken, tr.RefreshToken
	}
	a.t.Fatalf("accept terms: %d %s", res.Status, res.Body)
	return "", ""
}

// meStatus answers the status of GET /users/me with the token.
func (a *testApp) meStatus(token string) int {
	a.t.Helper()
	return a.do(req{Method: "GET", Path: "/users/me", Token: token}).Status
}

// refusedSoon waits until the instance refuses the token with 401 INVALID_TOKEN; it fails the
// test if that takes longer than a generous deadline (the feed delivers in milliseconds).
func refusedSoon(t *testing.T, in *testApp, token, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for in.meStatus(token) != http.StatusUnauthorized {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the token is still accepted", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
	in.do(req{Method: "GET", Path: "/users/me", Token: token}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
}

// After POST /auth/logout the access tokens of that sign-in are refused at once on this
// instance and within moments on another; the user's other sign-ins keep working.
func TestLogoutRevokesTheSessionsAccessTokens(t *testing.T) {
	a := newTestApp(t)
	b := a.instance(true)
	preTerms := a.login("out-ana", "Ana")
	res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: preTerms.AccessToken})
	if res.Status != http.StatusOK {
		t.Fatalf("accept terms: %d %s", res.Status, res.Body)
	}
	access := res.json(t)["access_token"].(string)
	other, _ := a.signIn("out-ana", "Ana") // another device
	for _, in := range []*testApp{a, b} {
		for _, tok := range []string{preTerms.AccessToken, access, other} {
			if got := in.meStatus(tok); got != http.StatusOK {
				t.Fatalf("before logout: %d", got)
			}
		}
	}

	// A bearer client signs out with its access token alone (no refresh token sent).
	if res := a.do(req{Method: "POST", Path: "/auth/logout", Token: access}); res.Status != http.StatusNoContent {
		t.Fatalf("logout: %d %s", res.Status, res.Body)
	}
	for _, tok := range []string{access, preTerms.AccessToken} { // both were issued to that sign-in
		a.do(req{Method: "GET", Path: "/users/me", Token: tok}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
		refusedSoon(t, b, tok, "the other instance")
	}
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": preTerms.RefreshToken}}).
		problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	for _, in := range []*testApp{a, b} {
		if got := in.meStatus(other); got != http.StatusOK {
			t.Fatalf("the other sign-in after logout: %d", got)
		}
	}
	// The revoked token cannot sign out again either (it is no credential any more).
	a.do(req{Method: "POST", Path: "/auth/logout", Token: access}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
}

// A browser signs out with its cookies: its session dies, and so do the access tokens its
// sign-in answered; a bearer sign-out of the same sign-in ends the browser session too.
func TestCookieLogoutRevokesTheSignInsAccessTokens(t *testing.T) {
	a := newTestApp(t)
	b := a.instance(true)
	same := map[string]string{"Sec-Fetch-Site": "same-origin"}
	login := func(c *http.Client) string {
		res := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: c, Body: map[string]string{"provider": "GOOGLE", "provider_id": "out-ben", "nickname": "Ben"}})
		if res.Status != http.StatusOK {
			t.Fatalf("login: %d %s", res.Status, res.Body)
		}
		return res.json(t)["access_token"].(string)
	}

	first := browser(t)
	token := login(first)
	if res := a.do(req{Method: "POST", Path: "/auth/logout", Client: first, Header: same}); res.Status != http.StatusNoContent {
		t.Fatalf("cookie logout: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "GET", Path: "/users/me", Token: token}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	refusedSoon(t, b, token, "the other instance")

	second := browser(t)
	token = login(second)
	if got := a.do(req{Method: "GET", Path: "/users/me", Client: second}).Status; got != http.StatusOK {
		t.Fatalf("browser session: %d", got)
	}
	if res := a.do(req{Method: "POST", Path: "/auth/logout", Token: token}); res.Status != http.StatusNoContent {
		t.Fatalf("bearer logout: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "GET", Path: "/users/me", Client: second}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	if got := b.do(req{Method: "GET", Path: "/users/me", Client: second}).Status; got != http.StatusUnauthorized {
		t.Fatalf("the browser session on the other instance after logout: %d", got)
	}
}

// Withdrawal refuses every access token of the user, on every instance.
func TestWithdrawalRevokesEveryAccessToken(t *testing.T) {
	a := newTestApp(t)
	b := a.instance(true)
	phone, _ := a.signIn("gone-cho", "Cho")
	laptop, _ := a.signIn("gone-cho", "Cho")
	bystander, _ := a.signIn("gone-dan", "Dan")
	if got := b.meStatus(laptop); got != http.StatusOK {
		t.Fatalf("before withdrawal: %d", got)
	}
	if res := a.do(req{Method: "DELETE", Path: "/users/me", Token: phone, Body: map[string]string{"reason": "done"}}); res.Status != http.StatusNoContent {
		t.Fatalf("withdraw: %d %s", res.Status, res.Body)
	}
	for _, tok := range []string{phone, laptop} {
		a.do(req{Method: "GET", Path: "/users/me", Token: tok}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
		refusedSoon(t, b, tok, "the other instance")
	}
	if got := b.meStatus(bystander); got != http.StatusOK {
		t.Fatalf("another user after the withdrawal: %d", got)
	}
}

// A replayed refresh token revokes its family (theft detection): the access tokens issued to
// it go too, the thief's and the victim's.
func TestReplayedRefreshTokenRevokesTheAccessTokens(t *testing.T) {
	a := newTestApp(t)
	b := a.instance(true)
	access, refresh := a.signIn("replay-eve", "Eve")
	res := a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": refresh}})
	if res.Status != http.StatusOK {
		t.Fatalf("reissue: %d %s", res.Status, res.Body)
	}
	rotated := res.json(t)["access_token"].(string)
	if got := b.meStatus(rotated); got != http.StatusOK {
		t.Fatalf("rotated token: %d", got)
	}
	a.pastRefreshGrace(t)
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": refresh}}).
		problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	for _, tok := range []string{access, rotated} {
		a.do(req{Method: "GET", Path: "/users/me", Token: tok}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
		refusedSoon(t, b, tok, "the other instance")
	}
}

// An instance that does not follow the revocations feed asks the database, so it refuses a
// signed-out token at once too.
func TestRevocationWithoutTheFeed(t *testing.T) {
	a := newTestApp(t)
	c := a.instance(false)
	access, _ := a.signIn("nofeed-fay", "Fay")
	if got := c.meStatus(access); got != http.StatusOK {
		t.Fatalf("before logout: %d", got)
	}
	if res := a.do(req{Method: "POST", Path: "/auth/logout", Token: access}); res.Status != http.StatusNoContent {
		t.Fatalf("logout: %d %s", res.Status, res.Body)
	}
	c.do(req{Method: "GET", Path: "/users/me", Token: access}).problem(t, http.StatusUnauthorized, "INVALID_TOKEN")
	if res := c.do(req{Method: "GET", Path: "/users/me", Token: access}); !strings.Contains(string(res.Body), "revoked") {
		t.Fatalf("refusal does not say what to do: %s", res.Body)
	}
}
