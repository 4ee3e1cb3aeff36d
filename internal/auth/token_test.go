package auth

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"tripplan/internal/planner"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

func TestIssueAndVerify(t *testing.T) {
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	iss, err := NewIssuer(secret, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	id, session := planner.NewID(), planner.NewID()
	for _, terms := range []bool{true, false} {
		token, expiresIn, err := iss.Issue(id, session, terms)
		if err != nil || expiresIn != 3600 {
			t.Fatal(err, expiresIn)
		}
		c, err := iss.Verify(token)
		if err != nil || c.Subject != id || c.Session != session || c.PreTerms() == terms {
			t.Fatalf("terms=%v: claims %+v, err %v", terms, c, err)
		}
	}
	token, _, _ := iss.Issue(id, session, true)
	now = now.Add(AccessTTL + time.Second)
	if _, err := iss.Verify(token); planner.ErrorCode(err) != planner.CodeExpiredToken {
		t.Fatalf("expired: %v", err)
	}
}

func TestVerifyRejectsForgedTokens(t *testing.T) {
	iss, _ := NewIssuer(secret, nil)
	id := planner.NewID()
	claims := func() Claims {
		return Claims{Scope: ScopeUser, RegisteredClaims: jwt.RegisteredClaims{Issuer: issuer, Subject: id,
			ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))}}
	}
	sign := func(m jwt.SigningMethod, c Claims, key any) string {
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	noExp := claims()
	noExp.ExpiresAt = nil
	otherIssuer := claims()
	otherIssuer.Issuer = "someone-else"
	badSubject := claims()
	badSubject.Subject = "1"
	cases := map[string]string{
		"other key":    sign(jwt.SigningMethodHS256, claims(), []byte("another-key-another-key-another-k")),
		"HS512":        sign(jwt.SigningMethodHS512, claims(), secret),
		"alg none":     sign(jwt.SigningMethodNone, claims(), jwt.UnsafeAllowNoneSignatureType),
		"no expiry":    sign(jwt.SigningMethodHS256, noExp, secret),
		"other issuer": sign(jwt.SigningMethodHS256, otherIssuer, secret),
		"bad subject":  sign(jwt.SigningMethodHS256, badSubject, secret),
		"not a token":  "abc.def.ghi",
		"empty":        "",
	}
	for name, token := range cases {
		if _, err := iss.Verify(token); planner.ErrorCode(err) != planner.CodeInvalidToken {
			t.Errorf("%s: %v, want INVALID_TOKEN", name, err)
		}
	}
	if _, err := NewIssuer([]byte("short"), nil); err == nil {
		t.Error("a short secret was accepted")
	}
}

func TestKeyRotation(t *testing.T) {
	old := []byte("old-secret-old-secret-old-secret-0")
	next := []byte("new-secret-new-secret-new-secret-1")
	before, _ := NewIssuer(old, nil)
	after, err := NewIssuer(next, nil, old)
	if err != nil {
		t.Fatal(err)
	}
	id := planner.NewID()
	issuedBefore, _, _ := before.Issue(id, "", true)
	issuedAfter, _, _ := after.Issue(id, "", true)
	if _, err := after.Verify(issuedBefore); err != nil {
		t.Errorf("a token signed with the previous key: %v", err)
	}
	if _, err := after.Verify(issuedAfter); err != nil {
		t.Errorf("a token signed with the current key: %v", err)
	}
	if _, err := before.Verify(issuedAfter); planner.ErrorCode(err) != planner.CodeInvalidToken {
		t.Errorf("a key the issuer does not know: %v", err)
	}
	parsed, _, _ := jwt.NewParser().ParseUnverified(issuedAfter, &Claims{})
	if parsed.Header["kid"] != keyID(next) || keyID(next) == keyID(old) || len(keyID(next)) != 12 {
		t.Errorf("kid header %v", parsed.Header["kid"])
	}
	// A token naming a known kid but signed with another secret is refused.
	forged := jwt.NewWithClaims(jwt.SigningMethodHS256, Claims{Scope: ScopeUser, RegisteredClaims: jwt.RegisteredClaims{
		Issuer: issuer, Subject: id, ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))}})
	forged.Header["kid"] = keyID(next)
	s, _ := forged.SignedString([]byte("guess-guess-guess-guess-guess-guess"))
	if _, err := after.Verify(s); planner.ErrorCode(err) != planner.CodeInvalidToken {
		t.Errorf("forged with a known kid: %v", err)
	}
	if _, err := NewIssuer(next, nil, []byte("short")); err == nil {
		t.Error("a short previous secret was accepted")
	}
}

func TestRefreshTokens(t *testing.T) {
	a, ha := NewRefreshToken()
	b, hb := NewRefreshToken()
	if a == b || string(ha) == string(hb) || len(a) < 40 || string(HashRefreshToken(a)) != string(ha) {
		t.Fatalf("refresh tokens: %q %q", a, b)
	}
}
