// Package fakeuserinfo is Kakao's and Naver's user-info APIs for tests: each answers who an
// access token it issued belongs to, in the provider's own shape, and 401 for any other token,
// as the real ones do.
package fakeuserinfo

import (
	"crypto/rand"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Server is a running user-info API; its URL is the API's base URL.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	accounts map[string]map[string]any // access token → the account's fields
	// broken makes every answer 500, as a provider that is down.
	broken bool
}

// Kakao starts Kakao's user API (GET /v2/user/me), stopped when the test ends. An account is
// Kakao's user object, e.g. {"id": 4242, "properties": {"nickname": "Mina"}}.
func Kakao(t testing.TB) *Server {
	return start(t, "GET /v2/user/me", func(account map[string]any) any { return account },
		map[string]any{"msg": "this access token does not exist", "code": -401})
}

// Naver starts Naver's profile API (GET /v1/nid/me), stopped when the test ends. An account
// is the profile Naver wraps in its response, e.g. {"id": "abc", "nickname": "Mina"}.
func Naver(t testing.TB) *Server {
	return start(t, "GET /v1/nid/me",
		func(account map[string]any) any {
			return map[string]any{"resultcode": "00", "message": "success", "response": account}
		},
		map[string]any{"resultcode": "024", "message": "Authentication failed"})
}

func start(t testing.TB, pattern string, body func(map[string]any) any, refusal any) *Server {
	t.Helper()
	s := &Server{accounts: map[string]map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		token, bearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		account, known := s.accounts[token]
		broken := s.broken
		s.mu.Unlock()
		switch {
		case broken:
			writeJSON(w, http.StatusInternalServerError, map[string]any{"msg": "internal error"})
		case !bearer || !known:
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			writeJSON(w, http.StatusUnauthorized, refusal)
		default:
			writeJSON(w, http.StatusOK, body(account))
		}
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// Issue returns a new access token of the account, as the provider's SDK gives an app.
func (s *Server) Issue(account map[string]any) string {
	token := rand.Text()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts[token] = maps.Clone(account)
	return token
}

// Break makes the API answer 500 to everything from now on.
func (s *Server) Break() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broken = true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
