package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// sendJSON sends a JSON request with the browser's own session (same origin, so the CSRF
// check lets it through) and decodes the answer into T; an error status fails the test.
func sendJSON[T any](t *testing.T, b *browser, method, path string, body any) T {
	t.Helper()
	return eval[T](t, b, fmt.Sprintf(`fetch(%s, {method: %s, headers: {Accept: "application/json", "Content-Type": "application/json"}, body: JSON.stringify(%s)})
		.then(r => r.text().then(text => { if (!r.ok) throw new Error(r.status + " " + text); return text ? JSON.parse(text) : null; }))`,
		js(path), js(method), jsValue(body)))
}

// newCollectionWith makes a collection of the browser's user holding the places found first by
// searching each name, through the JSON API; it answers the collection's id and the collection
// place ids, in the order of names.
func newCollectionWith(t *testing.T, b *browser, title string, names ...string) (string, []string) {
	t.Helper()
	col := sendJSON[collectionJSON](t, b, "POST", "/collections", map[string]string{"title": title})
	var cps []string
	for _, q := range names {
		found := getJSON[[]placeJSON](t, b, "/places/search?query="+strings.ReplaceAll(q, " ", "+"))
		if len(found) == 0 {
			t.Fatalf("no place found for %q", q)
		}
		cp := sendJSON[struct {
			CollectionPlaceID string `json:"collection_place_id"`
		}](t, b, "POST", "/collections/"+col.CollectionID+"/places", map[string]string{"place_id": found[0].PlaceID})
		cps = append(cps, cp.CollectionPlaceID)
	}
	return col.CollectionID, cps
}

// touchAt is one touch event: a finger down or moving at (x, y), or lifted (TouchEnd).
func touchAt(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
		if typ != input.DispatchTouchEventTypeTouchEnd {
			p.TouchPoints = []*input.TouchPoint{{X: x, Y: y}}
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, p)
		return err
	})
}

// center is the middle of the first element the CSS selector matches, in viewport pixels,
// after scrolling it into view.
func center(t *testing.T, b *browser, css string) (x, y float64) {
	t.Helper()
	b.waitUntil(t, css+" shown", fmt.Sprintf(`(e => e && e.getClientRects().length > 0)(document.querySelector(%s))`, js(css)))
	p := eval[[]float64](t, b, fmt.Sprintf(`(e => { e.scrollIntoView({block: "center", behavior: "instant"}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })(document.querySelector(%s))`, js(css)))
	return p[0], p[1]
}

// tapOn is a tap at the middle of the element: a finger down and lifted.
func tapOn(t *testing.T, b *browser, css string) []chromedp.Action[chromedp.Void] {
	t.Helper()
	b.idle(t)
	x, y := center(t, b, css)
	return []chromedp.Action[chromedp.Void]{touchAt(input.DispatchTouchEventTypeTouchStart, x, y), touchAt(input.DispatchTouchEventTypeTouchEnd, 0, 0)}
}

// tapInPlace taps the element where it is, once it is wholly on the screen (as a person taps
// what they see): unlike tap, nothing is scrolled first — in a scroll-snap carousel a scroll
// made for the tap would snap to another card.
func tapInPlace(t *testing.T, b *browser, css string) {
	t.Helper()
	b.waitUntil(t, css+" wholly on the screen", inViewport(css))
	b.idle(t)
	p := eval[[]float64](t, b, fmt.Sprintf(`(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector(%s).getBoundingClientRect())`, js(css)))
	b.do(t, "tap "+css, touchAt(input.DispatchTouchEventTypeTouchStart, p[0], p[1]), touchAt(input.DispatchTouchEventTypeTouchEnd, 0, 0))
}

// tap taps the element, as a person taps.
func tap(t *testing.T, b *browser, css string) {
	t.Helper()
	b.do(t, "tap "+css, tapOn(t, b, css)...)
}

// fitsScreen checks that the page is no wider than the screen, width px (a phone's layout
// viewport widens to the page, so innerWidth alone would not tell).
func fitsScreen(t *testing.T, b *browser, width int, where string) {
	t.Helper()
	if w := eval[[]int](t, b, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > width || w[1] > width {
		t.Errorf("%s: the page is %d px wide (scrollWidth) in a %d px window (innerWidth), want both at most %d", where, w[0], w[1], width)
	}
}

// checkInViewport checks that the element is shown and lies inside the viewport.
func checkInViewport(t *testing.T, b *browser, css string) {
	t.Helper()
	if !eval[bool](t, b, inViewport(css)) {
		r := eval[[]float64](t, b, fmt.Sprintf(`(r => [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight])(document.querySelector(%s).getBoundingClientRect())`, js(css)))
		t.Errorf("%s is hidden or reaches outside the %gx%g viewport: %v", css, r[4], r[5], r[:4])
	}
}

type placeJSON struct {
	PlaceID string `json:"place_id"`
	Name    string `json:"name"`
}

// TestPlanPageWithoutDragging is issue 16's plan page: on a 390×844 phone the day is a
// timeline of cards and gaps, and a place is added by tapping "Add" on a gap, searching and
// picking it, or by pressing and holding a place of the places sheet and dragging it onto
// the timeline (touch events); at 1440×900 a candidate is added with the keyboard alone in
// at most 10 key presses, and blocks of 15 to 60 minutes are readable. The page is never
// wider than the screen; screenshots of both sizes are kept.
func TestPlanPageWithoutDragging(t *testing.T) {
	s := newScenario(t, "ana")
	ana, base := s.browsers[0], s.srv.base

	const planTitle = "Phone trip"
	var planID, colID string
	blocksOf := func(t *testing.T, day int) []timeBlockJSON {
		t.Helper()
		return getJSON[dayBlocksJSON](t, ana, fmt.Sprintf("/plans/%s/blocks?day=%d", planID, day)).Contents
	}
	blockAt := func(t *testing.T, day int, start string) *timeBlockJSON {
		t.Helper()
		for _, b := range blocksOf(t, day) {
			if strings.HasPrefix(b.StartTime, start) {
				return &b
			}
		}
		return nil
	}

	s.step("Ana signs in and has a plan with a linked collection", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		var cps []string
		colID, cps = newCollectionWith(t, ana, "Phone picks", palace, market)
		planID = newPlanWith(t, ana, planTitle, 2, 2, colID)
		// Day 1: the palace at 14:00, to take a second candidate. Day 2: blocks of 15, 30, 45
		// and 60 minutes with memos, to read.
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[0], "day": 1, "start_time": "14:00", "end_time": "15:00"})
		for i, b := range []struct{ start, end string }{{"09:00", "09:15"}, {"10:00", "10:30"}, {"11:00", "11:45"}, {"12:00", "13:00"}} {
			sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[i%2], "day": 2,
				"start_time": b.start, "end_time": b.end, "memo": "Meet at exit 3 and book the tickets ahead"})
		}
	})

	s.step("on a phone, the day is a timeline that fits the screen", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1's timeline", `document.querySelector('#day[data-day="1"] [data-gap]')`)
		fitsScreen(t, ana, 390, "plan page at 390")
		if n := eval[int](t, ana, `[...document.querySelectorAll("#day [data-slot]")].filter(e => e.getClientRects().length).length`); n != 0 {
			t.Errorf("%d quarter-hour rows of the grid show on a phone, want the timeline only", n)
		}
		gaps := eval[string](t, ana, `[...document.querySelectorAll("#day [data-gap]")].map(g => g.innerText.replace(/\s+/g, " ").trim()).join(" | ")`)
		if want := "09:00–14:00 · 5 h free Fill Add | 15:00–21:00 · 6 h free Fill Add"; gaps != want {
			t.Errorf("the timeline's gaps say %q, want %q", gaps, want)
		}
		if first := eval[string](t, ana, `document.querySelector("#day [data-add-here]:not([data-add-until])").getAttribute("data-add-here")`); first != "540" {
			t.Errorf(`"+" opens at minute %s, want 540 (09:00, the first free hour)`, first)
		}
		screenshot(t, ana, "plan-390-day1", false)
		// The day's map is the day's Map view on a phone, not under the timeline.
		if eval[bool](t, ana, `document.querySelector("#day-route").getClientRects().length > 0`) {
			t.Errorf("the route shows under the phone's timeline, want it in the Map view")
		}
		tap(t, ana, `[data-day-view="map"]`)
		// Scrolled down the day (its map), its tabs stay in sight just below the page header.
		eval[chromedp.Void](t, ana, `window.scrollTo({top: document.querySelector("#day-route").getBoundingClientRect().top + scrollY, behavior: "instant"})`)
		if r := eval[[]float64](t, ana, `[document.querySelector("header").getBoundingClientRect().bottom, document.querySelector('#day nav[aria-label="Days"]').getBoundingClientRect().top]`); r[1] < r[0]-0.5 || r[1] > r[0]+1 {
			t.Errorf("scrolled, the day tabs' top is at %.1f px, want just below the header's bottom at %.1f px", r[1], r[0])
		}
		screenshot(t, ana, "plan-390-day1-scrolled", false)
		// Leaflet (loaded by map.js only for a map near the screen) draws the palace's pin with
		// Leaflet's style sheet in force.
		ana.waitUntil(t, "the day's map drawn", `window.L && document.querySelector("#day-route [data-map-canvas][data-drawn] .map-stop") &&
			getComputedStyle(document.querySelector("#day-route .leaflet-container")).overflow === "hidden"`)
		if n := eval[int](t, ana, `performance.getEntriesByType("resource").filter(r => /\/leaflet\.[0-9a-f]{10}\.(js|css)$/.test(r.name)).length`); n != 2 {
			t.Errorf("Leaflet's files loaded by hashed name: %d, want 2 (its script and style sheet)", n)
		}
		tap(t, ana, `[data-day-view="timeline"]`)
	})

	s.step("on a phone, Ana taps Add on a gap, searches, picks a place and confirms", func(t *testing.T) {
		tap(t, ana, `#day [data-gap="900"] [data-add-here]`)
		ana.waitUntil(t, "the Add here dialog", `document.querySelector("#block-dialog").open`)
		if got := eval[[]string](t, ana, `["#add-day", "#add-start", "#add-end"].map(s => document.querySelector(s).value)`); strings.Join(got, " ") != "1 15:00 16:00" {
			t.Errorf("Add here proposes %q, want the gap: 1 15:00 16:00", got)
		}
		ana.waitUntil(t, "the plan's places offered", fmt.Sprintf(`[...document.querySelectorAll("#add-choices [data-choice]")].some(b => b.dataset.placeName === %s)`, js(market)))
		checkInViewport(t, ana, "#block-dialog")
		ana.typeInto(t, "#add-search", "Seoul Tower")
		choice := fmt.Sprintf(`#add-choices [data-choice][data-place-name=%s]`, js(tower))
		ana.waitUntil(t, tower+" found by search", fmt.Sprintf(`document.querySelector(%s)`, js(choice)))
		if cp := eval[string](t, ana, fmt.Sprintf(`document.querySelector(%s).dataset.collectionPlaceId`, js(choice))); cp != "" {
			t.Errorf("%s is offered from a collection (%s), want from search", tower, cp)
		}
		screenshot(t, ana, "plan-390-add-here", false)
		tap(t, ana, choice)
		ana.waitUntil(t, "the choice shown", fmt.Sprintf(`document.querySelector("#block-dialog [data-place-label]").textContent === %s`, js(tower)))
		checkInViewport(t, ana, `#block-dialog button[type="submit"]`)
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/blocks/by-place"}, "tap Add block", tapOn(t, ana, `#block-dialog button[type="submit"]`)...)
		ana.waitUntil(t, "the dialog closed and "+tower+" on the timeline", fmt.Sprintf(
			`!document.querySelector("#block-dialog").open && [...document.querySelectorAll("#day li[data-time-block-id]")].some(li => li.dataset.start === "15:00" && li.innerText.includes(%s))`, js(tower)))
		if got, want := eval[string](t, ana, textOf("#plan-announce")), "Added "+tower+", day 1, 15:00–16:00"; got != want {
			t.Errorf("the live region says %q, want %q", got, want)
		}
		if eval[string](t, ana, `document.querySelector("#plan-announce").getAttribute("aria-live")`) != "polite" {
			t.Errorf("the announcement is not in a polite live region")
		}
		ana.waitUntil(t, "the new block scrolled into view", `(r => r.top >= 0 && r.bottom <= innerHeight)(document.querySelector('#day li[data-time-block-id][data-start="15:00"]').getBoundingClientRect())`)
		if b := blockAt(t, 1, "15:00"); b == nil || b.candidateNamed(tower) == nil {
			t.Errorf("GET blocks?day=1 has no 15:00 block with %s: %+v", tower, b)
		}
		// The place from search joined the plan's own collection, named after the plan.
		linked := getJSON[[]struct {
			CollectionID string `json:"collection_id"`
			Title        string `json:"title"`
		}](t, ana, "/plans/"+planID+"/collections")
		if len(linked) != 2 || linked[1].Title != planTitle {
			t.Errorf("linked collections %+v, want %q and the plan's own %q", linked, "Phone picks", planTitle)
		}
		fitsScreen(t, ana, 390, "plan page at 390 after adding")
		screenshot(t, ana, "plan-390-added", false)
	})

	s.step("at 1440×900, Ana adds a candidate at 14:00 and a place at 17:00 with the keyboard alone, each in at most 10 key presses", func(t *testing.T) {
		// Free time in the morning: its controls come before the 14:00 block's in the tab order.
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "FREE", "day": 1, "start_time": "10:00", "end_time": "11:00"})
		desktop.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1's grid", `document.readyState === "complete" && document.querySelector('#day[data-day="1"] [data-slot]').getClientRects().length > 0`)
		fitsScreen(t, ana, 1440, "plan page at 1440")
		presses := 0
		press := func(key, what, focused string) {
			t.Helper()
			presses++
			ana.idle(t) // a person presses no faster than htmx settles new content
			ana.do(t, fmt.Sprintf("key %d: %s", presses, what), chromedp.KeyEvent(key))
			if focused != "" {
				ana.waitUntil(t, fmt.Sprintf("after key %d (%s) the focus on %s", presses, what, focused), fmt.Sprintf(`document.activeElement && document.activeElement.matches(%s)`, js(focused)))
			}
		}
		const palaceBlock = `#day li[data-time-block-id][data-start="14:00"]`
		press(kb.Tab, "Tab to the skip link", `a[href="#main"]`)
		press(kb.Enter, "Enter: skip to the content", `#main`)
		press(kb.Tab, "Tab to the day's skip link", `a[href="#day-timeline"]`)
		press(kb.Enter, "Enter: skip to the timeline", `#day-timeline`)
		press("1", "type 1", `#day-timeline`)
		press("4", "type 4: the 14:00 block's candidates", palaceBlock+` button[hx-get$="/candidates"]`)
		press(kb.Enter, "Enter: open the candidates", `#picker-body [data-add-candidate]`)
		press(kb.Enter, "Enter: Add a candidate", `#candidate-search`)
		ana.waitUntil(t, "the plan's places offered", fmt.Sprintf(`(document.querySelector("#candidate-choices [data-choice]") || {}).dataset?.placeName === %s`, js(market)))
		press(kb.ArrowDown, "ArrowDown to "+market, `#candidate-choices [data-choice]`)
		tbID := eval[string](t, ana, fmt.Sprintf(`document.querySelector(%s).dataset.timeBlockId`, js(palaceBlock)))
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/blocks/" + tbID + "/candidates"}, "key 10: Enter: add "+market, chromedp.KeyEvent(kb.Enter))
		presses++
		if presses > 10 {
			t.Errorf("adding a candidate at 14:00 took %d key presses, want at most 10", presses)
		}
		if got, want := eval[string](t, ana, textOf("#plan-announce")), "Added "+market+" as a 2nd candidate, day 1, 14:00–15:00"; got != want {
			t.Errorf("the live region says %q, want %q", got, want)
		}
		if b := blockAt(t, 1, "14:00"); b == nil || b.CandidateCount != 2 || b.candidateNamed(market) == nil {
			t.Errorf("GET blocks?day=1: the 14:00 block is %+v, want %s and %s as candidates", b, palace, market)
		}
		s.dialogClosed(t, ana, "#picker-dialog", "adding a candidate")

		// 17:00 is free: typing it opens "Add here" there, up to the next block.
		ana.do(t, "reload the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1's grid", `document.readyState === "complete" && document.querySelector('#day[data-day="1"] [data-slot]').getClientRects().length > 0`)
		presses = 0
		press(kb.Tab, "Tab to the skip link", `a[href="#main"]`)
		press(kb.Enter, "Enter: skip to the content", `#main`)
		press(kb.Tab, "Tab to the day's skip link", `a[href="#day-timeline"]`)
		press(kb.Enter, "Enter: skip to the timeline", `#day-timeline`)
		press("1", "type 1", `#day-timeline`)
		press("7", "type 7: Add here at 17:00", `#add-search`)
		if got := eval[[]string](t, ana, `["#add-day", "#add-start", "#add-end", "#add-search"].map(s => document.querySelector(s).value)`); strings.Join(got, " ") != "1 17:00 18:00 " {
			t.Errorf("typing 17 proposes %q, want 1 17:00 18:00 and an empty search", got)
		}
		ana.waitUntil(t, "the plan's places offered", fmt.Sprintf(`(document.querySelector("#add-choices [data-choice]") || {}).dataset?.placeName === %s`, js(market)))
		press(kb.ArrowDown, "ArrowDown to "+market, `#add-choices [data-choice]`)
		press(kb.Enter, "Enter: choose "+market, `#block-dialog button[type="submit"]`)
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/blocks"}, "key 9: Enter: Add block", chromedp.KeyEvent(kb.Enter))
		presses++
		if presses > 10 {
			t.Errorf("adding a place at 17:00 took %d key presses, want at most 10", presses)
		}
		if b := blockAt(t, 1, "17:00"); b == nil || b.candidateNamed(market) == nil {
			t.Errorf("GET blocks?day=1 has no 17:00 block with %s: %+v", market, b)
		}
		s.dialogClosed(t, ana, "#block-dialog", "adding at 17:00")
		screenshot(t, ana, "plan-1440-day1", false)
	})

	s.step("on a phone, Ana presses and holds a place of the places sheet and drags it onto the timeline", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1's timeline", `document.readyState === "complete" && document.querySelector('#day[data-day="1"] [data-gap]')`)
		tap(t, ana, `#day [data-open-panel]`)
		ana.waitUntil(t, "the places sheet", `getComputedStyle(document.querySelector("#places-panel")).position === "fixed" && document.querySelector("#places-panel").getClientRects().length > 0`)
		checkInViewport(t, ana, "#places-panel")
		// A tap outside the sheet (on the plan's title) closes it; the button opens it again.
		eval[chromedp.Void](t, ana, `window.scrollTo({top: 0, behavior: "instant"})`)
		title := eval[[]float64](t, ana, `(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector("main h1").getBoundingClientRect())`)
		if top := eval[float64](t, ana, `document.querySelector("#places-panel").getBoundingClientRect().top`); title[1] >= top {
			t.Fatalf("the title (y %.0f) is under the sheet (top %.0f)", title[1], top)
		}
		ana.do(t, "tap the plan's title", touchAt(input.DispatchTouchEventTypeTouchStart, title[0], title[1]), touchAt(input.DispatchTouchEventTypeTouchEnd, 0, 0))
		ana.waitUntil(t, "the places sheet closed", `document.querySelector("#places-panel").getClientRects().length === 0 && document.querySelector("#day [data-open-panel]").getAttribute("aria-expanded") === "false"`)
		tap(t, ana, `#day [data-open-panel]`)
		ana.waitUntil(t, "the places sheet again", `document.querySelector("#places-panel").getClientRects().length > 0`)
		// The person scrolls the morning's free time above the sheet.
		gap := `#day [data-gap="540"]`
		eval[chromedp.Void](t, ana, fmt.Sprintf(`window.scrollBy({top: document.querySelector(%s).getBoundingClientRect().top - 230, behavior: "instant"})`, js(gap)))
		screenshot(t, ana, "plan-390-places-sheet", false)
		card := fmt.Sprintf(`#panel-places li[data-place-name=%s]`, js(market))
		middle := func(css string) (float64, float64) {
			p := eval[[]float64](t, ana, fmt.Sprintf(`(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector(%s).getBoundingClientRect())`, js(css)))
			return p[0], p[1]
		}
		fx, fy := middle(card)
		gx, gy := middle(gap)
		if top := eval[float64](t, ana, `document.querySelector("#places-panel").getBoundingClientRect().top`); gy >= top {
			t.Fatalf("the gap (y %.0f) is under the sheet (top %.0f)", gy, top)
		}
		ana.do(t, "press and hold "+market, touchAt(input.DispatchTouchEventTypeTouchStart, fx, fy))
		ana.waitUntil(t, "the held place to follow the finger", `document.querySelector("[data-drag-ghost]")`)
		const steps = 6
		var moves []chromedp.Action[chromedp.Void]
		for i := 1; i <= steps; i++ {
			moves = append(moves, touchAt(input.DispatchTouchEventTypeTouchMove, fx+(gx-fx)*float64(i)/steps, fy+(gy-fy)*float64(i)/steps))
		}
		ana.do(t, "drag "+market+" onto the 09:00 gap", moves...)
		ana.waitUntil(t, "the gap lit as the drop target", fmt.Sprintf(`document.querySelector(%s).classList.contains("ring-2")`, js(gap)))
		ana.do(t, "lift the finger", touchAt(input.DispatchTouchEventTypeTouchEnd, 0, 0))
		ana.waitUntil(t, "Add here for the dropped place", fmt.Sprintf(`document.querySelector("#block-dialog").open && document.querySelector("#block-dialog [data-place-label]").textContent === %s`, js(market)))
		if got := eval[[]string](t, ana, `["#add-day", "#add-start", "#add-end"].map(s => document.querySelector(s).value)`); strings.Join(got, " ") != "1 09:00 10:00" {
			t.Errorf("the drop proposes %q, want 1 09:00 10:00", got)
		}
		if n := eval[int](t, ana, `document.querySelectorAll("[data-drag-ghost]").length`); n != 0 {
			t.Errorf("the dragged place's picture stayed after the drop")
		}
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/blocks"}, "tap Add block", tapOn(t, ana, `#block-dialog button[type="submit"]`)...)
		ana.waitUntil(t, market+" at 09:00 on the timeline", fmt.Sprintf(
			`[...document.querySelectorAll("#day li[data-time-block-id]")].some(li => li.dataset.start === "09:00" && li.innerText.includes(%s))`, js(market)))
		if got, want := eval[string](t, ana, textOf("#plan-announce")), "Added "+market+", day 1, 09:00–10:00"; got != want {
			t.Errorf("the live region says %q, want %q", got, want)
		}
		if b := blockAt(t, 1, "09:00"); b == nil || b.candidateNamed(market) == nil {
			t.Errorf("GET blocks?day=1 has no 09:00 block with %s", market)
		}
		fitsScreen(t, ana, 390, "plan page at 390 after the drag")
	})

	s.step("at 1440×900, blocks of 15, 30, 45 and 60 minutes are readable and a short block's actions open by keyboard", func(t *testing.T) {
		desktop.emulate(t, ana)
		ana.do(t, "open day 2", chromedp.Navigate(base+"/plans/"+planID+"?day=2"))
		ana.waitUntil(t, "day 2's grid", `document.readyState === "complete" && document.querySelectorAll('#day[data-day="2"] li[data-time-block-id]').length === 4`)
		eval[chromedp.Void](t, ana, `document.querySelector('#day [data-slot="525"]').scrollIntoView({block: "start", behavior: "instant"})`)
		clipped := eval[[]string](t, ana, `[...document.querySelectorAll("#day li[data-time-block-id]")].flatMap(li => {
			const box = li.getBoundingClientRect(), out = [];
			if (li.scrollHeight > li.clientHeight + 1) out.push(li.dataset.start + ": content " + li.scrollHeight + " px in " + li.clientHeight + " px");
			for (const e of li.querySelectorAll("*")) {
				if (!e.getClientRects().length || e.closest("details:not([open]) > div")) continue;
				const r = e.getBoundingClientRect();
				if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) out.push(li.dataset.start + ": " + e.tagName + " " + (e.innerText || e.getAttribute("aria-label") || "").trim().slice(0, 30) + " reaches outside its block");
			}
			return out;
		})`)
		if len(clipped) > 0 {
			t.Errorf("blocks clip their contents: %q", clipped)
		}
		compact := eval[[]string](t, ana, `[...document.querySelectorAll("#day li[data-time-block-id]")].map(li => li.dataset.start + (li.hasAttribute("data-compact") ? " one line" : " full"))`)
		if got := strings.Join(compact, ", "); got != "09:00 one line, 10:00 one line, 11:00 full, 12:00 full" {
			t.Errorf("block layouts: %s", got)
		}
		screenshot(t, ana, "plan-1440-day2-short-blocks", false)
		// The 15-minute block's "⋯" menu, by keyboard.
		menu := `#day li[data-time-block-id][data-start="09:00"] [data-block-menu]`
		ana.do(t, "focus the 09:00 block's ⋯", chromedp.Focus(chromedp.CSS(menu+" summary")))
		ana.do(t, "open it with Enter", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the menu open", fmt.Sprintf(`document.querySelector(%s).open`, js(menu)))
		ana.do(t, "Tab into it", chromedp.KeyEvent(kb.Tab))
		ana.waitUntil(t, "Candidates focused", fmt.Sprintf(`document.activeElement.closest(%s) && document.activeElement.innerText.trim() === "Candidates"`, js(menu)))
		checkInViewport(t, ana, menu+" > div")
		screenshot(t, ana, "plan-1440-block-menu", false)
		ana.do(t, "close it with Escape", chromedp.KeyEvent(kb.Escape))
		ana.waitUntil(t, "the menu closed, focus back on ⋯", fmt.Sprintf(`!document.querySelector(%s).open && document.activeElement.matches(%s)`, js(menu), js(menu+" summary")))
		fitsScreen(t, ana, 1440, "plan page day 2 at 1440")

		// A click on an empty time of the grid, and "+" (the first free hour), open Add here.
		for _, c := range []struct{ what, css, want string }{
			{"click the empty 16:00", `#day [data-slot="960"]`, "2 16:00 17:00"},
			{`click "+"`, `#day [data-add-here]:not([data-add-until])`, "2 13:00 14:00"},
		} {
			ana.click(t, c.css)
			ana.waitUntil(t, "Add here after "+c.what, `document.querySelector("#block-dialog").open`)
			if got := eval[[]string](t, ana, `["#add-day", "#add-start", "#add-end"].map(s => document.querySelector(s).value)`); strings.Join(got, " ") != c.want {
				t.Errorf("%s: Add here proposes %q, want %s", c.what, got, c.want)
			}
			checkInViewport(t, ana, "#block-dialog")
			ana.click(t, `#block-dialog [data-close-dialog]`)
			ana.waitUntil(t, "Add here closed", `!document.querySelector("#block-dialog").open`)
		}
	})

	s.step("a refused edit says why in words, next to the field", func(t *testing.T) {
		ana.click(t, `#day li[data-time-block-id][data-start="12:00"] button[data-edit-block]`)
		ana.waitUntil(t, "the edit dialog", `document.querySelector("#edit-dialog").open`)
		ana.do(t, "start after the end", chromedp.SetValue(chromedp.CSS(`#edit-start`), "13:30"), chromedp.SetValue(chromedp.CSS(`#edit-end`), "13:00"))
		if got := eval[[]string](t, ana, `[document.querySelector("#edit-start").value, document.querySelector("#edit-end").value]`); strings.Join(got, " ") != "13:30 13:00" {
			t.Fatalf("the edit dialog holds %q, want 13:30 13:00", got)
		}
		ana.click(t, `#edit-dialog button[type="submit"]`)
		ana.waitUntil(t, "the start marked invalid with its sentence under it", `document.querySelector("#edit-start").getAttribute("aria-invalid") === "true" &&
			(p => p && p.matches("[data-field-message]") && p.textContent === "Start time must be earlier than end time.")(document.querySelector("#edit-start").nextElementSibling)`)
		if got := eval[string](t, ana, `document.activeElement.id`); got != "edit-start" {
			t.Errorf("the focus is on #%s, want the invalid start", got)
		}
		if text := eval[string](t, ana, textOf("#edit-dialog [data-dialog-errors]")); strings.Contains(text, "Bad Request") || strings.Contains(text, "INVALID_REQUEST") {
			t.Errorf("the dialog's error says %q", text)
		}
		checkInViewport(t, ana, "#edit-dialog")
		screenshot(t, ana, "plan-1440-field-error", false)
		// Fixed and sent again, the marks go.
		ana.do(t, "a start before the end", chromedp.SetValue(chromedp.CSS(`#edit-start`), "12:15"), chromedp.SetValue(chromedp.CSS(`#edit-end`), "13:00"))
		ana.click(t, `#edit-dialog button[type="submit"]`)
		ana.waitUntil(t, "the dialog closed and the block moved", `!document.querySelector("#edit-dialog").open && document.querySelector('#day li[data-time-block-id][data-start="12:15"]')`)
		if n := eval[int](t, ana, `document.querySelectorAll("#edit-dialog [data-field-message], #edit-dialog [aria-invalid]").length`); n != 0 {
			t.Errorf("%d field error marks stayed after a successful save", n)
		}
	})

	s.step("a deleted block comes back with Undo, as it was", func(t *testing.T) {
		const block = `#day li[data-time-block-id][data-start="12:15"]`
		before := blockAt(t, 2, "12:15")
		if before == nil {
			t.Fatal("no 12:15 block on day 2")
		}
		ana.click(t, block+` button[title="Delete"]`)
		ana.waitUntil(t, "the block gone and the Undo toast shown", fmt.Sprintf(`!document.querySelector(%s) && (t => t && t.innerText.includes("Deleted Gwangjang Market, day 2, 12:15–13:00"))(document.querySelector("#flash [data-undo]"))`, js(block)))
		checkInViewport(t, ana, "#flash [data-undo]")
		screenshot(t, ana, "plan-1440-undo", false)
		if blockAt(t, 2, "12:15") != nil {
			t.Fatalf("GET blocks?day=2 still has the deleted block")
		}
		ana.click(t, `#flash [data-undo] button[hx-post]`)
		ana.waitUntil(t, "the block back", fmt.Sprintf(`document.querySelector(%s) && !document.querySelector("#flash [data-undo]")`, js(block)))
		after := blockAt(t, 2, "12:15")
		if after == nil || after.TimeBlockID != before.TimeBlockID || after.CandidateCount != before.CandidateCount || after.EndTime != before.EndTime {
			t.Errorf("restored %+v, want %+v", after, before)
		}
		if got := eval[string](t, ana, textOf("#plan-announce")); !strings.HasPrefix(got, "Restored Gwangjang Market") {
			t.Errorf("the live region says %q", got)
		}
	})
}
