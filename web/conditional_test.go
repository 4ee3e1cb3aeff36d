package web

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A client polling a day listing gets 304 with no body while nothing changes, and the new
// listing with a new ETag once something does.
func TestConditionalGET(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	day := f.blocks + "?day=1"
	first := a.do(req{Method: "GET", Path: day, Token: f.ben})
	tag := first.Header.Get("ETag")
	if first.Status != 200 || !strings.HasPrefix(tag, `W/"`) || first.Header.Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("first: %d %q %q", first.Status, tag, first.Header.Get("Cache-Control"))
	}
	again := a.do(req{Method: "GET", Path: day, Token: f.ben, Header: map[string]string{"If-None-Match": tag}})
	if again.Status != http.StatusNotModified || len(again.Body) != 0 || again.Header.Get("ETag") != tag {
		t.Fatalf("unchanged: %d %q %q", again.Status, again.Body, again.Header.Get("ETag"))
	}
	// Any of several tags, and the strong form of a weak one, match (weak comparison).
	list := `"nope", ` + strings.TrimPrefix(tag, "W/")
	if r := a.do(req{Method: "GET", Path: day, Token: f.ben, Header: map[string]string{"If-None-Match": list}}); r.Status != 304 {
		t.Fatalf("tag list: %d", r.Status)
	}
	// Another member adds a block: the next poll gets it.
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	changed := a.do(req{Method: "GET", Path: day, Token: f.ben, Header: map[string]string{"If-None-Match": tag}})
	if changed.Status != 200 || changed.Header.Get("ETag") == tag || !strings.Contains(string(changed.Body), "Gyeongbokgung") {
		t.Fatalf("changed: %d %q", changed.Status, changed.Header.Get("ETag"))
	}
	// The JSON and the partial of one URL are different representations.
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	partial := a.htmx(b, "GET", day, "")
	if partial.Header.Get("ETag") == "" || partial.Header.Get("ETag") == changed.Header.Get("ETag") {
		t.Fatalf("partial etag %q: %d %v", partial.Header.Get("ETag"), partial.Status, partial.Header)
	}
	// Someone who may not read the plan is refused whatever tag they send.
	a.do(req{Method: "GET", Path: day, Token: f.eve, Header: map[string]string{"If-None-Match": changed.Header.Get("ETag")}}).
		problem(t, 403, "FORBIDDEN_NOT_MEMBER")
	// Errors and writes carry no ETag.
	if r := a.do(req{Method: "GET", Path: "/plans/nope", Token: f.ben}); r.Header.Get("ETag") != "" {
		t.Error("a 404 has an ETag")
	}
	if r := f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "12:00", "13:00")); r.Header.Get("ETag") != "" {
		t.Error("a POST has an ETag")
	}
	// Streams are not held back.
	s := a.subscribe(t, "/plans/"+f.plan.PlanID+"/events", f.ben, "")
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 1, "14:00", "15:00")))
	for ev := s.next(t, 5*time.Second); ev.Event != "block"; ev = s.next(t, 5*time.Second) {
	}
}
