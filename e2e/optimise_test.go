package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestOptimiseDay is issue 25's "Optimise the day…": Ana's day zig-zags across Seoul (the
// palace, Lotte World Tower in the far east, back to Bukchon by the palace, Olympic Park in the
// east again). On a 390×844 phone the day's menu opens the dialog, which fits the screen and
// shows the travel before → after and the new order; at 1440×900 she does the same by
// keyboard alone and applies it: the day reads as the dialog said (free time where it was),
// announced, and Undo puts it back.
func TestOptimiseDay(t *testing.T) {
	s := newScenario(t, "ana")
	ana, base := s.browsers[0], s.srv.base
	var planID string
	const (
		lotte   = "Lotte World Tower"
		bukchon = "Bukchon Hanok Village"
		olympic = "Olympic Park"
		dialog  = "#optimise-dialog"
	)
	// startOf is the start of the day's block holding name ("" when none).
	startOf := func(name string) string {
		return fmt.Sprintf(`(([...document.querySelectorAll("#day li[data-time-block-id]")].find(li => li.innerText.includes(%s)) || {dataset: {}}).dataset.start || "")`, js(name))
	}
	// dayOrder is the day's places by start, as the cards show them.
	const dayOrder = `[...document.querySelectorAll("#day li[data-time-block-id]")].sort((a, b) => a.dataset.start < b.dataset.start ? -1 : 1)
		.map(li => ` + "`${li.dataset.start} ${li.innerText}`" + `).filter(s => !s.includes("Coffee")).map(s => s.replace(/\s+/g, " "))`
	original := startOf(palace) + ` === "09:00" && ` + startOf(lotte) + ` === "10:30" && ` + startOf(bukchon) + ` === "12:30" && ` + startOf(olympic) + ` === "13:30"`
	var proposed []string // the dialog's new order: "09:00–10:00 Olympic Park", …
	openDialog := func(t *testing.T, phoneTap bool) {
		t.Helper()
		if phoneTap {
			tap(t, ana, "[data-day-menu] > summary")
			ana.waitUntil(t, "the day's menu open", `document.querySelector("[data-day-menu]").open`)
			ana.awaitRequests(t, []string{"get /plans/" + planID + "/days/1/optimised"}, "tap Optimise the day…", tapOn(t, ana, "[data-day-menu] [data-optimise]")...)
		}
		ana.waitUntil(t, "the dialog open with before → after", `document.querySelector("#optimise-dialog").open && document.querySelector("#optimise-dialog [data-optimise-travel]")`)
		said := eval[string](t, ana, `document.querySelector("#optimise-dialog [data-optimise-travel]").innerText`)
		if !strings.Contains(said, "→") || !strings.HasSuffix(said, "of travel") {
			t.Errorf("the dialog says %q, want the travel before → after", said)
		}
		proposed = eval[[]string](t, ana, `[...document.querySelectorAll("#optimise-dialog [data-optimise-stops] li")].map(li => li.children[1].innerText + " " + li.children[2].innerText)`)
		if len(proposed) != 4 || !strings.Contains(strings.Join(proposed, " "), bukchon) {
			t.Errorf("the new order %q, want the 4 places", proposed)
		}
		if got := eval[string](t, ana, `document.querySelector("#optimise-dialog [data-optimise-exact]").dataset.optimiseExact`); got != "true" {
			t.Errorf("exact: %q, want true (four places)", got)
		}
	}

	s.step("Ana's day 1 zig-zags across Seoul, with free time after it", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		colID, cps := newCollectionWith(t, ana, "Zig-zag", palace, lotte, bukchon, olympic)
		planID = newPlanWith(t, ana, "Zig-zag trip", 3, 2, colID)
		for i, slot := range [][2]string{{"09:00", "10:00"}, {"10:30", "12:00"}, {"12:30", "13:00"}, {"13:30", "14:30"}} {
			sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[i], "day": 1, "start_time": slot[0], "end_time": slot[1]})
		}
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "FREE", "day": 1, "start_time": "15:00", "end_time": "16:00", "memo": "Coffee"})
	})

	s.step("on a phone, the day's menu opens the optimisation, which fits the screen", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1", `document.querySelector('#day[data-day="1"] li[data-time-block-id]')`)
		openDialog(t, true)
		checkInViewport(t, ana, dialog)
		checkInViewport(t, ana, dialog+" [data-optimise-apply]")
		fitsScreen(t, ana, 390, "the optimise dialog at 390")
		for _, v := range axeViolations(t, ana, axeSource(t)) {
			t.Errorf("the optimise dialog: axe %s violation %q: %s; elements: %s", v.Impact, v.ID, v.Help, strings.Join(v.Targets, " | "))
		}
		screenshot(t, ana, "optimise-390-dialog", false)
		tap(t, ana, dialog+" [data-close-dialog]")
		ana.waitUntil(t, "the dialog closed, the day unchanged", `!document.querySelector("#optimise-dialog").open && `+original)
	})

	s.step("at 1440×900, Ana optimises the day by keyboard, applies it and undoes it", func(t *testing.T) {
		desktop.emulate(t, ana)
		ana.do(t, "open day 1", chromedp.Navigate(base+"/plans/"+planID+"?day=1"))
		ana.waitUntil(t, "day 1's grid", `document.readyState === "complete" && document.querySelector('#day[data-day="1"] [data-slot]').getClientRects().length > 0`)
		ana.idle(t)
		ana.do(t, "focus the day's menu", chromedp.Focus(chromedp.CSS("[data-day-menu] > summary")))
		ana.do(t, "Enter opens the menu", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the menu open", `document.querySelector("[data-day-menu]").open`)
		ana.do(t, "Tab to Swap with day…", chromedp.KeyEvent(kb.Tab))
		ana.waitUntil(t, "the focus on Swap with day…", `document.activeElement.matches('[data-dayops="swap"]')`)
		ana.do(t, "Tab to Optimise the day…", chromedp.KeyEvent(kb.Tab))
		ana.waitUntil(t, "the focus on Optimise the day…", `document.activeElement.matches("[data-optimise]")`)
		ana.awaitRequests(t, []string{"get /plans/" + planID + "/days/1/optimised"}, "Enter: optimise", chromedp.KeyEvent(kb.Enter))
		openDialog(t, false)
		ana.waitUntil(t, "the focus on Apply", `document.activeElement.matches("#optimise-dialog [data-optimise-apply]")`)
		checkInViewport(t, ana, dialog)
		screenshot(t, ana, "optimise-1440-dialog", false)
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/days/1/arrangement"}, "Enter: apply", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the dialog closed and the day changed", `!document.querySelector("#optimise-dialog").open && !(`+original+`)`)
		// The cards show each place at the time the dialog said, in its order.
		got := eval[[]string](t, ana, dayOrder)
		for i, p := range proposed {
			name := p[strings.Index(p, " ")+1:] // after the time
			if i >= len(got) || !strings.HasPrefix(got[i], p[:5]+" ") || !strings.Contains(got[i], name) {
				t.Errorf("the day reads %q, want the dialog's order %q", got, proposed)
				break
			}
		}
		ana.waitUntil(t, "the live region saying it", `document.querySelector("#plan-announce").textContent === "Optimised day 1"`)
		if got := eval[string](t, ana, startOf("Coffee")); got != "15:00" {
			t.Errorf("the free time starts at %q, want 15:00 (it stays)", got)
		}
		screenshot(t, ana, "optimise-1440-applied", false)
		ana.clickAndAwait(t, "#flash [data-undo] button[hx-post]", "post /plans/"+planID+"/days/1/arrangement")
		ana.waitUntil(t, "the day back as it was and the toast gone", original+` && !document.querySelector("#flash [data-undo]")`)
	})

	s.step("at 1440×900, Ana marks Lotte World Tower a reservation in the edit dialog: its card shows a lock", func(t *testing.T) {
		card := `#day li[data-time-block-id][data-start="10:30"]`
		ana.click(t, card+" button[data-edit-block]")
		ana.waitUntil(t, "the edit dialog open, not fixed", `document.querySelector("#edit-dialog").open && !document.querySelector("#edit-fixed-time").checked`)
		ana.click(t, "#edit-fixed-time")
		screenshot(t, ana, "optimise-1440-edit-fixed", false)
		ana.click(t, `#edit-dialog button[type="submit"]`)
		ana.waitUntil(t, "the dialog closed and the lock on the card", `!document.querySelector("#edit-dialog").open && document.querySelector(`+js(card+" [data-fixed-time-mark]")+`)`)
		if got := eval[string](t, ana, `document.querySelector(`+js(card+" [data-fixed-time-mark]")+`).innerText.trim()`); got != "Fixed time" {
			t.Errorf("the lock says %q to screen readers, want Fixed time", got)
		}
		ana.click(t, card+" button[data-edit-block]")
		ana.waitUntil(t, "the edit dialog open, fixed", `document.querySelector("#edit-dialog").open && document.querySelector("#edit-fixed-time").checked`)
		ana.do(t, "Escape closes the dialog", chromedp.KeyEvent(kb.Escape))
	})
}
