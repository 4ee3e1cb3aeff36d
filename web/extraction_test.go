package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/extraction"
	"tripplan/internal/planner"
)

// A page this project wrote for the test, naming catalog places as a listicle does.
const seoulListicle = `<!doctype html><html><head><title>Three days in Seoul: where we went</title>
<meta name="author" content="Mina Park"><meta property="og:description" content="Palaces, markets and the tower."></head>
<body><article><h1>Three days in Seoul</h1>
<p>We started early and walked a lot.</p>
<h2>1. Gyeongbokgung Palace</h2><p>Go for the changing of the guard.</p>
<h2>2. Gwangjang Market</h2><p>Bindaetteok and mayak gimbap.</p>
<h2>3. N Seoul Tower</h2><p>Take the cable car at sunset.</p>
<h2>4. Bukchon Hanok Village</h2><p>Quiet lanes of old houses; keep your voice down.</p>
<h2>Tips</h2><p>Buy a T-money card.</p></article></body></html>`

const noPlaces = `<!doctype html><html><head><title>How to bake sourdough</title></head>
<body><h1>Sourdough at home</h1><p>Mix flour and water, wait, fold, wait again.</p><ul><li>Flour</li><li>Water</li><li>Salt</li></ul></body></html>`

// A page that skips one place, passes through another and lists two tea houses the place
// search does not know; its address line names a road (창경궁로), not Changgyeonggung Palace.
const seoulHonestly = `<!doctype html><html><head><title>A Seoul weekend, honestly</title></head>
<body><article><h1>A Seoul weekend, honestly</h1>
<p>We visited Gyeongbokgung Palace in the morning.</p>
<p>We skipped N Seoul Tower because of the fog.</p>
<p>We changed trains at Seoul Station on the way to Gwangjang Market.</p>
<p>Gwangjang Market is a must-see.</p>
<h2>Hanok Teahouse Moon</h2><p>A tiny tea house with no sign.</p>
<h2>Dalbit Tea Room</h2><p>Its sister, around the corner.</p>
<p>주소: 서울 종로구 창경궁로 185</p></article></body></html>`

// pageServer serves the test's pages; /slow holds its first answer until release is closed.
func pageServer(t testing.TB) (srv *httptest.Server, hostPort string, release chan struct{}) {
	release = make(chan struct{})
	var once sync.Once
	mux := http.NewServeMux()
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/seoul", html(seoulListicle))
	mux.HandleFunc("/sourdough", html(noPlaces))
	mux.HandleFunc("/honestly", html(seoulHonestly))
	mux.HandleFunc("/teahouses", html(`<!doctype html><html><head><title>Tea in Seoul</title></head><body><article>
<h1>Tea in Seoul</h1><h2>Hanok Teahouse Moon</h2><p>No sign on the door.</p></article></body></html>`))
	mux.HandleFunc("/to-metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		first := false
		once.Do(func() { first = true })
		if first {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		html(seoulListicle)(w, r)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, strings.TrimPrefix(srv.URL, "http://"), release
}

func (f *planFixture) startJob(t *testing.T, token, url string) jobJSON {
	t.Helper()
	res := f.a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/extraction-jobs", Token: token, Body: map[string]string{"url": url}})
	if res.Status != http.StatusAccepted {
		t.Fatalf("start %s: %d %s", url, res.Status, res.Body)
	}
	var j jobJSON
	json.Unmarshal(res.Body, &j)
	return j
}

// waitJob polls the job until it is done.
func (f *planFixture) waitJob(t *testing.T, token, id string) jobJSON {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var j jobJSON
		res := f.a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/extraction-jobs/" + id, Token: token})
		if err := json.Unmarshal(res.Body, &j); err != nil || res.Status != 200 {
			t.Fatalf("job: %d %s", res.Status, res.Body)
		}
		if j.Status == "COMPLETED" || j.Status == "FAILED" {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job still %s", j.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (f *planFixture) dismiss(t *testing.T, token, id string) {
	t.Helper()
	if r := f.a.do(req{Method: "DELETE", Path: "/collections/" + f.collection + "/extraction-jobs/" + id, Token: token}); r.Status != 204 {
		t.Fatalf("dismiss: %d %s", r.Status, r.Body)
	}
}

func TestExtractionFromALink(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	srv, host, _ := pageServer(t)
	a.workJobs(host)
	base := "/collections/" + f.collection + "/extraction-jobs"

	a.do(req{Method: "POST", Path: base, Token: f.ben, Body: map[string]string{"url": "ftp://example.com/list"}}).problem(t, 400, "SOCIAL_MEDIA_UNSUPPORTED")
	a.do(req{Method: "POST", Path: base, Token: f.ben, Body: map[string]string{}}).problem(t, 400, "INVALID_REQUEST")
	a.do(req{Method: "GET", Path: base + "/latest", Token: f.ben}).problem(t, 404, "JOB_NOT_FOUND")

	j := f.startJob(t, f.ben, srv.URL+"/seoul?utm_source=newsletter")
	if j.Status != "PENDING" {
		t.Fatalf("new job: %+v", j)
	}
	again := a.do(req{Method: "POST", Path: base, Token: f.ben, Body: map[string]string{"url": srv.URL + "/sourdough"}}).problem(t, 409, "JOB_IN_PROGRESS")
	if again["job_id"] != j.JobID {
		t.Fatalf("JOB_IN_PROGRESS names %v, want %s", again["job_id"], j.JobID)
	}
	a.do(req{Method: "GET", Path: base + "/" + j.JobID, Token: f.ana}).problem(t, 404, "JOB_NOT_FOUND") // another member's job

	done := f.waitJob(t, f.ben, j.JobID)
	r := done.Result
	type resultShape struct {
		Status              planner.JobStatus
		HasResult, HasTitle bool
		MatchedCount        int
		AuthorName          string
	}
	gotResult := resultShape{Status: done.Status, HasResult: r != nil}
	if r != nil {
		gotResult.HasTitle, gotResult.MatchedCount, gotResult.AuthorName = r.Title != "", r.MatchedCount, r.AuthorName
	}
	if diff := cmp.Diff(resultShape{Status: "COMPLETED", HasResult: true, HasTitle: true, MatchedCount: 4, AuthorName: "Mina Park"}, gotResult); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}
	// The stage and how many names were looked up: all of the page's, once it is done.
	type stageShape struct {
		Stage                                                planner.Stage
		HasStartedAt, HasProgress, AtLeastFourNames, AllDone bool
	}
	gotStage := stageShape{Stage: done.Stage, HasStartedAt: done.StageStartedAt != "", HasProgress: done.Progress != nil}
	if p := done.Progress; p != nil {
		gotStage.AtLeastFourNames, gotStage.AllDone = p.Total >= 4, p.Done == p.Total
	}
	if diff := cmp.Diff(stageShape{Stage: planner.StageCompleted, HasStartedAt: true, HasProgress: true, AtLeastFourNames: true, AllDone: true}, gotStage); diff != "" {
		t.Errorf("stage and progress (-want +got):\n%s\nprogress %+v", diff, done.Progress)
	}
	names := map[string]string{}
	for _, p := range r.Places {
		names[p.Name] = p.PlaceID
	}
	for _, want := range []string{"Gyeongbokgung Palace", "Gwangjang Market", "N Seoul Tower", "Bukchon Hanok Village"} {
		if names[want] == "" {
			t.Errorf("%s not found: %+v", want, r.Places)
		}
	}
	var latest jobJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: base + "/latest", Token: f.ben}).Body, &latest)
	if latest.JobID != j.JobID {
		t.Fatalf("latest: %+v", latest)
	}

	// Add two of them: the palace is in the collection already (skipped), Bukchon is new; a
	// place the job did not find cannot be chosen.
	a.do(req{Method: "POST", Path: base + "/" + j.JobID + "/places", Token: f.ben, Body: map[string]any{"place_ids": []string{f.otherPlace.Place.PlaceID}}}).
		problem(t, 400, "INVALID_REQUEST")
	res := a.do(req{Method: "POST", Path: base + "/" + j.JobID + "/places", Token: f.ben,
		Body: map[string]any{"place_ids": []string{names["Gyeongbokgung Palace"], names["Bukchon Hanok Village"]}}})
	var added addedFromJobJSON
	if err := json.Unmarshal(res.Body, &added); res.Status != 200 || err != nil {
		t.Fatalf("add: %d %s (%v)", res.Status, res.Body, err)
	}
	type addedShape struct {
		Total, Added, Skipped int
		Places                []string
	}
	gotAdded := addedShape{Total: added.TotalCount, Added: added.AddedCount, Skipped: added.SkippedCount}
	for _, p := range added.Places {
		gotAdded.Places = append(gotAdded.Places, p.Place.Name)
	}
	if diff := cmp.Diff(addedShape{Total: 2, Added: 1, Skipped: 1, Places: []string{"Bukchon Hanok Village"}}, gotAdded); diff != "" {
		t.Fatalf("add (-want +got):\n%s", diff)
	}
	a.do(req{Method: "POST", Path: base + "/" + j.JobID + "/places", Token: f.ben, Body: map[string]any{"place_ids": []string{names["Gwangjang Market"]}}}).
		problem(t, 409, "ALREADY_DECIDED")
	// Ben heard the job was done; Ana hears what he added, and the collection's history has it.
	if n := a.notificationsOf(t, f.ben, "EXTRACTION_COMPLETED"); len(n) != 1 || n[0].Message != "Places from your link are ready to add to Seoul" ||
		!strings.HasSuffix(n[0].LinkURL, "/collections/"+f.collection) {
		t.Errorf("Ben's notification: %+v", n)
	}
	if n := a.notificationsOf(t, f.ana, "PLACE_ADDED"); len(n) != 1 || n[0].Message != "Ben added Bukchon Hanok Village to Seoul" {
		t.Errorf("Ana's notification: %+v", n)
	}
	if h := history[memberJSON](t, a, f.ana, "/collections/"+f.collection+"/activity?size=1").Contents; len(h) != 1 ||
		h[0].Target.ID != added.Places[0].CollectionPlaceID || h[0].Summary != "Ben added Bukchon Hanok Village to the collection" {
		t.Errorf("the collection's history: %+v", h)
	}
	var detail collectionPlaceDetailJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/places/" + added.Places[0].CollectionPlaceID, Token: f.ana}).Body, &detail)
	if detail.SocialMedia == nil || detail.SocialMedia.URL != srv.URL+"/seoul?utm_source=newsletter" || detail.SocialMedia.AuthorName != "Mina Park" {
		t.Fatalf("source kept: %+v", detail.SocialMedia)
	}

	// The same page again (another member, tracking parameters aside) is answered at once.
	reused := f.startJob(t, f.ana, srv.URL+"/seoul")
	if reused.Status != "COMPLETED" {
		t.Fatalf("reuse: %+v", reused)
	}
	if j := f.waitJob(t, f.ana, reused.JobID); j.Stage != planner.StageCompleted || j.Progress != nil { // nothing was looked up
		t.Errorf("reused: stage %q, progress %+v", j.Stage, j.Progress)
	}
	f.dismiss(t, f.ana, reused.JobID)

	// Failures, in plain words: no places, a private address, a redirect to cloud metadata.
	for path, code := range map[string]planner.FailureCode{"/sourdough": "NO_PLACE_EXTRACTED", "/missing": "CONTENT_NOT_FOUND", "/to-metadata": "FETCH_FAILED"} {
		j := f.startJob(t, f.ana, srv.URL+path)
		done := f.waitJob(t, f.ana, j.JobID)
		type failureShape struct {
			Status     planner.JobStatus
			Stage      planner.Stage
			Code       *planner.FailureCode
			HasMessage bool
		}
		if diff := cmp.Diff(failureShape{Status: "FAILED", Stage: planner.StageFailed, Code: &code, HasMessage: true},
			failureShape{Status: done.Status, Stage: done.Stage, Code: done.FailureCode, HasMessage: done.FailureMessage != nil}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
		f.dismiss(t, f.ana, j.JobID)
	}
	if n := a.notificationsOf(t, f.ana, "EXTRACTION_FAILED"); len(n) != 3 || n[0].Message != "We could not find places on your link for Seoul" {
		t.Errorf("Ana's notifications of failures (never merged): %+v", n)
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(seoulListicle)) }))
	defer other.Close()
	j = f.startJob(t, f.ana, other.URL+"/") // loopback, not allowed
	if done := f.waitJob(t, f.ana, j.JobID); done.Status != "FAILED" || *done.FailureCode != "FETCH_FAILED" {
		t.Fatalf("loopback: %+v", done)
	}
}

func TestExtractionSurvivesARestart(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	srv, host, release := pageServer(t)
	a.worker.Fetcher.AllowHosts = []string{host}
	first, err := extraction.NewQueue(a.db.DB.DB, a.worker, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	j := f.startJob(t, f.ben, srv.URL+"/slow")
	deadline := time.Now().Add(10 * time.Second)
	for {
		var cur jobJSON
		json.Unmarshal(a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/extraction-jobs/" + j.JobID, Token: f.ben}).Body, &cur)
		if cur.Status == "EXTRACTING" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never started: %+v", cur)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The instance goes away mid-fetch; another one picks the job up and finishes it.
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	first.StopAndCancel(stop)
	close(release)
	a.workJobs(host)
	if done := f.waitJob(t, f.ben, j.JobID); done.Status != "COMPLETED" || done.Result.MatchedCount != 4 {
		t.Fatalf("after the restart: %+v", done)
	}
}

// startIn asks for a job in a collection and answers the response as it is.
func (a *testApp) startIn(token, collection, url string) response {
	return a.do(req{Method: "POST", Path: "/collections/" + collection + "/extraction-jobs", Token: token, Body: map[string]string{"url": url}})
}

// jobIn answers a job's current state.
func (a *testApp) jobIn(t *testing.T, token, collection, id string) jobJSON {
	t.Helper()
	res := a.do(req{Method: "GET", Path: "/collections/" + collection + "/extraction-jobs/" + id, Token: token})
	var j jobJSON
	if err := json.Unmarshal(res.Body, &j); err != nil || res.Status != http.StatusOK {
		t.Fatalf("job: %d %s", res.Status, res.Body)
	}
	return j
}

// eventually polls cond until it holds, failing with what after the deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never happened: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// queueState is the River state of an extraction job's queue entry.
func (a *testApp) queueState(t *testing.T, jobID string) string {
	t.Helper()
	var state string
	if err := a.db.Get(&state, `SELECT state FROM river_job WHERE args->>'job_id' = $1`, jobID); err != nil {
		t.Fatal(err)
	}
	return state
}

// A user has at most 3 jobs in progress across all collections, however many requests arrive
// at once; a dismissed job leaves the count; reusing a finished analysis queues nothing and is
// never refused; and 30 starts an hour are the most, with Retry-After saying when the oldest
// leaves the hour.
func TestExtractionShareOfTheQueue(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a // nobody works the queue: every job stays in progress
	cols := make([]string, 10)
	for i := range cols {
		cols[i] = a.createCollection(f.ben, fmt.Sprintf("Trip %d", i)).CollectionID
	}
	res := make([]response, len(cols))
	var wg sync.WaitGroup
	for i, c := range cols {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = a.startIn(f.ben, c, fmt.Sprintf("https://blog.example/seoul/%d", i))
		}()
	}
	wg.Wait()
	var started []int
	for i, r := range res {
		switch r.Status {
		case http.StatusAccepted:
			started = append(started, i)
		case http.StatusTooManyRequests:
			p := r.problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
			if r.Header.Get("Retry-After") != "10" || p["retry_after"] != float64(10) {
				t.Fatalf("Retry-After %q, body %v", r.Header.Get("Retry-After"), p)
			}
		default:
			t.Fatalf("start %d: %d %s", i, r.Status, r.Body)
		}
	}
	if len(started) != planner.MaxExtractionsInProgress {
		t.Fatalf("%d jobs started at once, want %d", len(started), planner.MaxExtractionsInProgress)
	}
	var free string // a collection without a job of Ben's
	for i, c := range cols {
		if res[i].Status != http.StatusAccepted {
			free = c
		}
	}
	var first jobJSON
	json.Unmarshal(res[started[0]].Body, &first)

	// A finished analysis of a page (Ana's) is reused for anyone, even at the cap.
	var done jobJSON
	json.Unmarshal(a.startIn(f.ana, f.collection, "https://blog.example/done").Body, &done)
	if _, err := a.db.Exec(`UPDATE extraction_jobs SET status = 'COMPLETED', stage = 'COMPLETED', result = '{"places": []}' WHERE id = $1`, done.JobID); err != nil {
		t.Fatal(err)
	}
	reused := a.startIn(f.ben, free, "https://blog.example/done")
	if reused.Status != http.StatusAccepted || !strings.Contains(string(reused.Body), `"COMPLETED"`) {
		t.Fatalf("reuse at the cap: %d %s", reused.Status, reused.Body)
	}
	var r jobJSON
	json.Unmarshal(reused.Body, &r)
	a.do(req{Method: "DELETE", Path: "/collections/" + free + "/extraction-jobs/" + r.JobID, Token: f.ben})
	a.startIn(f.ben, free, "https://blog.example/more").problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")

	// Dismissing one of the jobs in progress makes room for one more.
	a.do(req{Method: "DELETE", Path: "/collections/" + cols[started[0]] + "/extraction-jobs/" + first.JobID, Token: f.ben})
	more := a.startIn(f.ben, free, "https://blog.example/more")
	if more.Status != http.StatusAccepted {
		t.Fatalf("after a dismissal: %d %s", more.Status, more.Body)
	}

	// 30 starts an hour: with nothing in progress any more, start and dismiss until the hour is full.
	dismissAll := map[string]response{free: more, cols[started[1]]: res[started[1]], cols[started[2]]: res[started[2]]}
	for c, r := range dismissAll {
		var j jobJSON
		json.Unmarshal(r.Body, &j)
		a.do(req{Method: "DELETE", Path: "/collections/" + c + "/extraction-jobs/" + j.JobID, Token: f.ben})
	}
	var n int
	const ben = `(SELECT id FROM users WHERE provider_id = 'pf-ben')`
	if err := a.db.Get(&n, `SELECT count(*) FROM extraction_starts WHERE user_id = `+ben); err != nil || n != 4 {
		t.Fatalf("starts recorded: %d %v", n, err)
	}
	one := cols[started[0]]
	for ; n < planner.MaxExtractionsPerHour; n++ {
		res := a.startIn(f.ben, one, fmt.Sprintf("https://blog.example/hour/%d", n))
		var j jobJSON
		if json.Unmarshal(res.Body, &j); res.Status != http.StatusAccepted {
			t.Fatalf("start %d: %d %s", n+1, res.Status, res.Body)
		}
		a.do(req{Method: "DELETE", Path: "/collections/" + one + "/extraction-jobs/" + j.JobID, Token: f.ben})
	}
	// The oldest start of the hour was 50 minutes ago: it leaves the hour in 10 minutes.
	if _, err := a.db.Exec(`UPDATE extraction_starts SET started_at = now() - interval '50 minutes'
		WHERE job_id = (SELECT job_id FROM extraction_starts WHERE user_id = ` + ben + ` ORDER BY started_at LIMIT 1)`); err != nil {
		t.Fatal(err)
	}
	full := a.startIn(f.ben, one, "https://blog.example/one-more")
	full.problem(t, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
	if wait, err := strconv.Atoi(full.Header.Get("Retry-After")); err != nil || wait <= 500 || wait > 600 {
		t.Fatalf("Retry-After %q, want about 600", full.Header.Get("Retry-After"))
	}
	// Other users have their own share.
	if got := a.startIn(f.ana, a.createCollection(f.ana, "Ana's").CollectionID, "https://blog.example/ana"); got.Status != http.StatusAccepted {
		t.Fatalf("Ana: %d %s", got.Status, got.Body)
	}
}

// heldPages serves the listicle at any path, each answer held until release is closed; a
// request its client gives up on first is reported on abandoned.
func heldPages(t testing.TB) (srv *httptest.Server, hostPort string, release chan struct{}, abandoned chan string) {
	release, abandoned = make(chan struct{}), make(chan string, 10)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
			abandoned <- r.URL.Path
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(seoulListicle))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	return srv, strings.TrimPrefix(srv.URL, "http://"), release, abandoned
}

// A dismissed job stops being worked on: waiting in the queue, its River job is cancelled at
// once; being read, the worker gives the page up; and when the page answers just after the
// dismissal, nothing it found is recorded. River does not retry any of them.
func TestDismissedExtractionStops(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	srv, host, _ := pageServer(t)
	held, heldHost, release, abandoned := heldPages(t)

	queued := f.startJob(t, f.ben, srv.URL+"/seoul")
	f.dismiss(t, f.ben, queued.JobID)
	if s := a.queueState(t, queued.JobID); s != "cancelled" {
		t.Fatalf("a dismissed job waiting in the queue is %s", s)
	}

	a.worker.Fetcher.Timeout = time.Minute // held pages stay held: only the dismissal may end the reading
	a.workJobs(host, heldHost)
	reading := f.startJob(t, f.ben, held.URL+"/reading")
	eventually(t, "the page is being read", func() bool { return a.jobIn(t, f.ben, f.collection, reading.JobID).Status == "EXTRACTING" })
	f.dismiss(t, f.ben, reading.JobID)
	select {
	case path := <-abandoned:
		if path != "/reading" {
			t.Fatalf("abandoned %s", path)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the worker went on reading the page of a dismissed job")
	}

	late := f.startJob(t, f.ben, held.URL+"/late")
	eventually(t, "the page is being read", func() bool { return a.jobIn(t, f.ben, f.collection, late.JobID).Status == "EXTRACTING" })
	f.dismiss(t, f.ben, late.JobID)
	close(release) // the page answers at once now
	for _, j := range []jobJSON{reading, late} {
		eventually(t, "the River job is finished", func() bool {
			s := a.queueState(t, j.JobID)
			return s == "cancelled" || s == "completed" || s == "discarded"
		})
		if s := a.queueState(t, j.JobID); s != "cancelled" {
			t.Fatalf("River job of a dismissed job: %s", s)
		}
		if got := a.jobIn(t, f.ben, f.collection, j.JobID); got.Status == "COMPLETED" || got.Result != nil || got.DecisionStatus != "IGNORED" {
			t.Fatalf("dismissed job: %+v", got)
		}
	}
	if n := a.notificationsOf(t, f.ben, "EXTRACTION_COMPLETED"); len(n) != 0 {
		t.Fatalf("notified of a dismissed job: %+v", n)
	}
	var pages int
	if err := a.db.Get(&pages, `SELECT count(*) FROM social_media`); err != nil || pages != 0 {
		t.Fatalf("%d pages recorded (%v)", pages, err)
	}
}

// One user's slow jobs do not hold up another's: Ana's pages are held, so her jobs stay in
// progress as long as the test wants; Ben's job completes meanwhile.
func TestOneUsersSlowJobsDoNotDelayAnothers(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	fast, fastHost, _ := pageServer(t)
	slow, slowHost, release, _ := heldPages(t)
	a.worker.Fetcher.Timeout = time.Minute // held pages stay held until the test releases them
	a.workJobs(fastHost, slowHost)

	// Ana asks for as many as there are workers; she gets her share (429 beyond it).
	type job struct{ collection, id string }
	var held []job
	for i := range extraction.MaxWorkers {
		c := a.createCollection(f.ana, fmt.Sprintf("Slow %d", i)).CollectionID
		res := a.startIn(f.ana, c, fmt.Sprintf("%s/held/%d", slow.URL, i))
		if res.Status == http.StatusTooManyRequests {
			continue
		}
		var j jobJSON
		if json.Unmarshal(res.Body, &j); res.Status != http.StatusAccepted {
			t.Fatalf("Ana's job %d: %d %s", i, res.Status, res.Body)
		}
		held = append(held, job{c, j.JobID})
	}
	for _, j := range held {
		eventually(t, "Ana's page is being read", func() bool { return a.jobIn(t, f.ana, j.collection, j.id).Status == "EXTRACTING" })
	}

	b := f.startJob(t, f.ben, fast.URL+"/seoul")
	if done := f.waitJob(t, f.ben, b.JobID); done.Status != "COMPLETED" {
		t.Fatalf("Ben's job: %+v", done)
	}
	for _, j := range held {
		if s := a.jobIn(t, f.ana, j.collection, j.id).Status; s != "EXTRACTING" {
			t.Fatalf("Ana's job finished first: %s", s)
		}
	}
	if len(held) != planner.MaxExtractionsInProgress {
		t.Fatalf("Ana had %d jobs in progress", len(held))
	}
	close(release)
	for _, j := range held {
		eventually(t, "Ana's job completes", func() bool { return a.jobIn(t, f.ana, j.collection, j.id).Status == "COMPLETED" })
	}
}

// BenchmarkExtractionBesideASlowUser measures Ben's extraction from the request to COMPLETED
// (polled every 5 ms), alone and while Ana's three slow jobs hold workers: the second should
// cost what the first does (docs/PERFORMANCE.md).
func BenchmarkExtractionBesideASlowUser(b *testing.B) {
	f := newPlanFixture(b)
	a := f.a
	fast, fastHost, _ := pageServer(b)
	slow, slowHost, _, _ := heldPages(b)
	a.worker.Fetcher.Timeout = 10 * time.Minute
	a.workJobs(fastHost, slowHost)
	n := 0
	extract := func(b *testing.B) {
		for range b.N {
			n++
			res := a.startIn(f.ben, f.collection, fmt.Sprintf("%s/seoul?n=%d", fast.URL, n))
			var j jobJSON
			if json.Unmarshal(res.Body, &j); res.Status != http.StatusAccepted {
				b.Fatalf("start: %d %s", res.Status, res.Body)
			}
			for j.Status != "COMPLETED" {
				if j.Status == "FAILED" {
					b.Fatalf("job failed: %+v", j)
				}
				time.Sleep(5 * time.Millisecond)
				json.Unmarshal(a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/extraction-jobs/" + j.JobID, Token: f.ben}).Body, &j)
			}
			b.StopTimer()
			a.do(req{Method: "DELETE", Path: "/collections/" + f.collection + "/extraction-jobs/" + j.JobID, Token: f.ben})
			a.db.MustExec(`DELETE FROM extraction_starts`) // the hourly cap is not what is measured
			b.StartTimer()
		}
	}
	b.Run("alone", extract)
	var held []string
	for i := range planner.MaxExtractionsInProgress {
		c := a.createCollection(f.ana, fmt.Sprintf("Slow %d", i)).CollectionID
		var j jobJSON
		json.Unmarshal(a.startIn(f.ana, c, fmt.Sprintf("%s/held/%d", slow.URL, i)).Body, &j)
		for j.Status != "EXTRACTING" {
			time.Sleep(5 * time.Millisecond)
			json.Unmarshal(a.do(req{Method: "GET", Path: "/collections/" + c + "/extraction-jobs/" + j.JobID, Token: f.ana}).Body, &j)
		}
		held = append(held, "/collections/"+c+"/extraction-jobs/"+j.JobID)
	}
	b.Run("beside_3_slow_jobs", extract)
	for _, path := range held {
		var j jobJSON
		if json.Unmarshal(a.do(req{Method: "GET", Path: path, Token: f.ana}).Body, &j); j.Status != "EXTRACTING" {
			b.Fatalf("Ana's job stopped being slow: %+v", j)
		}
	}
}

func TestExtractionMentionsAndUnmatchedNames(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	srv, host, _ := pageServer(t)
	a.workJobs(host)
	job := "/collections/" + f.collection + "/extraction-jobs/"

	j := f.waitJob(t, f.ben, f.startJob(t, f.ben, srv.URL+"/honestly").JobID)
	if j.Status != "COMPLETED" || j.Result == nil {
		t.Fatalf("job: %+v", j)
	}
	got := map[string]planner.ResultPlace{}
	for _, p := range j.Result.Places {
		got[p.Name] = p
	}
	want := map[string][2]string{
		"Gyeongbokgung Palace": {"VISITED", "We visited Gyeongbokgung Palace in the morning."},
		"N Seoul Tower":        {"SKIPPED", "We skipped N Seoul Tower because of the fog."},
		"Seoul Station":        {"PASSING", "We changed trains at Seoul Station on the way to Gwangjang Market."},
		"Gwangjang Market":     {"RECOMMENDED", "Gwangjang Market is a must-see."}, // the destination, then recommended
	}
	if len(got) != len(want) { // not Changgyeonggung Palace, from the road of the address
		t.Errorf("places %+v, want %v", j.Result.Places, want)
	}
	for name, w := range want {
		if p := got[name]; p.Mention != w[0] || p.Quote != w[1] {
			t.Errorf("%s: %q %q, want %q %q", name, p.Mention, p.Quote, w[0], w[1])
		}
	}
	if u := j.Result.Unmatched; len(u) != 2 || u[0] != (planner.UnmatchedName{Name: "Hanok Teahouse Moon", Quote: "Hanok Teahouse Moon"}) ||
		u[1].Name != "Dalbit Tea Room" {
		t.Errorf("unmatched %+v", u)
	}

	// The panel ticks what the writer went to or recommends, not what they skipped or passed,
	// and offers the tea house as a custom place.
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	panel := fragment(t, a.htmx(b, "GET", job+j.JobID, ""), http.StatusOK)
	for name, ticked := range map[string]bool{"Gyeongbokgung Palace": true, "Gwangjang Market": true, "N Seoul Tower": false, "Seoul Station": false} {
		input := `value="` + got[name].PlaceID + `"`
		if !strings.Contains(panel, input) || strings.Contains(panel, input+" checked") != ticked {
			t.Errorf("%s should be ticked: %v\n%s", name, ticked, panel)
		}
	}
	for _, text := range []string{"Skipped by the writer", "Only passed through", "“We skipped N Seoul Tower because of the fog.”",
		"Not found in the place search", `hx-post="` + job + j.JobID + `/custom-places"`, "Hanok Teahouse Moon", "Add as custom place"} {
		if !strings.Contains(panel, text) {
			t.Errorf("the panel lacks %q:\n%s", text, panel)
		}
	}

	// Adding the name: only a listed one, by the job's owner; once; the job stays undecided.
	custom := job + j.JobID + "/custom-places"
	a.do(req{Method: "POST", Path: custom, Token: f.ben, Body: map[string]string{"name": "Gwangjang Market"}}).problem(t, 400, "INVALID_REQUEST")
	a.do(req{Method: "POST", Path: custom, Token: f.ben, Body: map[string]string{"name": " "}}).problem(t, 400, "INVALID_REQUEST")
	a.do(req{Method: "POST", Path: custom, Token: f.ana, Body: map[string]string{"name": "Hanok Teahouse Moon"}}).problem(t, 404, "JOB_NOT_FOUND")
	added := fragment(t, a.htmx(b, "POST", custom, "name=Hanok+Teahouse+Moon"), http.StatusCreated)
	if !strings.Contains(added, "Hanok Teahouse Moon added as a custom place") {
		t.Errorf("answer to the button: %s", added)
	}
	a.do(req{Method: "POST", Path: custom, Token: f.ben, Body: map[string]string{"name": "Hanok Teahouse Moon"}}).problem(t, 409, "COLLECTION_PLACE_ALREADY_EXISTS")
	res := a.do(req{Method: "POST", Path: custom, Token: f.ben, Body: map[string]string{"name": "Dalbit Tea Room"}})
	var room collectionPlaceJSON
	if json.Unmarshal(res.Body, &room); res.Status != http.StatusCreated || room.Place.Name != "Dalbit Tea Room" || room.Place.Address != "Seoul" ||
		room.Place.ProviderPlaceID != "" || room.Place.Point != nil || room.AddedBy.Nickname != "Ben" {
		t.Fatalf("add Dalbit Tea Room: %d %s", res.Status, res.Body)
	}
	var list struct {
		Contents []collectionPlaceJSON `json:"contents"`
	}
	json.Unmarshal(a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/places?size=50", Token: f.ana}).Body, &list)
	var tea *collectionPlaceJSON
	for i, cp := range list.Contents {
		if cp.Place.Name == "Hanok Teahouse Moon" {
			tea = &list.Contents[i]
		}
	}
	if tea == nil || tea.Place.Address != "Seoul" || tea.Place.Point != nil || tea.AddedBy.Nickname != "Ben" {
		t.Fatalf("the custom place in the collection: %+v (of %d)", tea, len(list.Contents))
	}
	var detail collectionPlaceDetailJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/places/" + tea.CollectionPlaceID, Token: f.ana}).Body, &detail)
	if detail.SocialMedia == nil || detail.SocialMedia.URL != srv.URL+"/honestly" {
		t.Errorf("the custom place keeps its page: %+v", detail.SocialMedia)
	}
	if page := a.htmx(b, "GET", "/collections/"+f.collection, ""); page.Status != http.StatusOK || !strings.Contains(string(page.Body), "Hanok Teahouse Moon") {
		t.Errorf("the collection's page with a custom place: %d %.300s", page.Status, page.Body)
	}
	// A custom place reaches the linked plan as the collection's place.
	if tb := decodeBlock(t, f.add(f.ana, placeBlock(tea.CollectionPlaceID, 2, "15:00", "16:00"))); tb.SelectedBlock == nil ||
		tb.SelectedBlock.Place.Name != "Hanok Teahouse Moon" {
		t.Errorf("block of the custom place: %+v", tb)
	}
	res = a.do(req{Method: "POST", Path: job + j.JobID + "/places", Token: f.ben, Body: map[string]any{"place_ids": []string{got["Gwangjang Market"].PlaceID}}})
	if res.Status != http.StatusOK {
		t.Errorf("the found places can still be added: %d %s", res.Status, res.Body)
	}

	// A page whose only names are unknown to the place search completes with them.
	j = f.waitJob(t, f.ana, f.startJob(t, f.ana, srv.URL+"/teahouses").JobID)
	type unmatchedShape struct {
		Status    planner.JobStatus
		HasResult bool
		Places    int
		Unmatched []string
	}
	gotUnmatched := unmatchedShape{Status: j.Status, HasResult: j.Result != nil}
	if j.Result != nil {
		gotUnmatched.Places = len(j.Result.Places)
		for _, u := range j.Result.Unmatched {
			gotUnmatched.Unmatched = append(gotUnmatched.Unmatched, u.Name)
		}
	}
	if diff := cmp.Diff(unmatchedShape{Status: "COMPLETED", HasResult: true, Unmatched: []string{"Hanok Teahouse Moon"}}, gotUnmatched); diff != "" {
		t.Errorf("only unmatched names (-want +got):\n%s", diff)
	}
}
