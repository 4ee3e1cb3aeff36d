package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// swipe is a finger put down at (x, y), drawn dx pixels sideways (negative: to the left, which
// brings what is on the right into view) and held still a moment before it is lifted, so the
// carousel follows the finger and snaps without a fling. The events carry their own times, a
// thirtieth of a second apart, so the gesture's speed does not depend on how fast they arrive.
func swipe(x, y, dx float64) []chromedp.Action[chromedp.Void] {
	at := float64(time.Now().UnixMilli()) / 1000
	touch := func(typ input.DispatchTouchEventType, px float64) chromedp.Action[chromedp.Void] {
		at += 1.0 / 30
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}, Timestamp: input.TimeSinceEpoch(at)}
		if typ != input.DispatchTouchEventTypeTouchEnd {
			p.TouchPoints = []*input.TouchPoint{{X: px, Y: y}}
		}
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, p)
			return err
		})
	}
	out := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, x)}
	const steps = 12
	for i := 1; i <= steps; i++ {
		out = append(out, touch(input.DispatchTouchEventTypeTouchMove, x+dx*float64(i)/steps))
	}
	for range 4 { // held still
		out = append(out, touch(input.DispatchTouchEventTypeTouchMove, x+dx))
	}
	return append(out, touch(input.DispatchTouchEventTypeTouchEnd, 0))
}

type pickerOpinionJSON struct {
	OpinionID string `json:"opinion_id"`
}

// TestPickerDiscussion is issue 17's "see the discussion" in two browsers. Ana compares a time
// block's three candidates in the picker: on a 390×844 phone a carousel she swipes and steps
// through with buttons and keys ("2 of 3"), no wider than the screen; at 1440×900 columns side
// by side. Each card lists every opinion (who, an icon with words, the reasons as words, the
// comment, when) under the tally; her own opinion, once given, opens in the form to edit. While
// she types a comment, Ben — in his own browser, through the JSON API — gives an opinion, adds
// a candidate and confirms one: her open picker shows each, and her half-typed comment, its
// focus and the card she is on stay. axe finds nothing serious in the picker at either size.
func TestPickerDiscussion(t *testing.T) {
	s := newScenario(t, "ana", "ben")
	ana, ben, base := s.browsers[0], s.browsers[1], s.srv.base
	axe := axeSource(t)

	var planID, timeBlockID, fourthPlace string
	cands := map[string]string{} // candidate ids by place name
	card := func(name string) string { return "#pc-" + cands[name] }
	noAxeViolations := func(t *testing.T, where string) {
		t.Helper()
		for _, v := range axeViolations(t, ana, axe) {
			t.Errorf("%s: axe %s violation %q: %s (%s); elements: %s", where, v.Impact, v.ID, v.Help, v.URL, strings.Join(v.Targets, " | "))
		}
	}

	s.step("Ana has a plan with a block of three candidates; Ben joins it and gives an opinion", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		var placeIDs []string
		for _, q := range []string{palace, market, tower, "Bukchon Hanok Village"} {
			found := getJSON[[]placeJSON](t, ana, "/places/search?query="+strings.ReplaceAll(q, " ", "+"))
			if len(found) == 0 || found[0].Name != q {
				t.Fatalf("search for %q found %+v", q, found)
			}
			placeIDs = append(placeIDs, found[0].PlaceID)
		}
		fourthPlace = placeIDs[3]
		planID = newPlanWith(t, ana, "Picker trip", 1, 2)
		tb := sendJSON[timeBlockJSON](t, ana, "POST", "/plans/"+planID+"/blocks/by-place", map[string]any{"place_id": placeIDs[0], "day": 1, "start_time": "10:00", "end_time": "12:00"})
		timeBlockID = tb.TimeBlockID
		tb = sendJSON[timeBlockJSON](t, ana, "POST", "/plans/"+planID+"/blocks/"+timeBlockID+"/candidates", map[string]any{"place_ids": placeIDs[1:3]})
		for _, name := range []string{palace, market, tower} {
			c := tb.candidateNamed(name)
			if c == nil {
				t.Fatalf("the block has no candidate %s: %+v", name, tb)
			}
			cands[name] = c.BlockID
		}
		invite := sendJSON[struct {
			URL string `json:"url"`
		}](t, ana, "POST", "/plans/"+planID+"/invitations", nil).URL
		devSignIn(t, ben, base, "demo-ben")
		ben.do(t, "open the invite link", chromedp.Navigate(invite))
		ben.waitPath(t, `^/plans/[^/]+$`)
		sendJSON[pickerOpinionJSON](t, ben, "POST", "/plans/"+planID+"/blocks/"+cands[palace]+"/opinions",
			map[string]any{"type": "NEGATIVE", "tag_ids": []string{"crowded", "my_note"}, "comment": "Packed at noon"})
	})

	s.step("on a phone, the picker is a carousel of the candidates with the discussion", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		ana.waitUntil(t, "Ben present on Ana's page (her live stream is open)", `document.querySelector('#presence [data-presence] [title="Ben"]')`)
		ana.clickAndAwait(t, fmt.Sprintf(`#day li[data-time-block-id=%s] button[title="Candidates"]`, js(timeBlockID)), "get /plans/"+planID+"/blocks/"+timeBlockID+"/candidates")
		ana.waitUntil(t, "the picker open with three cards", `document.querySelector("#picker-dialog").open && document.querySelectorAll("#picker-body [data-candidate-card]").length === 3`)
		fitsScreen(t, ana, 390, "the plan with the picker open at 390")
		checkInViewport(t, ana, "#picker-dialog")
		if over := eval[[]string](t, ana, `[...document.querySelectorAll("#picker-dialog *")].filter(e => {
				const r = e.getBoundingClientRect();
				return r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5) && !e.closest("[data-carousel] > [data-candidate-card]");
			}).map(e => e.tagName + "." + [...e.classList].slice(0, 3).join("."))`); len(over) > 0 {
			t.Errorf("in the picker, outside the carousel's cards, these reach past the screen: %q", over)
		}
		if w := eval[[]int](t, ana, `(d => [d.scrollWidth, d.clientWidth])(document.querySelector("#picker-dialog"))`); w[0] > w[1] {
			t.Errorf("the picker scrolls sideways as a whole (%d px in %d px); only its carousel should", w[0], w[1])
		}
		status := `document.querySelector("#picker-body [data-carousel-status]").textContent.trim()`
		if got := eval[string](t, ana, status); got != "1 of 3" {
			t.Errorf("the carousel says %q, want 1 of 3", got)
		}
		checkInViewport(t, ana, card(palace)+" [data-candidate-name]")
		// Ben's opinion in words: who, the kind, the reasons (his own id as given), the comment, when.
		talk := eval[string](t, ana, textOf(card(palace)+` [id$="-talk"]`))
		for _, want := range []string{"Ben", "Negative", "Crowded", "my_note", "Packed at noon", "just now", "Positive: 0", "Negative: 1"} {
			if want == "Positive: 0" || want == "Negative: 1" {
				if !eval[bool](t, ana, fmt.Sprintf(`!!document.querySelector(%s)`, js(card(palace)+` button[aria-label="`+want+`"]`))) {
					t.Errorf("the palace's tally has no %q", want)
				}
				continue
			}
			if !strings.Contains(talk, want) {
				t.Errorf("the palace's discussion %q lacks %q", talk, want)
			}
		}
		if title := eval[string](t, ana, fmt.Sprintf(`document.querySelector(%s).title`, js(card(palace)+" time[data-local-time]"))); title == "" || strings.Contains(title, "UTC") {
			t.Errorf("the opinion's time title %q, want the time in Ana's own zone", title)
		}
		if got := eval[string](t, ana, fmt.Sprintf(`document.querySelector(%s).tagName`, js(card(palace)+` [title="Negative"] svg`))); got != "svg" {
			t.Errorf("the opinion's kind is drawn as %q, want an svg icon", got)
		}
		screenshot(t, ana, "picker-390-first", false)
		noAxeViolations(t, "the picker at 390")

		// settled is a condition: the carousel has come to rest on the card, snapped to the
		// middle (the last card: scrolled to the end), so a tap now is a tap, not a fling stopped.
		settled := func(name string) string {
			return fmt.Sprintf(`(c => { const t = c.parentElement, tr = t.getBoundingClientRect(), r = c.getBoundingClientRect();
				const atEnd = Math.abs(t.scrollLeft - (t.scrollWidth - t.clientWidth)) < 1.5;
				return r.left >= -0.5 && r.right <= innerWidth + 0.5 && (Math.abs(r.left + r.right - tr.left - tr.right) < 3 || (atEnd && !c.nextElementSibling)); })(document.querySelector(%s))`, js(card(name)))
		}
		// A swipe to the left shows the next card.
		x, y := center(t, ana, card(palace)+" [data-candidate-name]")
		ana.do(t, "swipe the carousel to the left", swipe(x, y, -260)...)
		ana.waitUntil(t, "the carousel at rest on "+market+" after the swipe", settled(market))
		ana.waitUntil(t, "the carousel at 2 of 3 after the swipe", status+` === "2 of 3"`)
		// The buttons, by tap and by key.
		tap(t, ana, `#picker-body [data-carousel-next]`)
		ana.waitUntil(t, "the carousel at rest on "+tower+" after Next", settled(tower))
		ana.waitUntil(t, "3 of 3 after Next", status+` === "3 of 3"`)
		if got := eval[string](t, ana, `document.querySelector("#picker-body [data-carousel-next]").getAttribute("aria-disabled")`); got != "true" {
			t.Errorf("on the last card Next is aria-disabled=%q, want true", got)
		}
		ana.do(t, "Enter on Previous", chromedp.Focus(chromedp.CSS(`#picker-body [data-carousel-prev]`)), chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the carousel at rest on "+market+" after Previous", settled(market))
		ana.waitUntil(t, "2 of 3 after Previous", status+` === "2 of 3"`)
		ana.do(t, "Enter on Next", chromedp.Focus(chromedp.CSS(`#picker-body [data-carousel-next]`)), chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the carousel at rest on "+tower+" after Next by key", settled(tower))
		ana.waitUntil(t, "3 of 3 after Next by key", status+` === "3 of 3"`)
		screenshot(t, ana, "picker-390-third", false)
	})

	s.step("Ana gives her opinion of the tower; it opens in the form to edit", func(t *testing.T) {
		ana.click(t, card(tower)+` summary`)
		ana.click(t, card(tower)+` input[name="type"][value="POSITIVE"]`)
		ana.click(t, card(tower)+` input[name="tag_ids"][value="view"]`)
		ana.typeInto(t, card(tower)+` textarea[name="comment"]`, "Sunset from the top")
		ana.clickAndAwait(t, card(tower)+`-save`, "post /plans/"+planID+"/blocks/"+cands[tower]+"/opinions")
		ana.waitUntil(t, "Ana's opinion listed on the tower", fmt.Sprintf(`%s.includes("Sunset from the top") && %s.includes("(you)")`,
			textOf(card(tower)+` [id$="-talk"]`), textOf(card(tower)+` [id$="-talk"]`)))
		if got := eval[string](t, ana, `document.querySelector("#picker-body [data-carousel-status]").textContent.trim()`); got != "3 of 3" {
			t.Errorf("after saving, the carousel is at %q, want still 3 of 3 (the tower)", got)
		}
		pre := eval[[]string](t, ana, fmt.Sprintf(`(c => [c.querySelector("summary").textContent.trim(), c.querySelector('input[name="type"]:checked').value,
			[...c.querySelectorAll('input[name="tag_ids"]:checked')].map(i => i.value).join(","), c.querySelector("textarea").value])(document.querySelector(%s))`, js(card(tower))))
		if strings.Join(pre, "|") != "Edit your opinion|POSITIVE|view|Sunset from the top" {
			t.Errorf("Ana's form on the tower after saving: %q, want her opinion to edit", pre)
		}
		ana.waitUntil(t, "the focus back on the tower's opinion editor (the save button is folded away)", fmt.Sprintf(`document.activeElement === document.querySelector(%s)`, js(card(tower)+" summary")))
	})

	s.step("while Ana types, Ben's opinion, a new candidate and a confirmation reach her picker", func(t *testing.T) {
		comment := card(tower) + ` textarea[name="comment"]`
		ana.click(t, card(tower)+` summary`)
		ana.waitUntil(t, "the tower's form open", fmt.Sprintf(`document.querySelector(%s).open`, js(card(tower)+" details")))
		ana.clearField(t, comment)
		ana.typeInto(t, comment, "Half a thought")
		kept := fmt.Sprintf(`document.querySelector(%s).value === "Half a thought" && document.activeElement === document.querySelector(%s) && document.querySelector(%s).open &&
			document.querySelector("#picker-body [data-carousel-status]").textContent.trim().startsWith("3 of")`, js(comment), js(comment), js(card(tower)+" details"))
		if !eval[bool](t, ana, kept) {
			t.Fatalf("Ana's comment is not being typed")
		}

		sendJSON[pickerOpinionJSON](t, ben, "POST", "/plans/"+planID+"/blocks/"+cands[tower]+"/opinions",
			map[string]any{"type": "NEUTRAL", "tag_ids": []string{"takes_time"}, "comment": "Long lift queue"})
		ana.waitUntil(t, "Ben's opinion of the tower in Ana's picker", fmt.Sprintf(`%s.includes("Long lift queue") && !!document.querySelector(%s)`,
			textOf(card(tower)+` [id$="-talk"]`), js(card(tower)+` button[aria-label="Neutral: 1"]`)))
		if !eval[bool](t, ana, kept) {
			t.Errorf("Ben's opinion arriving took Ana's typing away: %v", eval[[]any](t, ana, fmt.Sprintf(`[document.querySelector(%s).value, document.activeElement.id, document.querySelector("#picker-body [data-carousel-status]").textContent]`, js(comment))))
		}

		fourth := sendJSON[timeBlockJSON](t, ben, "POST", "/plans/"+planID+"/blocks/"+timeBlockID+"/candidates", map[string]any{"place_ids": []string{fourthPlace}})
		ana.waitUntil(t, "Ben's new candidate in Ana's picker", `document.querySelectorAll("#picker-body [data-candidate-card]").length === 4 && document.querySelector("#picker-body [data-carousel-status]").textContent.trim() === "3 of 4"`)
		if !eval[bool](t, ana, kept) {
			t.Errorf("Ben's new candidate took Ana's typing away")
		}
		if c := fourth.candidateNamed("Bukchon Hanok Village"); c == nil || !eval[bool](t, ana, fmt.Sprintf(`!!document.querySelector("#pc-%s [data-candidate-name]")`, c.BlockID)) {
			t.Errorf("the fourth card is not Bukchon Hanok Village's")
		}

		sendJSON[any](t, ben, "PATCH", "/plans/"+planID+"/blocks/"+timeBlockID+"/selection", map[string]any{"block_id": cands[palace]})
		ana.waitUntil(t, "the palace confirmed in Ana's picker", textOf(card(palace)+` [id$="-head"]`)+`.includes("Confirmed")`)
		if !eval[bool](t, ana, kept) {
			t.Errorf("Ben's confirmation took Ana's typing away")
		}
		fitsScreen(t, ana, 390, "the picker after the live changes")
		screenshot(t, ana, "picker-390-live", false)
	})

	s.step("at 1440×900 the candidates are columns side by side", func(t *testing.T) {
		desktop.emulate(t, ana)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		// Ben's face arriving in the header once the live stream opens moves the page under a
		// click aimed before it, so the click waits for it as on the phone.
		ana.waitUntil(t, "Ben present on Ana's page (her live stream is open)", `document.querySelector('#presence [data-presence] [title="Ben"]')`)
		ana.clickAndAwait(t, fmt.Sprintf(`#day li[data-time-block-id=%s] button[title="Candidates"]`, js(timeBlockID)), "get /plans/"+planID+"/blocks/"+timeBlockID+"/candidates")
		ana.waitUntil(t, "the picker open", `document.querySelector("#picker-dialog").open`)
		checkInViewport(t, ana, "#picker-dialog")
		fitsScreen(t, ana, 1440, "the picker at 1440")
		boxes := eval[[][]float64](t, ana, `[...document.querySelectorAll("#picker-body [data-candidate-card]")].slice(0, 3).map(c => (r => [r.left, r.top, r.width])(c.getBoundingClientRect()))`)
		if len(boxes) != 3 || boxes[0][1] != boxes[1][1] || boxes[1][1] != boxes[2][1] || !(boxes[0][0] < boxes[1][0] && boxes[1][0] < boxes[2][0]) || boxes[0][2] < 250 {
			t.Errorf("the first three cards at %v, want three columns of one row", boxes)
		}
		if eval[bool](t, ana, `getComputedStyle(document.querySelector("#picker-nav")).display !== "none"`) {
			t.Errorf("the carousel's buttons show on a wide screen")
		}
		screenshot(t, ana, "picker-1440", false)
		noAxeViolations(t, "the picker at 1440")

		// A quick vote changes the kind of Ana's opinion and keeps her reasons and comment.
		type opinion struct {
			OpinionID string   `json:"opinion_id"`
			Type      string   `json:"type"`
			Comment   string   `json:"comment"`
			TagIDs    []string `json:"tag_ids"`
			AddedBy   struct {
				Nickname string `json:"nickname"`
			} `json:"added_by"`
		}
		anas := func() opinion {
			for _, o := range getJSON[[]opinion](t, ana, "/plans/"+planID+"/blocks/"+cands[tower]+"/opinions") {
				if o.AddedBy.Nickname == "Ana" {
					return o
				}
			}
			t.Fatal("Ana has no opinion of the tower")
			return opinion{}
		}
		ana.clickAndAwait(t, card(tower)+"-vote-NEUTRAL", "put /plans/"+planID+"/blocks/"+cands[tower]+"/opinions/"+anas().OpinionID)
		if o := anas(); o.Type != "NEUTRAL" || o.Comment != "Sunset from the top" || strings.Join(o.TagIDs, ",") != "view" {
			t.Errorf("after the quick vote Ana's opinion is %+v, want NEUTRAL with her reason and comment kept", o)
		}
		ana.waitUntil(t, "the quick vote pressed", fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-pressed") === "true"`, js(card(tower)+"-vote-NEUTRAL")))
	})

	s.step("the pages reported no script errors", func(t *testing.T) {
		for _, b := range []*browser{ana, ben} {
			for _, p := range b.reported() {
				t.Errorf("%s: %s", b.name, p)
			}
		}
	})
}
