package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestFillTheGaps is issue 25's "Fill the gaps": Ana's day 1 has the palace in the morning and
// Lotte World Tower (far east) from 12:00, two hours free between them. On a 390×844 phone the
// gap's "Fill" opens a dialog inside the screen listing the collection's other places with
// the travel they add, Gwangjang Market (on the way east) before Bukchon (a step back west of
// the palace); a tap adds the market at 10:00 for an hour, announced. At 1440×900 she fills
// the hour left with Bukchon by keyboard alone.
func TestFillTheGaps(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	ana := newBrowser(t, "ana", chromium)
	s := &scenario{t: t, srv: srv, browsers: []*browser{ana}}
	base := srv.base
	var planID string
	const (
		lotte   = "Lotte World Tower"
		bukchon = "Bukchon Hanok Village"
		dialog  = "#gaps-dialog"
	)
	// suggestions are the dialog's places, as shown.
	const suggestions = `[...document.querySelectorAll("#gaps-dialog [data-gap-suggestion]")].map(b => b.innerText.replace(/\s+/g, " ").trim())`
	blockAt := func(start, name string) string {
		return `[...document.querySelectorAll('#day li[data-time-block-id][data-start="` + start + `"]')].some(li => li.innerText.includes(` + js(name) + `))`
	}

	s.step("Ana's day 1: the palace until 10:00, Lotte World Tower from 12:00", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		colID, cps := newCollectionWith(t, ana, "Gaps", palace, lotte, bukchon, market)
		start := time.Now().AddDate(0, 3, 0)
		plan := sendJSON[struct {
			PlanID string `json:"plan_id"`
		}](t, ana, "POST", "/plans", map[string]string{"title": "Gap trip", "start_date": start.Format("2006-01-02"), "end_date": start.AddDate(0, 0, 1).Format("2006-01-02")})
		planID = plan.PlanID
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/collections", map[string]any{"collection_ids": []string{colID}})
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[0], "day": 1, "start_time": "09:00", "end_time": "10:00"})
		sendJSON[any](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[1], "day": 1, "start_time": "12:00", "end_time": "21:00"})
	})

	s.step("on a phone, the gap's Fill lists places nearby; a tap adds Gwangjang Market at 10:00", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1 with the gap's Fill", `document.querySelector('#day[data-day="1"] [data-fill-gap="600"]')`)
		screenshot(t, ana, "gaps-390-day", false)
		ana.awaitRequests(t, []string{"get /plans/" + planID + "/days/1/gaps"}, "tap Fill", tapOn(t, ana, `[data-fill-gap="600"]`)...)
		ana.waitUntil(t, "the dialog open with places", `document.querySelector("#gaps-dialog").open && document.querySelector("#gaps-dialog [data-gap-suggestion]")`)
		got := eval[[]string](t, ana, suggestions)
		if len(got) != 2 || !strings.HasPrefix(got[0], market) || !strings.Contains(got[0], "travel") || !strings.HasPrefix(got[1], bukchon) {
			t.Errorf("the dialog offers %q, want Gwangjang Market first with its travel, then Bukchon", got)
		}
		checkInViewport(t, ana, dialog)
		fitsScreen(t, ana, 390, "the gaps dialog at 390")
		for _, v := range axeViolations(t, ana, axeSource(t)) {
			t.Errorf("the gaps dialog: axe %s violation %q: %s; elements: %s", v.Impact, v.ID, v.Help, strings.Join(v.Targets, " | "))
		}
		screenshot(t, ana, "gaps-390-dialog", false)
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/blocks"}, "tap Gwangjang Market", tapOn(t, ana, "#gaps-dialog [data-gap-suggestion]")...)
		ana.waitUntil(t, "the dialog closed and the market at 10:00", `!document.querySelector("#gaps-dialog").open && `+blockAt("10:00", market))
		ana.waitUntil(t, "the live region saying it", `document.querySelector("#plan-announce").textContent.includes(`+js(market)+`)`)
		if eval[bool](t, ana, `!!document.querySelector('[data-fill-gap="660"]')`) != true {
			t.Error("the hour left, 11:00–12:00, offers no Fill")
		}
		screenshot(t, ana, "gaps-390-filled", false)
	})

	s.step("at 1440×900, Ana fills the hour left by keyboard", func(t *testing.T) {
		desktop.emulate(t, ana)
		ana.do(t, "open day 1", chromedp.Navigate(base+"/plans/"+planID+"?day=1"))
		ana.waitUntil(t, "day 1's grid", `document.readyState === "complete" && document.querySelector('#day[data-day="1"] [data-slot]').getClientRects().length > 0`)
		ana.idle(t)
		ana.do(t, "focus the gap's Fill", chromedp.Focus(chromedp.CSS(`[data-fill-gap="660"]`)))
		ana.awaitRequests(t, []string{"get /plans/" + planID + "/days/1/gaps"}, "Enter: Fill", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the focus on the first place", `document.querySelector("#gaps-dialog").open && document.activeElement.matches("#gaps-dialog [data-gap-suggestion]")`)
		if got := eval[[]string](t, ana, suggestions); len(got) != 1 || !strings.HasPrefix(got[0], bukchon) {
			t.Errorf("the dialog offers %q, want Bukchon alone (the market is in the plan now)", got)
		}
		checkInViewport(t, ana, dialog)
		for _, v := range axeViolations(t, ana, axeSource(t)) {
			t.Errorf("the gaps dialog at 1440: axe %s violation %q: %s; elements: %s", v.Impact, v.ID, v.Help, strings.Join(v.Targets, " | "))
		}
		screenshot(t, ana, "gaps-1440-dialog", false)
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/blocks"}, "Enter: add it", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the dialog closed and Bukchon at 11:00", `!document.querySelector("#gaps-dialog").open && `+blockAt("11:00", bukchon))
		if eval[bool](t, ana, `!!document.querySelector("[data-fill-gap]")`) {
			t.Error("a Fill is left on a day without a free hour")
		}
		screenshot(t, ana, "gaps-1440-filled", false)
	})
}
