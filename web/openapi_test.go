package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// openAPIPath turns an Echo path (/plans/:planId) into an OpenAPI path (/plans/{planId}).
func openAPIPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

func TestEveryJSONRouteIsInTheOpenAPIDocument(t *testing.T) {
	a := newTestApp(t)
	doc := a.srv.OpenAPI()
	n := 0
	for _, r := range a.srv.Routes() {
		if r.Page {
			continue
		}
		n++
		item := doc.Paths.Find(openAPIPath(r.Path))
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s is registered but missing from openapi.yaml", r.Method, r.Path)
		}
	}
	if n < 7 {
		t.Fatalf("only %d JSON routes found; the route listing is broken", n)
	}
	// And the document does not describe routes that do not exist.
	registered := map[string]bool{}
	for _, r := range a.srv.Routes() {
		registered[r.Method+" "+openAPIPath(r.Path)] = true
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !registered[method+" "+path] {
				t.Errorf("openapi.yaml documents %s %s, which is not registered", method, path)
			}
		}
	}
	res := a.do(req{Method: "GET", Path: "/openapi.json"})
	if res.Status != 200 || res.json(t)["openapi"] != "3.1.0" {
		t.Fatalf("/openapi.json: %d %.200s", res.Status, res.Body)
	}
}

// TestResponsesMatchTheOpenAPIDocument validates real responses, successes and errors alike,
// against the published document.
func TestResponsesMatchTheOpenAPIDocument(t *testing.T) {
	a := newTestApp(t)
	tr := a.login("oa-1", "Openy")
	a.loadCatalog()
	full := a.member("oa-3", "Member")
	col := a.createCollection(full, "Docs")
	calls := []req{
		{Method: "GET", Path: "/places/search?query=Louvre", Token: full},
		{Method: "GET", Path: "/places/search?query=" + strings.Repeat("x", 60), Token: full},
		{Method: "POST", Path: "/collections", Token: full, Body: map[string]string{"title": "Second"}},
		{Method: "POST", Path: "/collections", Token: full, Body: map[string]string{"title": ""}},
		{Method: "GET", Path: "/collections?size=1", Token: full},
		{Method: "GET", Path: "/collections/" + col.CollectionID, Token: full},
		{Method: "GET", Path: "/collections/" + col.CollectionID, Token: a.member("oa-4", "Other")},
		{Method: "GET", Path: "/healthz"},
		{Method: "GET", Path: "/readyz"},
		{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{"provider": "GOOGLE", "provider_id": "oa-2", "nickname": "Other"}},
		{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{"provider": "x"}},
		{Method: "GET", Path: "/users/me", Token: tr.AccessToken},
		{Method: "GET", Path: "/users/me"},
		{Method: "PATCH", Path: "/users/me/terms", Token: tr.AccessToken},
		{Method: "PATCH", Path: "/users/me/terms", Token: tr.AccessToken},
		{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": tr.RefreshToken}},
		{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": "nope"}},
		{Method: "GET", Path: "/opinion-tags?category_id=101000", Token: full, Header: map[string]string{"Accept-Language": "ko"}},
		{Method: "GET", Path: "/opinion-tags?category_id=nope", Token: full},
		{Method: "PATCH", Path: "/users/me/picture?content_type=image/png", Token: full},
		{Method: "PATCH", Path: "/users/me/picture?content_type=image/gif", Token: full},
		{Method: "POST", Path: "/auth/logout", Token: tr.AccessToken},
		// Idempotency keys: the first answer, its replay, a reused key, a malformed one.
		{Method: "POST", Path: "/collections", Token: full, Header: keyed("oa-key"), Body: map[string]string{"title": "Keyed"}},
		{Method: "POST", Path: "/collections", Token: full, Header: keyed("oa-key"), Body: map[string]string{"title": "Keyed"}},
		{Method: "POST", Path: "/collections", Token: full, Header: keyed("oa-key"), Body: map[string]string{"title": "Other"}},
		{Method: "POST", Path: "/collections", Token: full, Header: keyed("not a key"), Body: map[string]string{"title": "Keyed"}},
	}
	for _, c := range calls {
		a.matchesOpenAPI(t, c, a.do(c))
	}
}

// matchesOpenAPI checks that res, the answer to c, is one the document describes.
func (a *testApp) matchesOpenAPI(t *testing.T, c req, res response) {
	t.Helper()
	router, err := gorillamux.NewRouter(a.srv.OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	httpReq, _ := http.NewRequest(c.Method, a.http.URL+c.Path, nil)
	route, params, err := router.FindRoute(httpReq)
	if err != nil {
		t.Fatalf("%s %s: %v", c.Method, c.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: httpReq, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.Status, Header: res.Header,
		Body: io.NopCloser(bytes.NewReader(res.Body)), Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("%s %s → %d does not match the document: %v\n%s", c.Method, c.Path, res.Status, err, res.Body)
	}
}

// TestEveryPostDocumentsItsIdempotencyKey: every POST of the document takes the shared
// Idempotency-Key parameter and answers 400 for a malformed key; those with a caller also
// document 409 IDEMPOTENCY_KEY_IN_USE and 422 IDEMPOTENCY_KEY_REUSED.
func TestEveryPostDocumentsItsIdempotencyKey(t *testing.T) {
	doc, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for path, item := range doc.Paths.Map() {
		op := item.Post
		if op == nil {
			continue
		}
		n++
		found := false
		for _, p := range op.Parameters {
			found = found || p.Ref == "#/components/parameters/IdempotencyKey"
		}
		if !found {
			t.Errorf("POST %s does not take the Idempotency-Key parameter", path)
		}
		codes := []int{400}
		if op.Security == nil || len(*op.Security) > 0 {
			codes = append(codes, 409, 422)
		}
		for _, code := range codes {
			if op.Responses.Status(code) == nil {
				t.Errorf("POST %s does not document %d", path, code)
			}
		}
	}
	if n < 15 {
		t.Fatalf("only %d POST operations", n)
	}
}
