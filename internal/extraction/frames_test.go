package extraction_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"tripplan/internal/extraction"
	"tripplan/internal/fetch"
	"tripplan/internal/planner"
)

// memStore is an extraction job kept in memory, with what the worker recorded.
type memStore struct {
	mu      sync.Mutex
	job     planner.ExtractionJob
	result  *planner.ExtractionResult
	failure planner.FailureCode
	stages  []string // each stage recorded, as "MATCHING 2/5" while matching
}

func (s *memStore) WorkJob(_ context.Context, id string) (*planner.ExtractionJob, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.job
	return &j, nil
}

func (s *memStore) SetJobStage(_ context.Context, _ string, stage planner.Stage, p *planner.Progress) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.job.Stage, s.job.Status, s.job.Progress = stage, stage.Status(), p
	rec := string(stage)
	if p != nil {
		rec += fmt.Sprintf(" %d/%d", p.Done, p.Total)
	}
	s.stages = append(s.stages, rec)
	return nil
}

func (s *memStore) recorded() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.stages)
}

func (s *memStore) CompleteJob(_ context.Context, _ string, r *planner.ExtractionResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.result, s.job.Status = r, planner.JobCompleted
	return nil
}

func (s *memStore) FailJob(_ context.Context, _ string, code planner.FailureCode, _ string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failure, s.job.Status = code, planner.JobFailed
	return nil
}

// seoulPlaces is a place search that knows a few places in Seoul by their exact names.
type seoulPlaces struct{}

func (seoulPlaces) Search(_ context.Context, query string) ([]planner.Place, error) {
	for i, name := range []string{"Gyeongbokgung Palace", "Gwangjang Market", "Bukchon Hanok Village", "Tongin Market"} {
		if strings.EqualFold(query, name) {
			return []planner.Place{{ID: fmt.Sprint("p", i), Provider: planner.ProviderBuiltin, Name: name, City: "Seoul", Address: "Seoul"}}, nil
		}
	}
	return nil, nil
}

// framedSite serves a Naver-style blog: /blog/post is a frame page whose frame /frame/1 frames
// /frame/2 and so on up to /frame/<depth>, which holds the post; other, at another address,
// is what the post page also frames. It records the paths asked for.
func framedSite(t *testing.T, depth int, other string) (srv *httptest.Server, requested func() []string) {
	t.Helper()
	var mu sync.Mutex
	var paths []string
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var n int
		switch {
		case r.URL.Path == "/blog/post":
			fmt.Fprintf(w, `<html><head><title>Seoul in a day : Naver Blog</title></head><body>
<iframe src="%s"></iframe><iframe id="mainFrame" src="/frame/1?logNo=1"></iframe></body></html>`, other)
		case sscan(r.URL.Path, &n) && n < depth:
			fmt.Fprintf(w, `<html><body><iframe id="mainFrame" src="/frame/%d"></iframe></body></html>`, n+1)
		case n == depth:
			fmt.Fprint(w, `<html><body><div class="se-main-container">
<p>A day in Seoul, from the palace to the market: this is the route we would walk again.</p>
<h2>1. Gyeongbokgung Palace</h2><p>Go at opening time, when the courtyards are empty and quiet.</p>
<h2>2. Gwangjang Market</h2><p>Bindaetteok and mayak gimbap at the stalls in the middle.</p></div></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(paths)
	}
}

func sscan(path string, n *int) bool {
	_, err := fmt.Sscanf(path, "/frame/%d", n)
	return err == nil
}

// work runs one attempt of a job for url with a fetcher allowed to reach the test server at
// host, and returns the store.
func work(t *testing.T, url, host string) *memStore {
	t.Helper()
	s := &memStore{job: planner.ExtractionJob{ID: "job-1", URL: url, Status: planner.JobPending}}
	w := &extraction.Worker{Store: s, Fetcher: &fetch.Fetcher{AllowHosts: []string{host}}, Searcher: seoulPlaces{}}
	err := w.Work(t.Context(), &river.Job[extraction.Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: extraction.Args{JobID: "job-1"}})
	if err != nil && s.failure == "" {
		t.Fatalf("work: %v", err)
	}
	return s
}

func placeNames(r *planner.ExtractionResult) []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, p := range r.Places {
		out = append(out, p.Name)
	}
	return out
}

// A blog post served in a frame is read through the frame, with the same fetcher, up to two
// frames deep; a frame on another address (here a server the fetcher may not reach) is not
// followed.
func TestWorkerReadsSameSiteFrames(t *testing.T) {
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other server was asked for %s", r.URL)
	}))
	t.Cleanup(forbidden.Close)

	// The other server, by another name, is another site.
	elsewhere := strings.Replace(forbidden.URL, "127.0.0.1", "localhost", 1) + "/ad"
	srv, requested := framedSite(t, 2, elsewhere)
	s := work(t, srv.URL+"/blog/post", srv.Listener.Addr().String())
	if got := placeNames(s.result); !slices.Equal(got, []string{"Gyeongbokgung Palace", "Gwangjang Market"}) {
		t.Errorf("places %q (failure %q)", got, s.failure)
	}
	if s.result != nil && (s.result.URL != srv.URL+"/blog/post" || s.result.MediaType != "WEB" || s.result.Title != "Seoul in a day : Naver Blog") {
		t.Errorf("result %+v", s.result)
	}
	if got := requested(); !slices.Equal(got, []string{"/blog/post", "/frame/1", "/frame/2"}) {
		t.Errorf("requested %q", got)
	}
	// Fetching each frame is fetching again, not reading.
	if got := s.recorded(); len(got) < 7 || !slices.Equal(got[:6], []string{"FETCHING", "READING", "FETCHING", "READING", "FETCHING", "READING"}) ||
		!strings.HasPrefix(got[6], "MATCHING 0/") {
		t.Errorf("stages %q", got)
	}

	// Three frames deep is one hop too many: the third is never asked for, and the job finds
	// no place.
	srv, requested = framedSite(t, 3, elsewhere)
	s = work(t, srv.URL+"/blog/post", srv.Listener.Addr().String())
	if s.failure != planner.FailureNoPlace || s.result != nil {
		t.Errorf("failure %q, result %+v", s.failure, s.result)
	}
	if got := requested(); !slices.Equal(got, []string{"/blog/post", "/frame/1", "/frame/2"}) {
		t.Errorf("requested %q", got)
	}
}

// A same-site frame on a port the fetcher may not reach is refused by the fetcher's rules: the
// page is read without it.
func TestWorkerFrameKeepsFetchRules(t *testing.T) {
	blocked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the blocked server was asked for %s", r.URL)
	}))
	t.Cleanup(blocked.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><body><h2>Tongin Market</h2><iframe id="mainFrame" src="%s/post"></iframe></body></html>`, blocked.URL)
	}))
	t.Cleanup(srv.Close)
	s := work(t, srv.URL+"/blog", srv.Listener.Addr().String())
	if got := placeNames(s.result); !slices.Equal(got, []string{"Tongin Market"}) {
		t.Errorf("places %q (failure %q)", got, s.failure)
	}
}
