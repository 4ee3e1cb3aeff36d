// Package auth issues and verifies access tokens (JWT) and makes refresh-token secrets.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"tripplan/internal/planner"
)

// Token lifetimes (docs/API.md §Authentication).
const (
	AccessTTL  = time.Hour
	RefreshTTL = 14 * 24 * time.Hour
)

// Scopes of an access token. A user who has not accepted the terms gets a pre-terms token.
const (
	ScopeUser     = "user"
	ScopePreTerms = "pre_terms"
)

const issuer = "tripplan"

// Claims are the claims of an access token; Subject is the user's public id.
type Claims struct {
	Scope string `json:"scope"`
	// Session names the sign-in the token was issued to (the refresh-token family a sign-in
	// starts): signing out of it, or its revocation, revokes the token too. Empty in tokens
	// issued before sessions were named.
	Session string `json:"sid,omitempty"`
	jwt.RegisteredClaims
}

// PreTerms reports whether the token only allows the terms flow.
func (c *Claims) PreTerms() bool { return c.Scope != ScopeUser }

// Issuer signs access tokens with HS256 under its current key, naming the key in the token's
// `kid` header, and verifies tokens signed under the current or a previous key. Rotating the
// secret is: make the old secret a previous one, start with a new current one; tokens already
// issued stay valid until they expire (an hour), then the old secret can go.
type Issuer struct {
	current string            // kid of the signing key
	keys    map[string][]byte // by kid
	now     func() time.Time
}

// keyID names a secret without revealing it: the start of a hash of it.
func keyID(secret []byte) string {
	h := sha256.Sum256(append([]byte("tripplan-jwt-kid:"), secret...))
	return base64.RawURLEncoding.EncodeToString(h[:9])
}

// NewIssuer returns an Issuer signing with secret and also accepting tokens signed with the
// previous secrets; each must be at least 32 bytes.
func NewIssuer(secret []byte, now func() time.Time, previous ...[]byte) (*Issuer, error) {
	if now == nil {
		now = time.Now
	}
	i := &Issuer{current: keyID(secret), keys: map[string][]byte{}, now: now}
	for _, k := range append([][]byte{secret}, previous...) {
		if len(k) < 32 {
			return nil, errors.New("JWT secrets must be at least 32 bytes")
		}
		i.keys[keyID(k)] = k
	}
	return i, nil
}

// Issue signs an access token for the user's sign-in session; termsAccepted chooses its scope.
func (i *Issuer) Issue(userID, session string, termsAccepted bool) (token string, expiresIn int, err error) {
	now := i.now()
	scope := ScopePreTerms
	if termsAccepted {
		scope = ScopeUser
	}
	claims := Claims{
		Scope:   scope,
		Session: session,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   userID,
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(AccessTTL)),
			ID:        planner.NewID(),
		},
	}
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	t.Header["kid"] = i.current
	token, err = t.SignedString(i.keys[i.current])
	if err != nil {
		return "", 0, fmt.Errorf("sign access token: %w", err)
	}
	return token, int(AccessTTL.Seconds()), nil
}

// Verify checks the token's key, signature, algorithm, issuer and times. It answers
// EXPIRED_TOKEN for an otherwise valid but expired token and INVALID_TOKEN for anything else.
func (i *Issuer) Verify(token string) (*Claims, error) {
	var claims Claims
	_, err := jwt.ParseWithClaims(token, &claims, i.key,
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(i.now),
	)
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, planner.Errorf(planner.CodeExpiredToken, "The access token has expired; reissue it with the refresh token.")
	case err != nil:
		return nil, planner.Errorf(planner.CodeInvalidToken, "The access token is not valid.")
	case !planner.ValidID(claims.Subject):
		return nil, planner.Errorf(planner.CodeInvalidToken, "The access token is not valid.")
	}
	return &claims, nil
}

// key finds the key a token names; a token without kid (issued before keys had ids) is checked
// against the current key.
func (i *Issuer) key(t *jwt.Token) (any, error) {
	kid, ok := t.Header["kid"].(string)
	if !ok && t.Header["kid"] == nil {
		kid = i.current
	}
	if k, found := i.keys[kid]; found {
		return k, nil
	}
	return nil, errors.New("unknown signing key")
}

// NewRefreshToken returns a new opaque refresh-token secret and the hash to store.
func NewRefreshToken() (secret string, hash []byte) {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand.Read panics internally on failure since Go 1.24)
	secret = base64.RawURLEncoding.EncodeToString(b)
	return secret, HashRefreshToken(secret)
}

// HashRefreshToken is the stored form of a refresh-token secret.
func HashRefreshToken(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}
