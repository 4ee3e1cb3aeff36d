package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"
)

// liveStream is an open event stream as a client reads it: its lines, until the server ends
// it.
type liveStream struct {
	lines  chan string
	cancel context.CancelFunc
}

// tryStream asks for an event stream: a refusal answers its response, an opened stream is
// read until the server ends it or the test does.
func (a *testApp) tryStream(t *testing.T, client *http.Client, path, token string) (response, *liveStream) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := http.NewRequestWithContext(ctx, "GET", a.http.URL+path, nil)
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(r)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	out := response{Status: res.StatusCode, Header: res.Header}
	if res.StatusCode != http.StatusOK {
		out.Body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		cancel()
		return out, nil
	}
	s := &liveStream{lines: make(chan string, 1000), cancel: cancel}
	go func() {
		defer close(s.lines)
		defer res.Body.Close()
		lines := bufio.NewScanner(res.Body)
		for lines.Scan() {
			select {
			case s.lines <- lines.Text():
			default: // the test reads only what it waits for
			}
		}
	}()
	t.Cleanup(cancel)
	return out, s
}

// stream opens an event stream that must open.
func (a *testApp) stream(t *testing.T, client *http.Client, path, token string) *liveStream {
	t.Helper()
	res, s := a.tryStream(t, client, path, token)
	if s == nil {
		t.Fatalf("stream %s: %d %s", path, res.Status, res.Body)
	}
	return s
}

// pings waits for n heartbeats of the stream, failing if it ends first.
func (s *liveStream) pings(t *testing.T, n int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for n > 0 {
		select {
		case line, ok := <-s.lines:
			if !ok {
				t.Fatal("the stream ended")
			}
			if line == ": ping" {
				n--
			}
		case <-deadline:
			t.Fatal("no heartbeat")
		}
	}
}

// ends waits for the server to end the stream (well within the 30 s the API promises).
func (s *liveStream) ends(t *testing.T, why string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case _, ok := <-s.lines:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatalf("the stream is still open after %s", why)
		}
	}
}

// openStreams is how many places of open streams the server holds in the database.
func (a *testApp) openStreams(t *testing.T) int {
	t.Helper()
	var n int
	if err := a.db.Get(&n, `SELECT count(*) FROM open_streams WHERE instance = $1`, a.srv.instance); err != nil {
		t.Fatal(err)
	}
	return n
}

// awaitOpenStreams waits until the server holds n places of open streams (they are given back
// when their handler returns, a moment after the client goes).
func (a *testApp) awaitOpenStreams(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		open := a.openStreams(t)
		if open == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d streams counted open, want %d", open, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fromAddress is a client whose connections come from another loopback address.
func fromAddress(t *testing.T, ip string, jar http.CookieJar) *http.Client {
	t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: dialer.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Jar: jar, Transport: tr}
}

// TestStreamLimits: at most 10 streams per user (counted exactly when 25 ask at once), the
// per-address and global caps, 429 TOO_MANY_REQUESTS with Retry-After beyond, and every
// place given back when streams end.
func TestStreamLimits(t *testing.T) {
	f := newPlanFixtureOn(t, newTestApp(t, func(c *Config) { c.StreamLimit, c.StreamLimitPerAddress = 14, 12 }))
	a := f.a
	path := "/plans/" + f.plan.PlanID + "/events"
	tooMany := func(res response, who string) {
		t.Helper()
		if res.Status != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "15" {
			t.Fatalf("%s: %d (Retry-After %q) %s, want 429 with Retry-After", who, res.Status, res.Header.Get("Retry-After"), res.Body)
		}
		var p struct {
			Code string `json:"code"`
		}
		if json.Unmarshal(res.Body, &p); p.Code != "TOO_MANY_REQUESTS" {
			t.Fatalf("%s: %s", who, res.Body)
		}
	}

	// Ana asks for 25 streams at once: exactly 10 open.
	var (
		mu      sync.Mutex
		anas    []*liveStream
		refused []response
		wg      sync.WaitGroup
	)
	for range 25 {
		wg.Go(func() {
			res, s := a.tryStream(t, http.DefaultClient, path, f.ana)
			mu.Lock()
			defer mu.Unlock()
			if s != nil {
				anas = append(anas, s)
			} else {
				refused = append(refused, res)
			}
		})
	}
	wg.Wait()
	if len(anas) != 10 || len(refused) != 15 {
		t.Fatalf("%d of 25 streams opened, %d refused; want 10 and 15", len(anas), len(refused))
	}
	for _, res := range refused {
		tooMany(res, "Ana's 11th stream")
	}

	// Ben, from the same address, meets its cap of 12.
	a.stream(t, http.DefaultClient, path, f.ben)
	a.stream(t, http.DefaultClient, path, f.ben)
	res, _ := a.tryStream(t, http.DefaultClient, path, f.ben)
	tooMany(res, "the address's 13th stream")

	// A guest from another address meets the global cap of 14.
	jar, _ := cookiejar.New(nil)
	guest := fromAddress(t, "127.0.0.2", jar)
	link := a.invite(f.ana, "/plans/"+f.plan.PlanID)
	a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Client: noRedirects(jar), Header: map[string]string{"Accept": "text/html"}})
	a.stream(t, guest, path, "")
	a.stream(t, guest, path, "")
	res, _ = a.tryStream(t, guest, path, "")
	tooMany(res, "the 15th stream in all")

	// Streams that end give their places back.
	for _, s := range anas {
		s.cancel()
	}
	a.awaitOpenStreams(t, 4)
	for range 10 {
		a.stream(t, http.DefaultClient, path, f.ana)
	}
	res, _ = a.tryStream(t, http.DefaultClient, "/collections/"+f.collection+"/events", f.ana)
	tooMany(res, "Ana's 11th stream, of a collection")
}

// TestStreamsEndWhenTheReaderLosesAccess: an open stream checks at each heartbeat (here every
// 20 ms) that its reader may still read, and ends when they may not — removed from the plan
// or the collection, their guest link expired, signed out in a browser or an app — while a reader who keeps access
// keeps the stream.
func TestStreamsEndWhenTheReaderLosesAccess(t *testing.T) {
	f := newPlanFixtureOn(t, newTestApp(t, func(c *Config) { c.Heartbeat = 20 * time.Millisecond }))
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	ana := a.stream(t, http.DefaultClient, plan+"/events", f.ana)
	ana.pings(t, 3)

	// Ben is removed from the plan, then from the collection.
	benPlan := a.stream(t, http.DefaultClient, plan+"/events", f.ben)
	benCollection := a.stream(t, http.DefaultClient, "/collections/"+f.collection+"/events", f.ben)
	benPlan.pings(t, 1)
	if r := a.do(req{Method: "DELETE", Path: plan + "/members/" + f.memberID(t, f.ben), Token: f.ana}); r.Status != http.StatusNoContent {
		t.Fatalf("remove Ben: %d %s", r.Status, r.Body)
	}
	benPlan.ends(t, "Ben was removed from the plan")
	benCollection.pings(t, 1)
	var member string
	if err := a.db.Get(&member, `SELECT m.id FROM collection_members m JOIN users u ON u.id = m.user_id
		WHERE m.collection_id = $1 AND u.provider_id = 'pf-ben'`, f.collection); err != nil {
		t.Fatal(err)
	}
	if r := a.do(req{Method: "DELETE", Path: "/collections/" + f.collection + "/members/" + member, Token: f.ana}); r.Status != http.StatusNoContent {
		t.Fatalf("remove Ben from the collection: %d %s", r.Status, r.Body)
	}
	benCollection.ends(t, "Ben was removed from the collection")

	// A guest's link expires.
	guest := browser(t)
	link := a.invite(f.ana, plan)
	a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Client: guest, Header: map[string]string{"Accept": "text/html"}})
	guestStream := a.stream(t, guest, plan+"/events", "")
	guestStream.pings(t, 1)
	code := link.URL[strings.LastIndex(link.URL, "/")+1:]
	if _, err := a.db.Exec(`UPDATE share_links SET expires_at = now() - interval '1 second' WHERE code = $1`, code); err != nil {
		t.Fatal(err)
	}
	guestStream.ends(t, "the guest's link expired")

	// Eve, a member in a browser, signs out.
	a.joinPlan(f.plan.PlanID, "pf-eve")
	eve := a.signedInBrowser(t, "pf-eve", "Eve")
	eveStream := a.stream(t, eve, plan+"/events", "")
	eveStream.pings(t, 1)
	if r := a.do(req{Method: "POST", Path: "/auth/logout", Client: eve, Header: sameOrigin()}); r.Status >= 400 {
		t.Fatalf("logout: %d %s", r.Status, r.Body)
	}
	eveStream.ends(t, "Eve signed out")

	// Zoe, an app with a bearer token, signs out: the token's sign-in is revoked, so her
	// stream ends although the token itself has not expired.
	zoe, _ := a.signIn("pf-zoe", "Zoe")
	a.joinPlan(f.plan.PlanID, "pf-zoe")
	zoeStream := a.stream(t, http.DefaultClient, plan+"/events", zoe)
	zoeStream.pings(t, 1)
	if r := a.do(req{Method: "POST", Path: "/auth/logout", Token: zoe}); r.Status >= 400 {
		t.Fatalf("bearer logout: %d %s", r.Status, r.Body)
	}
	zoeStream.ends(t, "Zoe signed out")

	// Ana kept her access all along.
	ana.pings(t, 3)
}

// TestIdleStreamsHoldNoDatabaseConnection: open streams, idle between heartbeats, hold no
// connection of the pool, however many there are.
func TestIdleStreamsHoldNoDatabaseConnection(t *testing.T) {
	f := newPlanFixtureOn(t, newTestApp(t, func(c *Config) { c.StreamLimitPerUser, c.StreamLimitPerAddress = 40, 80 }))
	a := f.a
	before := a.db.Stats().InUse
	const n = 30
	for i := range n {
		token := f.ana
		if i%2 == 1 {
			token = f.ben
		}
		a.stream(t, http.DefaultClient, "/plans/"+f.plan.PlanID+"/events", token)
		a.stream(t, http.DefaultClient, "/collections/"+f.collection+"/events", token)
	}
	// Every plan stream is present, so all have passed their opening queries.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var present int
		if err := a.db.Get(&present, `SELECT count(*) FROM presence WHERE plan_id = $1`, f.plan.PlanID); err != nil {
			t.Fatal(err)
		}
		if present == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d streams present", present, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if open := a.openStreams(t); open != 2*n {
		t.Fatalf("%d streams open, want %d", open, 2*n)
	}
	if inUse := a.db.Stats().InUse; inUse > before {
		t.Fatalf("%d pool connections in use with %d idle streams open, %d before", inUse, 2*n, before)
	}
	var busy int
	if err := a.db.Get(&busy, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
		AND pid <> pg_backend_pid() AND state <> 'idle'`); err != nil {
		t.Fatal(err)
	}
	if busy != 0 {
		t.Fatalf("%d backends busy with %d idle streams open", busy, 2*n)
	}
}
