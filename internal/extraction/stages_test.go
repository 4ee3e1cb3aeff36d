package extraction_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"tripplan/internal/extraction"
	"tripplan/internal/fetch"
	"tripplan/internal/planner"
)

// heldSearch is seoulPlaces, but a search for held waits until release is closed, saying so
// on blocked first.
type heldSearch struct {
	held             string
	blocked, release chan struct{}
}

func (h heldSearch) Search(ctx context.Context, query string) ([]planner.Place, error) {
	if strings.EqualFold(query, h.held) {
		h.blocked <- struct{}{}
		select {
		case <-h.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return seoulPlaces{}.Search(ctx, query)
}

// The worker records its stages in order — fetching, reading, then matching with how many of
// the page's names it has looked up — and the job's status follows the stage.
func TestWorkerRecordsStages(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Four days in Seoul</title></head><body><article>
<p>Four places in Seoul we would go back to, in the order we went.</p>
<h2>1. Gyeongbokgung Palace</h2><p>Go at opening time, when the courtyards are quiet.</p>
<h2>2. Gwangjang Market</h2><p>Bindaetteok and mayak gimbap at the stalls in the middle.</p>
<h2>3. Bukchon Hanok Village</h2><p>Old houses on steep lanes; keep your voice down.</p>
<h2>4. Tongin Market</h2><p>The lunch box market, with old coins for a tray of food.</p></article></body></html>`)
	}))
	t.Cleanup(srv.Close)
	s := &memStore{job: planner.ExtractionJob{ID: "job-1", URL: srv.URL + "/seoul", Status: planner.JobPending, Stage: planner.StagePending}}
	search := heldSearch{held: "Bukchon Hanok Village", blocked: make(chan struct{}), release: make(chan struct{})}
	w := &extraction.Worker{Store: s, Fetcher: &fetch.Fetcher{AllowHosts: []string{srv.Listener.Addr().String()}}, Searcher: search,
		ProgressEvery: time.Nanosecond} // record every name
	worked := make(chan error, 1)
	go func() {
		worked <- w.Work(t.Context(), &river.Job[extraction.Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: extraction.Args{JobID: "job-1"}})
	}()

	// While the third place is being looked up, the job is MATCHING with the first names done.
	select {
	case <-search.blocked:
	case err := <-worked:
		t.Fatalf("the held search was never made: %v, stages %q", err, s.recorded())
	}
	got := s.recorded()
	if len(got) < 4 || !slices.Equal(got[:2], []string{"FETCHING", "READING"}) {
		t.Fatalf("stages %q", got)
	}
	var total int
	for i, rec := range got[2:] {
		var done int
		if _, err := fmt.Sscanf(rec, "MATCHING %d/%d", &done, &total); err != nil || done != i {
			t.Fatalf("stage %d is %q, want MATCHING %d of the names (stages %q)", i+2, rec, i, got)
		}
	}
	if done := len(got) - 3; done < 2 || done >= total {
		t.Errorf("held at the third place with %d of %d names looked up (stages %q)", done, total, got)
	}
	if j, _ := s.WorkJob(t.Context(), "job-1"); j.Status != planner.JobSearching {
		t.Errorf("status while matching: %s", j.Status)
	}

	close(search.release)
	if err := <-worked; err != nil {
		t.Fatal(err)
	}
	if got := placeNames(s.result); !slices.Equal(got, []string{"Gyeongbokgung Palace", "Gwangjang Market", "Bukchon Hanok Village", "Tongin Market"}) {
		t.Errorf("places %q (failure %q)", got, s.failure)
	}
	// The last name is never a write of its own: completing the job records it.
	if last := s.recorded()[len(s.recorded())-1]; last == fmt.Sprintf("MATCHING %d/%d", total, total) {
		t.Errorf("the last name was recorded before completing: %q", s.recorded())
	}
}
