package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// loseNextAnswer makes the browser lose the answer to its next POST whose URL matches the
// pattern (the Fetch domain's wildcards): the request reaches the server and is answered,
// and the page sees a broken connection instead, as when a phone's network drops at that
// moment. The returned func waits until that happened and lets requests through again.
func loseNextAnswer(t *testing.T, b *browser, pattern string) func() {
	t.Helper()
	ctx, stop := context.WithCancel(b.ctx)
	paused := make(chan *fetch.EventRequestPaused, 8)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			select {
			case paused <- e:
			default:
			}
		}
	}); err != nil {
		t.Fatalf("%s: listen: %v", b.name, err)
	}
	call := func(what string, f func(ctx context.Context) error) {
		t.Helper()
		cctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
		defer cancel()
		if err := f(cctx); err != nil {
			t.Fatalf("%s: %s: %v", b.name, what, err)
		}
	}
	call("intercept answers", func(ctx context.Context) error {
		_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern, RequestStage: fetch.RequestStageResponse}}})
		return err
	})
	return func() {
		t.Helper()
		defer stop()
		deadline := time.After(waitTimeout)
		for lost := false; !lost; {
			select {
			case e := <-paused:
				if e.Request.Method != "POST" {
					call("let "+e.Request.URL+" through", func(ctx context.Context) error {
						_, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
						return err
					})
					continue
				}
				if e.ResponseStatusCode == 0 || e.ResponseStatusCode >= 300 && e.ResponseStatusCode != 303 {
					t.Errorf("%s: the answer to lose is %d; the server should have made the thing", b.name, e.ResponseStatusCode)
				}
				call("lose the answer to "+e.Request.URL, func(ctx context.Context) error {
					_, err := chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
					return err
				})
				lost = true
			case <-deadline:
				t.Fatalf("%s: no POST to %s within %v", b.name, pattern, waitTimeout)
			}
		}
		call("stop intercepting", func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, fetch.Disable, cdp.Empty{})
			return err
		})
	}
}

// TestCreatesHappenOnce is issue 17's "creates happen once" as a person meets it: a double
// click on "Create collection" and a form submitted twice at once make one collection; an
// answer lost on the way (the server made the collection, the page saw a broken connection)
// says so, keeps what was typed, and sending again makes nothing new — the page resends the
// same Idempotency-Key and gets the first answer. In the plan page's "Add here" dialog the
// lost answer is told inside the dialog, which stays open with its times, and sending again
// adds the block once.
func TestCreatesHappenOnce(t *testing.T) {
	s := newScenario(t, "ana")
	ana, base := s.browsers[0], s.srv.base
	titled := func(t *testing.T, title string) int {
		t.Helper()
		n := 0
		for _, c := range getJSON[struct {
			Contents []collectionJSON `json:"contents"`
		}](t, ana, "/collections?size=100").Contents {
			if c.Title == title {
				n++
			}
		}
		return n
	}
	newCollection := func(t *testing.T, title string) {
		t.Helper()
		ana.do(t, "open /collections/new", chromedp.Navigate(base+"/collections/new"))
		ana.waitPath(t, `^/collections/new$`)
		ana.typeInto(t, `#title`, title)
	}
	const create = `form[action="/collections"] button[type="submit"]`

	s.step("Ana signs in", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
	})

	s.step("a double click on Create collection makes one collection", func(t *testing.T) {
		newCollection(t, "Double click")
		ana.idle(t)
		x, y := center(t, ana, create)
		ana.do(t, "double-click Create collection",
			chromedp.MouseClickXY(x, y), chromedp.MouseClickXY(x, y, chromedp.ClickCount(2)))
		ana.waitPath(t, `^/collections/([^/]+)$`, "/collections/new")
		if n := titled(t, "Double click"); n != 1 {
			t.Errorf("%d collections named Double click, want 1", n)
		}
	})

	s.step("the form submitted twice at once makes one collection", func(t *testing.T) {
		newCollection(t, "Sent twice")
		ana.idle(t)
		eval[chromedp.Void](t, ana, `(f => { f.requestSubmit(); f.requestSubmit(); })(document.querySelector('form[action="/collections"]'))`)
		ana.waitPath(t, `^/collections/([^/]+)$`, "/collections/new")
		if n := titled(t, "Sent twice"); n != 1 {
			t.Errorf("%d collections named Sent twice, want 1", n)
		}
	})

	s.step("an answer lost on the way: the page says so, and sending again makes nothing new", func(t *testing.T) {
		newCollection(t, "Lost answer")
		lost := loseNextAnswer(t, ana, "*/collections")
		ana.click(t, create)
		// While its request runs the button is marked disabled (keeping the focus) and shows
		// that it is busy.
		ana.waitUntil(t, "Create collection busy", fmt.Sprintf(`(b => b.getAttribute("aria-disabled") === "true" && b.getAttribute("aria-busy") === "true" && getComputedStyle(b, "::after").content !== "none")(document.querySelector(%s))`, js(create)))
		screenshot(t, ana, "send-once-busy", false)
		lost()
		ana.waitUntil(t, "the page saying it could not reach the server", fmt.Sprintf(`%s.includes("Can't reach Tripplan")`, textOf("#flash")))
		if got := eval[string](t, ana, `document.querySelector("#title").value + " " + location.pathname`); got != "Lost answer /collections/new" {
			t.Errorf("after the lost answer the page shows %q, want the form with the title kept", got)
		}
		if eval[bool](t, ana, `(b => b.disabled || b.getAttribute("aria-disabled") === "true")(document.querySelector(`+js(create)+`))`) {
			t.Error("Create collection stays disabled after the lost answer")
		}
		if n := titled(t, "Lost answer"); n != 1 {
			t.Fatalf("%d collections named Lost answer after the first try, want the one the server made", n)
		}
		ana.click(t, create)
		ana.waitPath(t, `^/collections/([^/]+)$`, "/collections/new")
		if n := titled(t, "Lost answer"); n != 1 {
			t.Errorf("%d collections named Lost answer after sending again, want 1", n)
		}
	})

	s.step("in the Add here dialog, a lost answer is told in the dialog and the block is added once", func(t *testing.T) {
		planID := newPlanWith(t, ana, "Once", 2, 1)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "day 1", `document.querySelector('#day[data-day="1"]')`)
		ana.click(t, `[data-add-free]`)
		ana.waitUntil(t, "the Add here dialog", `document.querySelector("#block-dialog").open`)
		times := eval[string](t, ana, `["#add-start", "#add-end"].map(s => document.querySelector(s).value).join("–")`)
		lost := loseNextAnswer(t, ana, "*/plans/*/blocks")
		ana.click(t, `#block-dialog button[type="submit"]`)
		lost()
		ana.waitUntil(t, "the dialog saying it could not reach the server", `(e => e && e.innerText.includes("Can't reach Tripplan"))(document.querySelector("#block-dialog [data-dialog-errors] [role=alert]"))`)
		if got := eval[string](t, ana, `(document.querySelector("#block-dialog").open ? "open " : "closed ") + ["#add-start", "#add-end"].map(s => document.querySelector(s).value).join("–")`); got != "open "+times {
			t.Errorf("after the lost answer the dialog is %q, want open with %s", got, times)
		}
		screenshot(t, ana, "send-once-lost-answer", false)
		ana.clickAndAwait(t, `#block-dialog button[type="submit"]`, "post /plans/"+planID+"/blocks")
		ana.waitUntil(t, "the dialog closed", `!document.querySelector("#block-dialog").open`)
		blocks := getJSON[dayBlocksJSON](t, ana, "/plans/"+planID+"/blocks?day=1").Contents
		if len(blocks) != 1 || !strings.HasPrefix(blocks[0].StartTime, times[:5]) {
			t.Errorf("day 1 has %+v, want the one block at %s", blocks, times)
		}
	})

	s.step("the pages reported nothing but the lost answers", func(t *testing.T) {
		for _, p := range ana.reported() {
			// The browser logs the broken connections, and htmx logs its error events.
			if !strings.Contains(p, "net::ERR_CONNECTION_RESET") && !strings.HasPrefix(p, `console.error: "htmx:sendError, `) &&
				!strings.HasPrefix(p, `console.error: "htmx:afterRequest, `) {
				t.Errorf("%s: %s", ana.name, p)
			}
		}
	})
}
