package web

import (
	"net/http"
	"testing"
)

// A HEAD is answered as the GET of the same address without its body (monitors, link checkers,
// chat apps' link previews); an event stream's HEAD is refused, as its answer never ends.
func TestHeadAnswersAsGet(t *testing.T) {
	a := newTestApp(t)
	ana, _ := a.signIn("head-ana", "Ana")
	plan := a.createPlan(ana, "Head trip", "2026-12-01", "2026-12-02")
	for _, path := range []string{"/healthz", "/login", "/plans/" + plan.PlanID} {
		get := a.do(req{Method: "GET", Path: path, Token: ana})
		head := a.do(req{Method: "HEAD", Path: path, Token: ana})
		if head.Status != get.Status || head.Status != http.StatusOK || len(head.Body) != 0 ||
			head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d %q (%d bytes), GET: %d %q", path, head.Status, head.Header.Get("Content-Type"), len(head.Body),
				get.Status, get.Header.Get("Content-Type"))
		}
	}
	// The same version as a GET's, so a client can check for changes with a HEAD.
	if get, head := a.do(req{Method: "GET", Path: "/plans/" + plan.PlanID, Token: ana}), a.do(req{Method: "HEAD", Path: "/plans/" + plan.PlanID, Token: ana}); head.Header.Get("ETag") == "" || head.Header.Get("ETag") != get.Header.Get("ETag") {
		t.Errorf("HEAD of the plan: ETag %q, GET's %q", head.Header.Get("ETag"), get.Header.Get("ETag"))
	}
	if res := a.do(req{Method: "HEAD", Path: "/plans/" + plan.PlanID + "/events", Token: ana}); res.Status != http.StatusMethodNotAllowed {
		t.Errorf("HEAD of the event stream: %d, want 405", res.Status)
	}
}
