package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// workers holds each browser's session with its service worker (attached once; closing it
// would drop the conditions set on it).
var workers sync.Map // *browser → context.Context

// workerOf attaches to the browser's service worker: network conditions set on a page do not
// reach the worker's own fetches, which are most of a controlled page's.
func workerOf(t *testing.T, b *browser) context.Context {
	t.Helper()
	if ctx, ok := workers.Load(b); ok {
		return ctx.(context.Context)
	}
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	targets, err := chromedp.Targets(ctx)
	if err != nil {
		t.Fatalf("%s: targets: %v", b.name, err)
	}
	for _, info := range targets {
		if info.Type == "service_worker" {
			wctx, wcancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(info.TargetID))
			t.Cleanup(wcancel)
			if err := chromedp.Do(wctx); err != nil {
				t.Fatalf("%s: attach to the service worker: %v", b.name, err)
			}
			workers.Store(b, wctx)
			return wctx
		}
	}
	t.Fatalf("%s: no service worker running", b.name)
	return nil
}

// setOffline cuts the browser's network, for its page and its service worker alike, and says
// so to the page (navigator.onLine and the offline event), or gives it back.
func setOffline(t *testing.T, b *browser, off bool) {
	t.Helper()
	conditions := network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}},
	}
	for _, target := range []context.Context{b.ctx, workerOf(t, b)} {
		ctx, cancel := context.WithTimeout(target, actionTimeout)
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, conditions); err != nil {
			t.Fatalf("%s: emulate offline=%v: %v", b.name, off, err)
		}
		cancel()
	}
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{
		Offline: off, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatalf("%s: navigator offline=%v: %v", b.name, off, err)
	}
}

// TestPlansStayReadableOffline: Ana opens a plan (a second day's tab, its print page, its
// calendar file) and a place page while online; offline, the plan page reloads from what the
// service worker kept, with the offline banner and its changes refused with a message, the day's
// tab (and day 2's address, opened again), the print page, the calendar file and the place page still come, and a page she never
// opened shows the offline page listing her plan. Back online the banner goes. After she signs
// out nothing of hers is kept: offline, the plan is the offline page with no plans. And when Ben
// signs in on the same browser without her signing out, her pages go before any of his are
// kept. Screenshots of the banner at 390×844 and 1440×900 go to
// e2e/artifacts/<run>/offline/<size>/.
func TestPlansStayReadableOffline(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	for _, scr := range []screen{phone, desktop} {
		t.Run(scr.name, func(t *testing.T) {
			ana := newBrowser(t, "ana-offline-"+scr.name, chromium)
			s := newShell(t, srv, scr, "", ana, nil, "offline")
			s.size(t, ana)
			defer func() {
				if t.Failed() {
					saveArtifacts(t, "", srv, ana)
				}
			}()
			open := func(path string) {
				t.Helper()
				ana.do(t, "open "+path, chromedp.Navigate(srv.base+path))
				ana.waitUntil(t, path+" loaded", `document.readyState === "complete"`)
				ana.idle(t)
			}
			banner := `(b => b && !b.hidden && b.getClientRects().length > 0 ? b.innerText : "")(document.querySelector("[data-offline-banner]"))`
			kept := `caches.keys().then(n => n.filter(k => k.startsWith("tripplan-pages-")))`

			devSignIn(t, ana, srv.base, "demo-ana")
			// The worker installs while she signs in; the pages after it is active are its.
			if !eval[bool](t, ana, `navigator.serviceWorker.ready.then(r => r.active !== null)`) {
				t.Fatal("no service worker active")
			}
			open("/plans")
			ana.waitUntil(t, "the service worker controlling the page", `navigator.serviceWorker.controller !== null`)
			plan := eval[string](t, ana, `([...document.querySelectorAll('main a[href^="/plans/"]')].map(a => a.getAttribute("href")).find(h => /^\/plans\/[^/]+$/.test(h) && h !== "/plans/new") || "")`)
			if plan == "" {
				t.Fatal("the plans page links to no plan (the demo data has one)")
			}
			open(plan)
			title := eval[string](t, ana, `document.querySelector("main h1").innerText.trim()`)
			day2 := `#day nav a[href$="?day=2"]`
			ana.clickAndAwait(t, day2, "get "+plan+"/blocks")
			day2Text := eval[string](t, ana, textOf("#day-heading"))
			open(plan + "/print")
			if got := eval[int](t, ana, fmt.Sprintf(`fetch(%s).then(r => r.status)`, js(plan+"/export.ics"))); got != 200 {
				t.Fatalf("the calendar file online: %d", got)
			}
			open("/collections")
			collection := eval[string](t, ana, `((document.querySelector('main a[href^="/collections/"]:not([href="/collections/new"])') || {}).pathname || "")`)
			open(collection)
			place := eval[string](t, ana, `((document.querySelector('main a[href*="/places/"]') || {}).pathname || "")`)
			if place == "" {
				t.Fatal("the demo collection links to no place page")
			}
			open(place)
			placeTitle := eval[string](t, ana, `document.querySelector("main h1").innerText.trim()`)
			open(plan)
			if got := eval[string](t, ana, banner); got != "" {
				t.Errorf("online, the banner shows: %q", got)
			}

			setOffline(t, ana, true)
			open(plan)
			ana.waitUntil(t, "the offline banner", banner)
			if got := eval[string](t, ana, banner); !strings.Contains(got, "You're offline — showing this page as last opened") || !strings.Contains(got, "Changes are disabled until you're back online.") {
				t.Errorf("the banner says %q", got)
			}
			if got := eval[string](t, ana, `document.querySelector("main h1").innerText.trim()`); got != title {
				t.Errorf("offline, the plan page's title is %q, want %q (kept)", got, title)
			}
			s.screenshot(t, ana, "plan offline", false)
			s.fits(t, ana, "plan offline")

			// A change is refused, with the message, and nothing is sent.
			if eval[string](t, ana, `getComputedStyle(document.querySelector('form[action="/language"] button[type="submit"]')).opacity`) != "0.5" {
				t.Error("offline, the language switch's buttons do not look unavailable")
			}
			eval[bool](t, ana, `(document.querySelector('button[hx-post$="/invitations"]').click(), true)`)
			ana.waitUntil(t, "the refusal of an htmx change", `document.querySelector("#flash")?.innerText.includes("changes are disabled until you're back online")`)
			ana.do(t, "clear the message", chromedp.Evaluate[chromedp.Void](`document.querySelector("#flash").replaceChildren()`))
			eval[bool](t, ana, `(() => { const f = document.querySelector('form[action="/language"]'); f.requestSubmit(f.querySelector('button[type="submit"]')); return true })()`)
			ana.waitUntil(t, "the refusal of a plain form's post", `document.querySelector("#flash")?.innerText.includes("changes are disabled until you're back online")`)
			if p := eval[string](t, ana, `location.pathname`); p != plan {
				t.Errorf("a refused post left the page for %s", p)
			}

			ana.clickAndAwait(t, day2, "get "+plan+"/blocks")
			if got := eval[string](t, ana, textOf("#day-heading")); got != day2Text {
				t.Errorf("offline, day 2's tab shows %q, want %q", got, day2Text)
			}
			// Day 2's address, opened again: the kept plan page shows day 2, from its kept tab.
			open(plan + "?day=2")
			ana.waitUntil(t, "day 2 in the kept plan page", textOf("#day-heading")+" === "+js(day2Text))
			open(plan + "/print")
			ana.waitUntil(t, "the print page's banner", banner)
			if got := eval[string](t, ana, `document.querySelector("main").innerText`); !strings.Contains(got, title) {
				t.Errorf("offline, the print page lacks the plan's title: %.300s", got)
			}
			if got := eval[string](t, ana, fmt.Sprintf(`fetch(%s).then(r => r.headers.get("Content-Type") + " " + r.status)`, js(plan+"/export.ics"))); !strings.HasPrefix(got, "text/calendar") || !strings.HasSuffix(got, " 200") {
				t.Errorf("offline, the calendar file: %s", got)
			}
			open(place)
			if got := eval[string](t, ana, `document.querySelector("main h1").innerText.trim()`); got != placeTitle {
				t.Errorf("offline, the place page's title is %q, want %q", got, placeTitle)
			}

			open("/profile")
			ana.waitUntil(t, "the offline page", `document.querySelector("[data-offline-page]")`)
			ana.waitUntil(t, "the offline page listing the plan", fmt.Sprintf(`document.querySelector('[data-offline-plans] a[href=%s]')`, js(plan)))
			if got := eval[string](t, ana, fmt.Sprintf(`document.querySelector('[data-offline-plans] a[href=%s]').innerText.trim()`, js(plan))); got != title {
				t.Errorf("the offline page names the plan %q, want %q", got, title)
			}
			s.screenshot(t, ana, "offline page", false)
			s.fits(t, ana, "offline page")

			open(plan)
			ana.waitUntil(t, "the offline banner", banner)
			setOffline(t, ana, false)
			ana.waitUntil(t, "the banner gone once online", `!(`+banner+`)`)
			if eval[string](t, ana, `getComputedStyle(document.querySelector('form[action="/language"] button[type="submit"]')).opacity`) == "0.5" {
				t.Error("online again, the language switch still looks unavailable")
			}

			// Signing out leaves nothing of Ana's.
			open(plan)
			if n := eval[[]string](t, ana, kept); len(n) != 1 {
				t.Fatalf("signed in, the kept pages are in %q, want one store", n)
			}
			eval[bool](t, ana, `(document.querySelector('form[action="/auth/logout"]').requestSubmit(), true)`)
			ana.waitPath(t, `^/$`, plan)
			ana.waitUntil(t, "no pages kept after signing out", `caches.keys().then(n => !n.some(k => k.startsWith("tripplan-pages-")))`)
			setOffline(t, ana, true)
			open(plan)
			ana.waitUntil(t, "the offline page for the plan after signing out", `document.querySelector("[data-offline-page]")`)
			ana.waitUntil(t, "no plans listed", `!document.querySelector("[data-offline-none]").hidden`)
			if got := eval[string](t, ana, `document.body.innerText`); strings.Contains(got, title) {
				t.Errorf("after signing out, offline, the page shows Ana's plan %q", title)
			}
			setOffline(t, ana, false)

			// Ben signing in on the same browser, without Ana signing out: her pages go first.
			devSignIn(t, ana, srv.base, "demo-ana")
			open(plan)
			anaStore := eval[[]string](t, ana, kept)
			if len(anaStore) != 1 {
				t.Fatalf("Ana's pages are in %q, want one store", anaStore)
			}
			devSignIn(t, ana, srv.base, "demo-ben")
			if n := eval[[]string](t, ana, kept); len(n) > 1 || len(n) == 1 && n[0] == anaStore[0] {
				t.Errorf("with Ben signed in the kept pages are %q (Ana's were %q)", n, anaStore)
			}
			setOffline(t, ana, true)
			open(plan)
			ana.waitUntil(t, "the offline page for Ana's plan as Ben", `document.querySelector("[data-offline-page]")`)
			setOffline(t, ana, false)
		})
	}
}
