package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tripplan/internal/i18n"
)

// streamOpen is a JavaScript condition: the event stream opened by the element the CSS
// selector names (the htmx SSE extension keeps it in the element's internal data) is open.
func streamOpen(css string) string {
	return fmt.Sprintf(`(d => d && d.sseEventSource && d.sseEventSource.readyState === 1)((document.querySelector(%s) || {})["htmx-internal-data"])`, js(css))
}

// statValue is a JavaScript expression for the value of the budget page's stat card with
// the label ("Total cost").
func statValue(label string) string {
	return fmt.Sprintf(`(c => c ? c.querySelectorAll("p")[1].textContent.trim() : "")([...document.querySelectorAll("#budget-stats .card")].find(c => c.querySelector("p").textContent.trim() === %s))`, js(label))
}

// TestEverythingLive is issue 17's "everything that changes, live" in two browsers, at 390×844
// and at 1440×900: what Ben changes reaches the pages Ana has open without a reload — Ben
// joining reaches her open members drawer and the header's members; his renaming the plan
// and moving its end reach the header; a place he adds to the plan's collection reaches her
// places panel; his expenses reach her open budget page. While Ana is typing in the budget's
// "Add an expense" form, Ben's expense updates her totals but does not touch her form: her
// text and her focus stay, and the day's list catches up once she is done with the form. The
// members drawer of a collection's page follows its members as the plan's does.
func TestEverythingLive(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	axe := axeSource(t)
	for i, scr := range []screen{phone, desktop} {
		t.Run(scr.name, func(t *testing.T) {
			ana, ben := newBrowser(t, "ana-"+scr.name, chromium), newBrowser(t, "ben-"+scr.name, chromium)
			sh := newShell(t, srv, scr, axe, ana, ben, "live")
			s := &scenario{t: t, srv: srv, browsers: []*browser{ana, ben}}
			base := srv.base
			var planID, link string
			start := time.Now().AddDate(0, 4+i, 0)
			plan := func() string { return "/plans/" + planID }

			s.step("Ana has a plan open, with its members drawer", func(t *testing.T) {
				for _, who := range []struct {
					b  *browser
					id string
				}{{ana, "demo-ana"}, {ben, "demo-ben"}} {
					sh.size(t, who.b)
					devSignIn(t, who.b, base, who.id)
				}
				planID = sendJSON[struct {
					PlanID string `json:"plan_id"`
				}](t, ana, "POST", "/plans", map[string]string{"title": "Live trip", "start_date": start.Format("2006-01-02"), "end_date": start.AddDate(0, 0, 2).Format("2006-01-02")}).PlanID
				link = sendJSON[struct {
					URL string `json:"url"`
				}](t, ana, "POST", plan()+"/invitations", nil).URL
				ana.do(t, "open the plan", chromedp.Navigate(base+plan()))
				ana.waitUntil(t, "the plan's event stream open", streamOpen("#plan-live"))
				ana.do(t, "mark the page", chromedp.Evaluate[chromedp.Void](`window.e2eSamePage = true`))
				ana.awaitRequests(t, []string{"get " + plan() + "/members"}, "open the members drawer", chromedp.Click(chromedp.CSS(`#plan-header button[title="Members"]`)))
				ana.waitUntil(t, "the members drawer open", `document.querySelector("#members-dialog").open`)
				if got := eval[string](t, ana, textOf(`#plan-header [data-member-count]`)); got != "1 member" {
					t.Errorf("the header counts %q, want 1 member", got)
				}
			})

			s.step("Ben joins: Ana's drawer and header show him", func(t *testing.T) {
				ben.do(t, "open the invite link", chromedp.Navigate(link))
				ben.waitPath(t, `^`+plan()+`$`)
				ana.waitUntil(t, "Ben in Ana's open members drawer",
					`[...document.querySelectorAll("#members-drawer > ul > li")].some(li => li.textContent.includes("Ben"))`)
				ana.waitUntil(t, "two members in the header", fmt.Sprintf(`(%s) === "2 members" && document.querySelectorAll('#plan-header button[title="Members"] [title]').length === 2`,
					textOf(`#plan-header [data-member-count]`)))
				if !eval[bool](t, ana, `document.querySelector("#members-dialog").open && window.e2eSamePage === true`) {
					t.Error("the drawer closed or the page was reloaded: the change should arrive live")
				}
				sh.inside(t, ana, "#members-dialog", "the members drawer")
				sh.screenshot(t, ana, "members drawer after Ben joined", false)
				ana.do(t, "close the drawer", chromedp.KeyEvent(kb.Escape))
				ana.waitUntil(t, "the drawer closed", `!document.querySelector("#members-dialog").open`)
			})

			s.step("Ben renames the plan and adds a day: Ana's header shows it", func(t *testing.T) {
				end := start.AddDate(0, 0, 3)
				sendJSON[map[string]any](t, ben, "PUT", plan(), map[string]any{"title": "Live trip, longer",
					"start_date": start.Format("2006-01-02"), "end_date": end.Format("2006-01-02"), "confirm": true})
				dates := start.Format("Jan 2") + " – " + end.Format("Jan 2, 2006")
				ana.waitUntil(t, "the new title and dates in Ana's header", fmt.Sprintf(`(%s) === "Live trip, longer" && (%s) === %s`,
					textOf(`#plan-header h1`), textOf(`#plan-header [data-plan-dates]`), js(dates)))
				ana.waitUntil(t, "the fourth day's tab", `document.querySelectorAll("#day nav[aria-label=Days] a").length === 4`)
				if !eval[bool](t, ana, `window.e2eSamePage === true`) {
					t.Error("Ana's page was reloaded")
				}
				sh.fits(t, ana, "plan after Ben's rename")
				sh.screenshot(t, ana, "plan header after Ben's rename", false)
			})

			s.step("Ben adds places to the plan's collection: Ana's places panel shows them", func(t *testing.T) {
				placeOf := func(q string) string {
					found := getJSON[[]struct {
						PlaceID string `json:"place_id"`
						Name    string `json:"name"`
					}](t, ben, "/places/search?query="+q)
					if len(found) == 0 {
						t.Fatalf("no place found for %q", q)
					}
					return found[0].PlaceID
				}
				if n := eval[int](t, ana, `document.querySelectorAll("#panel-places li[data-collection-place-id]").length`); n != 0 {
					t.Fatalf("Ana's panel lists %d places before Ben added any", n)
				}
				sendJSON[map[string]any](t, ben, "POST", plan()+"/blocks/by-place", map[string]any{"place_id": placeOf("Gyeongbokgung"),
					"day": 1, "start_time": "10:00", "end_time": "11:00", "collect": true})
				ana.waitUntil(t, "the palace in Ana's panel", fmt.Sprintf(`document.querySelector('#panel-places li[data-place-name=%s]')`, js(palace)))
				own := getJSON[[]planCollectionJSON](t, ben, plan()+"/collections")
				if len(own) != 1 {
					t.Fatalf("the plan links %d collections, want its own one", len(own))
				}
				// A place added to the collection itself, not through the plan, reaches it too.
				sendJSON[map[string]any](t, ben, "POST", "/collections/"+own[0].CollectionID+"/places", map[string]any{"place_id": placeOf("Gwangjang")})
				ana.waitUntil(t, "the market in Ana's panel", fmt.Sprintf(`document.querySelector('#panel-places li[data-place-name=%s]') && document.querySelectorAll("#panel-places li[data-collection-place-id]").length === 2`, js(market)))
				if !eval[bool](t, ana, `window.e2eSamePage === true`) {
					t.Error("Ana's page was reloaded")
				}
			})

			var currency string
			var total int64
			s.step("Ben adds an expense: Ana's open budget page shows it", func(t *testing.T) {
				ana.do(t, "open the budget", chromedp.Navigate(base+plan()+"/budget"))
				ana.waitUntil(t, "the budget's event stream open", streamOpen("[sse-connect]"))
				ana.do(t, "mark the page", chromedp.Evaluate[chromedp.Void](`window.e2eSamePage = true`))
				b := getJSON[budgetJSON](t, ana, plan()+"/budgets")
				currency, total = b.Currency, b.TotalCost
				sendJSON[map[string]any](t, ben, "POST", plan()+"/expenses", map[string]any{"day": 1, "items": []map[string]any{{"name": "Taxi", "cost": 12000}}})
				total += 12000
				ana.waitUntil(t, "the new total on Ana's page", fmt.Sprintf(`(%s) === %s`, statValue("Total cost"), js(i18n.For(i18n.English).Money(total, currency))))
				ana.waitUntil(t, "Ben's taxi in the day's expenses", `[...document.querySelectorAll("#budget-expenses li")].some(li => li.textContent.includes("Taxi"))`)
				if !eval[bool](t, ana, `window.e2eSamePage === true`) {
					t.Error("Ana's budget page was reloaded")
				}
				sh.fits(t, ana, "budget after Ben's expense")
				sh.axe(t, ana, "budget after Ben's expense")
			})

			s.step("Ben's expense arrives while Ana types: her form is left alone", func(t *testing.T) {
				adding := fmt.Sprintf(`form[hx-post=%s]`, js(plan()+"/expenses"))
				form, summary := "#budget-expenses "+adding, "#budget-expenses details:has("+adding+") > summary"
				item := form + ` input[aria-label="New item"]`
				ana.click(t, summary)
				ana.typeInto(t, item, "Dinner")
				sendJSON[map[string]any](t, ben, "POST", plan()+"/expenses", map[string]any{"day": 1, "items": []map[string]any{{"name": "Museum", "cost": 3000}}})
				total += 3000
				ana.waitUntil(t, "the total with Ben's museum", fmt.Sprintf(`(%s) === %s`, statValue("Total cost"), js(i18n.For(i18n.English).Money(total, currency))))
				ana.idle(t)
				if got := eval[string](t, ana, fmt.Sprintf(`document.querySelector(%s).value`, js(item))); got != "Dinner" {
					t.Errorf("Ana's field holds %q after Ben's expense arrived, want what she typed, Dinner", got)
				}
				if !eval[bool](t, ana, fmt.Sprintf(`document.activeElement === document.querySelector(%s)`, js(item))) {
					t.Error("Ana's field lost the focus when Ben's expense arrived")
				}
				if !eval[bool](t, ana, fmt.Sprintf(`document.querySelector(%s).closest("details").open`, js(form))) {
					t.Error("Ana's form was folded away when Ben's expense arrived")
				}
				if eval[bool](t, ana, `[...document.querySelectorAll("#budget-expenses li")].some(li => li.textContent.includes("Museum"))`) {
					t.Error("the day's list was replaced while Ana was typing in its form")
				}
				sh.screenshot(t, ana, "budget while Ana types", false)

				// Done with the form (emptied and folded away), the list catches up.
				ana.clearField(t, item)
				ana.click(t, summary)
				ana.waitUntil(t, "Ben's museum in the day's list once Ana left the form",
					`[...document.querySelectorAll("#budget-expenses li")].some(li => li.textContent.includes("Museum"))`)

				// The form that came with the list works.
				ana.click(t, summary)
				ana.typeInto(t, item, "Dinner")
				ana.typeInto(t, form+` input[name="cost"]`, "5000")
				ana.click(t, form+` button[type="submit"]`)
				total += 5000
				ana.waitUntil(t, "Ana's dinner in the total", fmt.Sprintf(`(%s) === %s && [...document.querySelectorAll("#budget-expenses li")].some(li => li.textContent.includes("Dinner"))`,
					statValue("Total cost"), js(i18n.For(i18n.English).Money(total, currency))))
				if got := getJSON[budgetJSON](t, ana, plan()+"/budgets"); got.TotalCost != total {
					t.Errorf("GET budgets total_cost = %d, want %d", got.TotalCost, total)
				}
			})

			s.step("Ben joins a collection: the members drawer of Ana's collection page shows him", func(t *testing.T) {
				col := sendJSON[collectionJSON](t, ana, "POST", "/collections", map[string]string{"title": "Live finds"})
				colLink := sendJSON[struct {
					URL string `json:"url"`
				}](t, ana, "POST", "/collections/"+col.CollectionID+"/invitations", nil).URL
				ana.do(t, "open the collection", chromedp.Navigate(base+"/collections/"+col.CollectionID))
				ana.waitUntil(t, "the collection's event stream open", streamOpen("#collection-live"))
				ana.awaitRequests(t, []string{"get /collections/" + col.CollectionID + "/members"}, "open the members drawer",
					chromedp.Click(chromedp.CSS(`main button[title="Members"]`)))
				ana.waitUntil(t, "the members drawer open", `document.querySelector("#members-dialog").open`)
				ben.do(t, "open the collection's invite link", chromedp.Navigate(colLink))
				ben.waitPath(t, `^/collections/`+col.CollectionID+`$`)
				ana.waitUntil(t, "Ben in Ana's open members drawer",
					`document.querySelector("#members-dialog").open && [...document.querySelectorAll("#members-drawer > ul > li")].some(li => li.textContent.includes("Ben"))`)
			})

			s.step("the pages reported no script errors", func(t *testing.T) {
				for _, b := range s.browsers {
					for _, p := range b.reported() {
						t.Errorf("%s: %s", b.name, p)
					}
				}
			})
		})
	}
}
