package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	// actionTimeout bounds one browser action (a click, typing, a navigation).
	actionTimeout = 15 * time.Second
	// waitTimeout bounds a wait for the page to show something.
	waitTimeout = 15 * time.Second
	// pollInterval is how often a wait looks at the page again.
	pollInterval = 50 * time.Millisecond
)

// findChromium is Debian's Chromium: /usr/bin/chromium, else chromium on PATH. Without it the
// test is skipped, saying so.
func findChromium(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Skip("chromium not installed; .ci/run installs it")
	return ""
}

// browser is one person's Chromium: a process of its own with its own profile directory, so
// two browsers share no cookies, and one tab.
type browser struct {
	name string
	ctx  context.Context // the tab; actions run on contexts derived from it, with a timeout

	mu       sync.Mutex
	problems []string // uncaught exceptions, console errors and CSP violations of its pages
}

// newBrowser starts a headless Chromium for one person; it is closed when the test ends.
func newBrowser(t *testing.T, name, execPath string) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(execPath),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000), // wide enough for the plan page's side panel (lg)
		chromedp.Flag("lang", "en-US"),
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to start as root with its sandbox on (CI containers run as root).
		opts = append(opts, chromedp.NoSandbox)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	b := &browser{name: name, ctx: ctx}

	// The first action starts the browser and binds it to ctx, which must have no deadline
	// (a deadline would close the browser), so the start is bounded from here instead.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("%s: start Chromium: %v", name, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: Chromium did not start within 30 s", name)
	}
	if err := chromedp.Listen(ctx, b.record); err != nil {
		t.Fatalf("%s: listen to the page: %v", name, err)
	}
	lctx, lcancel := context.WithTimeout(ctx, actionTimeout)
	defer lcancel()
	if _, err := chromedp.Call(lctx, cdplog.Enable, cdp.Empty{}); err != nil { // CSP violations arrive as log entries
		t.Fatalf("%s: enable the log domain: %v", name, err)
	}
	return b
}

// record keeps what went wrong in the page's scripts. It runs in chromedp's event loop, so it
// only appends under the lock.
func (b *browser) record(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		if d == nil {
			return
		}
		msg = "uncaught exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		msg += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
	case *runtime.EventConsoleAPICalled:
		if ev.Type != "error" {
			return
		}
		var args []string
		for _, a := range ev.Args {
			if a.Description != "" {
				args = append(args, a.Description)
			} else {
				args = append(args, string(a.Value))
			}
		}
		msg = "console.error: " + strings.Join(args, " ")
	case *cdplog.EventEntryAdded:
		if ev.Entry == nil || ev.Entry.Level != cdplog.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
	default:
		return
	}
	b.mu.Lock()
	b.problems = append(b.problems, msg)
	b.mu.Unlock()
}

// reported is what the browser's pages reported as errors so far.
func (b *browser) reported() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// do runs actions in the browser, failing the test with what it was doing when one fails.
func (b *browser) do(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %s: %v", b.name, what, err)
	}
}

// htmxBusy is a JavaScript condition: htmx is sending a request, or swapping or settling
// content. New content gets its htmx behaviour when it settles (20 ms after the swap), so a
// button clicked before that does nothing; a person never clicks that fast.
const htmxBusy = `document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")`

// idle waits until the page has loaded — its deferred scripts have run, so their handlers
// are on (an element can be in the DOM, and clicked, while the page is still being parsed) —
// and htmx is done with it (see htmxBusy).
func (b *browser) idle(t *testing.T) {
	t.Helper()
	b.waitUntil(t, "the page's scripts to run and htmx to finish its requests and swaps",
		`document.readyState === "complete" && !`+htmxBusy)
}

// click clicks the first element that matches the CSS selector, as a mouse would (it waits
// until htmx is idle and the element is visible, and scrolls it into view).
func (b *browser) click(t *testing.T, css string) {
	t.Helper()
	b.idle(t)
	b.uncover(t, css)
	b.settle(t, css)
	b.do(t, "click "+css, chromedp.Click(chromedp.CSS(css)))
}

// settle waits until the element the CSS selector names holds still — in the same place over
// two animation frames — so that a click presses where it was measured: the page may still be
// gliding from a scroll, or shifting as an answer is swapped in above the element.
func (b *browser) settle(t *testing.T, css string) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !eval[bool](t, b, `(el => new Promise(done => {
		if (!el) return done(true); // chromedp's click waits for it
		const at = () => JSON.stringify(el.getBoundingClientRect());
		const first = at();
		requestAnimationFrame(() => requestAnimationFrame(() => done(at() === first)));
	}))(document.querySelector(`+js(css)+`))`) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s kept moving for %s", b.name, css, waitTimeout)
		}
	}
}

// uncover scrolls the element the CSS selector names to the middle of the window when
// something else (the sticky header, a toast) covers its centre, as a person scrolls before
// tapping: chromedp's click scrolls only an element outside the window into it, then presses
// whatever is on top at the element's centre. The scroll is instant: the pages scroll
// smoothly (scroll-behavior), and a click measured while the page still glides lands on
// whatever has moved under that point by the time it is pressed.
func (b *browser) uncover(t *testing.T, css string) {
	t.Helper()
	b.do(t, "uncover "+css, chromedp.Evaluate[chromedp.Void](`(el => {
		if (!el) return;
		const r = el.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		if (hit && !el.contains(hit)) el.scrollIntoView({block: "center", inline: "nearest", behavior: "instant"});
	})(document.querySelector(`+js(css)+`))`))
}

// typeInto types text into the field the CSS selector names, key by key.
func (b *browser) typeInto(t *testing.T, css, text string) {
	t.Helper()
	b.do(t, fmt.Sprintf("type %q into %s", text, css), chromedp.SendKeys(chromedp.CSS(css), text))
}

// clearField empties a text field as a person would: select all its text, then delete it.
func (b *browser) clearField(t *testing.T, css string) {
	t.Helper()
	b.do(t, "clear "+css, chromedp.Focus(chromedp.CSS(css)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Backspace))
	if v := eval[string](t, b, fmt.Sprintf(`document.querySelector(%s).value`, js(css))); v != "" {
		t.Fatalf("%s: %s still holds %q after select-all and delete", b.name, css, v)
	}
}

// devSignIn signs the browser in as the user with providerID through the dev sign-in form
// (the demo users' buttons), landing on /home.
func devSignIn(t *testing.T, b *browser, base, providerID string) {
	t.Helper()
	b.do(t, "open /login", chromedp.Navigate(base+"/login"))
	b.click(t, fmt.Sprintf(`form[action="/dev/auth/login"]:has(input[name="provider_id"][value=%s]) button[type="submit"]`, js(providerID)))
	b.waitPath(t, `^/home$`)
}

// awaitRequests runs the actions and waits until htmx has finished the requests they make,
// listed as "verb path" (such as "post /plans/x/blocks"; the request may add a query string):
// for each, one request sent and ended once htmx has handled its answer, swap included. So
// what the answer should have done can be checked at once. It fails the test when one of the
// requests failed. The page must not navigate meanwhile.
func (b *browser) awaitRequests(t *testing.T, requests []string, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	b.idle(t)
	// A request is matched when htmx sends it (htmx:beforeSend, dispatched on its element while
	// that is still in the page) and counted done when its XMLHttpRequest has ended, after htmx
	// handled the answer (loadend follows the load handler htmx swaps in). Listening for
	// htmx:afterRequest instead misses requests whose element a live refresh replaced meanwhile:
	// htmx then dispatches it on a detached element, which never reaches the document.
	eval[chromedp.Void](t, b, fmt.Sprintf(`(() => {
		const w = window.e2eAwait = {want: %s, pending: 0, failed: []};
		const h = e => {
			const d = e.detail, verb = ((d.requestConfig || {}).verb || "").toLowerCase(), path = (d.pathInfo || {}).requestPath || "";
			const i = w.want.findIndex(r => {
				const [v, p] = [r.slice(0, r.indexOf(" ")), r.slice(r.indexOf(" ") + 1)];
				return v === verb && (path === p || path.startsWith(p + "?"));
			});
			if (i < 0) return;
			const r = w.want.splice(i, 1)[0];
			w.pending++;
			d.xhr.addEventListener("loadend", () => {
				w.pending--;
				if (!(d.xhr.status >= 200 && d.xhr.status < 400)) w.failed.push(r + ": " + (d.xhr.status ? d.xhr.status + " " + d.xhr.responseText.slice(0, 300) : "no answer"));
			});
			if (!w.want.length) document.removeEventListener("htmx:beforeSend", h);
		};
		document.addEventListener("htmx:beforeSend", h);
	})()`, jsValue(requests)))
	b.do(t, what, actions...)
	b.waitUntil(t, fmt.Sprintf("htmx to finish %q after %s", requests, what), `window.e2eAwait.want.length === 0 && window.e2eAwait.pending === 0`)
	if failed := eval[[]string](t, b, `window.e2eAwait.failed`); len(failed) > 0 {
		t.Fatalf("%s: %s: requests failed: %q", b.name, what, failed)
	}
}

// clickAndAwait clicks and waits for the requests as awaitRequests does.
func (b *browser) clickAndAwait(t *testing.T, css string, requests ...string) {
	t.Helper()
	b.awaitRequests(t, requests, "click "+css, chromedp.Click(chromedp.CSS(css)))
}

// eval evaluates a JavaScript expression in the page once and decodes its value into T. A
// promise is awaited.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: evaluate %s: %v", b.name, expr, err)
	}
	return v
}

// waitFor evaluates a JavaScript expression every pollInterval until its value is not T's
// zero value (true, a non-empty string) and returns that value. It fails the test after
// waitTimeout, naming what it waited for and the last value or error. Errors while waiting
// (a page in the middle of loading) just mean "not yet".
//
// The waiting is done from here, not in the page: the app's CSP has no 'unsafe-eval', so
// chromedp's Poll (new Function in the page) cannot run there.
func waitFor[T comparable](t *testing.T, b *browser, what, expr string) T {
	t.Helper()
	var zero, last T
	var lastErr error
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	for {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
		if err == nil && v != zero {
			return v
		}
		if err != nil && ctx.Err() == nil {
			lastErr = err
		} else if err == nil {
			last, lastErr = v, nil
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				t.Fatalf("%s: waited %v for %s; last error: %v", b.name, waitTimeout, what, lastErr)
			}
			t.Fatalf("%s: waited %v for %s; last value: %v", b.name, waitTimeout, what, last)
		case <-time.After(pollInterval):
		}
	}
}

// waitUntil is waitFor for a condition.
func (b *browser) waitUntil(t *testing.T, what, cond string) {
	t.Helper()
	waitFor[bool](t, b, what, "!!("+cond+")")
}

// waitPath waits until the page's path matches the regular expression, is none of the
// paths named in except (the page being left, when it matches too), and the document has
// loaded. It returns the path's submatches.
func (b *browser) waitPath(t *testing.T, pattern string, except ...string) []string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	if except == nil {
		except = []string{}
	}
	path := waitFor[string](t, b, "a page at "+pattern, fmt.Sprintf(
		`(new RegExp(%s).test(location.pathname) && !%s.includes(location.pathname) && document.readyState === "complete") ? location.pathname : ""`,
		js(pattern), jsValue(except)))
	return re.FindStringSubmatch(path)
}

// getJSON fetches a path of the JSON API with the browser's own session (Accept names only
// JSON) and decodes the answer into T.
func getJSON[T any](t *testing.T, b *browser, path string) T {
	t.Helper()
	raw := eval[string](t, b, fmt.Sprintf(`fetch(%s, {headers: {Accept: "application/json"}})
		.then(r => r.text().then(body => { if (!r.ok) throw new Error(r.status + " " + body); return body; }))`, js(path)))
	var v T
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("%s: GET %s: %v in %s", b.name, path, err, raw)
	}
	return v
}

// js quotes a Go string as a JavaScript string literal.
func js(s string) string { return jsValue(s) }

// jsValue is a Go value as a JavaScript literal.
func jsValue(v any) string {
	q, _ := json.Marshal(v)
	return string(q)
}

// textOf is a JavaScript expression for the text of the first element the CSS selector
// matches as it is shown (innerText: blocks apart), whitespace collapsed; "" when there is
// none.
func textOf(css string) string {
	return fmt.Sprintf(`((document.querySelector(%s) || {}).innerText || "").replace(/\s+/g, " ").trim()`, js(css))
}

// shownName is a JavaScript expression for the name of a place an element shows (el is an
// expression for the element), without the other name shown under it ([data-subtitle]).
func shownName(el string) string {
	return fmt.Sprintf(`(e => { if (!e) return ""; const c = e.cloneNode(true); c.querySelectorAll("[data-subtitle]").forEach(s => s.remove()); return c.textContent.trim(); })(%s)`, el)
}

// runStamp names this run's directory of artifacts, so runs do not mix theirs.
var runStamp = time.Now().Format("20060102-150405")

// artifactsDir is where a failure's screenshots and pages go: $E2E_ARTIFACTS, else
// e2e/artifacts (ignored by git); in both, a directory per run.
func artifactsDir() string {
	dir := "artifacts"
	if d := os.Getenv("E2E_ARTIFACTS"); d != "" {
		dir = d
	}
	return filepath.Join(dir, runStamp)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// saveArtifacts writes, for a failed test, a full-page screenshot, the page's HTML and the
// reported script errors of every browser, and the server's log, and logs where they are.
// moment, when not empty, names the moment of a failure the test goes on after (the
// directory gets it as a suffix); the artifacts of the test's end have none.
func saveArtifacts(t *testing.T, moment string, srv *server, browsers ...*browser) {
	t.Helper()
	name := t.Name()
	if moment != "" {
		name += "-" + moment
	}
	dir := filepath.Join(artifactsDir(), unsafeName.ReplaceAllString(name, "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("artifacts: %v", err)
		return
	}
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Logf("artifacts: %v", err)
			return
		}
		abs, _ := filepath.Abs(p)
		t.Logf("artifact: %s", abs)
	}
	for _, b := range browsers {
		// The tab may be mid-navigation or the step's context may have ended: use fresh limits.
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			write(b.name+".png", shot)
		} else {
			t.Logf("artifacts: %s: screenshot: %v", b.name, err)
		}
		url, _ := chromedp.Run(ctx, chromedp.Location())
		if html, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`)); err == nil {
			write(b.name+".html", []byte("<!-- "+url+" -->\n"+html))
		} else {
			t.Logf("artifacts: %s: outerHTML: %v", b.name, err)
		}
		cancel()
		if p := b.reported(); len(p) > 0 {
			write(b.name+"-console.txt", []byte(strings.Join(p, "\n")+"\n"))
		}
	}
	if srv != nil {
		write("server.log", srv.out.Bytes())
	}
}

// capture takes a screenshot (the viewport, or the whole page) into dir/name.png and answers
// the file's path.
func capture(b *browser, dir, name string, full bool) (string, error) {
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	var shot []byte
	var err error
	if full {
		shot, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	} else {
		shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		return "", fmt.Errorf("%s: screenshot %s: %w", b.name, name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, unsafeName.ReplaceAllString(name, "_")+".png")
	if err := os.WriteFile(p, shot, 0o644); err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// screenshot keeps a picture of the page as an artifact in e2e/artifacts/<run>/screenshots/.
func screenshot(t *testing.T, b *browser, name string, full bool) {
	t.Helper()
	p, err := capture(b, filepath.Join(artifactsDir(), "screenshots"), name, full)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}
