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

// Token lifetimes (API.md §3).
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
	jwt.RegisteredClaims
}

// PreTerms reports whether the token only allows the terms flow.
func (c *Claims) PreTerms() bool { return c.Scope != ScopeUser }

// Issuer signs and verifies access tokens with HS256.
type Issuer struct {
	key []byte
	now func() time.Time
}

// NewIssuer returns an Issuer for the secret; it must be at least 32 bytes.
func NewIssuer(secret []byte, now func() time.Time) (*Issuer, error) {
	if len(secret) < 32 {
		return nil, errors.New("JWT secret must be at least 32 bytes")
	}
	if now == nil {
		now = time.Now
	}
	return &Issuer{key: secret, now: now}, nil
}

// Issue signs an access token for the user; termsAccepted chooses its scope.
func (i *Issuer) Issue(userID string, termsAccepted bool) (token string, expiresIn int, err error) {
	now := i.now()
	scope := ScopePreTerms
	if termsAccepted {
		scope = ScopeUser
	}
	claims := Claims{
		Scope: scope,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   userID,
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(AccessTTL)),
			ID:        planner.NewID(),
		},
	}
	token, err = jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(i.key)
	if err != nil {
		return "", 0, fmt.Errorf("sign access token: %w", err)
	}
	return token, int(AccessTTL.Seconds()), nil
}

// Verify checks the token's signature, algorithm, issuer and times. It answers
// EXPIRED_TOKEN for an otherwise valid but expired token and INVALID_TOKEN for anything else.
func (i *Issuer) Verify(token string) (*Claims, error) {
	var claims Claims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return i.key, nil },
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
