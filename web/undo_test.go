package web

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestADeletedBlockCanBePutBack: DELETE answers where to restore the block (Link, rel
// "restore"); POST there puts it back with the same id and candidates, once, for members,
// and the plan's history says so; the plan page gets an Undo toast with the deletion.
func TestADeletedBlockCanBePutBack(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	blocks := "/plans/" + f.plan.PlanID + "/blocks"
	tb := decodeBlock(t, a.do(req{Method: "POST", Path: blocks, Token: f.ana,
		Body: map[string]any{"type": "PLACE", "collection_place_id": f.places[0].CollectionPlaceID, "day": 1, "start_time": "10:00", "end_time": "11:00"}}))
	a.do(req{Method: "POST", Path: blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}})

	res := a.do(req{Method: "DELETE", Path: blocks + "/" + tb.TimeBlockID, Token: f.ana})
	link := regexp.MustCompile(`^<(/plans/[^>]+/deleted-blocks/[^/>]+/restore)>; rel="restore"$`).FindStringSubmatch(res.Header.Get("Link"))
	if res.Status != http.StatusNoContent || link == nil {
		t.Fatalf("DELETE: %d, Link %q", res.Status, res.Header.Get("Link"))
	}
	a.do(req{Method: "POST", Path: link[1], Token: f.eve}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
	back := decodeBlock(t, a.do(req{Method: "POST", Path: link[1], Token: f.ben}))
	if back.TimeBlockID != tb.TimeBlockID || back.CandidateCount != 2 || back.StartTime != tb.StartTime {
		t.Fatalf("restored %+v, was %+v", back, tb)
	}
	a.do(req{Method: "POST", Path: link[1], Token: f.ana}).problem(t, 404, "DELETION_NOT_FOUND")
	a.do(req{Method: "POST", Path: "/plans/" + f.plan.PlanID + "/deleted-blocks/nope/restore", Token: f.ana}).problem(t, 404, "DELETION_NOT_FOUND")

	page := history[planMemberJSON](t, a, f.ana, "/plans/"+f.plan.PlanID+"/activity")
	if len(page.Contents) == 0 || page.Contents[0].Kind != "BLOCK_RESTORED" || !strings.HasPrefix(page.Contents[0].Summary, "Ben put back ") {
		t.Errorf("the newest history entry is %+v, want Ben putting the block back", page.Contents[0])
	}

	// The plan page: the day without the block and, out of band, the toast.
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	day := fragment(t, a.htmx(ana, "DELETE", blocks+"/"+tb.TimeBlockID+"?day=1", ""), http.StatusOK)
	mustHave(t, day, `<div id="flash" hx-swap-oob="innerHTML">`, "data-undo", "Deleted Gyeongbokgung Palace or Gwangjang Market, day 1, 10:00–11:00", `/restore?day=1"`)
	if strings.Contains(day, `data-time-block-id="`+tb.TimeBlockID+`"`) {
		t.Errorf("the day still shows the deleted block")
	}
}
