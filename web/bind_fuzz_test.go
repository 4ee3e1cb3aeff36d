package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"tripplan/internal/signin"
	"tripplan/internal/signin/fakeuserinfo"
)

// FuzzJSONBodies sends each input, as an application/json body, to every JSON API route
// that binds a body, through the real server's handler on a real database, as the owner of a
// plan fixture. Whatever the bytes, no answer is a 5xx (a panic is one, once recovered), and
// every answer that is not a success is problem+json with a code.
//
// The whole path a client hits is fuzzed rather than the binder alone: the middleware, the
// binder, each handler's validation and the store all see the input, and the inputs that
// pass validation reach PostgreSQL. Requests go to the server's http.Handler in process,
// without a listener: the net/http server and TCP hold none of our code and halved the rate.
// The server and its fixture are built once per run (per fuzzing worker), so inputs that
// succeed change the fixture for those that follow (a plan's dates, a block's time); every
// property holds in any state. An input sweeps all the routes (27 requests, most refused
// before the store), about 5 ms; `make fuzz` ran 250–400 inputs a second on two cores, so
// the HTTP path fuzzes fast enough not to need a binder-only target.
func FuzzJSONBodies(f *testing.F) {
	for _, seed := range bodySeeds {
		f.Add([]byte(seed))
	}
	logs := &lastLog{}
	kakaoAPI := fakeuserinfo.Kakao(f) // apps' sign-in with a Kakao token reads its body
	a := newTestAppWith(f, func(d *Deps) { d.Log = slog.New(slog.NewTextHandler(logs, nil)) }, func(c *Config) {
		c.SignIn = signin.Config{Key: []byte("flow-key-flow-key-flow-key-flow-key"), Kakao: signin.Client{ID: "k", Secret: "ks"}, KakaoAPI: kakaoAPI.URL}
		c.VAPIDPublicKey = "fuzz-vapid-public-key" // Web Push on: subscriptions read their bodies
	})
	fx := newBodyFixture(f, a)
	type target struct{ route, method, path string }
	var targets []target
	for _, r := range a.srv.Routes() {
		key := r.Method + " " + r.Path
		if bodyRoutes[key] != "" {
			targets = append(targets, target{key, r.Method, fx.path(f, r.Path)})
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ta := *a // the same server, failing this input's test
		ta.t = t
		logs.take()
		for _, tg := range targets {
			token := fx.owner
			if tg.route == withdrawRoute {
				token = fx.leaver
			}
			res := serveBody(a.srv, tg.method, tg.path, body, token)
			if msg := problemOrSuccess(res); msg != "" {
				t.Fatalf("%s with body %q: %s\nstatus %d: %s\nserver log:\n%s", tg.route, body, msg, res.Status, res.Body, logs.take())
			}
			if tg.route == withdrawRoute && res.Status < 300 {
				fx.leavers++
				fx.leaver = ta.member(fmt.Sprintf("fuzz-leaver-%d", fx.leavers), "Leaver")
			}
		}
	})
}

// serveBody sends a JSON request straight to the server's handler.
func serveBody(srv *Server, method, path string, body []byte, token string) response {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json")
	r.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	return response{Status: w.Code, Header: w.Header(), Body: w.Body.Bytes()}
}

// problemOrSuccess says what is wrong with an answer: a 5xx, or a refusal that is not
// problem+json with a code. It is "" for a good answer.
func problemOrSuccess(res response) string {
	switch {
	case res.Status >= 500:
		return "a server error"
	case res.Status < 300:
		return ""
	case res.Header.Get("Content-Type") != "application/problem+json":
		return "a refusal that is not problem+json"
	}
	var p struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(res.Body, &p); err != nil || p.Code == "" {
		return "a problem without a code"
	}
	return ""
}

// withdrawRoute deletes the caller's account, so FuzzJSONBodies sends it as a user of its
// own, signing a new one in whenever an input succeeds.
const withdrawRoute = "DELETE /users/me"

// bodyRoutes classifies every JSON API write route by what its handler binds (c.Bind): the
// type, as its declaration writes it, or "" for a route that reads no body. A write route
// missing here fails TestFuzzJSONBodiesCoverEveryRoute, so that FuzzJSONBodies reaches every
// body a client can send.
var bodyRoutes = map[string]string{
	"POST /dev/auth/login":                   "devLoginRequest",
	"POST /auth/reissue":                     "refreshRequest",
	"POST /auth/token":                       "appTokenRequest",
	"POST /auth/:provider/token":             "providerTokenRequest",
	"POST /auth/logout":                      "refreshRequest",
	"PUT /users/me":                          "profileRequest",
	"PUT /users/me/notification-settings":    "notificationSettingsRequest",
	"POST /users/me/push-subscriptions":      "pushSubscriptionRequest",
	withdrawRoute:                            "withdrawRequest",
	"POST /collections":                      "collectionRequest",
	"PUT /collections/:collectionId":         "collectionRequest",
	"PATCH /collections/:collectionId/owner": "collectionOwnerRequest",
	"POST /collections/:collectionId/places": "addCollectionPlaceRequest",
	"PATCH /collections/:collectionId/places/:collectionPlaceId/memo":      "memoRequest",
	"POST /collections/:collectionId/extraction-jobs":                      "extractRequest",
	"POST /collections/:collectionId/extraction-jobs/:jobId/places":        "addFromJobRequest",
	"POST /collections/:collectionId/extraction-jobs/:jobId/custom-places": "addCustomRequest",
	"POST /collections/:collectionId/imports":                              "", // a multipart file, read by importer.Parse
	"POST /plans":                                            "planRequest",
	"POST /plans/imports":                                    "restoreRequest",
	"PUT /plans/:planId":                                     "planRequest",
	"PATCH /plans/:planId/owner":                             "planOwnerRequest",
	"POST /plans/:planId/collections":                        "linkCollectionsRequest",
	"POST /plans/:planId/blocks":                             "addBlockRequest",
	"POST /plans/:planId/blocks/by-place":                    "addBlockByPlaceRequest",
	"POST /plans/:planId/blocks/manual":                      "addManualBlockRequest",
	"PATCH /plans/:planId/blocks/:blockId":                   "updateBlockRequest",
	"POST /plans/:planId/blocks/:blockId/candidates":         "addCandidatesRequest",
	"PATCH /plans/:planId/blocks/:blockId/selection":         "selectionRequest",
	"POST /plans/:planId/blocks/:blockId/copies":             "copyBlockRequest",
	"POST /plans/:planId/days/:day/swap":                     "swapDaysRequest",
	"POST /plans/:planId/days/:day/arrangement":              "arrangementRequest",
	"PATCH /plans/:planId/budgets":                           "budgetRequest",
	"POST /plans/:planId/expenses":                           "newExpenseRequest",
	"POST /plans/:planId/settlements":                        "settlementRequest",
	"PUT /plans/:planId/expenses/:expenseId":                 "json.RawMessage",
	"POST /plans/:planId/blocks/:blockId/opinions":           "opinionRequest",
	"PUT /plans/:planId/blocks/:blockId/opinions/:opinionId": "opinionRequest",

	"PATCH /users/me/terms":                                                "",
	"PATCH /users/me/picture":                                              "",
	"DELETE /users/me/picture":                                             "",
	"DELETE /users/me/push-subscriptions":                                  "",
	"DELETE /collections/:collectionId":                                    "",
	"DELETE /collections/:collectionId/members/me":                         "",
	"DELETE /collections/:collectionId/members/:collectionMemberId":        "",
	"POST /collections/:collectionId/invitations":                          "",
	"DELETE /collections/:collectionId/places/:collectionPlaceId":          "",
	"POST /collections/:collectionId/places/:collectionPlaceId/preference": "",
	"DELETE /collections/:collectionId/extraction-jobs/:jobId":             "",
	"DELETE /plans/:planId":                                                "",
	"DELETE /plans/:planId/members/me":                                     "",
	"DELETE /plans/:planId/members/:planMemberId":                          "",
	"POST /plans/:planId/invitations":                                      "",
	"DELETE /plans/:planId/invitations/:code":                              "",
	"DELETE /plans/:planId/removed-members/:memberId":                      "",
	"DELETE /collections/:collectionId/invitations/:code":                  "",
	"DELETE /collections/:collectionId/removed-members/:memberId":          "",
	"PATCH /notifications":                                                 "",
	"PATCH /notifications/:notificationId":                                 "",
	"POST /plans/:planId/calendar-feed":                                    "",
	"DELETE /plans/:planId/calendar-feed":                                  "",
	"DELETE /plans/:planId/collections/:collectionId":                      "",
	"DELETE /plans/:planId/blocks/:blockId":                                "",
	"POST /plans/:planId/deleted-blocks/:deletionId/restore":               "",
	"DELETE /plans/:planId/blocks/:blockId/candidates/:candidateId":        "",
	"DELETE /plans/:planId/expenses/:expenseId":                            "",
	"DELETE /plans/:planId/settlements/:settlementId":                      "",
	"DELETE /plans/:planId/blocks/:blockId/opinions/:opinionId":            "",
}

// TestFuzzJSONBodiesCoverEveryRoute keeps bodyRoutes true: it lists every JSON API write
// route the server registers, and every type the handlers bind is fuzzed through a route.
func TestFuzzJSONBodiesCoverEveryRoute(t *testing.T) {
	srv, err := New(Config{Env: "test", DevLogin: true}, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for _, r := range srv.Routes() {
		if key := r.Method + " " + r.Path; !r.Page && r.Method != http.MethodGet && r.Method != http.MethodHead {
			registered[key] = true
			if _, ok := bodyRoutes[key]; !ok {
				t.Errorf("%s is not in bodyRoutes: name the type its handler binds, or \"\" for none", key)
			}
		}
	}
	fuzzed := map[string]bool{}
	for key, typ := range bodyRoutes {
		if !registered[key] {
			t.Errorf("bodyRoutes lists %s, which is not a registered JSON write route", key)
		}
		if typ != "" {
			fuzzed[typ] = true
		}
	}
	bound := boundTypes(t)
	if got, want := slices.Sorted(maps.Keys(fuzzed)), slices.Sorted(maps.Keys(bound)); !slices.Equal(got, want) {
		t.Errorf("bodyRoutes fuzzes the types %v, but the handlers bind %v", got, want)
	}
}

// boundTypes reads the package's sources for the types of the variables handlers bind
// request bodies into (c.Bind(&in), in declared with var).
func boundTypes(t *testing.T) map[string]bool {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			declared := map[string]string{} // variable → type
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec:
					for _, id := range n.Names {
						if n.Type != nil {
							declared[id.Name] = types.ExprString(n.Type)
						}
					}
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok || sel.Sel.Name != "Bind" || len(n.Args) != 1 {
						return true
					}
					var typ string
					if arg, ok := n.Args[0].(*ast.UnaryExpr); ok && arg.Op == token.AND {
						if id, ok := arg.X.(*ast.Ident); ok {
							typ = declared[id.Name]
						}
					}
					if typ == "" {
						t.Errorf("%s: %s binds something other than a variable declared with var before it", fset.Position(n.Pos()), fn.Name.Name)
						return true
					}
					out[typ] = true
				}
				return true
			})
		}
	}
	return out
}

// bodyFixture is a plan fixture (newPlanFixtureOn) with one of everything a body route's
// path names — a time block with two candidates, an opinion, an additional expense and an
// extraction job, all the owner's (Ana's) — and the tokens FuzzJSONBodies sends.
type bodyFixture struct {
	owner     string            // Ana's token
	leaver    string            // the token of a user with nothing to lose, for withdrawRoute
	leavers   int               // users signed in as leaver so far
	ids       map[string]string // path parameter → id
	timeBlock string
}

func newBodyFixture(t testing.TB, a *testApp) *bodyFixture {
	pf := newPlanFixtureOn(t, a)
	fx := &bodyFixture{owner: pf.ana, leaver: a.member("fuzz-leaver-0", "Leaver")}
	tb := decodeBlock(t, pf.add(pf.ana, placeBlock(pf.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	tb = decodeBlock(t, a.do(req{Method: "POST", Path: pf.blocks + "/" + tb.TimeBlockID + "/candidates", Token: pf.ana,
		Body: map[string]any{"collection_place_ids": []string{pf.places[1].CollectionPlaceID}}}))
	var op opinionJSON
	decodeStatus(t, a.do(req{Method: "POST", Path: pf.blocks + "/" + tb.Candidates[0].BlockID + "/opinions", Token: pf.ana,
		Body: map[string]any{"type": "POSITIVE"}}), http.StatusCreated, &op)
	var exp expenseAddedJSON
	decodeStatus(t, a.do(req{Method: "POST", Path: "/plans/" + pf.plan.PlanID + "/expenses", Token: pf.ana,
		Body: map[string]any{"day": 1, "items": []map[string]any{{"name": "Bus", "cost": 1500}}}}), http.StatusCreated, &exp)
	var job jobJSON
	decodeStatus(t, a.do(req{Method: "POST", Path: "/collections/" + pf.collection + "/extraction-jobs", Token: pf.ana,
		Body: map[string]any{"url": "https://blog.example/fuzz"}}), http.StatusAccepted, &job)
	fx.timeBlock = tb.TimeBlockID
	fx.ids = map[string]string{
		":planId": pf.plan.PlanID, ":collectionId": pf.collection, ":collectionPlaceId": pf.places[0].CollectionPlaceID,
		":blockId": tb.Candidates[0].BlockID, ":opinionId": op.OpinionID, ":expenseId": exp.Selected.ExpenseID, ":jobId": job.JobID,
		":provider": "kakao", ":day": "1",
	}
	return fx
}

// path fills a route's parameters with the fixture's ids. :blockId is the candidate, except
// for the routes on a time block's candidates, selection and copies, which take the time block.
func (fx *bodyFixture) path(t testing.TB, route string) string {
	parts := strings.Split(route, "/")
	for i, p := range parts {
		if !strings.HasPrefix(p, ":") {
			continue
		}
		id, ok := fx.ids[p]
		if p == ":blockId" && (strings.HasSuffix(route, "/candidates") || strings.HasSuffix(route, "/selection") || strings.HasSuffix(route, "/copies")) {
			id = fx.timeBlock
		}
		if !ok {
			t.Fatalf("the fuzz fixture has no id for %s in %s", p, route)
		}
		parts[i] = id
	}
	return strings.Join(parts, "/")
}

// decodeStatus checks the status and decodes the body into v.
func decodeStatus(t testing.TB, res response, status int, v any) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("fixture: status %d, want %d: %s", res.Status, status, res.Body)
	}
	if err := json.Unmarshal(res.Body, v); err != nil {
		t.Fatal(err)
	}
}

// lastLog is the server's log since the last take, for the message of a failing input.
type lastLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lastLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// take returns the log so far and forgets it.
func (l *lastLog) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.buf.String()
	l.buf.Reset()
	return s
}

// bodySeeds are valid bodies of every request type, and the shapes that have troubled JSON
// handlers: wrong types, nulls, huge and fractional numbers, lenient integers, times at the
// edges of the day, invalid UTF-8, NUL characters, deep nesting and trailing values.
var bodySeeds = func() []string {
	seeds := []string{
		`{"provider":"GOOGLE","provider_id":"fuzz-1","nickname":"Fuzzer","email":"f@example.com","picture":"https://example.com/a.png"}`,
		`{"refresh_token":"not-a-token"}`,
		`{"nickname":"Renamed"}`,
		`{"reason":"testing"}`,
		`{"title":"Seoul"}`,
		`{"collection_member_id":"xxxxxxxxxxxxxxxxxxxxx"}`,
		`{"place_id":"xxxxxxxxxxxxxxxxxxxxx"}`,
		`{"memo":"티켓 예매 ✔"}`,
		`{"memo":null}`,
		`{"url":"https://blog.example/seoul?utm_source=x#top"}`,
		`{"url":"http://127.0.0.1:5432/"}`,
		`{"place_ids":["xxxxxxxxxxxxxxxxxxxxx"]}`,
		`{"title":"Seoul trip","start_date":"2026-04-01","end_date":"2026-04-03","time_zone":"Asia/Seoul"}`,
		`{"title":"Seoul trip","start_date":"2026-04-01","end_date":"2026-04-01","confirm":true}`,
		`{"title":"Far","start_date":"9999-12-31","end_date":"0001-01-01","time_zone":"../../etc/passwd"}`,
		`{"plan_member_id":"xxxxxxxxxxxxxxxxxxxxx"}`,
		`{"collection_ids":["xxxxxxxxxxxxxxxxxxxxx"]}`,
		`{"type":"PLACE","collection_place_id":"xxxxxxxxxxxxxxxxxxxxx","day":1,"start_time":"12:00","end_time":"13:00"}`,
		`{"type":"FREE","day":"2","start_time":"13:00:00","end_time":"14:30:00.5Z","memo":"rest"}`,
		`{"day":1,"start_time":"23:59:59.999Z","end_time":"00:00"}`,
		`{"day":3,"start_time":"00:00","end_time":"23:59:59.999Z","manual_place":{"name":"Home","address":"Seoul","url":"https://example.com"}}`,
		`{"day":30,"start_time":"24:00","end_time":"25:00"}`,
		`{"collection_place_ids":["xxxxxxxxxxxxxxxxxxxxx"],"place_ids":[]}`,
		`{"block_id":"xxxxxxxxxxxxxxxxxxxxx"}`,
		`{"type":"BUDGET","total_budget":500000,"traveler_count":"3","currency":"KRW"}`,
		`{"type":"EXPENSE","total_budget":"9223372036854775807","traveler_count":-1,"currency":"ZZZ"}`,
		`{"day":1,"items":[{"name":"Taxi","cost":100}],"paid_by":"xxxxxxxxxxxxxxxxxxxxx","split_among":[]}`,
		`{"prev_expense_id":"xxxxxxxxxxxxxxxxxxxxx","items":[{"name":"Tea","cost":"4500"}]}`,
		`[{"name":"Ticket","cost":100},{"expense_item_id":"x","name":"Bus","cost":"12"}]`,
		`{"items":[{"name":"Ticket","cost":1}],"paid_by":null,"split_among":["a","a"]}`,
		`{"type":"POSITIVE","tag_ids":["GOOD_VIEW"],"comment":"nice"}`,
		`{"type":"NEGATIVE","tag_ids":null,"comment":""}`,
	}
	return append(seeds,
		``, `null`, `{}`, `[]`, `"x"`, `1e999`, `{`, `}{`, `{"title":"a"}{"title":"b"}`, `{"title":"a"} x`,
		`{"day":1e400}`, `{"day":1.5}`, `{"day":"-0"}`, `{"day":" 7 "}`, `{"day":"\u0661"}`, `{"day":[1]}`, `{"day":{"n":1}}`,
		`{"total_budget":-9223372036854775809}`, `{"items":[{"cost":"99999999999999999999"}]}`, `{"items":{}}`,
		`{"title":"a\u0000b"}`, `{"nickname":"\ud800"}`, "{\"title\":\"\xff\xfe\"}", `{"title":"x","title":"y"}`,
		`{"start_time":null,"end_time":true}`, `{"start_time":"09:30:15.05","end_time":"09:30:15.1234Z"}`,
		`{"memo":"`+strings.Repeat("m", 2000)+`"}`, strings.Repeat("[", 5000), strings.Repeat(`{"a":`, 1000),
	)
}()
