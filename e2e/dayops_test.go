package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestDayOperations is issue 24's day operations on the plan page: on a 390×844 phone Ana
// duplicates a block from its "⋯" menu and copies it to another day through the day dialog,
// which fits the screen; at 1440×900 she moves a short block to another day from its "⋯",
// and swaps two days from the day's menu with the keyboard, then undoes it. Each result shows
// once the day is swapped in, and the live region says it.
func TestDayOperations(t *testing.T) {
	s := newScenario(t, "ana")
	ana, base := s.browsers[0], s.srv.base
	var planID string
	const (
		palaceCard = `#day li[data-time-block-id][data-start="10:00"]`
		dialog     = "#dayops-dialog"
	)
	announced := func(t *testing.T, want string) {
		t.Helper()
		ana.waitUntil(t, "the live region saying "+want, fmt.Sprintf(`document.querySelector("#plan-announce").textContent === %s`, js(want)))
	}
	// copies is where the first block at start in the day shown is copied.
	copies := func(t *testing.T, start string) string {
		t.Helper()
		id := eval[string](t, ana, fmt.Sprintf(`document.querySelector('#day li[data-time-block-id][data-start=%s]').dataset.timeBlockId`, js(start)))
		return "post /plans/" + planID + "/blocks/" + id + "/copies"
	}
	// still waits until the page has stopped scrolling (the page scrolls smoothly to a block
	// just added), so a tap lands where it was aimed: ten animation frames at one scroll position.
	still := func(t *testing.T) {
		t.Helper()
		eval[bool](t, ana, `new Promise(done => { let y = scrollY, n = 0; const f = () => { if (scrollY !== y) { y = scrollY; n = 0; } if (++n > 10) return done(true); requestAnimationFrame(f); }; requestAnimationFrame(f); })`)
	}
	blockIn := func(day int, start, name string) string {
		return fmt.Sprintf(`document.querySelector('#day[data-day="%d"]') && [...document.querySelectorAll("#day li[data-time-block-id]")].some(li => li.dataset.start === %s && li.innerText.includes(%s))`,
			day, js(start), js(name))
	}

	s.step("Ana has a three-day plan with the palace on day 1 and free time on day 3", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		colID, cps := newCollectionWith(t, ana, "Day ops", palace, market)
		planID = newPlanWith(t, ana, "Day ops trip", 3, 3, colID)
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[0], "day": 1, "start_time": "10:00", "end_time": "11:00"})
		// A short block: its actions are all in its "⋯".
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[1], "day": 1, "start_time": "14:00", "end_time": "14:30"})
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "FREE", "day": 3, "start_time": "09:00", "end_time": "10:00", "memo": "Sleep in"})
	})

	s.step("on a phone, Ana duplicates the palace from its ⋯ menu", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1", `document.querySelector('#day[data-day="1"] li[data-time-block-id]')`)
		tap(t, ana, palaceCard+" [data-dayops-menu] > summary")
		ana.waitUntil(t, "the menu open", `document.querySelector("[data-dayops-menu]").open`)
		checkInViewport(t, ana, palaceCard+` [data-dayops-menu] button[hx-post$="/copies"]`)
		fitsScreen(t, ana, 390, "the block's menu at 390")
		screenshot(t, ana, "dayops-390-menu", false)
		ana.awaitRequests(t, []string{copies(t, "10:00")}, "tap Duplicate", tapOn(t, ana, palaceCard+` [data-dayops-menu] button[hx-post$="/copies"]`)...)
		ana.waitUntil(t, "the duplicate right after the palace", blockIn(1, "11:00", palace))
		announced(t, "Copied "+palace+" to day 1, 11:00–12:00")
		still(t)
	})

	s.step("on a phone, Ana copies the palace to day 2 through the day dialog, which fits the screen", func(t *testing.T) {
		tap(t, ana, palaceCard+" [data-dayops-menu] > summary")
		tap(t, ana, palaceCard+` [data-dayops-menu] [data-dayops="copy"]`)
		ana.waitUntil(t, "the day dialog open", `document.querySelector("#dayops-dialog").open`)
		checkInViewport(t, ana, dialog)
		checkInViewport(t, ana, dialog+` [data-dayops-submit]`)
		fitsScreen(t, ana, 390, "the day dialog at 390")
		if got := eval[[]string](t, ana, `[document.querySelector("#dayops-dialog input[type=radio]:checked").value, document.activeElement.value, document.querySelector("#dayops-start").value, document.querySelector("#dayops-end").value]`); strings.Join(got, " ") != "2 2 10:00 11:00" {
			t.Errorf("the dialog proposes (checked, focused, start, end) %q, want day 2 focused at the block's time", got)
		}
		screenshot(t, ana, "dayops-390-dialog", false)
		ana.awaitRequests(t, []string{copies(t, "10:00")}, "tap Copy", tapOn(t, ana, dialog+` [data-dayops-submit]`)...)
		ana.waitUntil(t, "the dialog closed and day 2 shown with the copy", `!document.querySelector("#dayops-dialog").open && `+blockIn(2, "10:00", palace))
		announced(t, "Copied "+palace+" to day 2, 10:00–11:00")
		still(t)
		if got := eval[string](t, ana, `location.search`); got != "?day=2" {
			t.Errorf("the address says %q, want the day shown (?day=2)", got)
		}
		if n := len(getJSON[dayBlocksJSON](t, ana, "/plans/"+planID+"/blocks?day=1").Contents); n != 3 {
			t.Errorf("day 1 holds %d blocks, want 3 (the palace, its duplicate, the market)", n)
		}
		fitsScreen(t, ana, 390, "day 2 at 390")
	})

	s.step("at 1440×900, Ana moves the market (a short block) to day 2 from its ⋯", func(t *testing.T) {
		desktop.emulate(t, ana)
		ana.do(t, "open day 1", chromedp.Navigate(base+"/plans/"+planID+"?day=1"))
		ana.waitUntil(t, "day 1's grid", `document.readyState === "complete" && document.querySelector('#day[data-day="1"] [data-slot]').getClientRects().length > 0`)
		// A card's ⋯ opens over the page, not clipped by the card: its last item is what a
		// click at its middle reaches.
		// (A scroll closes the menu, so the card is brought into view first.)
		eval[chromedp.Void](t, ana, `document.querySelector('`+palaceCard+` [data-dayops-menu] > summary').scrollIntoView({block: "center", behavior: "instant"})`)
		still(t)
		openPlacedMenu(t, ana, palaceCard)
		dup := palaceCard + ` [data-dayops-menu] button[hx-post$="/copies"]`
		checkInViewport(t, ana, dup)
		if !eval[bool](t, ana, fmt.Sprintf(`(b => (r => document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b || b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)))(b.getBoundingClientRect()))(document.querySelector(%s))`, js(dup))) {
			t.Errorf("the card's ⋯ menu is covered or clipped: a click on Duplicate lands elsewhere")
		}
		screenshot(t, ana, "dayops-1440-block-menu", false)
		ana.do(t, "Escape closes the menu", chromedp.KeyEvent(kb.Escape))
		ana.waitUntil(t, "the menu closed, the focus on its button", `!document.querySelector("[data-dayops-menu]").open && document.activeElement.matches("[data-dayops-menu] > summary")`)
		const market14 = `#day li[data-time-block-id][data-start="14:00"]`
		ana.click(t, market14+" [data-block-menu] > summary")
		ana.click(t, market14+` [data-block-menu] [data-dayops="move"]`)
		ana.waitUntil(t, "the day dialog open", `document.querySelector("#dayops-dialog").open`)
		if got := eval[[]bool](t, ana, `[document.querySelector('#dayops-dialog input[value="1"]').disabled, document.querySelector("[data-dayops-times]").hidden]`); !got[0] || !got[1] {
			t.Errorf("moving: the block's own day disabled %v, the times hidden %v; want both", got[0], got[1])
		}
		candidate := eval[string](t, ana, `document.querySelector('#dayops-dialog form').getAttribute("data-url").split("/").pop().split("?")[0]`)
		ana.awaitRequests(t, []string{"patch /plans/" + planID + "/blocks/" + candidate}, "click Move", chromedp.Click(chromedp.CSS(dialog+` [data-dayops-submit]`)))
		// The page stays on the day it showed, as after every move by hand (arrange.go): the
		// market has left it, and the answer says where it went, with an Undo.
		ana.waitUntil(t, "the live region saying the market moved", fmt.Sprintf(`document.querySelector("#plan-announce").textContent.startsWith(%s)`, js("Moved "+market+" to day 2, 14:00")))
		ana.waitUntil(t, "day 1 without the market", `document.querySelector('#day[data-day="1"]') && !document.querySelector(`+js(market14)+`)`)
		ana.click(t, `[data-day-tabs] a[href$="day=2"]`)
		ana.waitUntil(t, "day 2 with the market", blockIn(2, "14:00", market))
	})

	s.step("at 1440×900, Ana swaps day 1 and day 3 with the keyboard and undoes it", func(t *testing.T) {
		ana.do(t, "open day 1", chromedp.Navigate(base+"/plans/"+planID+"?day=1"))
		ana.waitUntil(t, "day 1's grid", `document.readyState === "complete" && document.querySelector('#day[data-day="1"] [data-slot]').getClientRects().length > 0`)
		ana.idle(t)
		ana.do(t, "focus the day's menu", chromedp.Focus(chromedp.CSS("[data-day-menu] > summary")))
		press := func(key, what, focused string) {
			t.Helper()
			ana.idle(t)
			ana.do(t, what, chromedp.KeyEvent(key))
			ana.waitUntil(t, what+": the focus on "+focused, fmt.Sprintf(`document.activeElement && document.activeElement.matches(%s)`, js(focused)))
		}
		press(kb.Enter, "Enter opens the day's menu", "[data-day-menu] > summary")
		press(kb.Tab, "Tab to Swap with day…", `[data-dayops="swap"]`)
		screenshot(t, ana, "dayops-1440-day-menu", false)
		press(kb.Enter, "Enter opens the dialog on day 2", `#dayops-dialog input[value="2"]`)
		press(kb.ArrowDown, "↓ to day 3", `#dayops-dialog input[value="3"]:checked`)
		checkInViewport(t, ana, dialog)
		screenshot(t, ana, "dayops-1440-dialog", false)
		press(kb.Tab, "Tab to Cancel", `#dayops-dialog [data-close-dialog]`)
		press(kb.Tab, "Tab to Swap", `#dayops-dialog [data-dayops-submit]`)
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/days/1/swap"}, "Enter: swap", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "day 1 holding day 3's free time", blockIn(1, "09:00", "Sleep in"))
		announced(t, "Swapped day 1 and day 3")
		ana.waitUntil(t, "the focus back on the day's menu", `document.activeElement && document.activeElement.matches("[data-day-menu] > summary")`)
		if n := len(getJSON[dayBlocksJSON](t, ana, "/plans/"+planID+"/blocks?day=3").Contents); n != 2 {
			t.Errorf("day 3 holds %d blocks after the swap, want day 1's 2", n)
		}
		screenshot(t, ana, "dayops-1440-swapped", false)
		ana.clickAndAwait(t, "#flash [data-undo] button[hx-post]", "post /plans/"+planID+"/days/1/swap")
		ana.waitUntil(t, "day 1 holding the palace again and the toast gone", blockIn(1, "10:00", palace)+` && !document.querySelector("#flash [data-undo]")`)
	})

	s.step("at 1440×900, a copy into a taken time is refused in words in the dialog", func(t *testing.T) {
		openPlacedMenu(t, ana, palaceCard)
		ana.click(t, palaceCard+` [data-dayops-menu] [data-dayops="copy"]`)
		ana.waitUntil(t, "the day dialog open on day 2", `document.querySelector("#dayops-dialog").open && document.querySelector("#dayops-dialog input[type=radio]:checked").value === "2"`)
		ana.click(t, dialog+` [data-dayops-submit]`)
		ana.waitUntil(t, "the refusal in the dialog", `document.querySelector("#dayops-dialog").open && document.querySelector("#dayops-dialog [data-dialog-errors]").innerText.trim() !== ""`)
		said := eval[string](t, ana, `document.querySelector("#dayops-dialog [data-dialog-errors]").innerText`)
		if strings.Contains(said, "TIME_BLOCK") || !strings.Contains(said, palace) || !strings.Contains(said, "11:00") {
			t.Errorf("the dialog says %q, want in words which block is there and the next free start (11:00)", said)
		}
		screenshot(t, ana, "dayops-1440-dialog-refused", false)
		ana.do(t, "Escape closes the dialog", chromedp.KeyEvent(kb.Escape))
		ana.waitUntil(t, "the dialog closed", `!document.querySelector("#dayops-dialog").open`)
		ana.waitUntil(t, "the focus back on the block's ⋯", `document.activeElement.matches("[data-dayops-menu] > summary")`)
	})
}

// openPlacedMenu opens the "⋯" of the card the CSS selector names with the mouse and waits
// until dayops.js has placed its panel over the page (on the toggle event that follows the
// opening), so that what is clicked next is where it stays.
func openPlacedMenu(t *testing.T, b *browser, card string) {
	t.Helper()
	b.click(t, card+" [data-dayops-menu] > summary")
	b.waitUntil(t, "the card's ⋯ open over the page", `(m => m.open && getComputedStyle(m.querySelector(":scope > :not(summary)")).position === "fixed")(document.querySelector(`+js(card+" [data-dayops-menu]")+`))`)
}
