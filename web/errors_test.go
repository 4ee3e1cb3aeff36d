package web

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// plannerCodes reads every Code constant declared in internal/planner/error.go.
func plannerCodes(t *testing.T) []planner.Code {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../internal/planner/error.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []planner.Code
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
					continue
				}
				for _, v := range vs.Values {
					s, err := strconv.Unquote(v.(*ast.BasicLit).Value)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, planner.Code(s))
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no codes found in internal/planner/error.go")
	}
	return out
}

// TestEveryCodeHasAClientErrorOrKnownStatus keeps the table of statuses whole: every code the
// domain declares has a 4xx or 5xx status, an unknown code is 500, and each code Echo's
// statuses map to has that status again.
func TestEveryCodeHasAClientErrorOrKnownStatus(t *testing.T) {
	codes := plannerCodes(t)
	for _, c := range codes {
		if _, ok := statuses[c]; !ok {
			t.Errorf("%s has no status", c)
		}
		if s := httpStatus(c); s < 400 || s > 599 {
			t.Errorf("%s has status %d", c, s)
		}
	}
	if len(statuses) != len(codes) {
		t.Errorf("%d statuses for %d codes", len(statuses), len(codes))
	}
	if httpStatus("NO_SUCH_CODE") != 500 {
		t.Error("unknown code should be 500")
	}
	for s, c := range echoCodes {
		if httpStatus(c) != s {
			t.Errorf("Echo's %d becomes %s, whose status is %d", s, c, httpStatus(c))
		}
	}
}

func TestGenericErrorsAreProblems(t *testing.T) {
	a := newTestApp(t)
	token := a.member("err-1", "Erin")
	big := `{"provider":"GOOGLE","provider_id":"` + strings.Repeat("x", 2<<20) + `"}`
	cases := []struct {
		name   string
		rq     req
		status int
		code   string
	}{
		{"unknown route", req{Method: "GET", Path: "/no/such/thing"}, 404, "NOT_FOUND"},
		{"wrong method", req{Method: "PATCH", Path: "/users/me", Token: token}, 405, "METHOD_NOT_ALLOWED"},
		{"malformed JSON", req{Method: "POST", Path: "/dev/auth/login", Body: `{"provider":`}, 400, "INVALID_REQUEST"},
		{"JSON array instead of object", req{Method: "POST", Path: "/dev/auth/login", Body: `[1,2]`}, 400, "INVALID_REQUEST"},
		{"two JSON values", req{Method: "POST", Path: "/dev/auth/login", Body: `{} {}`}, 400, "INVALID_REQUEST"},
		{"wrong content type", req{Method: "POST", Path: "/dev/auth/login", Body: "<xml/>", Header: map[string]string{"Content-Type": "application/xml"}}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"body too large", req{Method: "POST", Path: "/dev/auth/login", Body: big}, 413, "PAYLOAD_TOO_LARGE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a.do(tc.rq).problem(t, tc.status, tc.code)
		})
	}
}

func TestWrongJSONTypeNamesTheField(t *testing.T) {
	a := newTestApp(t)
	p := a.do(req{Method: "POST", Path: "/dev/auth/login", Body: `{"provider":"GOOGLE","provider_id":12,"nickname":"Num"}`}).
		problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	errs, _ := p["errors"].([]any)
	if len(errs) != 1 || errs[0].(map[string]any)["field"] != "provider_id" {
		t.Fatalf("errors = %v", p["errors"])
	}
}

func TestPanicIs500WithoutInternals(t *testing.T) {
	a := newTestApp(t)
	a.srv.echo.GET("/test/panic", func(echo.Context) error { panic("secret detail: SELECT * FROM users") })
	a.srv.echo.GET("/test/error", func(echo.Context) error { return fmt.Errorf("pq: relation \"secret_table\" does not exist") })
	for _, path := range []string{"/test/panic", "/test/error"} {
		res := a.do(req{Method: "GET", Path: path})
		res.problem(t, http.StatusInternalServerError, "INTERNAL")
		if strings.Contains(string(res.Body), "secret") || strings.Contains(string(res.Body), "goroutine") {
			t.Fatalf("internals leaked: %s", res.Body)
		}
	}
	if !strings.Contains(a.logBuf.String(), "secret detail") {
		t.Fatal("the panic was not logged")
	}
}

func TestErrorsForBrowsersAndHtmx(t *testing.T) {
	a := newTestApp(t)
	res := a.do(req{Method: "GET", Path: "/no/such/page", Header: map[string]string{"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}})
	if res.Status != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(res.Body), "<html") {
		t.Fatalf("browser 404: %d %q %.200s", res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	res = a.do(req{Method: "GET", Path: "/no/such/page", Header: map[string]string{"Accept": "*/*", "HX-Request": "true"}})
	body := string(res.Body)
	if res.Status != 404 || strings.Contains(body, "<html") || !strings.Contains(body, `role="alert"`) {
		t.Fatalf("htmx 404: %d %.300s", res.Status, body)
	}
	if vary := strings.Join(res.Header.Values("Vary"), ", "); !strings.Contains(vary, "HX-Request") { // one field per middleware
		t.Fatalf("Vary = %q", vary)
	}
}

func TestSecurityHeaders(t *testing.T) {
	a := newTestApp(t)
	res := a.do(req{Method: "GET", Path: "/", Header: map[string]string{"Accept": "text/html"}})
	if res.Status != 200 {
		t.Fatalf("landing: %d", res.Status)
	}
	want := map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
	}
	for k, v := range want {
		if res.Header.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, res.Header.Get(k), v)
		}
	}
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP = %q", csp)
	}
	if res.Header.Get("X-Request-Id") == "" {
		t.Error("no request id")
	}
	if !strings.Contains(a.logBuf.String(), "request_id=") {
		t.Error("request log has no request id")
	}
}

func TestHealthAndReadiness(t *testing.T) {
	a := newTestApp(t)
	for _, p := range []string{"/healthz", "/readyz"} {
		if res := a.do(req{Method: "GET", Path: p}); res.Status != 200 {
			t.Fatalf("%s: %d %s", p, res.Status, res.Body)
		}
	}
	// With the database gone, readiness says 503 and liveness stays 200.
	a.db.Close()
	a.do(req{Method: "GET", Path: "/readyz"}).problem(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if res := a.do(req{Method: "GET", Path: "/healthz"}); res.Status != 200 {
		t.Fatalf("healthz without database: %d", res.Status)
	}
}

// TestNoMalformedInputCausesA5xx throws hostile inputs at every registered route.
func TestNoMalformedInputCausesA5xx(t *testing.T) {
	a := newTestApp(t)
	token := a.member("fuzz-1", "Fuzzy")
	bodies := []string{``, `{`, `null`, `[]`, `"x"`, `123`, `{"a":` + strings.Repeat("[", 10000), `{"provider":null,"nickname":{}}`,
		`{"refresh_token":"` + strings.Repeat("é", 5000) + `"}`, "\x00\xff\xfe", `{"provider":"GOOGLE","provider_id":"\u0000","nickname":"\ud800"}`}
	paramValues := []string{"x", "%00", "..%2F..", strings.Repeat("a", 300), "' OR 1=1 --"}
	for _, r := range a.srv.Routes() {
		if strings.HasPrefix(r.Path, "/static") {
			continue
		}
		for i, body := range bodies {
			path := r.Path
			for strings.Contains(path, ":") {
				start := strings.Index(path, ":")
				end := strings.IndexByte(path[start:], '/')
				v := paramValues[i%len(paramValues)]
				if end < 0 {
					path = path[:start] + v
				} else {
					path = path[:start] + v + path[start+end:]
				}
			}
			for _, tok := range []string{"", token} {
				res := a.do(req{Method: r.Method, Path: path, Body: body, Token: tok, Header: map[string]string{"Content-Type": "application/json"}})
				if res.Status >= 500 {
					t.Errorf("%s %s with body %.40q: %d %s", r.Method, path, body, res.Status, res.Body)
				}
			}
		}
	}
}

func TestUnreachableDatabaseIs503(t *testing.T) {
	a := newTestApp(t)
	token := a.member("down-1", "Downer")
	// Point the server at a database that refuses connections (sqlx.Open does not dial).
	dead, err := sqlx.Open("postgres", "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	a.srv.store = &postgres.DB{DB: dead}
	a.do(req{Method: "GET", Path: "/users/me", Token: token}).problem(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	a.do(req{Method: "GET", Path: "/readyz"}).problem(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
}

// TestErrorsOnPagesAreWordsForPeople: an htmx request that fails gets the error partial with
// a title in words (not "Bad Request", never the code as text) and each invalid field as a
// sentence marked with the field's name, for the dialog to put next to the field.
func TestErrorsOnPagesAreWordsForPeople(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	blocks := "/plans/" + f.plan.PlanID + "/blocks"
	body := fragment(t, a.htmx(ana, "POST", blocks, "type=FREE&day=1&start_time=15:00&end_time=14:00"), http.StatusBadRequest)
	mustHave(t, body, "Please check what you entered", `data-error-code="INVALID_REQUEST"`, `<li data-error-field="start_time">Start time must be earlier than end time.</li>`)
	for _, raw := range []string{"Bad Request", ">INVALID_REQUEST<", "The request has invalid fields"} {
		if strings.Contains(body, raw) {
			t.Errorf("the error partial shows %q: %s", raw, body)
		}
	}
	missing := fragment(t, a.htmx(ana, "GET", "/plans/"+strings.Repeat("x", 21)+"/blocks?day=1", ""), http.StatusNotFound)
	mustHave(t, missing, "We couldn&#39;t find that", `data-error-code="PLAN_NOT_FOUND"`)
	if strings.Contains(missing, "Not Found") {
		t.Errorf("the error partial shows the status text: %s", missing)
	}
}
