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
	id := planner.NewID()
	for _, terms := range []bool{true, false} {
		token, expiresIn, err := iss.Issue(id, terms)
		if err != nil || expiresIn != 3600 {
			t.Fatal(err, expiresIn)
		}
		c, err := iss.Verify(token)
		if err != nil || c.Subject != id || c.PreTerms() == terms {
			t.Fatalf("terms=%v: claims %+v, err %v", terms, c, err)
		}
	}
	token, _, _ := iss.Issue(id, true)
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

func TestRefreshTokens(t *testing.T) {
	a, ha := NewRefreshToken()
	b, hb := NewRefreshToken()
	if a == b || string(ha) == string(hb) || len(a) < 40 || string(HashRefreshToken(a)) != string(ha) {
		t.Fatalf("refresh tokens: %q %q", a, b)
	}
}
