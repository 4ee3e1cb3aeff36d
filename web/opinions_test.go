package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOpinions(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	free := decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 1, "start_time": "12:00", "end_time": "13:00"}))
	cand := tb.Candidates[0].BlockID
	path := f.blocks + "/" + cand + "/opinions"

	for _, bad := range []map[string]any{{}, {"type": "MEH"}, {"type": "POSITIVE", "comment": strings.Repeat("x", 301)},
		{"type": "POSITIVE", "tag_ids": []string{"Bad Tag"}}, {"type": "POSITIVE", "tag_ids": strings.Split("a,b,c,d,e,f,g,h,i,j,k", ",")}} {
		a.do(req{Method: "POST", Path: path, Token: f.ben, Body: bad}).problem(t, 400, "INVALID_REQUEST")
	}
	a.do(req{Method: "POST", Path: f.blocks + "/" + free.Candidates[0].BlockID + "/opinions", Token: f.ben, Body: map[string]any{"type": "POSITIVE"}}).
		problem(t, 400, "BLOCK_NOT_PLACE_TYPE")
	a.do(req{Method: "POST", Path: f.blocks + "/" + strings.Repeat("q", 21) + "/opinions", Token: f.ben, Body: map[string]any{"type": "POSITIVE"}}).
		problem(t, 404, "BLOCK_NOT_FOUND")

	res := a.do(req{Method: "POST", Path: path, Token: f.ben, Body: map[string]any{"type": "POSITIVE", "tag_ids": []string{"view"}, "comment": "Go at sunset"}})
	var benOp opinionJSON
	if json.Unmarshal(res.Body, &benOp); res.Status != 201 || benOp.AddedBy.Nickname != "Ben" || benOp.TagIDs[0] != "view" ||
		res.Header.Get("Location") != path+"/"+benOp.OpinionID {
		t.Fatalf("add: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "POST", Path: path, Token: f.ben, Body: map[string]any{"type": "NEGATIVE"}}).problem(t, 409, "BLOCK_OPINION_ALREADY_EXISTS")
	a.do(req{Method: "POST", Path: path, Token: f.ana, Body: map[string]any{"type": "NEGATIVE"}})

	var list []opinionJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: path, Token: f.ana}).Body, &list)
	if len(list) != 2 || list[0].OpinionID != benOp.OpinionID || list[1].Type != "NEGATIVE" {
		t.Fatalf("list: %+v", list)
	}
	// The tallies and "my" opinion on the day listing follow.
	var day dayBlocksJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: f.blocks + "?day=1", Token: f.ben}).Body, &day)
	sum := day.Contents[0].Candidates[0].OpinionSummary
	type summaryShape struct {
		Total, Positive, Negative int
		Mine                      string
	}
	gotSum := summaryShape{Total: sum.TotalCount, Positive: sum.Distribution.Positive, Negative: sum.Distribution.Negative}
	if sum.My != nil {
		gotSum.Mine = sum.My.OpinionID
	}
	if diff := cmp.Diff(summaryShape{Total: 2, Positive: 1, Negative: 1, Mine: benOp.OpinionID}, gotSum); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}

	// Only the author may change or delete it.
	one := path + "/" + benOp.OpinionID
	a.do(req{Method: "PUT", Path: one, Token: f.ana, Body: map[string]any{"type": "NEUTRAL"}}).problem(t, 403, "BLOCK_OPINION_FORBIDDEN")
	a.do(req{Method: "DELETE", Path: one, Token: f.ana}).problem(t, 403, "BLOCK_OPINION_FORBIDDEN")
	res = a.do(req{Method: "PUT", Path: one, Token: f.ben, Body: map[string]any{"type": "NEUTRAL"}})
	var updated opinionJSON
	if json.Unmarshal(res.Body, &updated); res.Status != 200 || updated.Type != "NEUTRAL" || updated.Comment != "" || len(updated.TagIDs) != 0 {
		t.Fatalf("full replace: %d %s", res.Status, res.Body)
	}
	if r := a.do(req{Method: "DELETE", Path: one, Token: f.ben}); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d", r.Status)
	}
	a.do(req{Method: "GET", Path: one, Token: f.ben}).problem(t, 404, "BLOCK_OPINION_NOT_FOUND")
	a.do(req{Method: "GET", Path: path, Token: f.eve}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
}

func TestOpinionButtonsInThePicker(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	cand := tb.Candidates[0].BlockID
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	picker := fragment(t, a.htmx(b, "GET", f.blocks+"/"+tb.TimeBlockID+"/candidates", ""), http.StatusOK)
	if !strings.Contains(picker, `hx-post="`+f.blocks+"/"+cand+`/opinions"`) || !strings.Contains(picker, "Great view") {
		t.Fatalf("picker has no opinion buttons: %s", picker)
	}
	// A click gives the opinion and answers the picker with the tally and the button pressed.
	picker = fragment(t, a.htmx(b, "POST", f.blocks+"/"+cand+"/opinions", "type=POSITIVE&tag_ids=view&comment=sunset"), http.StatusCreated)
	if !strings.Contains(picker, `aria-pressed="true"`) || !strings.Contains(picker, "hx-delete=") {
		t.Fatalf("after the click: %s", picker)
	}
	var list []opinionJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: f.blocks + "/" + cand + "/opinions", Token: f.ana}).Body, &list)
	if len(list) != 1 || list[0].Comment != "sunset" || list[0].TagIDs[0] != "view" {
		t.Fatalf("stored: %+v", list)
	}
	// Clicking it again takes it back.
	picker = fragment(t, a.htmx(b, "DELETE", f.blocks+"/"+cand+"/opinions/"+list[0].OpinionID, ""), http.StatusOK)
	if strings.Contains(picker, `aria-pressed="true"`) {
		t.Fatalf("after taking it back: %s", picker)
	}
}
