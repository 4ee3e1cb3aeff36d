// Package cluster_test checks that several Tripplan instances on one database and one bucket
// behave as one: it runs against the local cluster of scripts/cluster.sh (make cluster-test),
// over HTTP, through nginx and straight to each instance. Without CLUSTER_URL every test
// skips, saying so.
package cluster_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/lib/pq"

	"tripplan/internal/testimg"
)

// node is nginx or one instance.
type node struct{ name, base string }

// cluster is what scripts/cluster.sh tells the tests.
type cluster struct {
	proxy     node
	instances []node
	dbURL     string
	pageAddr  string // where the tests serve pages for link extraction (EXTRACT_ALLOW_HOSTS)
	// signInBurst and streamsPerUser are the cluster's SIGNIN_BURST and STREAM_LIMIT_PER_USER.
	signInBurst, streamsPerUser int
}

func setup(t *testing.T) *cluster {
	t.Helper()
	proxy := os.Getenv("CLUSTER_URL")
	if proxy == "" {
		t.Skip("CLUSTER_URL is not set: make cluster-test runs these tests against the local cluster (scripts/cluster.sh)")
	}
	c := &cluster{proxy: node{"nginx", proxy}, dbURL: os.Getenv("CLUSTER_DATABASE_URL"), pageAddr: os.Getenv("CLUSTER_PAGE_ADDR")}
	for i, base := range strings.Split(os.Getenv("CLUSTER_INSTANCES"), ",") {
		c.instances = append(c.instances, node{fmt.Sprintf("instance %d", i+1), base})
	}
	var err1, err2 error
	c.signInBurst, err1 = strconv.Atoi(os.Getenv("CLUSTER_SIGNIN_BURST"))
	c.streamsPerUser, err2 = strconv.Atoi(os.Getenv("CLUSTER_STREAM_LIMIT_PER_USER"))
	if len(c.instances) < 2 || c.dbURL == "" || c.pageAddr == "" || err1 != nil || err2 != nil {
		t.Fatal("CLUSTER_INSTANCES (two or more), CLUSTER_DATABASE_URL, CLUSTER_PAGE_ADDR, CLUSTER_SIGNIN_BURST and " +
			"CLUSTER_STREAM_LIMIT_PER_USER must be set with CLUSTER_URL (scripts/cluster.sh test sets them)")
	}
	return c
}

// response is what a client saw.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request; a body that is not []byte is sent as JSON. header is pairs of names and
// values.
func (n node) do(t *testing.T, method, path, token string, body any, header ...string) response {
	t.Helper()
	var rd io.Reader
	contentType := "application/json"
	switch b := body.(type) {
	case nil:
	case []byte:
		rd, contentType = bytes.NewReader(b), "application/octet-stream"
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	r, err := http.NewRequest(method, n.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		r.Header.Set("Content-Type", contentType)
	}
	r.Header.Set("Accept", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("%s %s on %s: %v", method, path, n.name, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{res.StatusCode, res.Header, b}
}

// decode reads a JSON answer of the status wanted into v.
func (r response) decode(t *testing.T, want int, v any) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d: %s", r.status, want, r.body)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
}

// unique is a name no earlier run used: the cluster's database is kept between runs.
func unique(prefix string) string { return prefix + "-" + rand.Text()[:12] }

// devLogin signs a user in by the development sign-in on the node.
func (n node) devLogin(t *testing.T, providerID string) response {
	t.Helper()
	return n.do(t, "POST", "/dev/auth/login", "", map[string]string{"provider": "GOOGLE", "provider_id": providerID, "nickname": "Tester"})
}

// member signs a new user in through nginx and accepts the terms, answering an access token.
// Sign-in is rate limited per client address, and every test signs in from this one: a 429
// is waited out as its Retry-After says, a bounded number of times.
func (c *cluster) member(t *testing.T, name string) string {
	t.Helper()
	id := unique(name)
	var res response
	for try := 0; ; try++ {
		if res = c.proxy.devLogin(t, id); res.status != http.StatusTooManyRequests || try == 30 {
			break
		}
		wait, _ := strconv.Atoi(res.header.Get("Retry-After"))
		time.Sleep(time.Duration(max(wait, 1)) * time.Second)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	res.decode(t, 200, &tok)
	c.proxy.do(t, "PATCH", "/users/me/terms", tok.AccessToken, nil).decode(t, 200, &tok)
	return tok.AccessToken
}

func (c *cluster) createPlan(t *testing.T, token string) string {
	t.Helper()
	var p struct {
		PlanID string `json:"plan_id"`
	}
	c.proxy.do(t, "POST", "/plans", token, map[string]any{"title": "Cluster", "start_date": "2026-06-01", "end_date": "2026-06-03"}).decode(t, 201, &p)
	return p.PlanID
}

// addBlock adds a free time block to day 1 of the plan through the node, at the n-th quarter
// hour from 05:00, answering its id.
func (n node) addBlock(t *testing.T, token, plan string, i int) string {
	t.Helper()
	var b struct {
		TimeBlockID string `json:"time_block_id"`
	}
	start := 5*60 + 15*i
	body := map[string]any{"type": "FREE", "day": 1,
		"start_time": fmt.Sprintf("%02d:%02d", start/60, start%60), "end_time": fmt.Sprintf("%02d:%02d", start/60, start%60+10)}
	// As the API's clients do: with an Idempotency-Key, sent again with the same key when the
	// answer was lost — nginx answers 502 for a POST an instance took and died with, which it
	// does not pass on (only idempotent requests go to the next instance).
	key := unique("block")
	res := n.do(t, "POST", "/plans/"+plan+"/blocks", token, body, "Idempotency-Key", key)
	for try := 1; res.status == http.StatusBadGateway && try < 5; try++ {
		res = n.do(t, "POST", "/plans/"+plan+"/blocks", token, body, "Idempotency-Key", key)
	}
	res.decode(t, 200, &b)
	return b.TimeBlockID
}

func pngPicture(t *testing.T) []byte { return testimg.PNG(t, 8, 8) }

// TestPictureUploadedThroughOneInstanceIsServedByAll: each instance in turn takes an upload;
// every instance and nginx then serve the same bytes (the bucket is shared, not a disk).
func TestPictureUploadedThroughOneInstanceIsServedByAll(t *testing.T) {
	c := setup(t)
	ana := c.member(t, "picture-ana")
	picture := pngPicture(t)
	for _, uploader := range c.instances {
		var up struct {
			PresignedURL string `json:"presigned_url"`
			Picture      string `json:"picture"`
		}
		uploader.do(t, "PATCH", "/users/me/picture?content_type=image/png", ana, nil).decode(t, 200, &up)
		signed, err := url.Parse(up.PresignedURL)
		if err != nil {
			t.Fatal(err)
		}
		// The signed URL is under the public URL (nginx); it is sent to the uploader itself.
		if res := uploader.do(t, "PUT", signed.RequestURI(), "", picture, "Content-Type", "image/png"); res.status != 200 {
			t.Fatalf("upload to %s: %d %s", uploader.name, res.status, res.body)
		}
		path := up.Picture[strings.Index(up.Picture, "/files/"):]
		for _, n := range append([]node{c.proxy}, c.instances...) {
			res := n.do(t, "GET", path, "", nil)
			if res.status != 200 || res.header.Get("Content-Type") != "image/png" || !bytes.Equal(res.body, picture) {
				t.Fatalf("uploaded through %s, served by %s: %d %s, %d bytes", uploader.name, n.name, res.status, res.header.Get("Content-Type"), len(res.body))
			}
		}
	}
}

// event is one server-sent event with an id.
type event struct {
	id         int64
	kind, data string
}

// subscribe opens the plan's event stream on the node, from after lastID when it is not 0,
// and delivers its events (those with an id) until the returned func closes it.
func (n node) subscribe(t *testing.T, token, plan string, lastID int64) (<-chan event, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := http.NewRequestWithContext(ctx, "GET", n.base+"/plans/"+plan+"/events", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	if lastID > 0 {
		r.Header.Set("Last-Event-ID", strconv.FormatInt(lastID, 10))
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil || res.StatusCode != 200 {
		cancel()
		t.Fatalf("subscribe on %s: %v %v", n.name, err, res)
	}
	events := make(chan event, 1000)
	go func() {
		defer close(events)
		lines := bufio.NewScanner(res.Body)
		var ev event
		for lines.Scan() {
			line := lines.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				ev.id, _ = strconv.ParseInt(line[4:], 10, 64)
			case strings.HasPrefix(line, "event: "):
				ev.kind = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			case line == "":
				if ev.id > 0 {
					events <- ev
				}
				ev = event{}
			}
		}
	}()
	stop := func() { cancel(); res.Body.Close() }
	t.Cleanup(stop)
	return events, stop
}

// until reads events until one is about the object id, answering all it read, that one last.
func until(t *testing.T, events <-chan event, objectID string) []event {
	t.Helper()
	var read []event
	deadline := time.After(20 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended before the event of %s; read %v", objectID, read)
			}
			read = append(read, ev)
			var d struct {
				ID string `json:"id"`
			}
			if json.Unmarshal([]byte(ev.data), &d); d.ID == objectID {
				return read
			}
		case <-deadline:
			t.Fatalf("no event of %s within 20 s; read %v", objectID, read)
		}
	}
}

// TestMissedEventsCatchUpOnAnotherInstance: a client follows a plan on instance 1, goes away,
// changes happen through instance 3, and it comes back on instance 2 with Last-Event-ID: it
// gets every change it missed, and none twice. A client following through nginx gets the
// first change too.
func TestMissedEventsCatchUpOnAnotherInstance(t *testing.T) {
	c := setup(t)
	ana := c.member(t, "events-ana")
	plan := c.createPlan(t, ana)
	first, second, writer := c.instances[0], c.instances[1], c.instances[len(c.instances)-1]

	events, stop := first.subscribe(t, ana, plan, 0)
	viaProxy, _ := c.proxy.subscribe(t, ana, plan, 0) // nginx passes events on as they come
	firstBlock := writer.addBlock(t, ana, plan, 0)
	seen := until(t, events, firstBlock)
	lastID := seen[len(seen)-1].id
	stop()
	until(t, viaProxy, firstBlock)

	var missed []string
	for i := 1; i <= 5; i++ {
		missed = append(missed, writer.addBlock(t, ana, plan, i))
	}
	events, _ = second.subscribe(t, ana, plan, lastID)
	// A change made after the reconnection marks the end: a copy of a missed event would
	// have come before it.
	marker := writer.addBlock(t, ana, plan, 10)
	got := until(t, events, marker)
	ids := map[int64]bool{}
	about := map[string]int{}
	for _, ev := range got {
		if ev.id <= lastID || ids[ev.id] {
			t.Fatalf("event %d again or from before Last-Event-ID %d: %v", ev.id, lastID, got)
		}
		ids[ev.id] = true
		var d struct {
			ID string `json:"id"`
		}
		json.Unmarshal([]byte(ev.data), &d)
		if ev.kind == "block" {
			about[d.ID]++
		}
	}
	for _, id := range append(missed, marker) {
		if about[id] != 1 {
			t.Fatalf("block %s has %d events after the reconnection, want 1: %v", id, about[id], got)
		}
	}
}

// TestWriteIsSeenByTheNextReadEverywhere: after a write through one instance, the next read
// of the day through every instance has it, with a new ETag; a read that names the old ETag
// gets the new listing, not 304.
func TestWriteIsSeenByTheNextReadEverywhere(t *testing.T) {
	c := setup(t)
	ana := c.member(t, "fresh-ana")
	plan := c.createPlan(t, ana)
	const day = "/plans/%s/blocks?day=1"
	etags := make([]string, len(c.instances))
	for i, n := range c.instances { // every instance has read (and may keep) the day
		res := n.do(t, "GET", fmt.Sprintf(day, plan), ana, nil)
		if res.status != 200 || res.header.Get("ETag") == "" {
			t.Fatalf("%s: %d %q", n.name, res.status, res.header.Get("ETag"))
		}
		etags[i] = res.header.Get("ETag")
	}
	for round := range 6 {
		writer := c.instances[round%len(c.instances)]
		block := writer.addBlock(t, ana, plan, round)
		for i, n := range c.instances {
			res := n.do(t, "GET", fmt.Sprintf(day, plan), ana, nil, "If-None-Match", etags[i])
			if res.status != 200 || !bytes.Contains(res.body, []byte(block)) || res.header.Get("ETag") == etags[i] {
				t.Fatalf("round %d: written through %s, read through %s: %d, ETag %q (before %q), has the block: %v",
					round, writer.name, n.name, res.status, res.header.Get("ETag"), etags[i], bytes.Contains(res.body, []byte(block)))
			}
			etags[i] = res.header.Get("ETag")
		}
	}
}

// A page naming four places of the built-in catalog, for link extraction.
const seoulPage = `<!doctype html><html><head><title>Seoul, page %s</title></head><body><article>
<h1>Three days in Seoul</h1>
<h2>1. Gyeongbokgung Palace</h2><p>The guard changes at ten.</p>
<h2>2. Gwangjang Market</h2><p>Bindaetteok.</p>
<h2>3. N Seoul Tower</h2><p>At sunset.</p>
<h2>4. Bukchon Hanok Village</h2><p>Quiet lanes.</p></article></body></html>`

// TestExtractionJobsAreWorkedOnce: jobs started through different instances are each worked
// once: every page is fetched once, every job completes with its places, and the queue
// attempted each job once.
func TestExtractionJobsAreWorkedOnce(t *testing.T) {
	c := setup(t)
	fetched := make(chan string, 100)
	mux := http.NewServeMux()
	mux.HandleFunc("/seoul/{page}", func(w http.ResponseWriter, r *http.Request) {
		fetched <- r.URL.Path
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, seoulPage, r.PathValue("page"))
	})
	pages := &http.Server{Addr: c.pageAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", c.pageAddr)
	if err != nil {
		t.Fatalf("serve the pages on %s (EXTRACT_ALLOW_HOSTS): %v", c.pageAddr, err)
	}
	go pages.Serve(ln)
	t.Cleanup(func() { pages.Close() })

	type job struct {
		token, collection, id, page string
		by                          node
	}
	run := rand.Text()[:8]
	var jobs []job
	for i := range 2 * len(c.instances) {
		j := job{token: c.member(t, "extract"), page: fmt.Sprintf("/seoul/%s-%d", run, i), by: c.instances[i%len(c.instances)]}
		var col struct {
			CollectionID string `json:"collection_id"`
		}
		c.proxy.do(t, "POST", "/collections", j.token, map[string]string{"title": "Seoul"}).decode(t, 201, &col)
		j.collection = col.CollectionID
		jobs = append(jobs, j)
	}
	for i := range jobs { // started one after another, through the instances in turn
		var started struct {
			JobID string `json:"job_id"`
		}
		jobs[i].by.do(t, "POST", "/collections/"+jobs[i].collection+"/extraction-jobs", jobs[i].token,
			map[string]string{"url": "http://" + c.pageAddr + jobs[i].page}).decode(t, 202, &started)
		jobs[i].id = started.JobID
	}
	for _, j := range jobs {
		deadline := time.Now().Add(60 * time.Second)
		for {
			var got struct {
				Status string `json:"status"`
				Result *struct {
					MatchedCount int `json:"matched_count"`
				} `json:"result"`
			}
			c.proxy.do(t, "GET", "/collections/"+j.collection+"/extraction-jobs/"+j.id, j.token, nil).decode(t, 200, &got)
			if got.Status == "COMPLETED" && got.Result != nil && got.Result.MatchedCount == 4 {
				break
			}
			if got.Status == "FAILED" || time.Now().After(deadline) {
				t.Fatalf("job of %s started through %s: %+v", j.page, j.by.name, got)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	count := map[string]int{}
	for len(fetched) > 0 {
		count[<-fetched]++
	}
	db, err := sql.Open("postgres", c.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, j := range jobs {
		if count[j.page] != 1 {
			t.Errorf("%s fetched %d times, want once", j.page, count[j.page])
		}
		var queued, attempts int
		if err := db.QueryRow(`SELECT count(*), coalesce(sum(attempt), 0) FROM river_job WHERE kind = 'extract_places' AND args->>'job_id' = $1`,
			j.id).Scan(&queued, &attempts); err != nil {
			t.Fatal(err)
		}
		if queued != 1 || attempts != 1 {
			t.Errorf("job %s: %d queue entries, %d attempts; want one of each", j.id, queued, attempts)
		}
	}
}

// TestSignInLimitHoldsAcrossInstances: SIGNIN_BURST sign-ins from one address in a burst, in
// all, whichever instances they reach (the limit is the cluster's, not each instance's).
func TestSignInLimitHoldsAcrossInstances(t *testing.T) {
	c := setup(t)
	// A client address of this run alone, so that its allowance is whole: the instances trust
	// X-Forwarded-For from 127.0.0.1 (TRUSTED_PROXIES), as they do from nginx. The address
	// is never dialled (198.18.0.0/15 is for benchmarks).
	b := make([]byte, 2)
	rand.Read(b)
	client := fmt.Sprintf("198.18.%d.%d", b[0], b[1])
	start := time.Now()
	admitted, refused := 0, 0
	for i := range 4 * c.signInBurst {
		res := c.instances[i%len(c.instances)].do(t, "POST", "/dev/auth/login", "",
			map[string]string{"provider": "GOOGLE", "provider_id": unique("burst"), "nickname": "Tester"}, "X-Forwarded-For", client)
		switch res.status {
		case 200:
			admitted++
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("sign-in: %d %s", res.status, res.body)
		}
	}
	// The bucket refills at one sign-in a second (the default rate) while the burst is sent.
	allowed := c.signInBurst + int(time.Since(start).Seconds()) + 1
	if admitted > allowed || refused == 0 {
		t.Fatalf("%d sign-ins across %d instances: %d admitted, %d refused; at most %d may pass",
			4*c.signInBurst, len(c.instances), admitted, refused, allowed)
	}
}

// TestStreamCapHoldsAcrossInstances: one user's open streams, spread over the instances, are
// capped at STREAM_LIMIT_PER_USER in all; closing one lets another open.
func TestStreamCapHoldsAcrossInstances(t *testing.T) {
	c := setup(t)
	ana := c.member(t, "streams-ana")
	plan := c.createPlan(t, ana)
	var stops []func()
	for i := range c.streamsPerUser {
		_, stop := c.instances[i%len(c.instances)].subscribe(t, ana, plan, 0)
		stops = append(stops, stop)
	}
	for _, n := range c.instances {
		if res := n.openOnce(t, ana, plan); res != http.StatusTooManyRequests {
			t.Fatalf("stream %d of one user, on %s: %d, want 429", c.streamsPerUser+1, n.name, res)
		}
	}
	stops[0]()
	deadline := time.Now().Add(20 * time.Second)
	for c.instances[len(c.instances)-1].openOnce(t, ana, plan) != 200 {
		if time.Now().After(deadline) {
			t.Fatal("a stream closed, but no other may open 20 s later")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// openOnce opens the plan's event stream on the node and closes it at once, answering the
// status.
func (n node) openOnce(t *testing.T, token, plan string) int {
	t.Helper()
	r, _ := http.NewRequest("GET", n.base+"/plans/"+plan+"/events", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
