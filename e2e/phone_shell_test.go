package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// screen is a window size the pages are tried at.
type screen struct {
	name          string
	width, height int64
	phone         bool // emulate a phone (touch, mobile viewport); the header's actions are a menu
}

// The sizes of issue 16: the two of its browser tests, and the small phone and the tablet
// that no page may be wider than either.
var (
	phone      = screen{"phone-390x844", 390, 844, true}
	desktop    = screen{"desktop-1440x900", 1440, 900, false}
	smallPhone = screen{"phone-360x740", 360, 740, true}
	tablet     = screen{"tablet-768x1024", 768, 1024, false}
)

// axeSource is the vendored axe-core (make vendor-js copies it from node_modules; it is
// never served to users).
func axeSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "axe.min.js"))
	if err != nil {
		t.Fatalf("read the vendored axe-core (run make vendor-js): %v", err)
	}
	return string(src)
}

// shell is one run of TestEveryPageFitsTheScreen: the server, the signed-in browser and a
// guest's browser at one screen size, and what the run found out about the demo data.
type shell struct {
	t      *testing.T
	srv    *server
	scr    screen
	axeJS  string
	ana    *browser
	guest  *browser
	shots  string // the directory of this size's screenshots
	shotNo int
}

// TestEveryPageFitsTheScreen visits every page of the main flows at 390×844 (a phone) and at
// 1440×900 (and at 360×740 and 768×1024 too), as Ana (signed in, with the demo data) and as a guest through an invite link. On
// each page it checks that nothing is wider than the screen, opens the page's dialogs and
// menus (the header menu on phones, the Export menu, the members drawer, the activity panel,
// the add-block dialog, the Rename menu) and checks they lie inside the viewport and close as menus should,
// and runs axe-core, allowing no serious or critical violation. Screenshots of every page and
// opened dialog go to e2e/artifacts/<run>/shell/<size>/.
func TestEveryPageFitsTheScreen(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	axe := axeSource(t)
	for _, scr := range []screen{phone, desktop, smallPhone, tablet} {
		t.Run(scr.name, func(t *testing.T) {
			s := newShell(t, srv, scr, axe, newBrowser(t, "ana-"+scr.name, chromium), newBrowser(t, "guest-"+scr.name, chromium), "shell")
			s.run()
		})
	}
}

// newShell is a run at one screen size with its two browsers; its screenshots go to
// e2e/artifacts/<run>/<dir>/<size>/.
func newShell(t *testing.T, srv *server, scr screen, axe string, ana, guest *browser, dir string) *shell {
	t.Helper()
	s := &shell{t: t, srv: srv, scr: scr, axeJS: axe, ana: ana, guest: guest, shots: filepath.Join(artifactsDir(), dir, scr.name)}
	if err := os.MkdirAll(s.shots, 0o755); err != nil {
		t.Fatal(err)
	}
	return s
}

// size sets the browser's viewport to the screen.
func (s *shell) size(t *testing.T, b *browser) {
	t.Helper()
	s.scr.emulate(t, b)
}

// emulate makes the browser this screen: a phone's is a mobile viewport with a touch screen,
// the others a window with a mouse.
func (scr screen) emulate(t *testing.T, b *browser) {
	t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if scr.phone {
		opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	b.do(t, "set the viewport to "+scr.name, chromedp.EmulateViewport(scr.width, scr.height, opts...))
}

// step runs one part as a subtest that saves the browsers' state when it fails.
func (s *shell) step(name string, f func(t *testing.T)) {
	s.t.Run(name, func(t *testing.T) {
		defer func() {
			if t.Failed() {
				saveArtifacts(t, "", s.srv, s.ana, s.guest)
			}
		}()
		f(t)
	})
}

func (s *shell) run() {
	base := s.srv.base
	s.size(s.t, s.ana)
	s.size(s.t, s.guest)

	s.step("landing and sign-in pages as a guest", func(t *testing.T) {
		s.visit(t, s.guest, "/", "landing")
		s.visit(t, s.guest, "/login", "sign-in")
		s.visit(t, s.guest, "/no-such-page", "error page")
	})

	s.step("Ana signs in", func(t *testing.T) {
		devSignIn(t, s.ana, base, "demo-ana")
	})

	var collection, place, plan string
	s.step("home", func(t *testing.T) {
		s.visit(t, s.ana, "/home", "home")
		s.headerMenu(t)
	})
	s.step("collections", func(t *testing.T) {
		s.visit(t, s.ana, "/collections", "collections")
		collection = eval[string](t, s.ana, `([...document.querySelectorAll('main a[href^="/collections/"]')].map(a => a.getAttribute("href")).find(h => /^\/collections\/[^/]+$/.test(h) && h !== "/collections/new") || "")`)
		if collection == "" {
			t.Fatal("the collections page links to no collection (the demo data has one)")
		}
		s.visit(t, s.ana, "/collections/new", "new collection")
	})
	s.step("a collection", func(t *testing.T) {
		s.visit(t, s.ana, collection, "collection")
		place = eval[string](t, s.ana, `((document.querySelector('main a[href*="/places/"]') || {}).pathname || "")`)
		s.menu(t, s.ana, `main details[data-menu]:has(#rename-title)`, "rename menu")
		s.membersDrawer(t, "collection")
	})
	s.step("a place", func(t *testing.T) {
		if place == "" {
			t.Fatal("the collection page links to no place page (the demo collection has places)")
		}
		s.visit(t, s.ana, place, "place")
	})
	s.step("plans", func(t *testing.T) {
		s.visit(t, s.ana, "/plans", "plans")
		plan = eval[string](t, s.ana, `([...document.querySelectorAll('main a[href^="/plans/"]')].map(a => a.getAttribute("href")).find(h => /^\/plans\/[^/]+$/.test(h) && h !== "/plans/new") || "")`)
		if plan == "" {
			t.Fatal("the plans page links to no plan (the demo data has one)")
		}
		s.visit(t, s.ana, "/plans/new", "new plan")
	})
	var invite string
	s.step("a plan", func(t *testing.T) {
		s.visit(t, s.ana, plan, "plan")
		s.menu(t, s.ana, `details[data-export-menu]`, "export menu")
		s.membersDrawer(t, "plan")
		s.activityPanel(t, s.ana, "plan")
		s.addDialog(t)
		s.picker(t)
		s.ana.click(t, fmt.Sprintf(`button[hx-post=%s]`, js(plan+"/invitations")))
		invite = waitFor[string](t, s.ana, "the invite link", `(document.querySelector("#invite-url") || {}).value || ""`)
		s.fits(t, s.ana, "plan with its invite link")
	})
	s.step("budget", func(t *testing.T) {
		s.visit(t, s.ana, plan+"/budget", "budget")
		// The expense form with its More options open, split by amounts: one per member.
		const adding = `form[data-expense-form][hx-post]`
		const form = `#budget-expenses ` + adding
		s.ana.click(t, `#budget-expenses details:has(`+adding+`) > summary`)
		s.ana.click(t, form+` [data-more-options] > summary`)
		s.ana.click(t, form+` input[name="split_mode"][value="EXACT"]`)
		if n := eval[int](t, s.ana, `[...document.querySelectorAll(`+js(form+` input[name^="split_amount_"]`)+`)].filter(i => i.getClientRects().length).length`); n < 2 {
			t.Errorf("split by amounts shows %d amount fields, want one per member", n)
		}
		s.check(t, s.ana, "budget's expense form with more options")
		// Amounts that do not add up to the cost: the server's sentence goes under the split,
		// with the focus on its chosen mode, and nothing is added.
		s.ana.typeInto(t, form+` input[name="name"]`, "Boat")
		s.ana.typeInto(t, form+` input[name="cost"]`, "10000")
		amounts := form + ` input[name^="split_amount_"]`
		s.ana.do(t, "give amounts short of the cost", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll(`+js(amounts)+`)].forEach((i, n) => i.value = n ? "1000" : "3000")`))
		s.ana.click(t, form+` button[type="submit"]`)
		s.ana.waitUntil(t, "the split's error under it", `(f => f && f.querySelector("[data-split] > [data-field-message]") && document.activeElement === f.querySelector('input[name="split_mode"]:checked'))(document.querySelector(`+js(form)+`))`)
		s.check(t, s.ana, "budget's expense form with a split error")
		s.ana.do(t, "empty the form", chromedp.Evaluate[chromedp.Void](`document.querySelector(`+js(form)+`).reset()`))
	})
	s.step("notifications and profile", func(t *testing.T) {
		s.visit(t, s.ana, "/notifications", "notifications")
		s.visit(t, s.ana, "/profile", "profile")
	})
	s.step("a guest opens the invite link", func(t *testing.T) {
		if invite == "" {
			t.Fatal("no invite link was made")
		}
		s.guest.do(t, "open the invite link", chromedp.Navigate(invite))
		s.guest.waitPath(t, `^/plans/[^/]+$`)
		s.check(t, s.guest, "guest's plan")
		s.menu(t, s.guest, `details[data-export-menu]`, "guest's export menu")
		s.activityPanel(t, s.guest, "guest's plan")
	})
	s.step("the pages reported no script errors", func(t *testing.T) {
		for _, b := range []*browser{s.ana, s.guest} {
			for _, p := range b.reported() {
				if strings.Contains(p, "404 (Not Found) "+s.srv.base+"/no-such-page") {
					continue // the error page, asked for on purpose
				}
				if strings.Contains(p, "400 (Bad Request) "+s.srv.base+plan+"/expenses") || strings.Contains(p, "Error Code 400 from "+plan+"/expenses,") {
					continue // the budget's split error, asked for on purpose
				}
				t.Errorf("%s: %s", b.name, p)
			}
		}
	})
}

// visit opens a page and checks it (see check).
func (s *shell) visit(t *testing.T, b *browser, path, name string) {
	t.Helper()
	b.do(t, "open "+path, chromedp.Navigate(s.srv.base+path))
	b.waitUntil(t, path+" loaded", `document.readyState === "complete"`)
	b.idle(t)
	s.check(t, b, name)
}

// check checks the page in the browser: no wider than the screen, the skip link goes to a
// region that exists, and axe-core finds no serious or critical violation. It keeps a
// screenshot of the whole page.
func (s *shell) check(t *testing.T, b *browser, name string) {
	t.Helper()
	s.screenshot(t, b, name, true)
	s.fits(t, b, name)
	target := eval[string](t, b, `(a => a ? a.getAttribute("href") : "")(document.querySelector("[data-skip-link]"))`)
	first := eval[bool](t, b, `(a => !!a && [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")].find(e => e.tabIndex >= 0 && !e.disabled) === a)(document.querySelector("[data-skip-link]"))`)
	if !first || !strings.HasPrefix(target, "#") || !eval[bool](t, b, fmt.Sprintf(`!!document.getElementById(%s)`, js(strings.TrimPrefix(target, "#")))) {
		t.Errorf("%s: the skip link should be the first focusable element and go to a region of the page; first %v, href %q", name, first, target)
	}
	s.axe(t, b, name)
}

// overflowJS (a format taking the screen's width) lists the elements that reach past the
// screen's right edge (the innermost ones, at most 8), each with whether it lies in the plan's day
// (#day, the grid that issue 16 item 2 replaces on phones).
const overflowJS = `(() => {
	const w = %d;
	const wide = [...document.body.querySelectorAll("*")].filter(e => {
		const r = e.getBoundingClientRect();
		return r.width > 0 && r.right > w + 0.5 && getComputedStyle(e).position !== "fixed";
	});
	const innermost = wide.filter(e => !wide.some(o => o !== e && e.contains(o)));
	const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.classList.length ? "." + [...e.classList].slice(0, 3).join(".") : "");
	return innermost.slice(0, 8).map(e => (e.closest("#day") ? "[in #day] " : "") + name(e) + " reaches " + Math.round(e.getBoundingClientRect().right) + " px");
})()`

// fits checks that the page is no wider than the screen: scrollWidth <= innerWidth, and
// innerWidth is the screen's width (a phone browser zooms out to show a page wider than the
// screen, and then innerWidth grows with it). What sticks out inside the plan's day grid is
// reported apart: on phones issue 16's day timeline replaces that grid.
func (s *shell) fits(t *testing.T, b *browser, name string) {
	t.Helper()
	sw := eval[int](t, b, `document.documentElement.scrollWidth`)
	iw := eval[int](t, b, `window.innerWidth`)
	if sw <= iw && iw <= int(s.scr.width) {
		return
	}
	over := eval[[]string](t, b, fmt.Sprintf(overflowJS, s.scr.width))
	day := true
	for _, o := range over {
		day = day && strings.HasPrefix(o, "[in #day]")
	}
	if day && len(over) > 0 {
		t.Errorf("%s at %s: the page is %d px wide on a %d px screen (innerWidth %d) because of the plan's day grid (#day; issue 16 item 2's phone timeline replaces it): %s",
			name, s.scr.name, sw, s.scr.width, iw, strings.Join(over, "; "))
		return
	}
	t.Errorf("%s at %s: the page is %d px wide on a %d px screen (document.documentElement.scrollWidth %d, innerWidth %d); sticking out: %s",
		name, s.scr.name, sw, s.scr.width, sw, iw, strings.Join(over, "; "))
}

// axe runs the vendored axe-core over the page and fails on each serious or critical
// violation, naming its rule, help text and elements. Violations inside the plan's day grid
// (#day) are reported apart, as fits does.
func (s *shell) axe(t *testing.T, b *browser, name string) {
	t.Helper()
	for _, v := range axeViolations(t, b, s.axeJS) {
		where := ""
		if v.InDay {
			where = " (all inside the plan's day grid #day, which issue 16 item 2 replaces)"
		}
		t.Errorf("%s at %s: axe %s violation %q%s: %s (%s); elements: %s",
			name, s.scr.name, v.Impact, v.ID, where, v.Help, v.URL, strings.Join(v.Targets, " | "))
	}
}

// axeViolation is a serious or critical finding of axe-core.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	URL     string   `json:"url"`
	Targets []string `json:"targets"`
	InDay   bool     `json:"inDay"` // every element it names lies in the plan's day (#day)
}

// axeViolations runs the vendored axe-core (axeJS, see axeSource) over the page and answers
// its serious and critical violations.
func axeViolations(t *testing.T, b *browser, axeJS string) []axeViolation {
	t.Helper()
	if !eval[bool](t, b, `typeof window.axe === "object"`) {
		eval[chromedp.Void](t, b, axeJS+"\n;undefined")
	}
	return eval[[]axeViolation](t, b, `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => ({id: v.id, impact: v.impact, help: v.help, url: v.helpUrl,
			targets: v.nodes.map(n => n.target.join(" ")),
			inDay: v.nodes.every(n => { try { const e = document.querySelector(n.target[0]); return !!e && !!e.closest("#day"); } catch (_) { return false; } })})))`)
}

// screenshot keeps what the browser shows (the whole page, or just the viewport) as
// e2e/artifacts/<run>/shell/<size>/NN-name.png.
func (s *shell) screenshot(t *testing.T, b *browser, name string, full bool) {
	t.Helper()
	s.shotNo++
	if _, err := capture(b, s.shots, fmt.Sprintf("%02d-%s", s.shotNo, unsafeName.ReplaceAllString(name, "-")), full); err != nil {
		t.Log(err)
	}
	if full { // a full-page capture changes the device metrics for a moment
		s.size(t, b)
	}
}

// insideJS is a JavaScript expression: "inside" when the element the CSS selector names is
// shown and its box lies inside the screen (the viewport as set, not as a phone browser may
// have zoomed out to); otherwise a description of where it is.
func insideJS(css string, scr screen) string {
	return fmt.Sprintf(`((e, innerWidth, innerHeight) => {
		if (!e) return "missing";
		const r = e.getBoundingClientRect();
		if (!r.width || !r.height) return "not shown";
		if (r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5) return "inside";
		return "at left " + Math.round(r.left) + ", top " + Math.round(r.top) + ", right " + Math.round(r.right) + ", bottom " + Math.round(r.bottom) + " in a " + innerWidth + "×" + innerHeight + " viewport";
	})(document.querySelector(%s), %d, %d)`, js(css), scr.width, scr.height)
}

// inside checks that the element is shown inside the viewport.
func (s *shell) inside(t *testing.T, b *browser, css, what string) {
	t.Helper()
	if iw := eval[int](t, b, `window.innerWidth`); iw > int(s.scr.width) {
		t.Errorf("%s at %s: cannot be placed inside the screen: the page is wider than the screen, so the browser zoomed out to %d px (see the overflow reported for the page)", what, s.scr.name, iw)
		return
	}
	if got := eval[string](t, b, insideJS(css, s.scr)); got != "inside" {
		t.Errorf("%s at %s: %s (%s) should lie inside the viewport; it is %s", what, s.scr.name, what, css, got)
	}
}

// settledInside is inside for a panel a script places after it shows (a menu's panel is fitted
// into the viewport by its toggle event, a task that follows the open flag): it waits until the
// panel lies inside, and fails with where it lies when it still does not after waitTimeout.
func (s *shell) settledInside(t *testing.T, b *browser, css, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	got := ""
	for {
		if v, err := chromedp.Run(ctx, chromedp.Evaluate[string](insideJS(css, s.scr))); err == nil {
			if got = v; got == "inside" {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Errorf("%s at %s: %s (%s) should lie inside the viewport; after %v it is %s", what, s.scr.name, what, css, waitTimeout, got)
			return
		case <-time.After(pollInterval):
		}
	}
}

// headerMenu checks the header: on a phone its actions are behind a menu button, which opens
// a menu inside the viewport that Escape, a tap outside and a selection close; on a wide
// screen the navigation is in the header itself.
func (s *shell) headerMenu(t *testing.T) {
	t.Helper()
	b := s.ana
	const button, panel = `header [data-menu-button]`, `#site-menu`
	if !s.scr.phone {
		if got := eval[string](t, b, insideJS(`header > div > nav a[href="/plans"]`, s.scr)); got != "inside" {
			t.Errorf("at %s the header's navigation should be shown: %s", s.scr.name, got)
		}
		if eval[bool](t, b, `getComputedStyle(document.querySelector("header [data-menu]")).display !== "none"`) {
			t.Errorf("at %s the header's menu button should be hidden (the actions fit)", s.scr.name)
		}
		return
	}
	expanded := func() string {
		return eval[string](t, b, `document.querySelector("header [data-menu-button]").getAttribute("aria-expanded")`)
	}
	if got := expanded(); got != "false" {
		t.Errorf("the menu button's aria-expanded is %q before opening, want false", got)
	}
	// Keyboard: focus the button and press Enter; Escape closes and gives focus back.
	b.do(t, "open the header menu with the keyboard", chromedp.Focus(chromedp.CSS(button)), chromedp.KeyEvent(kb.Enter))
	b.waitUntil(t, "the header menu open", `!document.querySelector("#site-menu").hidden`)
	if got := expanded(); got != "true" {
		t.Errorf("the menu button's aria-expanded is %q when open, want true", got)
	}
	s.inside(t, b, panel, "the header menu")
	s.inside(t, b, panel+` button[type="submit"]`, "the header menu's Sign out")
	s.screenshot(t, b, "header menu", false)
	b.do(t, "press Escape", chromedp.KeyEvent(kb.Escape))
	b.waitUntil(t, "Escape to close the header menu", `document.querySelector("#site-menu").hidden`)
	if !eval[bool](t, b, `document.activeElement === document.querySelector("header [data-menu-button]")`) {
		t.Errorf("after Escape the focus should be back on the menu button")
	}
	// A tap outside closes it.
	b.click(t, button)
	b.waitUntil(t, "the header menu open", `!document.querySelector("#site-menu").hidden`)
	b.click(t, `footer p`)
	b.waitUntil(t, "a tap outside to close the header menu", `document.querySelector("#site-menu").hidden`)
	// A selection closes it (and goes there).
	b.click(t, button)
	b.waitUntil(t, "the header menu open", `!document.querySelector("#site-menu").hidden`)
	eval[chromedp.Void](t, b, `document.querySelector('#site-menu a[href="/plans"]').addEventListener("click", e => e.preventDefault(), {once: true})`)
	b.click(t, `#site-menu a[href="/plans"]`)
	b.waitUntil(t, "choosing Plans to close the header menu", `document.querySelector("#site-menu").hidden`)
}

// menu opens a <details data-menu> dropdown, checks it lies inside the viewport and closes on
// Escape, on a click outside and on choosing one of its links.
func (s *shell) menu(t *testing.T, b *browser, details, what string) {
	t.Helper()
	open := fmt.Sprintf(`document.querySelector(%s).open`, js(details))
	b.click(t, details+` > summary`)
	b.waitUntil(t, what+" open", open)
	b.idle(t)
	s.settledInside(t, b, details+` > :not(summary)`, what)
	s.screenshot(t, b, what, false)
	b.do(t, "press Escape", chromedp.KeyEvent(kb.Escape))
	b.waitUntil(t, "Escape to close the "+what, "!"+open)
	b.click(t, details+` > summary`)
	b.waitUntil(t, what+" open", open)
	b.click(t, `main h1`)
	b.waitUntil(t, "a click outside to close the "+what, "!"+open)
	link := details + ` > :not(summary) a[href]`
	if eval[bool](t, b, fmt.Sprintf(`!!document.querySelector(%s)`, js(link))) {
		b.click(t, details+` > summary`)
		b.waitUntil(t, what+" open", open)
		eval[chromedp.Void](t, b, fmt.Sprintf(`document.querySelector(%s).addEventListener("click", e => e.preventDefault(), {once: true})`, js(link)))
		b.click(t, link)
		b.waitUntil(t, "choosing an item to close the "+what, "!"+open)
	}
}

// membersDrawer opens the members drawer of a plan or collection page and checks it lies in
// the viewport with its close button.
func (s *shell) membersDrawer(t *testing.T, page string) {
	t.Helper()
	b := s.ana
	b.clickAndAwait(t, `main button[title="Members"]`, "get "+eval[string](t, b, `document.querySelector('main button[title="Members"]').getAttribute("hx-get")`))
	b.waitUntil(t, "the members drawer open", `document.querySelector("#members-dialog").open`)
	s.inside(t, b, `#members-dialog`, "the "+page+"'s members drawer")
	s.inside(t, b, `#members-dialog [data-close-dialog]`, "the members drawer's close button")
	s.screenshot(t, b, page+" members drawer", false)
	s.axe(t, b, page+" with the members drawer open")
	b.do(t, "press Escape", chromedp.KeyEvent(kb.Escape))
	b.waitUntil(t, "Escape to close the members drawer", `!document.querySelector("#members-dialog").open`)
	// A tap on the backdrop (the top left corner is outside the sheet and the centred dialog) closes it too.
	b.do(t, "open the members drawer again", chromedp.Evaluate[chromedp.Void](`document.querySelector("#members-dialog").showModal()`))
	b.do(t, "tap the backdrop", chromedp.MouseClickXY(4, 4))
	b.waitUntil(t, "a tap on the backdrop to close the members drawer", `!document.querySelector("#members-dialog").open`)
}

// activityPanel opens the plan's activity panel from its header: it lies in the viewport with
// its close button, and axe finds no serious violation in it; Escape closes it.
func (s *shell) activityPanel(t *testing.T, b *browser, page string) {
	t.Helper()
	const button = `main button[data-activity-button]`
	b.clickAndAwait(t, button, "get "+eval[string](t, b, fmt.Sprintf(`document.querySelector(%s).getAttribute("hx-get")`, js(button))))
	b.waitUntil(t, "the activity panel open", `document.querySelector("#activity-dialog").open`)
	s.inside(t, b, `#activity-dialog`, "the "+page+"'s activity panel")
	s.inside(t, b, `#activity-dialog [data-close-dialog]`, "the activity panel's close button")
	s.screenshot(t, b, page+" activity panel", false)
	s.axe(t, b, page+" with the activity panel open")
	b.do(t, "press Escape", chromedp.KeyEvent(kb.Escape))
	b.waitUntil(t, "Escape to close the activity panel", `!document.querySelector("#activity-dialog").open`)
}

// picker opens the candidate picker of the day's first block with one: it lies in the viewport
// with its close button, and axe finds no serious violation in it (its opinions, badges,
// "Add a candidate").
func (s *shell) picker(t *testing.T) {
	t.Helper()
	b := s.ana
	open := `#day button[title="Candidates"]`
	b.clickAndAwait(t, open, "get "+eval[string](t, b, fmt.Sprintf(`document.querySelector(%s).getAttribute("hx-get")`, js(open))))
	b.waitUntil(t, "the candidate picker open", `document.querySelector("#picker-dialog").open`)
	s.inside(t, b, `#picker-dialog`, "the candidate picker")
	if w := eval[[]int](t, b, `(d => [d.scrollWidth, d.clientWidth])(document.querySelector("#picker-dialog"))`); w[0] > w[1] {
		t.Errorf("at %s the candidate picker scrolls sideways as a whole (%d px in %d px); only its carousel of candidates may", s.scr.name, w[0], w[1])
	}
	s.screenshot(t, b, "plan candidate picker", false)
	s.axe(t, b, "plan with the candidate picker open")
	b.do(t, "press Escape", chromedp.KeyEvent(kb.Escape))
	b.waitUntil(t, "Escape to close the candidate picker", `!document.querySelector("#picker-dialog").open`)
}

// addDialog opens the plan page's add-block dialog (the day's "Add") and checks it lies in the
// viewport with its buttons.
func (s *shell) addDialog(t *testing.T) {
	t.Helper()
	b := s.ana
	b.click(t, `#day button[data-add-here]`) // the day's "Add"
	b.waitUntil(t, "the add-block dialog open", `document.querySelector("#block-dialog").open`)
	s.inside(t, b, `#block-dialog`, "the add-block dialog")
	s.inside(t, b, `#block-dialog button[type="submit"]`, "the add-block dialog's submit button")
	s.inside(t, b, `#block-dialog [data-close-dialog]`, "the add-block dialog's Cancel button")
	s.screenshot(t, b, "plan add-block dialog", false)
	b.click(t, `#block-dialog [data-close-dialog]`)
	b.waitUntil(t, "the add-block dialog closed", `!document.querySelector("#block-dialog").open`)
}
