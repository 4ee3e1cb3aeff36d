package web

import (
	"context"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"
)

// loadResult is what a load run measured.
type loadResult struct {
	requests   int
	failures   int
	perSecond  float64
	p50, p95   time.Duration
	maxLatency time.Duration
}

// runLoad has clients send GET path back to back (pause 0) or pausing between requests, for
// the duration, and measures each request's latency.
func runLoad(url string, header map[string]string, clients int, pause, duration time.Duration) loadResult {
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	var mu sync.Mutex
	var latencies []time.Duration
	failures := 0
	transport := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				r, _ := http.NewRequest("GET", url, nil)
				for k, v := range header {
					r.Header.Set(k, v)
				}
				t0 := time.Now()
				res, err := client.Do(r)
				ok := err == nil && res.StatusCode == http.StatusOK
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				d := time.Since(t0)
				mu.Lock()
				latencies = append(latencies, d)
				if !ok {
					failures++
				}
				mu.Unlock()
				if pause > 0 {
					select {
					case <-ctx.Done():
					case <-time.After(pause):
					}
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(latencies)
	at := func(q float64) time.Duration { return latencies[int(q*float64(len(latencies)-1))] }
	return loadResult{requests: len(latencies), failures: failures, perSecond: float64(len(latencies)) / elapsed.Seconds(),
		p50: at(0.50), p95: at(0.95), maxLatency: latencies[len(latencies)-1]}
}

// TestDayBlocksUnderLoad measures GET /plans/{p}/blocks?day=N for a day of 15 time blocks ×
// 3 candidates × 5 opinions: 30 clients pausing 100 ms between requests (p95 under 10 ms), and
// 30 clients back to back against /healthz's throughput in the same run (at least a tenth).
// It takes about 20 s and needs a quiet machine, so it runs only when asked: `make load`.
func TestDayBlocksUnderLoad(t *testing.T) {
	if os.Getenv("TRIPPLAN_LOAD") == "" {
		t.Skip("load measurement: run with TRIPPLAN_LOAD=1 (make load); timing assertions do not belong in every test run on shared machines")
	}
	f := newPlanFixture(t)
	f.fillDay(t, 1, 15)
	day := f.a.http.URL + f.blocks + "?day=1"
	auth := map[string]string{"Authorization": "Bearer " + f.ben, "Accept": "application/json"}

	runLoad(day, auth, 30, 0, 2*time.Second) // warm up connections, caches and plans
	paced := runLoad(day, auth, 30, 100*time.Millisecond, 6*time.Second)
	healthz := runLoad(f.a.http.URL+"/healthz", nil, 30, 0, 5*time.Second)
	busy := runLoad(day, auth, 30, 0, 5*time.Second)
	ratio := busy.perSecond / healthz.perSecond
	t.Logf("paced (30 clients, 100 ms pause): %d requests, %.0f req/s, p50 %v, p95 %v, max %v, failures %d",
		paced.requests, paced.perSecond, paced.p50, paced.p95, paced.maxLatency, paced.failures)
	t.Logf("/healthz back to back (30 clients): %.0f req/s, p95 %v", healthz.perSecond, healthz.p95)
	t.Logf("day blocks back to back (30 clients): %.0f req/s, p95 %v, failures %d; ratio to /healthz %.3f",
		busy.perSecond, busy.p95, busy.failures, ratio)
	if paced.failures+busy.failures+healthz.failures > 0 {
		t.Errorf("failed requests under load")
	}
	if paced.p95 >= 10*time.Millisecond {
		t.Errorf("paced p95 %v, want under 10 ms", paced.p95)
	}
	if ratio < 0.1 {
		t.Errorf("throughput ratio to /healthz %.3f, want at least 0.1", ratio)
	}
}
