package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// firstStepsPlanJSON is what the test reads back of the plan it made.
type firstStepsPlanJSON struct {
	Title       string `json:"title"`
	TimeZone    string `json:"time_zone"`
	Destination *struct {
		Name string  `json:"name"`
		Lat  float64 `json:"lat"`
		Lng  float64 `json:"lng"`
	} `json:"destination"`
}

// fitsWidth is a JavaScript condition: nothing on the page is wider than the screen.
const fitsWidth = `document.documentElement.scrollWidth <= window.innerWidth`

// inViewport is a JavaScript expression: the element the CSS selector names is shown and lies
// inside the viewport.
func inViewport(css string) string {
	return fmt.Sprintf(`(e => !!e && e.getClientRects().length > 0 && (r => r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight)(e.getBoundingClientRect()))(document.querySelector(%s))`, js(css))
}

// A new plan on a phone (390×844): the title's counter counts as one types, the destination is
// picked from the city search by keyboard, and creating the plan lands on its day 1 with the
// destination set. Then on a desktop (1440×900), a title over the limit is refused next to the
// field with the title left whole.
func TestFirstStepsNewPlanWithDestination(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	ana := newBrowser(t, "ana", chromium)
	saveOnFailure(t, srv, ana)

	phone.emulate(t, ana)
	devSignIn(t, ana, srv.base, "demo-ana")
	ana.do(t, "open /plans/new", chromedp.Navigate(srv.base+"/plans/new"))
	ana.waitPath(t, `^/plans/new$`)

	// The counter is next to the title, visible, and counts characters as they are typed.
	ana.waitUntil(t, "the title's counter on screen", inViewport(`#plan-title-count`))
	if got := eval[string](t, ana, textOf(`#plan-title-count`)); got != "0 / 50" {
		t.Errorf("counter before typing %q, want 0 / 50", got)
	}
	const title = "Spring in Seoul"
	ana.typeInto(t, `#plan-title`, title)
	waitFor[string](t, ana, "the counter at 15 / 50", fmt.Sprintf(`%s === "15 / 50" ? "ok" : ""`, textOf(`#plan-title-count`)))

	// The destination: type part of the name, move into the list with the arrow key, Enter.
	ana.typeInto(t, `#plan-destination`, "seo")
	ana.waitUntil(t, "the city list open with Seoul in it", `document.querySelector("#plan-destination").getAttribute("aria-expanded") === "true" && `+
		`[...document.querySelectorAll("#plan-destination-list [role=option]")].filter(o => !o.hidden).map(o => o.dataset.value).join() === "Seoul"`)
	if !eval[bool](t, ana, inViewport(`#plan-destination-list`)) {
		t.Error("the city list is not inside the screen")
	}
	screenshot(t, ana, "phone-new-plan", false)
	ana.do(t, "pick Seoul with the keyboard", chromedp.KeyEvent(kb.ArrowDown))
	ana.waitUntil(t, "Seoul active", `document.querySelector("#plan-destination").getAttribute("aria-activedescendant") === `+
		`document.querySelector('#plan-destination-list [data-value="Seoul"]').id`)
	ana.do(t, "choose it", chromedp.KeyEvent(kb.Enter))
	ana.waitUntil(t, "Seoul chosen and the list closed", `document.querySelector("#plan-destination").value === "Seoul" && document.querySelector("#plan-destination-list").hidden && location.pathname === "/plans/new"`)
	if !eval[bool](t, ana, fitsWidth) {
		t.Errorf("the new plan form is wider than the phone: %d > %d", eval[int](t, ana, `document.documentElement.scrollWidth`), eval[int](t, ana, `window.innerWidth`))
	}

	start := "2027-04-01"
	ana.do(t, "pick the dates", chromedp.SetValue(chromedp.CSS(`#plan-start`), start), chromedp.SetValue(chromedp.CSS(`#plan-end`), "2027-04-03"))
	ana.click(t, `form[action="/plans"] button[type="submit"]`)
	planID := ana.waitPath(t, `^/plans/([^/]+)$`, "/plans/new")[1]
	ana.waitUntil(t, "day 1 of the new plan", `document.querySelector('#day[data-day="1"]')`)
	if got := eval[string](t, ana, textOf(`[data-destination]`)); got != "Seoul" {
		t.Errorf("the plan page names the destination %q, want Seoul", got)
	}
	if !eval[bool](t, ana, fitsWidth) {
		t.Errorf("the new plan's page is wider than the phone")
	}
	screenshot(t, ana, "phone-new-plan-landed", false)
	p := getJSON[firstStepsPlanJSON](t, ana, "/plans/"+planID)
	if p.Title != title || p.Destination == nil || p.Destination.Name != "Seoul" || p.TimeZone != "Asia/Seoul" {
		t.Errorf("GET /plans/%s = %+v, want %q in Seoul on Asia/Seoul time", planID, p, title)
	}

	// The edit form shows the destination and the zone it gave.
	ana.do(t, "open the edit form", chromedp.Navigate(srv.base+"/plans/"+planID+"/edit"))
	ana.waitUntil(t, "the edit form with Seoul", `document.querySelector("#plan-destination").value === "Seoul" && `+fitsWidth)
	if got := eval[string](t, ana, textOf(`#plan-zone + datalist + p`)); !strings.Contains(got, "now Asia/Seoul") {
		t.Errorf("the zone hint says %q", got)
	}
	screenshot(t, ana, "phone-edit-plan", false)

	// The new-collection form has the same counter, on screen.
	ana.do(t, "open /collections/new", chromedp.Navigate(srv.base+"/collections/new"))
	ana.waitUntil(t, "the collection title's counter on screen", inViewport(`#title-count`)+` && `+fitsWidth)
	ana.typeInto(t, `#title`, "서울 맛집")
	waitFor[string](t, ana, "the counter at 5 / 50 (Korean characters count one each)", fmt.Sprintf(`%s === "5 / 50" ? "ok" : ""`, textOf(`#title-count`)))
	screenshot(t, ana, "phone-new-collection", false)

	// On a desktop: a title longer than 50 characters (pasted past maxlength by a script here)
	// is refused next to the field, shown whole, and no plan is made.
	desktop.emulate(t, ana)
	ana.do(t, "open /plans/new", chromedp.Navigate(srv.base+"/plans/new"))
	ana.waitPath(t, `^/plans/new$`)
	long := strings.Repeat("서", 51)
	eval[chromedp.Void](t, ana, fmt.Sprintf(`(i => { i.value = %s; i.dispatchEvent(new Event("input", {bubbles: true})); })(document.querySelector("#plan-title"))`, js(long)))
	if got := eval[string](t, ana, textOf(`#plan-title-count`)); got != "51 / 50" {
		t.Errorf("counter with 51 Korean characters %q, want 51 / 50", got)
	}
	ana.click(t, `form[action="/plans"] button[type="submit"]`)
	ana.waitUntil(t, "the title's error next to it", inViewport(`#plan-title-error`))
	if got := eval[string](t, ana, textOf(`#plan-title-error`)); got != "Shorten the title to 50 characters or fewer; it has 51." {
		t.Errorf("title error %q", got)
	}
	if got := eval[string](t, ana, `document.querySelector("#plan-title").value`); got != long {
		t.Errorf("the title was changed to %q", got)
	}
	if gap := eval[float64](t, ana, `document.querySelector("#plan-title-error").getBoundingClientRect().top - document.querySelector("#plan-title").getBoundingClientRect().bottom`); gap < 0 || gap > 16 {
		t.Errorf("the error is %.0f px from its field, want right under it", gap)
	}
	ana.waitUntil(t, "the focus on the refused title", `document.activeElement && document.activeElement.id === "plan-title"`)
	if got := eval[string](t, ana, `location.pathname`); got != "/plans/new" {
		t.Errorf("left the form for %s", got)
	}
	screenshot(t, ana, "desktop-title-refused", false)

	// Renaming a collection (a form with no autofocus) puts the focus on the refused title too.
	ana.do(t, "open /collections/new", chromedp.Navigate(srv.base+"/collections/new"))
	ana.typeInto(t, `#title`, "Rename me")
	ana.click(t, `form[action="/collections"] button[type="submit"]`)
	ana.waitPath(t, `^/collections/([^/]+)$`, "/collections/new")
	ana.click(t, `main details summary`)
	eval[chromedp.Void](t, ana, fmt.Sprintf(`(i => { i.value = %s; i.dispatchEvent(new Event("input", {bubbles: true})); })(document.querySelector("#rename-title"))`, js(long)))
	ana.click(t, `#rename-fields + button[type="submit"]`)
	ana.waitUntil(t, "the rename error on screen with the focus on the field", inViewport(`#rename-title-error`)+
		` && document.activeElement && document.activeElement.id === "rename-title"`)
	screenshot(t, ana, "desktop-rename-refused", false)
}
