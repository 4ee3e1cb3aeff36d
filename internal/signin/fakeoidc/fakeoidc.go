// Package fakeoidc is a local OpenID Connect provider for tests: discovery, an authorization
// endpoint that approves at once, a token endpoint that checks the client and PKCE and
// answers with an RS256-signed ID token, userinfo and JWKS. It also mints ID tokens as an
// app's SDK would receive them (Mint), and rotates its signing key (RotateKey), so that it
// stands in for Google's or Apple's issuer as well.
package fakeoidc

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// ClientID and Secret are the one client the provider knows.
const (
	ClientID = "tripplan-test"
	Secret   = "tripplan-test-secret"
)

// Server is a running fake provider; its URL is the issuer.
type Server struct {
	*httptest.Server

	mu sync.Mutex
	// key is the signing key the JWKS publishes, named kid; RotateKey replaces both.
	key  *rsa.PrivateKey
	kid  string
	keys int // keys made so far, for the next kid
	// user are the claims of the account the next authorization signs in.
	user map[string]any
	// signer signs ID tokens; it is key unless a test swaps in a stranger's key.
	signer *rsa.PrivateKey
	// challenges are the PKCE code challenges the authorization endpoint received, in order.
	challenges []string
	codes      map[string]grant
	tokens     map[string]map[string]any // access token → the account's claims
}

// grant is an issued authorization code and what it was issued for.
type grant struct {
	user        map[string]any
	redirectURI string
	challenge   string
}

// New starts a provider, stopped when the test ends. It signs in as sub "user-1" until
// SetUser says otherwise.
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{user: map[string]any{"sub": "user-1"}, codes: map[string]grant{}, tokens: map[string]map[string]any{}}
	s.RotateKey(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", s.discovery)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("GET /userinfo", s.userinfo)
	mux.HandleFunc("GET /jwks", s.jwks)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// SetUser sets the claims (sub, name, nickname, email, picture, …) of the account that the
// next authorizations sign in.
func (s *Server) SetUser(claims map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user = maps.Clone(claims)
}

// SignWithStrangerKey makes the provider sign ID tokens with a key that its JWKS does not
// publish, under the published key's id, as a forger would.
func (s *Server) SignWithStrangerKey(t testing.TB) {
	t.Helper()
	key := newKey(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signer = key
}

// RotateKey makes a new signing key with a new key id: the JWKS publishes it instead of the
// old one (which is dropped), and ID tokens are signed with it from now on.
func (s *Server) RotateKey(t testing.TB) {
	t.Helper()
	key := newKey(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys++
	s.key, s.signer, s.kid = key, key, fmt.Sprintf("fake-%d", s.keys)
}

func newKey(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// Token is an ID token to mint. Its claims are the issuer's defaults — iss the provider,
// aud ClientID, iat now, exp in an hour, and the current user's claims — overridden by
// Claims; a nil value removes a claim.
type Token struct {
	Claims map[string]any
	// Stranger signs with a key the provider never published, under the key id KeyID.
	Stranger bool
	KeyID    string
}

// Mint signs an ID token as an app's SDK receives it from the provider (by default with the
// current key, under its id).
func (s *Server) Mint(t testing.TB, tok Token) string {
	t.Helper()
	s.mu.Lock()
	claims := s.claims(s.user)
	key, kid := s.signer, s.kid
	s.mu.Unlock()
	for k, v := range tok.Claims {
		if v == nil {
			delete(claims, k)
		} else {
			claims[k] = v
		}
	}
	if tok.Stranger {
		key = newKey(t)
	}
	if tok.KeyID != "" {
		kid = tok.KeyID
	}
	signed, err := sign(claims, key, kid)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

// claims are the default claims of an ID token for the user; s.mu is held.
func (s *Server) claims(user map[string]any) jwt.MapClaims {
	now := time.Now()
	claims := jwt.MapClaims{"iss": s.URL, "aud": ClientID, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	maps.Copy(claims, user)
	return claims
}

func sign(claims jwt.MapClaims, key *rsa.PrivateKey, kid string) (string, error) {
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	t.Header["kid"] = kid
	return t.SignedString(key)
}

// Challenges are the PKCE code challenges the authorization endpoint received, in order.
func (s *Server) Challenges() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.challenges...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]string{"error": code})
}

func (s *Server) discovery(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                s.URL,
		"authorization_endpoint":                s.URL + "/authorize",
		"token_endpoint":                        s.URL + "/token",
		"userinfo_endpoint":                     s.URL + "/userinfo",
		"jwks_uri":                              s.URL + "/jwks",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported":      []string{"S256"},
		"scopes_supported":                      []string{"openid", "profile", "email"},
	})
}

// authorize approves at once: it redirects back to the client with a code and the state.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if q.Get("client_id") != ClientID || err != nil || !redirect.IsAbs() {
		http.Error(w, "unknown client or redirect_uri", http.StatusBadRequest)
		return
	}
	back := redirect.Query()
	back.Set("state", q.Get("state"))
	switch {
	case q.Get("response_type") != "code":
		back.Set("error", "unsupported_response_type")
	case q.Get("code_challenge") != "" && q.Get("code_challenge_method") != "S256":
		back.Set("error", "invalid_request")
	default:
		code := rand.Text()
		s.mu.Lock()
		s.challenges = append(s.challenges, q.Get("code_challenge"))
		s.codes[code] = grant{user: maps.Clone(s.user), redirectURI: redirect.String(), challenge: q.Get("code_challenge")}
		s.mu.Unlock()
		back.Set("code", code)
	}
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// token exchanges a code, once, for an access token and an ID token. The client
// authenticates with HTTP Basic or form parameters; a code issued with a challenge needs its
// verifier.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != ClientID || subtle.ConstantTimeCompare([]byte(secret), []byte(Secret)) != 1 {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	s.mu.Lock()
	code := r.PostForm.Get("code")
	g, ok := s.codes[code]
	delete(s.codes, code)
	claims, signer, kid := s.claims(g.user), s.signer, s.kid
	s.mu.Unlock()
	if !ok || g.redirectURI != r.PostForm.Get("redirect_uri") || !verifierMatches(g.challenge, r.PostForm.Get("code_verifier")) {
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	signed, err := sign(claims, signer, kid)
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error")
		return
	}
	access := rand.Text()
	s.mu.Lock()
	s.tokens[access] = g.user
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600, "id_token": signed})
}

// verifierMatches reports whether the verifier answers the S256 challenge ("" needs "").
func verifierMatches(challenge, verifier string) bool {
	if challenge == "" {
		return verifier == ""
	}
	sum := sha256.Sum256([]byte(verifier))
	return verifier != "" && base64.RawURLEncoding.EncodeToString(sum[:]) == challenge
}

func (s *Server) userinfo(w http.ResponseWriter, r *http.Request) {
	access, bearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	claims, known := s.tokens[access]
	s.mu.Unlock()
	if !bearer || !known {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		oauthError(w, http.StatusUnauthorized, "invalid_token")
		return
	}
	writeJSON(w, http.StatusOK, claims)
}

// jwks publishes the current signing key only.
func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	pub, kid := s.key.PublicKey, s.kid
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
		"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}})
}
