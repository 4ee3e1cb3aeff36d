package postgres_test

import (
	"sync"
	"testing"

	"tripplan/internal/planner"
	"tripplan/internal/postgres/pgtest"
)

func TestSignInSocialNumbersTakenNicknames(t *testing.T) {
	db := pgtest.New(t)
	ctx := t.Context()
	signIn := func(providerID, nickname string) *planner.User {
		t.Helper()
		u, err := db.SignInSocial(ctx, planner.User{Provider: planner.ProviderOIDC, ProviderID: providerID, Nickname: nickname, Email: providerID + "@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	if u := signIn("a", "Mina"); u.Nickname != "Mina" || u.Email != "a@example.com" || u.TermsAccepted() {
		t.Fatalf("first: %+v", u)
	}
	if u := signIn("b", "mina"); u.Nickname != "mina2" {
		t.Errorf("second Mina, other case: %q, want mina2", u.Nickname)
	}
	if u := signIn("c", "Mina"); u.Nickname != "Mina3" {
		t.Errorf("third Mina: %q, want Mina3", u.Nickname)
	}
	if u := signIn("d", "Wanderlust"); u.Nickname != "Wanderlust" {
		t.Errorf("Wanderlust: %q", u.Nickname)
	}
	if u := signIn("e", "Wanderlust"); u.Nickname != "Wanderlus2" {
		t.Errorf("second Wanderlust: %q, want Wanderlus2", u.Nickname)
	}
	// A withdrawn user's nickname is free again.
	if _, err := db.Exec(`UPDATE users SET withdrawn_at = now() WHERE provider_id = 'c'`); err != nil {
		t.Fatal(err)
	}
	if u := signIn("f", "Mina"); u.Nickname != "Mina3" {
		t.Errorf("after Mina3 withdrew: %q, want Mina3", u.Nickname)
	}
	// A later sign-in keeps the user's own profile, whatever the provider says now.
	if _, err := db.Exec(`UPDATE users SET nickname = 'Renamed' WHERE provider_id = 'a'`); err != nil {
		t.Fatal(err)
	}
	if u := signIn("a", "Mina"); u.Nickname != "Renamed" || u.Email != "a@example.com" {
		t.Errorf("second sign-in: %+v", u)
	}
	_, err := db.SignInSocial(ctx, planner.User{Provider: planner.ProviderOIDC, ProviderID: "c", Nickname: "Mina"})
	if planner.ErrorCode(err) != planner.CodeUserWithdrawn {
		t.Errorf("withdrawn account: %v, want USER_WITHDRAWN", err)
	}
}

func TestSimultaneousFirstSignInsGetDistinctNicknames(t *testing.T) {
	db := pgtest.New(t)
	const n = 8
	names := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			u, err := db.SignInSocial(t.Context(), planner.User{Provider: planner.ProviderKakao, ProviderID: string(rune('a' + i)), Nickname: planner.DefaultNickname})
			if err != nil {
				t.Error(err)
				return
			}
			names[i] = u.Nickname
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] || !planner.ValidNickname(name) {
			t.Fatalf("nicknames %v: %q repeated or invalid", names, name)
		}
		seen[name] = true
	}
}
