package web

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
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

// checkedOperations records the operations of the document whose answers the harness checked
// in this run (checkContract), and those of which a successful answer was among them.
type checkedOperations struct {
	sync.Mutex
	any, success map[string]bool
}

var checked = &checkedOperations{any: map[string]bool{}, success: map[string]bool{}}

func (c *checkedOperations) add(operationID string, status int) {
	c.Lock()
	defer c.Unlock()
	c.any[operationID] = true
	c.success[operationID] = c.success[operationID] || status < 300
}

// missing names the operations no test checked: those without any checked answer, and those
// that answer JSON on success without a checked successful answer.
func (c *checkedOperations) missing(doc *openapi3.T) []string {
	c.Lock()
	defer c.Unlock()
	var out []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !c.any[op.OperationID] || (answersJSON(op) && !c.success[op.OperationID]) {
				out = append(out, method+" "+path)
			}
		}
	}
	slices.Sort(out)
	return out
}

// answersJSON reports whether a success of the operation has a JSON body.
func answersJSON(op *openapi3.Operation) bool {
	for code, r := range op.Responses.Map() {
		if strings.HasPrefix(code, "2") && r.Value.Content.Get("application/json") != nil {
			return true
		}
	}
	return false
}

// TestMain runs the tests and then, when all of them ran (no -run, -skip or -list), fails unless
// the tests checked an answer of every operation of the document, and a successful one of every
// operation that answers JSON: so an operation cannot escape the contract check.
func TestMain(m *testing.M) {
	code := m.Run()
	if unset := func(name string) bool { return flag.Lookup(name).Value.String() == "" }; unset("test.run") && unset("test.skip") && unset("test.list") {
		doc, err := loadOpenAPI()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if missing := checked.missing(doc); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: no test checked these operations' answers against openapi.yaml:\n\t%s\n", strings.Join(missing, "\n\t"))
			code = 1
		}
	}
	os.Exit(code)
}

// TestResponsesMatchTheOpenAPIDocument sends requests whose answers, successes and errors
// alike, the harness checks against the published document (see checkContract).
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
		a.do(c) // which checks the answer against the document
	}
}

// TestEveryOperationHasAUniqueIDAndATag: code generators name a client's functions after the
// operationIds and group them by tag (docs/API.md §Resources), so every operation has an operationId
// that is a plain identifier and no other operation has, and at least one tag, each declared
// in the document's tags list with a description.
func TestEveryOperationHasAUniqueIDAndATag(t *testing.T) {
	doc, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	declared, used := map[string]bool{}, map[string]bool{}
	for _, tag := range doc.Tags {
		if declared[tag.Name] || tag.Description == "" {
			t.Errorf("tag %q is declared twice or without a description", tag.Name)
		}
		declared[tag.Name] = true
	}
	ids := map[string]string{}
	identifier := regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			if !identifier.MatchString(op.OperationID) {
				t.Errorf("%s: operationId %q is not a lowerCamelCase identifier", where, op.OperationID)
			}
			if other, ok := ids[op.OperationID]; ok {
				t.Errorf("%s and %s have the same operationId %q", where, other, op.OperationID)
			}
			ids[op.OperationID] = where
			if len(op.Tags) == 0 {
				t.Errorf("%s has no tag", where)
			}
			for _, tag := range op.Tags {
				if !declared[tag] {
					t.Errorf("%s: tag %q is not declared in the tags list", where, tag)
				}
				used[tag] = true
			}
		}
	}
	for tag := range declared {
		if !used[tag] {
			t.Errorf("tag %q is declared but no operation has it", tag)
		}
	}
	if len(ids) < 100 {
		t.Fatalf("only %d operations", len(ids))
	}
}

// TestTheDocumentNeedsNoJSONSchema2020Keyword: the harness checks answers with kin-openapi's
// OpenAPI 3.0 validator (see testApp.operation), which would pass over the keywords that only
// JSON Schema 2020-12 has; so the document uses none (the list is the one kin-openapi looks
// for to choose its 2020-12 validator).
func TestTheDocumentNeedsNoJSONSchema2020Keyword(t *testing.T) {
	doc, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	only2020 := map[string]bool{"const": true, "prefixItems": true, "contains": true, "patternProperties": true,
		"dependentSchemas": true, "propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true,
		"if": true, "then": true, "else": true, "dependentRequired": true, "$defs": true, "contentSchema": true}
	var walk func(node any, at string, names bool)
	walk = func(node any, at string, names bool) {
		switch n := node.(type) {
		case map[string]any:
			for k, v := range n {
				if !names && only2020[k] {
					t.Errorf("%s uses %q", at, k)
				}
				// The keys of properties, paths, responses and the like are names, not keywords.
				walk(v, at+"/"+k, !names && (k == "properties" || k == "paths" || k == "responses" || k == "schemas" ||
					k == "parameters" || k == "headers" || k == "content" || k == "securitySchemes"))
			}
		case []any:
			for i, v := range n {
				walk(v, fmt.Sprintf("%s/%d", at, i), false)
			}
		}
	}
	walk(tree, "#", false)
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
