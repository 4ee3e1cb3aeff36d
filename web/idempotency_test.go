package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/postgres"
)

// keyed is the header of a request carrying an Idempotency-Key.
func keyed(key string) map[string]string { return map[string]string{"Idempotency-Key": key} }

// countRows counts the rows of a query's single count.
func (a *testApp) countRows(query string, args ...any) int {
	a.t.Helper()
	var n int
	if err := a.db.Get(&n, query, args...); err != nil {
		a.t.Fatal(err)
	}
	return n
}

// sameAnswer fails unless replay is first again: status, body, Location and Content-Type, marked
// as a replay.
func sameAnswer(t *testing.T, first, replay response) {
	t.Helper()
	if replay.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("not marked as a replay: %d %v %s", replay.Status, replay.Header, replay.Body)
	}
	if replay.Status != first.Status || !bytes.Equal(replay.Body, first.Body) {
		t.Fatalf("replay %d %s, first answer %d %s", replay.Status, replay.Body, first.Status, first.Body)
	}
	for _, h := range []string{"Location", "Content-Type", "HX-Redirect", "HX-Trigger"} {
		if replay.Header.Get(h) != first.Header.Get(h) {
			t.Fatalf("%s: replay %q, first %q", h, replay.Header.Get(h), first.Header.Get(h))
		}
	}
}

func TestIdempotentPostsAnswerTheFirstAnswerAgain(t *testing.T) {
	a := newTestApp(t)
	ana, ben := a.member("idem-ana", "Ana"), a.member("idem-ben", "Ben")
	titled := func(title string) int {
		return a.countRows(`SELECT count(*) FROM collections WHERE title = $1`, title)
	}
	create := func(token, key string, body any) response {
		return a.do(req{Method: "POST", Path: "/collections", Token: token, Header: keyed(key), Body: body})
	}

	first := create(ana, "k-1", map[string]string{"title": "Busan"})
	if first.Status != http.StatusCreated || first.Header.Get("Location") == "" || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %v %s", first.Status, first.Header, first.Body)
	}
	sameAnswer(t, first, create(ana, "k-1", map[string]string{"title": "Busan"}))
	if n := titled("Busan"); n != 1 {
		t.Fatalf("%d collections after a replay, want 1", n)
	}

	// The same key with another body, or on another path: 422, nothing done.
	create(ana, "k-1", map[string]string{"title": "Jeju"}).problem(t, http.StatusUnprocessableEntity, "IDEMPOTENCY_KEY_REUSED")
	a.do(req{Method: "POST", Path: "/plans", Token: ana, Header: keyed("k-1"), Body: map[string]string{"title": "Busan"}}).
		problem(t, http.StatusUnprocessableEntity, "IDEMPOTENCY_KEY_REUSED")
	if titled("Jeju") != 0 || a.countRows(`SELECT count(*) FROM plans`) != 0 {
		t.Fatal("a reused key did something")
	}

	// Keys are per user: Ben's k-1 is his own.
	bens := create(ben, "k-1", map[string]string{"title": "Busan"})
	if bens.Status != http.StatusCreated || bens.Header.Get("Idempotent-Replayed") != "" || bytes.Equal(bens.Body, first.Body) {
		t.Fatalf("Ben's request with Ana's key: %d %v %s", bens.Status, bens.Header, bens.Body)
	}
	if n := titled("Busan"); n != 2 {
		t.Fatalf("%d collections, want Ana's and Ben's", n)
	}

	// Without a key every request is its own (v1).
	for range 2 {
		if res := a.do(req{Method: "POST", Path: "/collections", Token: ana, Body: map[string]string{"title": "Daegu"}}); res.Status != http.StatusCreated {
			t.Fatalf("without a key: %d %s", res.Status, res.Body)
		}
	}
	if n := titled("Daegu"); n != 2 {
		t.Fatalf("%d collections without keys, want 2", n)
	}

	// A client error is kept too: the same request gets it again.
	bad := create(ana, "k-2", map[string]string{"title": ""})
	bad.problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	sameAnswer(t, bad, create(ana, "k-2", map[string]string{"title": ""}))

	// A browser's htmx form post: the answer (a redirect for htmx) is replayed as it was.
	b := a.signedInBrowser(t, "idem-ana", "Ana")
	form := func() response {
		return a.do(req{Method: "POST", Path: "/collections", Client: b, Body: "title=Gangneung", Header: map[string]string{
			"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "HX-Request": "true",
			"Sec-Fetch-Site": "same-origin", "Idempotency-Key": "form-1"}})
	}
	fromForm := form()
	if fromForm.Status != http.StatusNoContent || !strings.HasPrefix(fromForm.Header.Get("HX-Redirect"), "/collections/") {
		t.Fatalf("htmx form post: %d %v %s", fromForm.Status, fromForm.Header, fromForm.Body)
	}
	sameAnswer(t, fromForm, form())
	if n := titled("Gangneung"); n != 1 {
		t.Fatalf("%d collections from a form sent twice, want 1", n)
	}
}

func TestIdempotencyKeyMustBeOneVisibleASCIIKey(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("idem-bad", "Ana")
	for name, key := range map[string]string{
		"empty": "", "256 characters": strings.Repeat("k", 256), "a space": "two words", "a tab": "a\tb",
		"not ASCII": "열쇠",
	} {
		t.Run(name, func(t *testing.T) {
			a.do(req{Method: "POST", Path: "/collections", Token: ana, Header: keyed(key), Body: map[string]string{"title": "Bad key"}}).
				problem(t, http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
		})
	}
	r, _ := http.NewRequest("POST", a.http.URL+"/collections", strings.NewReader(`{"title":"Bad key"}`))
	r.Header.Set("Authorization", "Bearer "+ana)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Add("Idempotency-Key", "one")
	r.Header.Add("Idempotency-Key", "two")
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("two keys: %d", res.StatusCode)
	}
	if n := a.countRows(`SELECT count(*) FROM collections WHERE title = 'Bad key'`); n != 0 {
		t.Fatalf("%d collections made with bad keys", n)
	}
	// The longest key, all of printable ASCII.
	long := strings.Repeat("!~azAZ09", 32)[:255]
	if res := a.do(req{Method: "POST", Path: "/collections", Token: ana, Header: keyed(long), Body: map[string]string{"title": "Good key"}}); res.Status != http.StatusCreated {
		t.Fatalf("a 255-character key: %d %s", res.Status, res.Body)
	}
	// Other methods ignore the header.
	if res := a.do(req{Method: "GET", Path: "/collections", Token: ana, Header: keyed("two words")}); res.Status != http.StatusOK {
		t.Fatalf("GET with a bad key: %d %s", res.Status, res.Body)
	}
}

// answer is what one of many concurrent clients saw.
type answer struct {
	status   int
	replayed bool
	code     string
	body     []byte
	err      error
}

// sendAll sends n copies of a request at once (they wait for each other to be ready) and
// answers what each saw.
func (a *testApp) sendAll(n int, method, path, token, key, body string) []answer {
	out := make([]answer, n)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			r, _ := http.NewRequest(method, a.http.URL+path, strings.NewReader(body))
			r.Header.Set("Authorization", "Bearer "+token)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Idempotency-Key", key)
			ready.Done()
			<-start
			res, err := http.DefaultClient.Do(r)
			if err != nil {
				out[i].err = err
				return
			}
			defer res.Body.Close()
			out[i].status, out[i].replayed = res.StatusCode, res.Header.Get("Idempotent-Replayed") == "true"
			out[i].body, out[i].err = io.ReadAll(res.Body)
			var p struct{ Code string }
			if json.Unmarshal(out[i].body, &p) == nil {
				out[i].code = p.Code
			}
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return out
}

// Twenty identical requests at once (a collection has nothing unique that would stop a second
// one): one is run, each of the others gets its answer again or IN_USE.
func TestConcurrentIdenticalKeyedPostsMakeOneThing(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("idem-many", "Ana")
	body := `{"title":"Twenty clicks"}`
	answers := a.sendAll(20, "POST", "/collections", ana, "double-click", body)
	var firsts, replays, inUse int
	var original []byte
	for _, an := range answers {
		switch {
		case an.err != nil:
			t.Fatal(an.err)
		case an.status == http.StatusCreated && !an.replayed:
			firsts++
			original = an.body
		case an.status == http.StatusCreated && an.replayed:
			replays++
		case an.status == http.StatusConflict && an.code == "IDEMPOTENCY_KEY_IN_USE":
			inUse++
		default:
			t.Fatalf("an answer that is neither the first, a replay nor IN_USE: %d %s", an.status, an.body)
		}
	}
	if firsts != 1 {
		t.Fatalf("%d first answers, want exactly 1 (%d replays, %d in use)", firsts, replays, inUse)
	}
	for _, an := range answers {
		if an.replayed && !bytes.Equal(an.body, original) {
			t.Fatalf("a replay differs from the first answer:\n%s\n%s", an.body, original)
		}
	}
	t.Logf("20 concurrent requests: 1 first answer, %d replays, %d IN_USE", replays, inUse)
	if n := a.countRows(`SELECT count(*) FROM collections WHERE title = 'Twenty clicks'`); n != 1 {
		t.Fatalf("%d collections, want 1", n)
	}
	if n := a.countRows(`SELECT count(*) FROM idempotency_keys`); n != 1 {
		t.Fatalf("%d idempotency keys kept, want 1", n)
	}
	// Once the first is done, every retry is its replay.
	res := a.do(req{Method: "POST", Path: "/collections", Token: ana, Header: keyed("double-click"), Body: body})
	if res.Status != http.StatusCreated || res.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(res.Body, original) {
		t.Fatalf("a later retry: %d %v %s", res.Status, res.Header, res.Body)
	}
}

func TestIdempotencyKeyInUseWhileTheFirstRuns(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("idem-slow", "Ana")
	entered, release := make(chan struct{}, 1), make(chan struct{})
	releaseOnce := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseOnce) // before the server closes, which waits for the first request
	var runs sync.Mutex    // held by the first run until released; a second run does not wait
	a.srv.echo.POST("/test/slow", func(c echo.Context) error {
		if !runs.TryLock() {
			return c.JSON(http.StatusCreated, map[string]string{"made": "twice"})
		}
		entered <- struct{}{}
		<-release
		return c.JSON(http.StatusCreated, map[string]string{"made": "once"})
	}, a.srv.requireAccount(false))
	first := make(chan response, 1)
	go func() {
		first <- a.do(req{Method: "POST", Path: "/test/slow", Token: ana, Header: keyed("slow"), Body: `{}`})
	}()
	<-entered
	second := a.do(req{Method: "POST", Path: "/test/slow", Token: ana, Header: keyed("slow"), Body: `{}`})
	second.problem(t, http.StatusConflict, "IDEMPOTENCY_KEY_IN_USE")
	if second.Header.Get("Retry-After") == "" {
		t.Error("409 IN_USE without Retry-After")
	}
	releaseOnce()
	res := <-first
	if res.Status != http.StatusCreated || res.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %v %s", res.Status, res.Header, res.Body)
	}
	sameAnswer(t, res, a.do(req{Method: "POST", Path: "/test/slow", Token: ana, Header: keyed("slow"), Body: `{}`}))
}

func TestAFailedFirstAttemptLetsARetryRun(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("idem-fail", "Ana")
	var mu sync.Mutex
	runs := 0
	a.srv.echo.POST("/test/flaky", func(c echo.Context) error {
		mu.Lock()
		runs++
		n := runs
		mu.Unlock()
		switch n {
		case 1:
			return errors.New("the database fell over")
		case 2:
			panic("and then this")
		case 3:
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"code": "SERVICE_UNAVAILABLE"})
		}
		return c.JSON(http.StatusCreated, map[string]int{"run": n})
	}, a.srv.requireAccount(false))
	send := func() response {
		return a.do(req{Method: "POST", Path: "/test/flaky", Token: ana, Header: keyed("flaky"), Body: `{"x":1}`})
	}
	send().problem(t, http.StatusInternalServerError, "INTERNAL")
	send().problem(t, http.StatusInternalServerError, "INTERNAL")
	if res := send(); res.Status != http.StatusServiceUnavailable || res.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("third attempt: %d %s", res.Status, res.Body)
	}
	ok := send()
	if ok.Status != http.StatusCreated || string(ok.Body) != `{"run":4}`+"\n" || ok.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the retry after three failures: %d %q", ok.Status, ok.Body)
	}
	sameAnswer(t, ok, send())
	mu.Lock()
	defer mu.Unlock()
	if runs != 4 {
		t.Fatalf("the handler ran %d times, want 4", runs)
	}
}

func TestIdempotencyKeysExpireAfterADay(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("idem-old", "Ana")
	create := func(key, title string) response {
		return a.do(req{Method: "POST", Path: "/collections", Token: ana, Header: keyed(key), Body: map[string]string{"title": title}})
	}
	age := func(key string, by time.Duration) {
		k, err := newIdempotencyKey(a.userID(ana), key)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.db.Exec(`UPDATE idempotency_keys SET created_at = created_at - make_interval(secs => $2) WHERE key_hash = $1`, k.hash, by.Seconds()); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"old", "older", "new"} {
		if res := create(k, "Ulsan"); res.Status != http.StatusCreated {
			t.Fatalf("%s: %d %s", k, res.Status, res.Body)
		}
	}
	age("old", 25*time.Hour)
	age("older", 48*time.Hour)
	age("new", 23*time.Hour)
	// A key past its day is ignored: the same key with another body is a new request.
	if res := create("old", "Pohang"); res.Status != http.StatusCreated || res.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("an expired key: %d %v %s", res.Status, res.Header, res.Body)
	}
	create("new", "Pohang").problem(t, http.StatusUnprocessableEntity, "IDEMPOTENCY_KEY_REUSED")

	// The periodic job deletes the keys past their day, and only those.
	w := &postgres.ExpiredIdempotencyKeysWorker{DB: a.db}
	if err := w.Work(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n := a.countRows(`SELECT count(*) FROM idempotency_keys`); n != 2 {
		t.Fatalf("%d keys left, want the re-used old one and new", n)
	}
	if n := a.countRows(`SELECT count(*) FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`); n != 0 {
		t.Fatalf("%d expired keys left", n)
	}
}

func TestAnAbandonedClaimIsTakenOver(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("idem-stale", "Ana")
	body := `{"title":"Sokcho"}`
	// An instance claimed the key and stopped before answering.
	k, err := newIdempotencyKey(a.userID(ana), "abandoned")
	if err != nil {
		t.Fatal(err)
	}
	if held, err := a.db.ClaimIdempotencyKey(context.Background(), k.owner, k.hash, requestFingerprint("POST", "/collections", []byte(body)), "gone"); err != nil || held != nil {
		t.Fatalf("claim: %v %v", held, err)
	}
	send := func() response {
		return a.do(req{Method: "POST", Path: "/collections", Token: ana, Header: keyed("abandoned"), Body: body})
	}
	send().problem(t, http.StatusConflict, "IDEMPOTENCY_KEY_IN_USE")
	if _, err := a.db.Exec(`UPDATE idempotency_keys SET created_at = now() - make_interval(secs => $1)`, (postgres.IdempotencyClaimTimeout + time.Second).Seconds()); err != nil {
		t.Fatal(err)
	}
	res := send()
	if res.Status != http.StatusCreated || res.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("after the claim timed out: %d %v %s", res.Status, res.Header, res.Body)
	}
	sameAnswer(t, res, send())
	// The stopped instance's late answer does not overwrite the new one.
	if err := a.db.RecordIdempotentAnswer(context.Background(), k.owner, k.hash, "gone", 500, []byte("late")); !errors.Is(err, postgres.ErrIdempotencyClaimLost) {
		t.Fatalf("a lost claim's answer: %v", err)
	}
	sameAnswer(t, res, send())
}

// Every POST route keeps its answers for the caller's key — checked by sending each one twice
// with a key, whatever it answers (made-up ids answer 4xx, which are kept too) — except
// those that have no caller, whose answers are credentials. And every POST route refuses a
// malformed key.
func TestEveryPostRouteIsIdempotent(t *testing.T) {
	a := newTestApp(t)
	token, leaving := a.member("idem-all", "Ana"), a.member("idem-out", "Ben")
	withoutCaller := map[string]bool{"/auth/reissue": true, "/dev/auth/login": true, "/auth/token": true, "/auth/:provider/token": true}
	n := 0
	for _, r := range a.srv.Routes() {
		if r.Method != http.MethodPost {
			continue
		}
		n++
		path := r.Path
		for _, part := range strings.Split(r.Path, "/") {
			if strings.HasPrefix(part, ":") {
				path = strings.Replace(path, part, "xxxxxxxxxxxxxxxxxxxxx", 1)
			}
		}
		tok := token
		if path == "/auth/logout" {
			tok = leaving // and once signed out, the retry has no caller: 401
		}
		send := func(key string) response {
			return a.do(req{Method: "POST", Path: path, Token: tok, Header: keyed(key), Body: `{}`})
		}
		send("not valid").problem(t, http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
		key := fmt.Sprintf("route-%d", n)
		first, again := send(key), send(key)
		if withoutCaller[r.Path] || path == "/auth/logout" {
			if again.Header.Get("Idempotent-Replayed") != "" {
				t.Errorf("POST %s (no caller) replayed an answer", r.Path)
			}
			continue
		}
		if again.Header.Get("Idempotent-Replayed") != "true" || again.Status != first.Status || !bytes.Equal(again.Body, first.Body) {
			t.Errorf("POST %s: %d %s, then %d %s %v: not replayed", r.Path, first.Status, first.Body, again.Status, again.Body, again.Header)
		}
	}
	if n < 20 {
		t.Fatalf("only %d POST routes found", n)
	}
}

// A front end on another origin (CORS_ORIGINS) may send keys and read the replay header.
func TestCORSAllowsIdempotencyKeys(t *testing.T) {
	const spa = "http://localhost:5173"
	a := newTestApp(t, func(c *Config) { c.CORSOrigins = []string{spa} })
	pre := a.do(req{Method: "OPTIONS", Path: "/collections", Header: map[string]string{
		"Origin": spa, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,idempotency-key"}})
	if pre.Status != http.StatusNoContent || !strings.Contains(strings.ToLower(pre.Header.Get("Access-Control-Allow-Headers")), "idempotency-key") {
		t.Fatalf("preflight: %d %v", pre.Status, pre.Header)
	}
	ana := a.member("idem-cors", "Ana")
	res := a.do(req{Method: "POST", Path: "/collections", Token: ana, Header: map[string]string{"Origin": spa, "Idempotency-Key": "cors"},
		Body: map[string]string{"title": "Cross"}})
	if res.Status != http.StatusCreated || !strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), "Idempotent-Replayed") {
		t.Fatalf("POST from the front end: %d %v", res.Status, res.Header)
	}
}

// A link guest's POST is refused by the store whatever its key, so the key is not claimed: a
// guest keeps no rows, and the same request again is refused again, not replayed.
func TestAGuestsRefusedPostKeepsNoKey(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("idem-guest-ana", "Ana")
	plan := a.createPlan(ana, "Busan", "2026-05-01", "2026-05-02")
	guest := a.guestOf(t, a.invite(ana, "/plans/"+plan.PlanID))
	for range 2 {
		res := a.do(req{Method: "POST", Path: "/plans/" + plan.PlanID + "/blocks", Client: guest, Header: keyed("g-1"),
			Body: map[string]any{"type": "FREE", "day": 1, "start_time": "10:00", "end_time": "11:00"}})
		res.problem(t, http.StatusForbidden, "GUEST_FORBIDDEN")
		if res.Header.Get("Idempotent-Replayed") != "" {
			t.Fatal("a guest's refusal was replayed")
		}
	}
	if n := a.countRows(`SELECT count(*) FROM idempotency_keys`); n != 0 {
		t.Fatalf("%d idempotency keys after a guest's POSTs, want 0", n)
	}
}
