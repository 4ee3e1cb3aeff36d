package web

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
)

// requestLog keeps the "request" lines the server logs: the remote address by request id.
type requestLog struct {
	mu     sync.Mutex
	remote map[string]string
}

func (l *requestLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *requestLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *requestLog) WithGroup(string) slog.Handler            { return l }
func (l *requestLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "request" {
		return nil
	}
	var id, remote string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "request_id":
			id = a.Value.String()
		case "remote":
			remote = a.Value.String()
		}
		return true
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.remote[id] = remote
	return nil
}

func (l *requestLog) of(id string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.remote[id]
}

// newAddressApp is a test server that logs into a requestLog and allows one sign-in request
// per client address (the bucket refills only after a thousand seconds).
func newAddressApp(t *testing.T, trusted ...string) (*testApp, *requestLog) {
	t.Helper()
	log := &requestLog{remote: map[string]string{}}
	var ranges []*net.IPNet
	for _, r := range trusted {
		_, ipNet, err := net.ParseCIDR(r)
		if err != nil {
			t.Fatal(err)
		}
		ranges = append(ranges, ipNet)
	}
	a := newTestAppWith(t, func(d *Deps) { d.Log = slog.New(log) }, func(c *Config) {
		c.SignInRate, c.SignInBurst, c.TrustedProxies = 0.001, 1, ranges
	})
	return a, log
}

// signInFrom sends a sign-in request (a reissue with a bogus token) with the given
// X-Forwarded-For and answers its status and the client address the server logged for it.
func signInFrom(t *testing.T, a *testApp, log *requestLog, id, forwardedFor string) (int, string) {
	t.Helper()
	h := map[string]string{"X-Request-ID": id}
	if forwardedFor != "" {
		h["X-Forwarded-For"] = forwardedFor
	}
	res := a.do(req{Method: "POST", Path: "/auth/reissue", Header: h, Body: map[string]string{"refresh_token": "bogus"}})
	if res.Status != http.StatusUnauthorized && res.Status != http.StatusTooManyRequests {
		t.Fatalf("%s: %d %s", id, res.Status, res.Body)
	}
	return res.Status, log.of(id)
}

// Without trusted proxies a client cannot choose its address: X-Forwarded-For is ignored, by
// the rate limit and in the log.
func TestSpoofedForwardedForIsIgnored(t *testing.T) {
	a, log := newAddressApp(t)
	status, remote := signInFrom(t, a, log, "spoof-1", "203.0.113.1")
	if status != http.StatusUnauthorized || remote != "127.0.0.1" {
		t.Fatalf("first request: %d, logged from %q; want 401 from 127.0.0.1", status, remote)
	}
	// A new forged address each time does not buy a new bucket.
	status, remote = signInFrom(t, a, log, "spoof-2", "203.0.113.2")
	if status != http.StatusTooManyRequests || remote != "127.0.0.1" {
		t.Fatalf("second request with another forged address: %d, logged from %q; want 429 from 127.0.0.1", status, remote)
	}
}

// A request from a trusted proxy is the client's named in X-Forwarded-For: the right-most
// address that is not a trusted proxy (what the client itself wrote further left can be forged).
// Each real client has its own rate-limit bucket.
func TestTrustedProxyChainIsHonoured(t *testing.T) {
	// The test's connections come from 127.0.0.1, the edge proxy; 10.0.0.0/8 are inner proxies.
	a, log := newAddressApp(t, "127.0.0.0/8", "10.0.0.0/8")
	status, remote := signInFrom(t, a, log, "chain-1", "198.51.100.7, 10.1.2.3")
	if status != http.StatusUnauthorized || remote != "198.51.100.7" {
		t.Fatalf("through two proxies: %d, logged from %q; want 401 from 198.51.100.7", status, remote)
	}
	// The same client forging an address in front is still itself, and out of tokens.
	status, remote = signInFrom(t, a, log, "chain-2", "203.0.113.9, 198.51.100.7, 10.1.2.3")
	if status != http.StatusTooManyRequests || remote != "198.51.100.7" {
		t.Fatalf("same client with a forged hop: %d, logged from %q; want 429 from 198.51.100.7", status, remote)
	}
	// Another client behind the same proxies has a bucket of its own.
	status, remote = signInFrom(t, a, log, "chain-3", "198.51.100.8")
	if status != http.StatusUnauthorized || remote != "198.51.100.8" {
		t.Fatalf("another client: %d, logged from %q; want 401 from 198.51.100.8", status, remote)
	}
	// A request straight from the proxy, without the header, is the proxy's own.
	if _, remote = signInFrom(t, a, log, "chain-4", ""); remote != "127.0.0.1" {
		t.Fatalf("no X-Forwarded-For: logged from %q, want 127.0.0.1", remote)
	}
}

// Trusting some proxy does not make every peer one: a peer outside the ranges is the client,
// whatever it forwards.
func TestUntrustedPeerIsTheClientEvenWithProxiesConfigured(t *testing.T) {
	a, log := newAddressApp(t, "10.0.0.0/8")
	status, remote := signInFrom(t, a, log, "peer-1", "198.51.100.7")
	if status != http.StatusUnauthorized || remote != "127.0.0.1" {
		t.Fatalf("%d, logged from %q; want 401 from 127.0.0.1 (the peer is no trusted proxy)", status, remote)
	}
	if status, _ = signInFrom(t, a, log, "peer-2", "198.51.100.8"); status != http.StatusTooManyRequests {
		t.Fatalf("second request from the same peer: %d, want 429", status)
	}
}
