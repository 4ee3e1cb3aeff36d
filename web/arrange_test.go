package web

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// arrangeFixture is a plan whose day 1 holds the palace at 10:00–11:00 (the block moved) and
// the market at 13:00–14:00, with Ana's browser session.
type arrangeFixture struct {
	*planFixture
	ana       *http.Client
	block     timeBlockJSON
	candidate string
}

func newArrangeFixture(t *testing.T) *arrangeFixture {
	f := &arrangeFixture{planFixture: newPlanFixture(t)}
	f.block = decodeBlock(t, f.add(f.planFixture.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	decodeBlock(t, f.add(f.planFixture.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "13:00", "14:00")))
	f.candidate = f.block.Candidates[0].BlockID
	f.ana = f.a.signedInBrowser(t, "pf-ana", "Ana")
	return f
}

// move PATCHes the block as the plan page does (htmx, a form, If-Match) at path's query.
func (f *arrangeFixture) move(query string, form url.Values, version int) response {
	return f.a.do(req{Method: "PATCH", Path: f.blocks + "/" + f.candidate + query, Client: f.ana, Body: form.Encode(),
		Header: map[string]string{"Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin",
			"Content-Type": "application/x-www-form-urlencoded", "If-Match": `"` + strconv.Itoa(version) + `"`}})
}

// TestAMoveOnThePlanPageIsAnnouncedAndUndoable: a move from the plan page answers the day it
// shows (?day=), says the move in the live region, and brings an Undo toast whose button PATCHes
// the block back to where it was against its new version; that undo answers "moved back" and
// takes the toast away. A memo-only edit brings no toast.
func TestAMoveOnThePlanPageIsAnnouncedAndUndoable(t *testing.T) {
	f := newArrangeFixture(t)
	day := html.UnescapeString(fragment(t, f.move("?day=1", url.Values{"day": {"2"}, "start_time": {"14:00"}, "end_time": {"15:00"}}, f.block.Version), http.StatusOK))
	mustHave(t, day, `id="day" data-day="1"`, `<div id="plan-announce" hx-swap-oob="innerHTML">Moved Gyeongbokgung Palace to day 2, 14:00–15:00</div>`,
		`<div id="flash" hx-swap-oob="innerHTML">`, "data-undo", `hx-patch="`+f.blocks+"/"+f.candidate+`?day=1&undo=1"`,
		`hx-vals="{"day":"1","end_time":"11:00","start_time":"10:00"}"`, `"If-Match": "\"`+strconv.Itoa(f.block.Version+1)+`\""`)
	if strings.Contains(day, `data-time-block-id="`+f.block.TimeBlockID+`"`) {
		t.Error("day 1 still shows the block moved to day 2")
	}
	if strings.Contains(day[strings.Index(day, "data-undo"):], `role="status"`) {
		t.Error("the toast is a status region as well as the announcement: it would be read twice")
	}

	back := html.UnescapeString(fragment(t, f.move("?day=1&undo=1", url.Values{"day": {"1"}, "start_time": {"10:00"}, "end_time": {"11:00"}}, f.block.Version+1), http.StatusOK))
	mustHave(t, back, `<div id="plan-announce" hx-swap-oob="innerHTML">Moved Gyeongbokgung Palace back to day 1, 10:00–11:00</div>`,
		`<div id="flash" hx-swap-oob="innerHTML"></div>`, `data-time-block-id="`+f.block.TimeBlockID+`"`)
	if d := decodeBlockDetail(t, f.a.do(req{Method: "GET", Path: f.blocks + "/" + f.candidate, Token: f.planFixture.ana})); d.DayInfo.Day != 1 || !strings.HasPrefix(d.StartTime, "10:00") || !strings.HasPrefix(d.EndTime, "11:00") {
		t.Errorf("after the undo the block is at day %d %s–%s, want day 1 10:00–11:00", d.DayInfo.Day, d.StartTime, d.EndTime)
	}

	memo := fragment(t, f.move("", url.Values{"memo": {"tickets"}}, f.block.Version+2), http.StatusOK)
	if strings.Contains(memo, "data-undo") || strings.Contains(memo, "plan-announce") {
		t.Error("a memo edit brought an Undo toast or an announcement of a move")
	}
}

// TestARefusedMoveOffersTheNextFreeStart: a move from the plan page onto a time another block
// holds answers 409 with the refusal in words (no code) and a button making the same move at
// the day's next free start, same length, same request (?day= kept), same If-Match; the button
// works. JSON clients keep the problem with next_free_start.
func TestARefusedMoveOffersTheNextFreeStart(t *testing.T) {
	f := newArrangeFixture(t)
	res := f.move("?day=1", url.Values{"day": {"1"}, "start_time": {"12:30"}, "end_time": {"13:45"}}, f.block.Version)
	c := html.UnescapeString(fragment(t, res, http.StatusConflict))
	mustHave(t, c, "data-move-conflict", `data-error-code="TIME_BLOCK_OVERLAP"`, "This time is taken",
		"Overlaps “Gwangjang Market” 13:00–14:00 — the next free start is 14:00.", "Move to 14:00–15:15",
		`hx-patch="`+f.blocks+"/"+f.candidate+`?day=1"`, `hx-vals="{"day":"1","end_time":"15:15","start_time":"14:00"}"`,
		`"If-Match": "\"`+strconv.Itoa(f.block.Version)+`\""`, `hx-target="#day"`)
	fragment(t, f.move("?day=1", url.Values{"day": {"1"}, "start_time": {"14:00"}, "end_time": {"15:15"}}, f.block.Version), http.StatusOK)

	p := f.a.do(req{Method: "PATCH", Path: f.blocks + "/" + f.candidate, Token: f.planFixture.ana,
		Body: map[string]any{"start_time": "13:30", "end_time": "14:30"}}).problem(t, http.StatusConflict, "TIME_BLOCK_OVERLAP")
	if next, _ := p["next_free_start"].(string); !strings.HasPrefix(next, "14:00") {
		t.Errorf("the JSON problem's next_free_start is %v, want 14:00", p["next_free_start"])
	}
}

// TestOnlyMembersGetTheArrangeHandles: members' blocks are focusable with Move to… and the
// resize edge; a guest's day has none of them, nor the Move to… dialog.
func TestOnlyMembersGetTheArrangeHandles(t *testing.T) {
	f := newArrangeFixture(t)
	plan := "/plans/" + f.plan.PlanID
	member := fragment(t, f.a.htmx(f.ana, "GET", f.blocks+"?size=100&day=1", ""), http.StatusOK)
	mustHave(t, member, `data-arrange="`+f.candidate+`"`, `tabindex="0"`, "data-move-to", "data-resize-handle", "Alt+Up")
	page := f.a.do(req{Method: "GET", Path: plan, Client: f.ana, Header: map[string]string{"Accept": "text/html"}})
	mustHave(t, string(page.Body), `id="move-dialog"`, "/js/arrange.")

	guest := f.a.guestOf(t, f.a.invite(f.planFixture.ana, plan))
	g := f.a.do(req{Method: "GET", Path: plan, Client: guest, Header: map[string]string{"Accept": "text/html"}})
	if g.Status != http.StatusOK {
		t.Fatalf("a guest's plan page: %d", g.Status)
	}
	for _, no := range []string{"data-arrange=", "data-move-to", "data-resize-handle", `id="move-dialog"`, "Alt+Up"} {
		if strings.Contains(string(g.Body), no) {
			t.Errorf("a guest's plan page has %s", no)
		}
	}
}
