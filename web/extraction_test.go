package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tripplan/internal/extraction"
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

// pageServer serves the test's pages; /slow holds its first answer until release is closed.
func pageServer(t *testing.T) (srv *httptest.Server, hostPort string, release chan struct{}) {
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
	if done.Status != "COMPLETED" || r == nil || r.MatchedCount != 4 || r.Title == "" || r.AuthorName != "Mina Park" {
		t.Fatalf("result: %+v %+v", done, r)
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
	if json.Unmarshal(res.Body, &added); res.Status != 200 || added.TotalCount != 2 || added.AddedCount != 1 || added.SkippedCount != 1 ||
		len(added.Places) != 1 || added.Places[0].Place.Name != "Bukchon Hanok Village" {
		t.Fatalf("add: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "POST", Path: base + "/" + j.JobID + "/places", Token: f.ben, Body: map[string]any{"place_ids": []string{names["Gwangjang Market"]}}}).
		problem(t, 409, "ALREADY_DECIDED")
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
	f.dismiss(t, f.ana, reused.JobID)

	// Failures, in plain words: no places, a private address, a redirect to cloud metadata.
	for path, code := range map[string]string{"/sourdough": "NO_PLACE_EXTRACTED", "/missing": "CONTENT_NOT_FOUND", "/to-metadata": "FETCH_FAILED"} {
		j := f.startJob(t, f.ana, srv.URL+path)
		done := f.waitJob(t, f.ana, j.JobID)
		if done.Status != "FAILED" || done.FailureCode == nil || *done.FailureCode != code || done.FailureMessage == nil {
			t.Errorf("%s: %+v", path, done)
		}
		f.dismiss(t, f.ana, j.JobID)
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
