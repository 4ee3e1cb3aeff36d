package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestActivityPanel is issue 17's activity panel at 390×844 (a phone, where it is a bottom
// sheet) and at 1440×900: Ana adds free time to the demo plan, opens "Activity" from the plan's
// header with the keyboard, and finds her change at the top, in words; the panel lies inside the
// viewport and axe-core finds no serious or critical violation in it. While it is open, Ben
// (in another browser) adds a block and his sentence arrives in Ana's panel live, without a
// reload. Escape closes it and gives the focus back to the button.
func TestActivityPanel(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	axe := axeSource(t)
	for i, scr := range []screen{phone, desktop} {
		t.Run(scr.name, func(t *testing.T) {
			ana, ben := newBrowser(t, "ana-"+scr.name, chromium), newBrowser(t, "ben-"+scr.name, chromium)
			s := newShell(t, srv, scr, axe, ana, ben, "activity")
			s.size(t, ana)
			s.size(t, ben)
			saveOnFailure(t, srv, ana, ben)
			for _, who := range []struct {
				b  *browser
				id string
			}{{ana, "demo-ana"}, {ben, "demo-ben"}} {
				devSignIn(t, who.b, srv.base, who.id)
			}
			plans := getJSON[struct {
				Contents []struct {
					PlanID string `json:"plan_id"`
					Title  string `json:"title"`
				} `json:"contents"`
			}](t, ana, "/plans")
			planID := ""
			for _, p := range plans.Contents {
				if p.Title == "Seoul weekend" {
					planID = p.PlanID
				}
			}
			if planID == "" {
				t.Fatalf("Ana has no demo plan: %+v", plans)
			}
			// Late on day 3, where the demo plan has nothing: an hour for each screen's run.
			hour := 20 + i
			free := func(b *browser, minute int) {
				sendJSON[map[string]any](t, b, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "FREE", "day": 3,
					"start_time": fmt.Sprintf("%02d:%02d", hour, minute), "end_time": fmt.Sprintf("%02d:%02d", hour, minute+20)})
			}
			free(ana, 0)
			mine := fmt.Sprintf("Ana added free time to Day 3, %02d:00", hour)

			ana.do(t, "open the plan", chromedp.Navigate(srv.base+"/plans/"+planID))
			ana.waitUntil(t, "the plan page loaded", `document.readyState === "complete"`)
			ana.idle(t)
			button := `button[data-activity-button]`
			s.inside(t, ana, button, "the Activity button")
			ana.awaitRequests(t, []string{"get /plans/" + planID + "/activity"}, "open Activity with the keyboard",
				chromedp.Focus(chromedp.CSS(button)), chromedp.KeyEvent(kb.Enter))
			ana.waitUntil(t, "the activity panel open", `document.querySelector("#activity-dialog").open`)
			first := `#activity-list > li:first-child`
			if got := eval[string](t, ana, textOf(first+" p")); got != mine {
				t.Errorf("the newest entry reads %q, want %q", got, mine)
			}
			if got := eval[string](t, ana, textOf(first+" time")); got != "just now" {
				t.Errorf("the newest entry happened %q, want just now", got)
			}
			s.inside(t, ana, `#activity-dialog`, "the activity panel")
			s.inside(t, ana, `#activity-dialog [data-close-dialog]`, "the activity panel's close button")
			s.inside(t, ana, first, "the newest entry")
			s.screenshot(t, ana, "activity panel", false)
			s.axe(t, ana, "plan with the activity panel open")

			// Ben's change arrives live: the list reloads on the plan's event.
			ana.do(t, "mark the page", chromedp.Evaluate[chromedp.Void](`window.e2eSamePage = true`))
			ana.waitUntil(t, "the plan's event stream open", `(d => d && d.sseEventSource && d.sseEventSource.readyState === 1)(document.getElementById("plan-live")["htmx-internal-data"])`)
			free(ben, 30)
			his := fmt.Sprintf("Ben added free time to Day 3, %02d:30", hour)
			ana.waitUntil(t, "Ben's change in Ana's panel", fmt.Sprintf(`(%s) === %s`, textOf(first+" p"), js(his)))
			if !eval[bool](t, ana, `window.e2eSamePage === true && document.querySelector("#activity-dialog").open`) {
				t.Errorf("the page was reloaded or the panel closed; the entry should arrive over the event stream")
			}
			if got := eval[string](t, ana, textOf(`#activity-list > li:nth-child(2) p`)); got != mine {
				t.Errorf("the second entry reads %q, want %q", got, mine)
			}
			s.screenshot(t, ana, "activity panel after Ben's change", false)

			ana.do(t, "press Escape", chromedp.KeyEvent(kb.Escape))
			// The dialog's close event (focus back, panel emptied) follows its open flag going
			// false as a separate task, so the whole end state is waited for.
			ana.waitUntil(t, "Escape to close the activity panel, put the focus back on the Activity button and empty the panel",
				`!document.querySelector("#activity-dialog").open && document.activeElement === document.querySelector("button[data-activity-button]") && !document.querySelector("#activity-body").children.length`)
			for _, b := range []*browser{ana, ben} {
				for _, p := range b.reported() {
					t.Errorf("%s: %s", b.name, p)
				}
			}
		})
	}
}
