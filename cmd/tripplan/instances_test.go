package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// TestMain lets the test binary run as a server process: the two-instance test starts itself
// with TRIPPLAN_TEST_SERVE=1.
func TestMain(m *testing.M) {
	if os.Getenv("TRIPPLAN_TEST_SERVE") == "1" {
		os.Args = os.Args[:1] // the test flags are not the server's
		main()
		return
	}
	os.Exit(m.Run())
}

// instance is a server process of this test.
type instance struct {
	base string
	cmd  *exec.Cmd
}

// startInstance starts a server process on the database, with extra environment settings.
func startInstance(t *testing.T, dbURL string, env ...string) *instance {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "TRIPPLAN_TEST_SERVE=1", "DATABASE_URL="+dbURL, "ADDR=127.0.0.1:0", "APP_ENV=development"), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
		}
	})
	urlRe := regexp.MustCompile(`Tripplan is running at (http://\S+)`)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if m := urlRe.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, out)
			return &instance{base: m[1], cmd: cmd}
		}
	}
	t.Fatal("the instance printed no URL")
	return nil
}

func (in *instance) call(t *testing.T, method, path, token string, body any) (int, []byte) {
	t.Helper()
	status, b, err := in.try(method, path, token, body)
	if err != nil {
		t.Fatal(err)
	}
	return status, b
}

// try is call for requests that may find no server (it was killed, or is restarting).
func (in *instance) try(method, path, token string, body any) (int, []byte, error) {
	var r *http.Request
	if body != nil {
		b, _ := json.Marshal(body)
		r, _ = http.NewRequest(method, in.base+path, strings.NewReader(string(b)))
		r.Header.Set("Content-Type", "application/json")
	} else {
		r, _ = http.NewRequest(method, in.base+path, nil)
	}
	r.Header.Set("Accept", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

func (in *instance) login(t *testing.T, providerID, nickname string) string {
	t.Helper()
	status, b := in.call(t, "POST", "/dev/auth/login", "", map[string]string{"provider": "GOOGLE", "provider_id": providerID, "nickname": nickname})
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if json.Unmarshal(b, &tok); status != 200 || tok.AccessToken == "" {
		t.Fatalf("login %s: %d %s", nickname, status, b)
	}
	return tok.AccessToken
}

// blockEvents subscribes to the plan's live updates and delivers the time block id of each
// "block" event, until the test ends.
func (in *instance) blockEvents(t *testing.T, plan, token string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r, _ := http.NewRequestWithContext(ctx, "GET", in.base+"/plans/"+plan+"/events", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(r)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("subscribe: %v %v", err, res)
	}
	t.Cleanup(func() { res.Body.Close() })
	arrived := make(chan string, 100)
	go func() {
		lines := bufio.NewScanner(res.Body)
		var event string
		for lines.Scan() {
			line := lines.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				event = line[7:]
			case strings.HasPrefix(line, "data: ") && event == "block":
				var d struct {
					ID string `json:"id"`
				}
				json.Unmarshal([]byte(line[6:]), &d)
				select {
				case arrived <- d.ID:
				default:
				}
			}
		}
	}()
	return arrived
}

// TestTwoInstancesShareLiveUpdates starts two server processes on one database: a member
// subscribed to a plan's events on one receives the changes another member makes through the
// other, and the time from starting the write to receiving its event is measured.
func TestTwoInstancesShareLiveUpdates(t *testing.T) {
	dbURL := pgtest.URL(t)
	a := startInstance(t, dbURL)
	b := startInstance(t, dbURL)
	ana, ben := a.login(t, "demo-ana", "Ana"), b.login(t, "demo-ben", "Ben")
	_, body := b.call(t, "GET", "/plans", ben, nil)
	var plans struct {
		Contents []struct {
			PlanID string `json:"plan_id"`
		} `json:"contents"`
	}
	json.Unmarshal(body, &plans)
	if len(plans.Contents) == 0 {
		t.Fatalf("no demo plan: %s", body)
	}
	plan := plans.Contents[0].PlanID

	// Ana listens on instance B.
	arrived := b.blockEvents(t, plan, ana)

	// Ben writes through instance A: free time blocks, each timed until its event arrives on B.
	const n = 40
	var latencies []time.Duration
	for i := range n {
		start := time.Now()
		status, body := a.call(t, "POST", "/plans/"+plan+"/blocks", ben, map[string]any{
			"type": "FREE", "day": 3, "start_time": fmt.Sprintf("%02d:%02d", 5+i/4, (i%4)*15), "end_time": fmt.Sprintf("%02d:%02d", 5+i/4, (i%4)*15+10)})
		var tb struct {
			TimeBlockID string `json:"time_block_id"`
		}
		if json.Unmarshal(body, &tb); status != 200 {
			t.Fatalf("add block %d: %d %s", i, status, body)
		}
		// A guard, not a latency bar: on a busy shared machine (load average 13 on 2 cores
		// seen) an event has taken over 5 s.
		deadline := time.After(30 * time.Second)
	wait:
		for {
			select {
			case id := <-arrived:
				if id == tb.TimeBlockID {
					latencies = append(latencies, time.Since(start))
					break wait
				}
			case <-deadline:
				t.Fatalf("the change made on A never reached the subscriber on B (block %d)", i)
			}
		}
	}
	slices.Sort(latencies)
	p50, p95 := latencies[len(latencies)/2], latencies[len(latencies)*95/100]
	// Measured, not asserted (no test holds a latency bar): docs/PERFORMANCE.md keeps it.
	t.Logf("write on A → event on B, %d changes: p50 %v, p95 %v, max %v", n, p50, p95, latencies[len(latencies)-1])
}

// TestShutdownWithOpenStreams sends SIGTERM to a server holding 100 open event streams: it
// ends them and exits 0 (streams never end by themselves, so without that, graceful shutdown
// would wait out its timeout and fail). The time from the signal to the exit is logged
// (docs/PERFORMANCE.md; the goal is under 2 s); the bound here is only a generous guard.
func TestShutdownWithOpenStreams(t *testing.T) {
	dbURL := pgtest.URL(t)
	a := startInstance(t, dbURL, "STREAM_LIMIT_PER_USER=100", "STREAM_LIMIT_PER_ADDRESS=100")
	ana := a.member(t, "shutdown-ana", "Ana")
	plan := a.createPlan(t, ana, "Shutdown", 2)
	var ended sync.WaitGroup
	for i := range 100 {
		r, _ := http.NewRequest("GET", a.base+"/plans/"+plan+"/events", nil)
		r.Header.Set("Authorization", "Bearer "+ana)
		res, err := http.DefaultClient.Do(r)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("stream %d: %v %v", i, err, res)
		}
		t.Cleanup(func() { res.Body.Close() })
		ended.Go(func() { io.Copy(io.Discard, res.Body) })
	}
	exited := make(chan error, 1)
	start := time.Now()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	go func() { exited <- a.cmd.Wait() }()
	select {
	case err := <-exited:
		took := time.Since(start)
		t.Logf("SIGTERM with 100 open streams: exited after %v", took.Round(time.Millisecond))
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server has not exited 10 s after SIGTERM")
	}
	ended.Wait() // every stream was ended by the server
	if left := openStreams(t, dbURL); left != 0 {
		t.Fatalf("%d stream places left after the instance stopped", left)
	}
}

// openStreams counts the places of open streams (on every instance) in the database.
func openStreams(t *testing.T, dbURL string) int {
	t.Helper()
	db, err := postgres.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM open_streams`); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStreamCapsHoldAcrossInstances: two server processes on one database share the per-user
// cap on live streams (2 here): with one stream on each, a third on either is refused. Stopping
// one (SIGTERM) gives its place back at once, so the other opens one more, and no further.
func TestStreamCapsHoldAcrossInstances(t *testing.T) {
	dbURL := pgtest.URL(t)
	a := startInstance(t, dbURL, "STREAM_LIMIT_PER_USER=2")
	b := startInstance(t, dbURL, "STREAM_LIMIT_PER_USER=2")
	ana := a.member(t, "caps-ana", "Ana")
	plan := a.createPlan(t, ana, "Caps", 2)
	open := func(in *instance) int {
		t.Helper()
		r, _ := http.NewRequest("GET", in.base+"/plans/"+plan+"/events", nil)
		r.Header.Set("Authorization", "Bearer "+ana)
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		if res.StatusCode == http.StatusOK {
			go io.Copy(io.Discard, res.Body)
		}
		return res.StatusCode
	}
	for i, c := range []struct {
		in   *instance
		want int
	}{{a, http.StatusOK}, {b, http.StatusOK}, {a, http.StatusTooManyRequests}, {b, http.StatusTooManyRequests}} {
		if got := open(c.in); got != c.want {
			t.Fatalf("stream %d: %d, want %d", i+1, got, c.want)
		}
	}
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := b.cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	if got := open(a); got != http.StatusOK {
		t.Fatalf("a stream after the other instance stopped: %d, want 200", got)
	}
	if got := open(a); got != http.StatusTooManyRequests {
		t.Fatalf("a third stream: %d, want 429", got)
	}
}
