package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"

	"tripplan/internal/auth"
	"tripplan/internal/extraction"
	"tripplan/internal/fetch"
	"tripplan/internal/places"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
	"tripplan/internal/storage"
)

// testApp is a real server on a real, fresh database, reached over HTTP.
type testApp struct {
	t      testing.TB
	srv    *Server
	db     *postgres.DB
	url    string // the database's, for more connections to it
	http   *httptest.Server
	now    time.Time // the token clock; tests move it to expire tokens
	logBuf *bytes.Buffer
	// queries counts the SQL statements the server sends (BEGIN/COMMIT excluded).
	queries *pgtest.Counter
	worker  *extraction.Worker
	queue   *extraction.Queue
}

func newTestApp(t testing.TB, mutate ...func(*Config)) *testApp {
	t.Helper()
	return newTestAppWith(t, nil, mutate...)
}

// newTestAppWith is newTestApp with a change to the server's dependencies (deps may be nil).
func newTestAppWith(t testing.TB, deps func(*Deps), mutate ...func(*Config)) *testApp {
	t.Helper()
	db, queries, url := pgtest.Counted(t)
	return startTestApp(t, db, queries, url, deps, mutate...)
}

// secondInstance is another server on a's database, as a second instance of the service would
// be: a pool, caches and limits of its own, the same database and secrets. Its statements are
// not counted.
func (a *testApp) secondInstance(t testing.TB, mutate ...func(*Config)) *testApp {
	t.Helper()
	db, err := postgres.Open(context.Background(), a.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return startTestApp(t, db, &pgtest.Counter{}, a.url, nil, mutate...)
}

// startTestApp starts a server on the database (url is the database's).
func startTestApp(t testing.TB, db *postgres.DB, queries *pgtest.Counter, url string, deps func(*Deps), mutate ...func(*Config)) *testApp {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	if err := db.Listen(ctx, url, nil); err != nil { // the day cache, as in production
		t.Fatal(err)
	}
	a := &testApp{t: t, db: db, url: url, now: time.Now(), logBuf: &bytes.Buffer{}, queries: queries}
	tokens, err := auth.NewIssuer([]byte("test-secret-test-secret-test-secret!"), func() time.Time { return a.now })
	if err != nil {
		t.Fatal(err)
	}
	// The listener comes first, so that the server knows its own base URL.
	a.http = httptest.NewUnstartedServer(nil)
	t.Cleanup(a.http.Close)
	cfg := Config{Env: "test", BaseURL: "http://" + a.http.Listener.Addr().String(), DevLogin: true, SignInRate: 1000, SignInBurst: 1000,
		RefreshReuseGrace: 30 * time.Second} // REFRESH_REUSE_GRACE's default
	for _, m := range mutate {
		m(&cfg)
	}
	files, err := storage.Open(context.Background(), "", t.TempDir(), cfg.BaseURL+"/uploads", []byte("upload-secret-upload-secret-32by"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	// The job queue is real; tests that need jobs worked call a.workJobs.
	a.worker = &extraction.Worker{Store: db, Fetcher: &fetch.Fetcher{}, Searcher: &places.Finder{Store: db},
		Backoff: func(int) time.Duration { return 100 * time.Millisecond }}
	if a.queue, err = extraction.NewQueue(db.DB.DB, a.worker, nil); err != nil {
		t.Fatal(err)
	}
	db.OnExtraction(a.queue)
	d := Deps{
		Store:    db,
		Files:    files,
		Sessions: db.NewSessionStore(SessionOptions(cfg), []byte("session-secret-session-secret-32b")),
		Tokens:   tokens,
		Log:      slog.New(slog.NewTextHandler(a.logBuf, nil)),
	}
	if deps != nil {
		deps(&d)
	}
	srv, err := New(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	a.srv = srv
	a.http.Config.Handler = srv
	a.http.Start()
	return a
}

// response is what a client saw.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// problem checks the response is problem+json with the status and code, and returns it.
func (r response) problem(t testing.TB, status int, code string) map[string]any {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status = %d, want %d; body: %s", r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json; body: %s", ct, r.Body)
	}
	m := r.json(t)
	if m["code"] != code {
		t.Fatalf("code = %v, want %s; body: %s", m["code"], code, r.Body)
	}
	if m["status"] != float64(status) || m["type"] != "about:blank" || m["title"] == "" || m["instance"] == nil {
		t.Fatalf("incomplete problem detail: %s", r.Body)
	}
	return m
}

// req describes one request.
type req struct {
	Method, Path string
	Body         any // string/[]byte sent as is, anything else JSON-encoded
	Header       map[string]string
	Token        string
	Client       *http.Client
}

func (a *testApp) do(rq req) response {
	a.t.Helper()
	var body io.Reader
	switch b := rq.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			a.t.Fatal(err)
		}
		body = bytes.NewReader(buf)
	}
	r, err := http.NewRequest(rq.Method, a.http.URL+rq.Path, body)
	if err != nil {
		a.t.Fatal(err)
	}
	if rq.Body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	r.Header.Set("Accept", "application/json")
	if rq.Token != "" {
		r.Header.Set("Authorization", "Bearer "+rq.Token)
	}
	for k, v := range rq.Header {
		r.Header.Set(k, v)
	}
	client := rq.Client
	if client == nil {
		client = noRedirects(nil)
	}
	res, err := client.Do(r)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	out := response{Status: res.StatusCode, Header: res.Header, Body: b}
	a.checkContract(r, out)
	return out
}

// The document's non-JSON bodies are read as text, so that their status and content type are
// checked like the others'.
func init() {
	for _, ct := range []string{"text/calendar", "application/gpx+xml", "text/event-stream"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
}

// checkContract fails the test when an answer of an operation of the published document does
// not match the document: a status it does not list, another content type, a body or header
// its schema refuses. Every request a test sends through a.do is checked, so the whole suite
// is the contract test. Not checked: requests for no operation of the document (pages, static
// files, unknown paths and methods), requests for the browser representation of the same
// routes (negotiate decides, as for the server), and benchmarks, which measure the server.
func (a *testApp) checkContract(r *http.Request, res response) {
	a.t.Helper()
	if _, bench := a.t.(*testing.B); bench || negotiate(r) != asJSON {
		return
	}
	route, params := a.operation(r)
	if route == nil {
		return
	}
	body, err := decode(res.Header.Get("Content-Encoding"), res.Body) // the document describes what the body says
	if err != nil {
		a.t.Errorf("%s %s: %v", r.Method, r.URL.RequestURI(), err)
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.Status, Header: res.Header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	checked.add(route.Operation.OperationID, res.Status)
	err = openapi3filter.ValidateResponse(context.Background(), out)
	if err == nil && route.Operation.Responses.Status(res.Status) == nil && !anyOperationMayAnswer[res.Status] && res.Status != http.StatusNotModified {
		err = fmt.Errorf("status %d is not listed (only the default response, for %v)", res.Status, slices.Sorted(maps.Keys(anyOperationMayAnswer)))
	}
	if err != nil {
		a.t.Errorf("%s %s → %d does not match openapi.yaml: %v\n%.2000s", r.Method, r.URL.RequestURI(), res.Status, err, res.Body)
	}
}

// operation finds the operation of the document that the server routes the request to, as
// Echo routes it (so /collections/new is the page, not a collection), and its path parameters;
// nil for a page or a route the document does not have.
func (a *testApp) operation(r *http.Request) (*routers.Route, map[string]string) {
	c := a.srv.echo.NewContext(r, nil)
	a.srv.echo.Router().Find(r.Method, echo.GetPath(r), c)
	if c.Path() == "" || a.srv.pages[r.Method+" "+c.Path()] {
		return nil, nil
	}
	doc := a.srv.OpenAPI()
	path := openAPIPath(c.Path())
	item := doc.Paths.Value(path)
	if item == nil || item.GetOperation(r.Method) == nil {
		return nil, nil
	}
	params := map[string]string{}
	for i, name := range c.ParamNames() {
		params[name] = c.ParamValues()[i]
	}
	// For an OpenAPI 3.1 document kin-openapi compiles a JSON Schema 2020-12 validator anew for
	// every answer (5–10 ms each: it doubled the suite's time) and then, for a schema with
	// references (nearly all of ours), drops it for its OpenAPI 3.0 validator. The answers are
	// checked with that validator straight away, by handing it the document as 3.0; it knows
	// 3.1's type lists (`[string, "null"]`), and TestTheDocumentNeedsNoJSONSchema2020Keyword
	// keeps the document free of the keywords only the other one knows.
	spec := *doc
	spec.OpenAPI = "3.0.3"
	return &routers.Route{Spec: &spec, Path: path, PathItem: item, Method: r.Method, Operation: item.GetOperation(r.Method)}, params
}

// anyOperationMayAnswer are the statuses of the document's default response (OtherProblem);
// every other status an operation answers must be listed with the operation.
var anyOperationMayAnswer = map[int]bool{
	http.StatusRequestEntityTooLarge: true, http.StatusUnsupportedMediaType: true,
	http.StatusInternalServerError: true, http.StatusServiceUnavailable: true,
}

// noRedirects is a client that shows redirects instead of following them.
func noRedirects(jar http.CookieJar) *http.Client {
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// browser is a client with a cookie jar that does not follow redirects.
func browser(t testing.TB) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return noRedirects(jar)
}

// login signs a user in through dev login and returns the token response.
func (a *testApp) login(providerID, nickname string) tokenResponse {
	a.t.Helper()
	res := a.do(req{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{
		"provider": "GOOGLE", "provider_id": providerID, "nickname": nickname, "email": providerID + "@example.com"}})
	if res.Status != http.StatusOK {
		a.t.Fatalf("dev login: %d %s", res.Status, res.Body)
	}
	var tr tokenResponse
	if err := json.Unmarshal(res.Body, &tr); err != nil {
		a.t.Fatal(err)
	}
	return tr
}

// member signs a user in and accepts the terms, returning a full access token.
func (a *testApp) member(providerID, nickname string) string {
	a.t.Helper()
	tr := a.login(providerID, nickname)
	res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: tr.AccessToken})
	if res.Status != http.StatusOK {
		a.t.Fatalf("accept terms: %d %s", res.Status, res.Body)
	}
	return res.json(a.t)["access_token"].(string)
}

// workJobs starts the job queue, fetching from the given allowed hosts, until the test ends.
func (a *testApp) workJobs(allowHosts ...string) {
	a.t.Helper()
	a.worker.Fetcher.AllowHosts = allowHosts
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.queue.Start(ctx); err != nil {
		a.t.Fatal(err)
	}
	a.t.Cleanup(func() {
		cancel()
		stop, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		a.queue.Stop(stop)
	})
}

// openStream sends a request for an event stream and answers its status and headers (and, for
// a refusal, its body) without waiting for the stream to end.
func (a *testApp) openStream(rq req) response {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, rq.Method, a.http.URL+rq.Path, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	for k, v := range rq.Header {
		r.Header.Set(k, v)
	}
	if rq.Token != "" {
		r.Header.Set("Authorization", "Bearer "+rq.Token)
	}
	client := rq.Client
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(r)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	out := response{Status: res.StatusCode, Header: res.Header}
	if res.StatusCode != http.StatusOK {
		out.Body, _ = io.ReadAll(res.Body)
	}
	a.checkContract(r, out) // a stream's status and headers; its events are not read
	return out
}

// mustGet, mustSelect and mustExec run a test's own SQL and stop the test when it fails.
func (a *testApp) mustGet(t testing.TB, dest any, query string, args ...any) {
	t.Helper()
	if err := a.db.Get(dest, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func (a *testApp) mustSelect(t testing.TB, dest any, query string, args ...any) {
	t.Helper()
	if err := a.db.Select(dest, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func (a *testApp) mustExec(t testing.TB, query string, args ...any) {
	t.Helper()
	if _, err := a.db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
