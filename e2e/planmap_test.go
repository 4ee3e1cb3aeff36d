package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestMapBesideThePlan is issue 24's map beside the plan. At 1440×900 the day's map stands
// beside the timeline and stays in view while the timeline scrolls; the day's confirmed
// places are numbered pins in time order joined by a line, an undecided block's candidates
// are lighter pins with their names; a block's card and its pins light each other up on hover
// and focus, and clicking a pin focuses its card; another day's tab redraws the pins in the
// same map, and a live change redraws them without moving the view. At 390×844 the day is a
// Timeline | Map switch and nothing is wider than the screen. Map tiles are off (no internet):
// the pins draw without them.
func TestMapBesideThePlan(t *testing.T) {
	s := newScenario(t, "ana")
	ana, base := s.browsers[0], s.srv.base

	const deoksugung, bukchon, namsangol = "Deoksugung Palace", "Bukchon Hanok Village", "Namsangol Hanok Village"
	var planID string
	block := map[string]string{} // place → the id of its time block
	var cps []string

	add := func(t *testing.T, cp string, day int, start, end string) string {
		t.Helper()
		return sendJSON[struct {
			TimeBlockID string `json:"time_block_id"`
		}](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cp, "day": day, "start_time": start, "end_time": end}).TimeBlockID
	}
	pin := func(place string) string { return fmt.Sprintf(`#day-map [data-pin-block=%s]`, js(block[place])) }
	card := func(place string) string { return fmt.Sprintf(`#day li[data-time-block-id=%s]`, js(block[place])) }
	stops := `[...document.querySelectorAll("#day-map .map-stop")].map(e => e.textContent + " " + e.getAttribute("aria-label"))`
	// The map's zoom and centre: Leaflet's proxy element carries the view's scale and origin
	// (once a zoom's animation, .leaflet-zoom-anim, is over).
	view := `document.querySelector("#day-map .leaflet-proxy").style.transform`

	s.step("Ana has a two-day plan: three places and an undecided block on day 1, one place on day 2", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		var colID string
		colID, cps = newCollectionWith(t, ana, "Map picks", palace, market, tower, deoksugung, bukchon, namsangol)
		planID = newPlanWith(t, ana, "Map trip", 2, 2, colID)
		block[palace] = add(t, cps[0], 1, "09:00", "10:00")
		block[market] = add(t, cps[1], 1, "11:00", "12:00")
		block[tower] = add(t, cps[2], 1, "16:00", "17:00")
		undecided := add(t, cps[3], 1, "13:00", "14:00")
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks/"+undecided+"/candidates", map[string]any{"collection_place_ids": []string{cps[4]}})
		block[deoksugung], block[bukchon] = undecided, undecided
		block[namsangol] = add(t, cps[5], 2, "10:00", "11:00")
	})

	s.step("at 1440×900 the map stands beside the timeline, numbered, with labelled candidates", func(t *testing.T) {
		desktop.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "the day's map drawn with its three stops", `window.L && document.querySelectorAll("#day-map [data-map-canvas][data-drawn] .map-stop").length === 3`)
		if got := eval[bool](t, ana, `!!document.querySelector("#day-map [data-map-offline]:not([hidden])")`); !got {
			t.Errorf("without tiles the map says its background is missing")
		}
		// Scrolled down to the day, then down the timeline: the map is still wholly in view, to its right.
		eval[chromedp.Void](t, ana, `window.scrollTo({top: document.querySelector("#day").getBoundingClientRect().top + scrollY - 65, behavior: "instant"})`)
		eval[chromedp.Void](t, ana, `(s => s.scrollTop = s.scrollHeight)(document.querySelector("[data-day-scroll]"))`)
		box := eval[[]float64](t, ana, `[document.querySelector("[data-day-scroll]"), document.querySelector("#day-map [data-map-canvas]")].flatMap(e => (r => [r.left, r.top, r.right, r.bottom])(e.getBoundingClientRect())).concat([innerWidth, innerHeight])`)
		timeline, mapBox, w, h := box[0:4], box[4:8], box[8], box[9]
		if mapBox[0] < timeline[2] || mapBox[2] > w || mapBox[1] < 65 || mapBox[3] > h || mapBox[2]-mapBox[0] < 400 || mapBox[3]-mapBox[1] < 400 {
			t.Errorf("the map %v is not a large box right of the timeline %v inside the %gx%g window below the header", mapBox, timeline, w, h)
		}
		if timeline[3] > h || timeline[3]-timeline[1] < 500 {
			t.Errorf("the timeline %v does not fill the window's height %g", timeline, h)
		}
		screenshot(t, ana, "planmap-1440-day1", false)

		want := []string{"1 1. " + palace + ", 09:00–10:00", "2 2. " + market + ", 11:00–12:00", "3 3. " + tower + ", 16:00–17:00"}
		if got := eval[[]string](t, ana, stops); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("the stops' pins read %q, want %q", got, want)
		}
		if n := eval[int](t, ana, `document.querySelectorAll("#day-map .leaflet-overlay-pane path").length`); n != 1 {
			t.Errorf("%d lines on the map, want 1 joining the stops", n)
		}
		for i, place := range []string{palace, market, tower} {
			if got := eval[string](t, ana, fmt.Sprintf(`(document.querySelector(%s) || {}).textContent`, js(pin(place)))); got != fmt.Sprint(i+1) {
				t.Errorf("%s's pin (linked to its block) reads %q, want %d", place, got, i+1)
			}
		}
		pending := eval[[]string](t, ana, `[...document.querySelectorAll("#day-map .map-pending")].map(e => e.querySelector(".map-pending-label").textContent + " " + e.getAttribute("aria-label") + " " + [...e.classList].filter(c => /^map-pending-/.test(c)).join())`)
		want = []string{deoksugung + " Candidate: " + deoksugung + ", 13:00–14:00 map-pending-a", bukchon + " Candidate: " + bukchon + ", 13:00–14:00 map-pending-a"}
		if strings.Join(pending, "|") != strings.Join(want, "|") {
			t.Errorf("the candidates' pins read %q, want %q", pending, want)
		}
		if eval[bool](t, ana, `(e => e.getBoundingClientRect().width === 0 || getComputedStyle(e).visibility === "hidden")(document.querySelector("#day-map .map-pending-label"))`) {
			t.Errorf("a candidate's name is not shown beside its pin")
		}
	})

	s.step("a block's card and its pins light each other up", func(t *testing.T) {
		x, y := center(t, ana, card(market))
		ana.do(t, "hover the market's card", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
		ana.waitUntil(t, "the market's pin lit", fmt.Sprintf(`document.querySelector(%s).classList.contains("map-pin-active")`, js(pin(market))))
		if n := eval[int](t, ana, `document.querySelectorAll("#day-map .map-pin-active").length`); n != 1 {
			t.Errorf("%d pins lit while hovering one stop's card, want 1", n)
		}
		// The undecided block's card lights both its candidates.
		x, y = center(t, ana, card(bukchon))
		ana.do(t, "hover the undecided block's card", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
		ana.waitUntil(t, "both candidates lit", `document.querySelectorAll("#day-map .map-pending.map-pin-active").length === 2 && !document.querySelector("#day-map .map-stop.map-pin-active")`)
		// Hovering a pin lights its card.
		p := eval[[]float64](t, ana, fmt.Sprintf(`(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector(%s).getBoundingClientRect())`, js(pin(palace))))
		ana.do(t, "hover the palace's pin", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p[0], p[1]))
		ana.waitUntil(t, "the palace's card lit", fmt.Sprintf(`document.querySelector(%s).hasAttribute("data-map-active")`, js(card(palace))))
		ana.do(t, "move the mouse away", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 5, 5))
		ana.waitUntil(t, "no card lit", `!document.querySelector("#day [data-map-active]")`)
		// Focusing a pin (Tab) lights its card; Enter on it focuses the card, in view.
		eval[chromedp.Void](t, ana, fmt.Sprintf(`document.querySelector(%s).focus()`, js(pin(tower))))
		ana.waitUntil(t, "the tower's card lit", fmt.Sprintf(`document.querySelector(%s).hasAttribute("data-map-active")`, js(card(tower))))
		eval[chromedp.Void](t, ana, `document.querySelector("[data-day-scroll]").scrollTop = 0`)
		ana.do(t, "press Enter on the tower's pin", chromedp.KeyEvent("\r"))
		ana.waitUntil(t, "the tower's card focused", fmt.Sprintf(`document.activeElement === document.querySelector(%s)`, js(card(tower))))
		checkInViewport(t, ana, card(tower))
		if r := eval[[]float64](t, ana, fmt.Sprintf(`[document.querySelector(%s), document.querySelector("[data-day-scroll]")].flatMap(e => (r => [r.top, r.bottom])(e.getBoundingClientRect()))`, js(card(tower)))); r[0] < r[2] || r[1] > r[3] {
			t.Errorf("the focused card %v is outside the timeline's box %v", r[:2], r[2:])
		}
		if !eval[bool](t, ana, fmt.Sprintf(`document.querySelector(%s).classList.contains("map-pin-active") && document.querySelector(%s).hasAttribute("data-map-active")`, js(pin(tower)), js(card(tower)))) {
			t.Errorf("the card focused by its pin, or its pin, is not lit")
		}
		// A click on a pin does the same.
		p = eval[[]float64](t, ana, fmt.Sprintf(`(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector(%s).getBoundingClientRect())`, js(pin(market))))
		ana.do(t, "click the market's pin", chromedp.MouseClickXY(p[0], p[1]))
		ana.waitUntil(t, "the market's card focused", fmt.Sprintf(`document.activeElement === document.querySelector(%s)`, js(card(market))))
		screenshot(t, ana, "planmap-1440-linked", false)
	})

	s.step("day 2's tab redraws the pins in the same map; a live change keeps the view", func(t *testing.T) {
		eval[chromedp.Void](t, ana, `document.querySelector("#day-map").e2eKept = true`)
		before := eval[string](t, ana, view)
		ana.clickAndAwait(t, `#day nav[data-day-tabs] a:nth-of-type(2)`, "get /plans/"+planID+"/blocks")
		ana.waitUntil(t, "day 2's one stop", fmt.Sprintf(`%s.join() === %s`, stops, js("1 1. "+namsangol+", 10:00–11:00")))
		if n := eval[int](t, ana, `document.querySelectorAll("#day-map .map-pending, #day-map .leaflet-overlay-pane path").length`); n != 0 {
			t.Errorf("day 1's candidates or line still on day 2's map: %d", n)
		}
		if !eval[bool](t, ana, `document.querySelector("#day-map").e2eKept === true`) {
			t.Errorf("the map was drawn anew, want the same map kept across the day's swap")
		}
		ana.waitUntil(t, "the view fitted to day 2", fmt.Sprintf(`%s !== %s && !document.querySelector("#day-map .leaflet-zoom-anim")`, view, js(before)))
		day2 := eval[string](t, ana, view)
		// Another tab of Ana's (through the API) adds the tower to day 2: the live update redraws
		// the pins and the line, and leaves the view where it was.
		block[tower] = add(t, cps[2], 2, "14:00", "15:00")
		ana.waitUntil(t, "day 2's two stops, live, and no zoom moving", `document.querySelectorAll("#day-map .map-stop").length === 2 && document.querySelectorAll("#day-map .leaflet-overlay-pane path").length === 1 &&
			!document.querySelector("#day-map .leaflet-zoom-anim")`)
		if got := eval[string](t, ana, view); got != day2 {
			t.Errorf("the live change moved the map from %s to %s", day2, got)
		}
		if !eval[bool](t, ana, `document.querySelector("#day-map").e2eKept === true`) {
			t.Errorf("the live change drew the map anew")
		}
		fitsScreen(t, ana, 1440, "plan page at 1440")
	})

	s.step("between lg and xl the map stays under the timeline", func(t *testing.T) {
		screen{"laptop-1180x800", 1180, 800, false}.emulate(t, ana)
		ana.do(t, "open day 1", chromedp.Navigate(base+"/plans/"+planID+"?day=1"))
		ana.waitUntil(t, "the day", `document.querySelector('#day[data-day="1"]')`)
		if r := eval[[]float64](t, ana, `[document.querySelector("[data-day-scroll]"), document.querySelector("#day-route")].flatMap(e => (r => [r.left, r.bottom, r.top])(e.getBoundingClientRect()))`); r[4] < r[1]-1 || r[3] > r[0]+1 {
			t.Errorf("the route (left %g, top %g) is not under the timeline (left %g, bottom %g)", r[3], r[5], r[0], r[1])
		}
		if eval[bool](t, ana, `(e => e.getClientRects().length > 0)(document.querySelector("[data-day-views]"))`) {
			t.Errorf("the Timeline | Map switch shows at 1180 px")
		}
		fitsScreen(t, ana, 1180, "plan page at 1180")
	})

	s.step("at 390×844 the day switches between its timeline and its map", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open day 1", chromedp.Navigate(base+"/plans/"+planID+"?day=1"))
		ana.waitUntil(t, "the Timeline | Map switch", `(e => e && e.getClientRects().length > 0)(document.querySelector("[data-day-views]"))`)
		shown := `[document.querySelector("[data-day-scroll]"), document.querySelector("#day-route")].map(e => e.getClientRects().length > 0)`
		if got := eval[[]bool](t, ana, shown); !got[0] || got[1] {
			t.Errorf("at first (timeline, route) shown = %v, want the timeline only", got)
		}
		if got := eval[string](t, ana, `document.querySelector('[data-day-view="timeline"]').getAttribute("aria-pressed")`); got != "true" {
			t.Errorf("Timeline is not the pressed view: aria-pressed=%q", got)
		}
		fitsScreen(t, ana, 390, "timeline view at 390")
		screenshot(t, ana, "planmap-390-timeline", false)

		tap(t, ana, `[data-day-view="map"]`)
		ana.waitUntil(t, "the map view with its three stops", `document.querySelectorAll("#day-map [data-drawn] .map-stop").length === 3`)
		if got := eval[[]bool](t, ana, shown); got[0] || !got[1] {
			t.Errorf("map view: (timeline, route) shown = %v, want the map only", got)
		}
		r := eval[[]float64](t, ana, `(r => [r.left, r.right, r.height, innerWidth, innerHeight])(document.querySelector("#day-map [data-map-canvas]").getBoundingClientRect())`)
		if r[0] < 0 || r[1] > r[3] || r[1]-r[0] < r[3]-40 || r[2] < r[4]/2 {
			t.Errorf("the phone's map %v is not about the screen's width and half its height or more", r)
		}
		if got := eval[string](t, ana, `document.querySelector('[data-day-view="map"]').getAttribute("aria-pressed")`); got != "true" {
			t.Errorf("Map is not the pressed view: aria-pressed=%q", got)
		}
		fitsScreen(t, ana, 390, "map view at 390")
		eval[chromedp.Void](t, ana, `document.querySelector("[data-day-views]").scrollIntoView({block: "start", behavior: "instant"}); scrollBy(0, -130)`)
		screenshot(t, ana, "planmap-390-map", false)

		// A tapped pin names its place and leads back to its card in the timeline.
		tapInPlace(t, ana, pin(market))
		ana.waitUntil(t, "the pin's popup, faded in", `(p => p && p.querySelector("button") && getComputedStyle(p).opacity === "1")(document.querySelector("#day-map .leaflet-popup"))`)
		if got := eval[string](t, ana, textOf("#day-map .leaflet-popup")); !strings.Contains(got, "2. "+market) || !strings.Contains(got, "Show in the timeline") {
			t.Errorf("the popup says %q", got)
		}
		screenshot(t, ana, "planmap-390-popup", false)
		tap(t, ana, "#day-map .leaflet-popup button")
		ana.waitUntil(t, "the timeline back with the market's card focused", fmt.Sprintf(`document.activeElement === document.querySelector(%s) && document.querySelector("#day-route").getClientRects().length === 0`, js(card(market))))

		// The view chosen outlives the day's swaps.
		tap(t, ana, `[data-day-view="map"]`)
		ana.awaitRequests(t, []string{"get /plans/" + planID + "/blocks"}, "tap day 2", tapOn(t, ana, `#day nav[data-day-tabs] a:nth-of-type(2)`)...)
		ana.waitUntil(t, "day 2's map view", `document.querySelector("#day").dataset.day === "2" && document.querySelector("#day-route").getClientRects().length > 0 && document.querySelectorAll("#day-map .map-stop").length === 2`)
		tap(t, ana, `[data-day-view="timeline"]`)
		ana.waitUntil(t, "the timeline back", `document.querySelector("[data-day-scroll]").getClientRects().length > 0 && document.querySelector("#day-route").getClientRects().length === 0`)
		fitsScreen(t, ana, 390, "timeline view at 390 after the map")
		if p := ana.reported(); len(p) > 0 {
			t.Errorf("the page reported errors: %q", p)
		}
	})
}
