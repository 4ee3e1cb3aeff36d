// Package fakeoidc is a local OpenID Connect provider for tests: discovery, an authorization
// endpoint that approves at once, a token endpoint that checks the client and PKCE and
// answers with an RS256-signed ID token, userinfo and JWKS.
package fakeoidc

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
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

const keyID = "fake-1"

// Server is a running fake provider; its URL is the issuer.
type Server struct {
	*httptest.Server
	key *rsa.PrivateKey

	mu sync.Mutex
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
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{key: key, signer: key, user: map[string]any{"sub": "user-1"},
		codes: map[string]grant{}, tokens: map[string]map[string]any{}}
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
// publish, as a forger would.
func (s *Server) SignWithStrangerKey(t testing.TB) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signer = key
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
	signer := s.signer
	s.mu.Unlock()
	if !ok || g.redirectURI != r.PostForm.Get("redirect_uri") || !verifierMatches(g.challenge, r.PostForm.Get("code_verifier")) {
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	now := time.Now()
	claims := jwt.MapClaims{"iss": s.URL, "aud": ClientID, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	maps.Copy(claims, g.user)
	idToken := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	idToken.Header["kid"] = keyID
	signed, err := idToken.SignedString(signer)
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

func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	pub := s.key.PublicKey
	writeJSON(w, http.StatusOK, map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": keyID,
		"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}})
}
