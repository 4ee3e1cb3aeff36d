package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestPlanPagesFitInKorean: Ana's browser asks for Korean (Accept-Language: ko). At 390×844
// and 1440×900 the plans list, the demo plan, its print page and a place page are in Korean
// and no wider than the screen, axe finds no serious violation, and the plan's Export menu,
// add dialog and candidate picker lie inside the viewport. Screenshots of each go to
// e2e/artifacts/<run>/korean/<size>/.
func TestPlanPagesFitInKorean(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	axe := axeSource(t)
	for _, scr := range []screen{phone, desktop} {
		t.Run(scr.name, func(t *testing.T) {
			ana := newBrowser(t, "ana-ko-"+scr.name, chromium)
			ctx, cancel := context.WithTimeout(ana.ctx, actionTimeout)
			defer cancel()
			if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{
				Headers: network.Headers{"Accept-Language": "ko-KR,ko;q=0.9"}}); err != nil {
				t.Fatalf("ask for Korean: %v", err)
			}
			s := newShell(t, srv, scr, axe, ana, nil, "korean")
			s.size(t, ana)
			devSignIn(t, ana, srv.base, "demo-ana")
			saveOnFailure(t, srv, ana)
			korean := func(what string, words ...string) {
				t.Helper()
				text := eval[string](t, ana, `document.querySelector("main").innerText`)
				for _, w := range words {
					if !strings.Contains(text, w) {
						t.Errorf("%s at %s lacks %q in Korean: %.400s", what, scr.name, w, text)
					}
				}
			}

			s.visit(t, ana, "/plans", "plans")
			korean("the plans list", "여행", "새 여행")
			plan := eval[string](t, ana, `([...document.querySelectorAll('main a[href^="/plans/"]')].map(a => a.getAttribute("href")).find(h => /^\/plans\/[^/]+$/.test(h) && h !== "/plans/new") || "")`)
			if plan == "" {
				t.Fatal("the plans page links to no plan (the demo data has one)")
			}

			s.visit(t, ana, plan, "plan")
			korean("the plan page", "1일차", "일정", "내보내기")
			// The route sits beside the timeline on a wide screen and is the day's Map view on a
			// phone.
			if eval[bool](t, ana, `document.querySelector('[data-day-view="map"]').getClientRects().length > 0`) {
				korean("the plan page", "타임라인", "지도")
				ana.click(t, `[data-day-view="map"]`)
				korean("the plan page's Map view", "동선")
				ana.click(t, `[data-day-view="timeline"]`)
			} else {
				korean("the plan page", "동선")
			}
			s.menu(t, ana, `details[data-export-menu]`, "export menu")
			s.addDialog(t)
			if got := eval[string](t, ana, `document.querySelector("#block-dialog [data-dialog-title]").textContent`); got != "여기에 추가" {
				t.Errorf("the add dialog's title is %q, want 여기에 추가 (plan.js's words in Korean)", got)
			}
			open := `#day button[hx-get$="/candidates"]`
			ana.clickAndAwait(t, open, "get "+eval[string](t, ana, fmt.Sprintf(`document.querySelector(%s).getAttribute("hx-get")`, js(open))))
			ana.waitUntil(t, "the candidate picker open", `document.querySelector("#picker-dialog").open`)
			s.inside(t, ana, `#picker-dialog`, "the candidate picker")
			if w := eval[[]int](t, ana, `(d => [d.scrollWidth, d.clientWidth])(document.querySelector("#picker-dialog"))`); w[0] > w[1] {
				t.Errorf("at %s the Korean candidate picker scrolls sideways as a whole (%d px in %d px)", scr.name, w[0], w[1])
			}
			if got := eval[string](t, ana, `document.querySelector("#picker-title").textContent`); got != "후보" {
				t.Errorf("the picker's title is %q, want 후보", got)
			}
			s.screenshot(t, ana, "plan candidate picker", false)
			s.axe(t, ana, "plan with the candidate picker open")
			ana.do(t, "close the picker", chromedp.Evaluate[chromedp.Void](`document.querySelector("#picker-dialog").close()`))

			s.visit(t, ana, plan+"/print", "print")
			korean("the print page", "1일차", "인쇄")

			// The way to a place page: the collections (their words are not the plan's).
			ana.do(t, "open /collections", chromedp.Navigate(srv.base+"/collections"))
			ana.waitUntil(t, "/collections loaded", `document.readyState === "complete"`)
			place := ""
			if c := eval[string](t, ana, `((document.querySelector('main a[href^="/collections/"]:not([href="/collections/new"])') || {}).pathname || "")`); c != "" {
				ana.do(t, "open "+c, chromedp.Navigate(srv.base+c))
				ana.waitUntil(t, c+" loaded", `document.readyState === "complete"`)
				place = eval[string](t, ana, `((document.querySelector('main a[href*="/places/"]') || {}).pathname || "")`)
			}
			if place == "" {
				t.Fatal("the demo collection links to no place page")
			}
			s.visit(t, ana, place, "place")
			korean("the place page", "추가한 사람", "지도")

			for _, p := range ana.reported() {
				t.Errorf("%s: %s", ana.name, p)
			}
		})
	}
}
