package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// bogusReissue is a sign-in request the rate limit counts: a reissue with a refresh token
// that is no token, 401 when the limit lets it through.
var bogusReissue = req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": "bogus"}}

// TestSignInBudgetIsSharedByInstances: two instances on one database draw on one bucket per
// client address. Twice the burst of attempts, alternating between the instances, get exactly
// the burst through and every later one 429 TOO_MANY_REQUESTS with Retry-After.
func TestSignInBudgetIsSharedByInstances(t *testing.T) {
	limit := func(c *Config) { c.SignInRate, c.SignInBurst = 0.001, 4 } // a token every 1000 s
	a := newTestApp(t, limit)
	b := a.secondInstance(t, limit)
	for i := range 8 {
		in := []*testApp{a, b}[i%2]
		res := in.do(bogusReissue)
		if i < 4 {
			if res.Status != http.StatusUnauthorized {
				t.Fatalf("attempt %d: %d %s, want 401 (within the burst)", i+1, res.Status, res.Body)
			}
			continue
		}
		res.problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
		if res.Header.Get("Retry-After") != "1000" {
			t.Fatalf("attempt %d: Retry-After %q, want 1000", i+1, res.Header.Get("Retry-After"))
		}
	}
	// Another address has a bucket of its own, on either instance.
	other := fromAddress(t, "127.0.0.2", nil)
	for _, in := range []*testApp{a, b} {
		rq := bogusReissue
		rq.Client = other
		if res := in.do(rq); res.Status != http.StatusUnauthorized {
			t.Fatalf("another address: %d %s, want 401", res.Status, res.Body)
		}
	}
}

// TestConcurrentSignInsNeverOverspend: 40 attempts at once from one address, half on each of
// two instances, get exactly the burst through.
func TestConcurrentSignInsNeverOverspend(t *testing.T) {
	limit := func(c *Config) { c.SignInRate, c.SignInBurst = 0.001, 5 }
	a := newTestApp(t, limit)
	b := a.secondInstance(t, limit)
	var (
		mu       sync.Mutex
		statuses = map[int]int{}
		wg       sync.WaitGroup
	)
	for i := range 40 {
		base := []*testApp{a, b}[i%2].http.URL
		wg.Go(func() {
			status := 0
			res, err := http.Post(base+"/auth/reissue", "application/json", strings.NewReader(`{"refresh_token":"bogus"}`))
			if err == nil {
				status = res.StatusCode
				res.Body.Close()
			}
			mu.Lock()
			defer mu.Unlock()
			statuses[status]++
		})
	}
	wg.Wait()
	if statuses[http.StatusUnauthorized] != 5 || statuses[http.StatusTooManyRequests] != 35 {
		t.Fatalf("statuses %v, want 5 × 401 and 35 × 429", statuses)
	}
}

// TestSignInGoesThroughWhenTheLimitCannotBeRead: the rate limit fails open. Without its table
// (as when the database cannot answer it) sign-in requests are not refused, nor answered 5xx
// by the limiter.
func TestSignInGoesThroughWhenTheLimitCannotBeRead(t *testing.T) {
	a := newTestApp(t, func(c *Config) { c.SignInRate, c.SignInBurst = 0.001, 1 })
	if _, err := a.db.Exec(`DROP TABLE rate_limits`); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if res := a.do(bogusReissue); res.Status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d %s, want 401", i+1, res.Status, res.Body)
		}
	}
	if !strings.Contains(a.logBuf.String(), "rate limit: could not take a token") {
		t.Fatal("the failure is not logged")
	}
}

// TestStreamCapsAreSharedByInstances: with 2 streams per user, Ana's streams on two instances
// count together — a third on either is refused, and closing one on one instance frees a place
// on the other. A place left by an instance that died counts while it is fresh and not once
// a few heartbeats went by without a touch; an instance that stops gives its places back.
func TestStreamCapsAreSharedByInstances(t *testing.T) {
	// A long heartbeat: no place goes stale by itself while the test runs.
	caps := func(c *Config) { c.StreamLimitPerUser, c.Heartbeat = 2, time.Minute }
	f := newPlanFixtureOn(t, newTestApp(t, caps))
	a := f.a
	b := a.secondInstance(t, caps)
	path := "/plans/" + f.plan.PlanID + "/events"
	refused := func(in *testApp, who string) {
		t.Helper()
		res, s := in.tryStream(t, http.DefaultClient, path, f.ana)
		if s != nil {
			t.Fatalf("%s opened, want 429", who)
		}
		var p struct {
			Code string `json:"code"`
		}
		if json.Unmarshal(res.Body, &p); res.Status != http.StatusTooManyRequests || p.Code != "TOO_MANY_REQUESTS" || res.Header.Get("Retry-After") != "60" {
			t.Fatalf("%s: %d (Retry-After %q) %s, want 429 with Retry-After 60", who, res.Status, res.Header.Get("Retry-After"), res.Body)
		}
	}

	onA := a.stream(t, http.DefaultClient, path, f.ana)
	b.stream(t, http.DefaultClient, path, f.ana)
	refused(a, "a third stream on the first instance")
	refused(b, "a third stream on the second instance")

	onA.cancel()
	a.awaitOpenStreams(t, 0)
	onB := b.stream(t, http.DefaultClient, path, f.ana)
	refused(a, "a third stream after the place was taken again")

	// A third instance died with one of Ana's streams open: its fresh place counts, a stale one
	// does not.
	b.srv.EndStreams()
	onB.ends(t, "the second instance stopped")
	b.awaitOpenStreams(t, 0)
	var ana string
	if err := a.db.Get(&ana, `SELECT id FROM users WHERE provider_id = 'pf-ana'`); err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.Exec(`INSERT INTO open_streams (id, instance, reader, address) VALUES ('dead', 'dead', $1, '127.0.0.1')`, "user "+ana); err != nil {
		t.Fatal(err)
	}
	a.stream(t, http.DefaultClient, path, f.ana)
	refused(a, "a stream beside a fresh place of a dead instance")
	if _, err := a.db.Exec(`UPDATE open_streams SET seen_at = now() - interval '1 hour' WHERE id = 'dead'`); err != nil {
		t.Fatal(err)
	}
	a.stream(t, http.DefaultClient, path, f.ana)
	refused(a, "a third live stream")
}

// TestStoppingGivesThePlacesBack: EndStreams ends the instance's streams and deletes all its
// places, also one its stream could not delete, and no other instance's.
func TestStoppingGivesThePlacesBack(t *testing.T) {
	f := newPlanFixtureOn(t, newTestApp(t))
	a := f.a
	b := a.secondInstance(t)
	path := "/plans/" + f.plan.PlanID + "/events"
	onA := a.stream(t, http.DefaultClient, path, f.ana)
	onB := b.stream(t, http.DefaultClient, path, f.ben)
	if _, err := a.db.Exec(`INSERT INTO open_streams (id, instance, reader, address) VALUES ('left', $1, 'user x', '127.0.0.1')`, b.srv.instance); err != nil {
		t.Fatal(err)
	}
	b.srv.EndStreams()
	onB.ends(t, "the instance stopped")
	b.awaitOpenStreams(t, 0)
	a.awaitOpenStreams(t, 1)
	onA.cancel()
	a.awaitOpenStreams(t, 0)
}
