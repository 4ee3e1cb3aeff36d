package e2e

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tripplan/internal/i18n"
	"tripplan/internal/i18n/i18ntest"
	"tripplan/internal/places/placestest"
	"tripplan/views"
)

// The JSON API's shapes, as far as these tests read them (web/openapi.yaml has the rest).
type (
	collectionJSON struct {
		CollectionID string `json:"collection_id"`
		Title        string `json:"title"`
		PlaceCount   int    `json:"place_count"`
	}
	collectionPlacesJSON struct {
		Contents []struct {
			Place struct {
				Name string `json:"name"`
			} `json:"place"`
		} `json:"contents"`
	}
	planJSON struct {
		Title        string `json:"title"`
		StartDate    string `json:"start_date"`
		EndDate      string `json:"end_date"`
		DurationDays int    `json:"duration_days"`
	}
	planCollectionJSON struct {
		CollectionID string `json:"collection_id"`
	}
	candidateJSON struct {
		BlockID string `json:"block_id"`
		Place   *struct {
			Name string `json:"name"`
		} `json:"place"`
		OpinionSummary struct {
			TotalCount   int `json:"total_count"`
			Distribution struct {
				Positive int `json:"positive"`
			} `json:"distribution"`
			My *struct {
				Type string `json:"type"`
			} `json:"my"`
		} `json:"opinion_summary"`
	}
	timeBlockJSON struct {
		TimeBlockID    string          `json:"time_block_id"`
		BlockStatus    string          `json:"block_status"`
		StartTime      string          `json:"start_time"`
		EndTime        string          `json:"end_time"`
		CandidateCount int             `json:"candidate_count"`
		Candidates     []candidateJSON `json:"candidates"`
		SelectedBlock  *candidateJSON  `json:"selected_block"`
	}
	dayBlocksJSON struct {
		Contents []timeBlockJSON `json:"contents"`
	}
	budgetJSON struct {
		TotalCost int64  `json:"total_cost"`
		Currency  string `json:"currency"`
	}
	planMembersJSON struct {
		Me *struct {
			Nickname string `json:"nickname"`
		} `json:"me"`
		Members []struct {
			Nickname string `json:"nickname"`
		} `json:"members"`
	}
)

// candidateNamed is the candidate of the block whose place has the name.
func (tb timeBlockJSON) candidateNamed(name string) *candidateJSON {
	for i := range tb.Candidates {
		if c := &tb.Candidates[i]; c.Place != nil && c.Place.Name == name {
			return c
		}
	}
	return nil
}

// scenario is one run of the story, in one language, with its server and browsers. A step
// that fails saves what every browser shows. A step that stops (t.Fatal) ends the scenario,
// since each step builds on the ones before; a step that only reports wrong outcomes
// (t.Error) lets the story go on, so one wrong outcome does not hide the state of the rest.
type scenario struct {
	t        *testing.T
	srv      *server
	browsers []*browser
	lang     i18n.Lang
	l        *i18n.Localizer // the words the pages should say, from the catalogues
	words    tripWords
	english  []string // in Korean: the English catalogue's sentences, none of which may show
	sizes    []*shell // in Korean: the screen sizes each page is pictured and measured at
}

// tripWords are what the people of the story type, in their language.
type tripWords struct {
	collection, plan, item, mina string
	queries                      [3]string // the searches that find palace, market and tower
}

var tripIn = map[i18n.Lang]tripWords{
	i18n.English: {"E2E Seoul", "E2E weekend", "Palace tickets", "Mina", [3]string{"Gyeongbokgung", "Gwangjang", "N Seoul Tower"}},
	i18n.Korean:  {"E2E 서울", "E2E 주말 여행", "경복궁 입장권", "미나", [3]string{"경복궁", "광장시장", "N서울타워"}},
}

// step runs one part of the story as a subtest named name.
func (s *scenario) step(name string, f func(t *testing.T)) {
	s.t.Helper()
	start := time.Now()
	finished := false
	s.t.Run(name, func(t *testing.T) {
		defer func() { // also after t.Fatal, which ends the goroutine through its defers
			if t.Failed() {
				saveArtifacts(t, "", s.srv, s.browsers...)
			}
		}()
		f(t)
		finished = true
		t.Logf("done in %v", time.Since(start).Round(time.Millisecond))
	})
	if !finished {
		s.t.FailNow()
	}
}

// wrongNow reports a wrong outcome the story goes on after, and saves what the browsers show
// at this moment (the step's end may no longer show it).
func (s *scenario) wrongNow(t *testing.T, moment, format string, args ...any) {
	t.Helper()
	t.Errorf(format, args...)
	saveArtifacts(t, moment, s.srv, s.browsers...)
}

// dialogClosed checks that a dialog closed once the request made from it succeeded and its
// answer was handled (app.js closes a dialog whose request swapped content outside it). When
// it is still open, that is reported and the person closes it with its close button, so the
// story can go on.
func (s *scenario) dialogClosed(t *testing.T, b *browser, dialog, action string) {
	t.Helper()
	if eval[bool](t, b, fmt.Sprintf(`document.querySelector(%s).open`, js(dialog))) {
		s.wrongNow(t, "dialog-open", "%s: %s stayed open after %s succeeded and htmx had handled the answer; a successful request from a dialog that swaps content outside it should close it (docs/ARCHITECTURE.md, Pages and partials)", b.name, dialog, action)
		b.click(t, dialog+` [data-close-dialog]`)
		b.waitUntil(t, dialog+" closed", fmt.Sprintf(`!document.querySelector(%s).open`, js(dialog)))
	}
}

// pageWordsJS is a JavaScript expression for the words a page shows a person: its text and
// its elements' labels (title, aria-label, placeholder, alt).
const pageWordsJS = `[document.body.innerText, ...[...document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")]
	.flatMap(e => ["title", "aria-label", "placeholder", "alt"].map(a => e.getAttribute(a) || ""))].join("\n")`

// latinRun is three or more Latin words in a row, and englishWords the little words that make
// such a run an English sentence rather than a name or an address ("Gwangjang Market",
// "Sajik-ro, Jongno-gu, Seoul"): words in English that no catalogue holds show that way.
var (
	latinRun     = regexp.MustCompile(`[A-Za-z][A-Za-z'’-]*(?:[ ,;:]+[A-Za-z][A-Za-z'’-]*){2,}`)
	englishWords = regexp.MustCompile(`(?i)\b(the|a|an|of|to|in|on|is|are|be|and|or|it|its|you|your|this|that|for|with|from|by|at|can|will|not|no|has|have)\b`)
)

// look checks the page the browser shows at a moment of the story: it is in the run's
// language (<html lang>). In Korean (issue 19: a Korean speaker does everything in Korean) it
// shows none of the English catalogue's sentences, nor English sentences of its own (see
// latinRun), and it is pictured at 390×844 and 1440×900 into
// e2e/artifacts/<run>/trip-ko/<size>/, each no wider than the screen (Korean words are longer
// or shorter than English ones); then the browser is back at its window's size.
func (s *scenario) look(t *testing.T, b *browser, moment string) {
	t.Helper()
	pageLanguage(t, b, string(s.lang))
	if s.lang == i18n.English {
		return
	}
	b.idle(t)
	words := eval[string](t, b, pageWordsJS)
	for _, u := range s.english {
		if strings.Contains(words, u) {
			t.Errorf("%s: %s in Korean still says %q", b.name, moment, u)
		}
	}
	for _, run := range latinRun.FindAllString(words, -1) {
		if englishWords.MatchString(run) {
			t.Errorf("%s: %s in Korean says %q in English", b.name, moment, run)
		}
	}
	for _, size := range s.sizes {
		size.size(t, b)
		size.screenshot(t, b, b.name+" "+moment, true)
		size.fits(t, b, b.name+": "+moment)
	}
	b.do(t, "back to the window's size", chromedp.EmulateReset())
}

// Places of the built-in catalog (internal/places/catalog/seoul.json).
const (
	palace = "Gyeongbokgung Palace"
	market = "Gwangjang Market"
	tower  = "N Seoul Tower"
)

// TestTripPlanningTogether is the story of the issue, in two browsers, once in English and
// once in Korean: Ana signs in with dev sign-in, makes a collection and adds places from
// search, makes a plan, links the collection, drags a place into day 1, drops a second
// candidate onto that block, gives an opinion, confirms a candidate and adds an expense on the
// budget page. She invites Mina, who opens the link in her own browser, signs in as a new user
// through it and lands on the plan; a change Ana makes then appears on Mina's page live,
// without a reload, and Mina finds on the budget page what she owes Ana.
//
// In Korean, Ana's browser asks for Korean (Accept-Language) and Mina, whose browser asks for
// English, picks 한국어 in the header as a guest; every page they see is checked and pictured
// as look says. The words the pages should say come from the catalogues (internal/i18n); the
// elements are found by ids and data attributes, never by their words.
func TestTripPlanningTogether(t *testing.T) {
	chromium := findChromium(t)
	for _, lang := range []i18n.Lang{i18n.English, i18n.Korean} {
		t.Run(string(lang), func(t *testing.T) { tripPlanningTogether(t, chromium, lang) })
	}
}

func tripPlanningTogether(t *testing.T, chromium string, lang i18n.Lang) {
	srv := startServer(t)
	ana := newBrowser(t, "ana", chromium)
	mina := newBrowser(t, "mina", chromium)
	s := &scenario{t: t, srv: srv, browsers: []*browser{ana, mina}, lang: lang, l: i18n.For(lang), words: tripIn[lang]}
	if lang == i18n.Korean {
		s.english = i18ntest.EnglishSentences(t)
		for _, scr := range []screen{phone, desktop} {
			s.sizes = append(s.sizes, newShell(t, srv, scr, "", nil, nil, "trip-ko"))
		}
	}
	say := s.l.T
	ctx := i18n.With(context.Background(), s.l) // for the views' formats of times
	base := srv.base
	w := s.words
	// shown is the name a page shows for a place (in Korean 경복궁 for Gyeongbokgung Palace);
	// JSON names it in English.
	shown := func(name string) string { return placestest.Shown(t, string(lang), name) }

	var collectionID, planID, timeBlockID, inviteURL string

	s.step("Ana signs in with dev sign-in", func(t *testing.T) {
		if lang == i18n.Korean {
			asksFor(t, ana, "ko-KR,ko;q=0.9")
		}
		devSignIn(t, ana, base, "demo-ana")
		if got := eval[string](t, ana, textOf(`header a[href="/profile"]`)); !strings.Contains(got, "Ana") {
			t.Errorf("the header's profile link says %q, want Ana's nickname", got)
		}
		s.look(t, ana, "home")
	})

	s.step("Ana creates a collection", func(t *testing.T) {
		ana.click(t, `header nav a[href="/collections"]`)
		ana.waitPath(t, `^/collections$`)
		s.look(t, ana, "collections")
		ana.click(t, `main a[href="/collections/new"]`)
		ana.waitPath(t, `^/collections/new$`)
		s.look(t, ana, "new collection")
		ana.typeInto(t, `#title`, w.collection)
		ana.click(t, `form[action="/collections"] button[type="submit"]`)
		collectionID = ana.waitPath(t, `^/collections/([^/]+)$`, "/collections/new")[1]
		if got := eval[string](t, ana, textOf(`#collection-title`)); got != w.collection {
			t.Errorf("collection page title %q, want %q", got, w.collection)
		}
		if got, want := eval[string](t, ana, textOf(`#place-count`)), say("collection.place_count", "Count", 0); got != want {
			t.Errorf("place count %q, want %q", got, want)
		}
		if c := getJSON[collectionJSON](t, ana, "/collections/"+collectionID); c.Title != w.collection || c.PlaceCount != 0 {
			t.Errorf("GET /collections/%s = %+v, want title %q and no places", collectionID, c, w.collection)
		}
		s.look(t, ana, "empty collection")
	})

	s.step("Ana adds places from search", func(t *testing.T) {
		eval[chromedp.Void](t, ana, `(() => {
			window.e2eDuplicates = [];
			new MutationObserver(() => {
				const names = [...document.querySelectorAll("#place-list li[id^=place-] h3")].map(h => `+shownName("h")+`);
				const twice = names.filter((n, i) => names.indexOf(n) !== i);
				if (twice.length) window.e2eDuplicates.push(...twice);
			}).observe(document.body, {childList: true, subtree: true});
		})()`)
		for i, name := range []string{palace, market, tower} {
			query := w.queries[i]
			ana.clearField(t, `#place-query`)
			ana.typeInto(t, `#place-query`, query)
			placeID := waitFor[string](t, ana, fmt.Sprintf("%q among the results for %q", shown(name), query), fmt.Sprintf(`(() => {
				const li = [...document.querySelectorAll("#search-results li")].find(li => %s === %s);
				return li ? li.querySelector("input[name=place_id]").value : "";
			})()`, shownName(`li.querySelector("p")`), js(shown(name))))
			if i == 0 {
				s.look(t, ana, "search results")
			}
			result := fmt.Sprintf(`#search-results form:has(input[name="place_id"][value=%s])`, js(placeID))
			// The add's answer asks the list to reload itself (HX-Trigger), and the collection's
			// live event does too: the place shows up in the list once those land, whichever comes
			// first. Meanwhile an observer notes any moment the list shows a place twice.
			ana.clickAndAwait(t, result+` button[type="submit"]`, "post /collections/"+collectionID+"/places")
			want := say("collection.place_count", "Count", i+1)
			ana.waitUntil(t, fmt.Sprintf("%s in the place list and the count at %q", shown(name), want), fmt.Sprintf(
				`[...document.querySelectorAll("#place-list li[id^=place-] h3")].filter(h => %s === %s).length === 1 && document.querySelector("#place-count").textContent.trim() === %s`,
				shownName("h"), js(shown(name)), js(want)))
			if dups := eval[[]string](t, ana, `window.e2eDuplicates`); len(dups) > 0 {
				s.wrongNow(t, "duplicate-"+name, "while adding %s the place list showed a place twice: %q", name, dups)
			}
			if added := say("collection.added"); !eval[bool](t, ana, fmt.Sprintf(`(b => b.disabled && b.textContent.includes(%s))(document.querySelector(%s))`, js(added), js(result+" button"))) {
				t.Errorf("the search result's button does not say %q after adding %s", added, name)
			}
		}
		if n := eval[int](t, ana, `document.querySelectorAll("#places-empty").length`); n != 0 {
			t.Errorf("the empty-collection message is still shown")
		}
		places := getJSON[collectionPlacesJSON](t, ana, "/collections/"+collectionID+"/places")
		var names []string
		for _, c := range places.Contents {
			names = append(names, c.Place.Name)
		}
		if len(names) != 3 || !slices.Contains(names, palace) || !slices.Contains(names, market) || !slices.Contains(names, tower) {
			t.Errorf("GET /collections/%s/places has %q, want the three places added", collectionID, names)
		}
		s.look(t, ana, "collection with three places")
	})

	start := time.Now().AddDate(0, 2, 0)
	startDate, endDate := start.Format("2006-01-02"), start.AddDate(0, 0, 1).Format("2006-01-02")
	s.step("Ana creates a plan", func(t *testing.T) {
		ana.click(t, `header nav a[href="/plans"]`)
		ana.waitPath(t, `^/plans$`)
		s.look(t, ana, "plans")
		ana.click(t, `main a[href="/plans/new"]`)
		ana.waitPath(t, `^/plans/new$`)
		s.look(t, ana, "new plan")
		ana.typeInto(t, `#plan-title`, w.plan)
		// A date picker is not typed into: its value is set as a picked date would set it.
		ana.do(t, "pick the dates", chromedp.SetValue(chromedp.CSS(`#plan-start`), startDate), chromedp.SetValue(chromedp.CSS(`#plan-end`), endDate))
		ana.click(t, `form[action="/plans"] button[type="submit"]`)
		planID = ana.waitPath(t, `^/plans/([^/]+)$`, "/plans/new")[1]
		ana.waitUntil(t, "day 1's grid", `document.querySelector('#day[data-day="1"]')`)
		if got := eval[string](t, ana, textOf(`main h1`)); got != w.plan {
			t.Errorf("plan page title %q, want %q", got, w.plan)
		}
		if n := eval[int](t, ana, `document.querySelectorAll('#day nav[data-day-tabs] a').length`); n != 2 {
			t.Errorf("%d day tabs, want 2", n)
		}
		if got, want := eval[string](t, ana, textOf(`#day-heading + span`)), say("plan.blocks", "Count", 0); got != want {
			t.Errorf("the day header counts %q, want an empty day: %q", got, want)
		}
		p := getJSON[planJSON](t, ana, "/plans/"+planID)
		if p.Title != w.plan || p.StartDate != startDate || p.EndDate != endDate || p.DurationDays != 2 {
			t.Errorf("GET /plans/%s = %+v, want %q from %s to %s (2 days)", planID, p, w.plan, startDate, endDate)
		}
		s.look(t, ana, "new plan's page")
	})

	s.step("Ana links the collection to the plan", func(t *testing.T) {
		ana.waitUntil(t, "the collection among the linkable ones", fmt.Sprintf(`document.querySelector('#link-collection option[value=%s]')`, js(collectionID)))
		ana.do(t, "choose the collection", chromedp.SetValue(chromedp.CSS(`#link-collection`), collectionID))
		ana.click(t, `form:has(#link-collection) button[type="submit"]`)
		ana.waitUntil(t, "the linked collection's places in the side panel", fmt.Sprintf(
			`(document.querySelector("#panel-collection") || {}).value === %s && document.querySelectorAll("#panel-places li[data-collection-place-id]").length === 3`, js(collectionID)))
		for _, name := range []string{palace, market, tower} {
			if n := eval[int](t, ana, fmt.Sprintf(`document.querySelectorAll('#panel-places li[draggable="true"][data-place-name=%s]').length`, js(shown(name)))); n != 1 {
				t.Errorf("%q is in the side panel %d times, want once, draggable", shown(name), n)
			}
		}
		linked := getJSON[[]planCollectionJSON](t, ana, "/plans/"+planID+"/collections")
		if len(linked) != 1 || linked[0].CollectionID != collectionID {
			t.Errorf("GET /plans/%s/collections = %+v, want only %s", planID, linked, collectionID)
		}
		s.look(t, ana, "plan with the linked collection")
	})

	// blockCard is a JavaScript expression for the whitespace-collapsed text of the block card.
	blockCard := func(id string) string {
		return textOf(fmt.Sprintf(`#day li[data-time-block-id=%s]`, js(id)))
	}
	// statusIs checks the block card's status badge: its status, in the page's words (their
	// text, not as the badge's CSS shows them in upper case).
	statusIs := func(t *testing.T, b *browser, id, status, message string) {
		t.Helper()
		got := eval[[]string](t, b, fmt.Sprintf(`[...document.querySelectorAll(%s)].map(e => e.dataset.status + " " + e.textContent.trim())`,
			js(fmt.Sprintf(`#day li[data-time-block-id=%s] [data-status]`, js(id)))))
		if want := status + " " + say(message); len(got) != 1 || got[0] != want {
			t.Errorf("%s: the block card's status badge says %q, want %q", b.name, got, want)
		}
	}
	dayBlocks := func(t *testing.T, b *browser) []timeBlockJSON {
		t.Helper()
		return getJSON[dayBlocksJSON](t, b, "/plans/"+planID+"/blocks?day=1").Contents
	}

	s.step("Ana drags a place into day 1", func(t *testing.T) {
		// plan.js uses HTML5 drag and drop (draggable items; dragstart, dragover, drop).
		// DragAndDrop presses the mouse on the item and moves it onto 10:00 of the grid; Chromium
		// starts a native drag, which chromedp intercepts and finishes with
		// Input.dispatchDragEvent, so the page gets real drag events with a DataTransfer.
		ana.do(t, "drag "+palace+" onto 10:00", chromedp.DragAndDrop(
			chromedp.CSS(fmt.Sprintf(`#panel-places li[data-place-name=%s]`, js(shown(palace)))),
			chromedp.CSS(`#day [data-slot="600"]`)))
		ana.waitUntil(t, "the add-block dialog", `document.querySelector("#block-dialog").open`)
		if got := eval[string](t, ana, textOf(`#block-dialog [data-place-label]`)); got != shown(palace) {
			t.Errorf("the dialog adds %q, want %q", got, shown(palace))
		}
		got := eval[[]string](t, ana, `["#add-day", "#add-start", "#add-end"].map(s => document.querySelector(s).value)`)
		if strings.Join(got, " ") != "1 10:00 11:00" {
			t.Errorf("the dialog proposes day, start, end %q, want the drop point: 1 10:00 11:00", got)
		}
		s.look(t, ana, "add-block dialog")
		ana.clickAndAwait(t, `#block-dialog button[type="submit"]`, "post /plans/"+planID+"/blocks")
		s.dialogClosed(t, ana, "#block-dialog", "adding the block")
		timeBlockID = waitFor[string](t, ana, "a block for "+shown(palace)+" in the grid", fmt.Sprintf(`(() => {
			const li = [...document.querySelectorAll("#day li[data-time-block-id]")].find(li => %s === %s);
			return li ? li.dataset.timeBlockId : "";
		})()`, shownName(`li.querySelector("p")`), js(shown(palace))))
		card := eval[string](t, ana, blockCard(timeBlockID))
		for _, want := range []string{views.TimeSpan(ctx, "10:00", "11:00"), say("plan.candidates", "Count", 1)} {
			if !strings.Contains(card, want) {
				t.Errorf("block card %q lacks %q", card, want)
			}
		}
		statusIs(t, ana, timeBlockID, "DIRECT", "plan.status_direct")
		blocks := dayBlocks(t, ana)
		if len(blocks) != 1 || blocks[0].TimeBlockID != timeBlockID || !strings.HasPrefix(blocks[0].StartTime, "10:00") || !strings.HasPrefix(blocks[0].EndTime, "11:00") ||
			blocks[0].CandidateCount != 1 || blocks[0].candidateNamed(palace) == nil {
			t.Errorf("GET /plans/%s/blocks?day=1 = %+v, want one 10:00–11:00 block with %s", planID, blocks, palace)
		}
	})

	var palaceCandidate string
	s.step("Ana drops a second candidate onto the block", func(t *testing.T) {
		ana.awaitRequests(t, []string{"post /plans/" + planID + "/blocks/" + timeBlockID + "/candidates"}, "drag "+market+" onto the block",
			chromedp.DragAndDrop(
				chromedp.CSS(fmt.Sprintf(`#panel-places li[data-place-name=%s]`, js(shown(market)))),
				chromedp.CSS(fmt.Sprintf(`#day li[data-time-block-id=%s]`, js(timeBlockID)))))
		two := say("plan.candidates", "Count", 2)
		ana.waitUntil(t, fmt.Sprintf("the block to count %q", two), blockCard(timeBlockID)+`.includes(`+js(two)+`)`)
		if card, want := eval[string](t, ana, blockCard(timeBlockID)), shown(palace)+say("plan.or")+shown(market); !strings.Contains(card, want) {
			t.Errorf("block card %q lacks %q", card, want)
		}
		statusIs(t, ana, timeBlockID, "PENDING", "plan.status_pending")
		blocks := dayBlocks(t, ana)
		if len(blocks) != 1 || blocks[0].CandidateCount != 2 || blocks[0].BlockStatus != "PENDING" ||
			blocks[0].candidateNamed(palace) == nil || blocks[0].candidateNamed(market) == nil {
			t.Fatalf("GET /plans/%s/blocks?day=1 = %+v, want one PENDING block with %s and %s", planID, blocks, palace, market)
		}
		palaceCandidate = blocks[0].candidateNamed(palace).BlockID
		s.look(t, ana, "block with two candidates")
	})

	// pickerItem is a JavaScript expression for the candidate picker's item of a place.
	pickerItem := func(name string) string {
		return fmt.Sprintf(`[...document.querySelectorAll("#picker-body [data-candidate-card]")].find(li => %s === %s)`, shownName(`li.querySelector("[data-candidate-name]")`), js(shown(name)))
	}

	s.step("Ana gives an opinion on a candidate", func(t *testing.T) {
		ana.click(t, fmt.Sprintf(`#day li[data-time-block-id=%s] button[hx-get$="/candidates"]`, js(timeBlockID)))
		ana.waitUntil(t, "the candidate picker with both candidates", `document.querySelector("#picker-dialog").open && document.querySelectorAll("#picker-body [data-candidate-card]").length === 2`)
		opinions := "/plans/" + planID + "/blocks/" + palaceCandidate + "/opinions"
		ana.clickAndAwait(t, fmt.Sprintf(`#picker-body button[data-vote="POSITIVE"][hx-post=%s]`, js(opinions)), "post "+opinions)
		ana.waitUntil(t, "the picker to show Ana's positive opinion", fmt.Sprintf(
			`(li => { const b = li && li.querySelector('button[data-vote="POSITIVE"]'); return b && b.getAttribute("aria-pressed") === "true" && b.querySelector(".tabular-nums").textContent.trim() === "1"; })(%s)`, pickerItem(palace)))
		// The grid behind the dialog refreshes itself on the opinion event (SSE).
		ana.waitUntil(t, "the block card's tally of positive opinions to be 1",
			textOf(fmt.Sprintf(`#day li[data-time-block-id=%s] [data-tally="POSITIVE"]`, js(timeBlockID)))+` === "1"`)
		blocks := dayBlocks(t, ana)
		if len(blocks) != 1 || blocks[0].candidateNamed(palace) == nil {
			t.Fatalf("GET /plans/%s/blocks?day=1 = %+v, want the block with %s", planID, blocks, palace)
		}
		if c := blocks[0].candidateNamed(palace); c.OpinionSummary.Distribution.Positive != 1 || c.OpinionSummary.TotalCount != 1 || c.OpinionSummary.My == nil || c.OpinionSummary.My.Type != "POSITIVE" {
			t.Errorf("the API's opinion summary of %s is %+v, want Ana's one positive opinion", palace, c.OpinionSummary)
		}
		s.look(t, ana, "candidate picker with an opinion")
	})

	s.step("Ana confirms a candidate", func(t *testing.T) {
		ana.clickAndAwait(t, fmt.Sprintf(`#picker-body form:has(input[name="block_id"][value=%s]) button[type="submit"]`, js(palaceCandidate)),
			"patch /plans/"+planID+"/blocks/"+timeBlockID+"/selection")
		s.dialogClosed(t, ana, "#picker-dialog", "confirming the candidate")
		ana.waitUntil(t, "the block to be confirmed", fmt.Sprintf(`document.querySelector('#day li[data-time-block-id=%s] [data-status="FIXED"]')`, js(timeBlockID)))
		statusIs(t, ana, timeBlockID, "FIXED", "plan.status_fixed")
		if card := eval[string](t, ana, blockCard(timeBlockID)); !strings.HasPrefix(card, shown(palace)+" ") || strings.Contains(card, say("plan.or")) {
			t.Errorf("the confirmed block's card %q should be titled %s alone", card, shown(palace))
		}
		blocks := dayBlocks(t, ana)
		if len(blocks) != 1 {
			t.Fatalf("GET /plans/%s/blocks?day=1 = %+v, want the one block", planID, blocks)
		}
		if b := blocks[0]; b.BlockStatus != "FIXED" || b.SelectedBlock == nil || b.SelectedBlock.BlockID != palaceCandidate {
			t.Errorf("GET /plans/%s/blocks?day=1: status %s, selected %+v; want FIXED with %s selected", planID, b.BlockStatus, b.SelectedBlock, palace)
		}
		s.look(t, ana, "confirmed block")
	})

	var currency string
	s.step("Ana adds an expense on the budget page", func(t *testing.T) {
		ana.click(t, fmt.Sprintf(`main a[href=%s]`, js("/plans/"+planID+"/budget")))
		ana.waitPath(t, `^/plans/[^/]+/budget$`)
		s.look(t, ana, "budget")
		before := getJSON[budgetJSON](t, ana, "/plans/"+planID+"/budgets")
		currency = before.Currency
		form := fmt.Sprintf(`form[hx-post=%s]`, js("/plans/"+planID+"/expenses"))
		ana.click(t, `details:has(`+form+`) > summary`)
		s.look(t, ana, "new expense form")
		ana.typeInto(t, form+` input[name="name"]`, w.item)
		ana.typeInto(t, form+` input[name="cost"]`, "6000")
		// The common case is one tap: Ana, who adds it, paid, and everyone shares it.
		if payer := eval[string](t, ana, fmt.Sprintf(`document.querySelector(%s).selectedOptions[0].textContent.trim()`, js(form+` select[name="paid_by"]`))); payer != say("budget.you_named", "Name", "Ana") {
			t.Errorf("the new expense's payer is %q, want Ana, who adds it", payer)
		}
		ana.click(t, form+` button[type="submit"]`)
		want := s.l.Money(before.TotalCost+6000, currency)
		ana.waitUntil(t, "the expense in the day's list", fmt.Sprintf(
			`[...document.querySelectorAll("section[aria-labelledby=expenses-heading] li")].some(li => li.textContent.includes(%s) && li.textContent.includes(%s))`,
			js(w.item), js(s.l.Money(6000, currency))))
		if got := eval[string](t, ana, textOf(`#budget-stats [data-stat="total-cost"] [data-stat-value]`)); got != want {
			t.Errorf("the total cost card says %q, want %s", got, want)
		}
		if after := getJSON[budgetJSON](t, ana, "/plans/"+planID+"/budgets"); after.TotalCost != before.TotalCost+6000 {
			t.Errorf("GET /plans/%s/budgets total_cost = %d, want %d + 6000", planID, after.TotalCost, before.TotalCost)
		}
		s.look(t, ana, "budget with the expense")
	})

	s.step("Ana makes an invite link", func(t *testing.T) {
		ana.click(t, fmt.Sprintf(`#budget-crumb a[href=%s]`, js("/plans/"+planID)))
		ana.waitPath(t, `^/plans/[^/]+$`)
		ana.click(t, fmt.Sprintf(`button[hx-post=%s]`, js("/plans/"+planID+"/invitations")))
		inviteURL = waitFor[string](t, ana, "the invite link", `(document.querySelector("#invite-url") || {}).value || ""`)
		if !strings.HasPrefix(inviteURL, base+"/invite/") {
			t.Errorf("invite link %q, want one under %s/invite/", inviteURL, base)
		}
		s.look(t, ana, "invite link")
	})

	s.step("Mina opens the link, signs in as a new user and lands on the plan", func(t *testing.T) {
		mina.do(t, "open the invite link", chromedp.Navigate(inviteURL))
		mina.waitPath(t, `^/plans/`+planID+`$`)
		if lang == i18n.Korean {
			// Mina's browser asks for English: she picks 한국어 in the header, a guest's choice
			// that her browser keeps (a cookie) and that the rest of her way speaks.
			pageLanguage(t, mina, "en")
			const menu = `header details[data-language-menu]`
			mina.click(t, menu+` > summary`)
			mina.waitUntil(t, "the language menu open", `document.querySelector(`+js(menu)+`).open`)
			mina.click(t, menu+` button[value="ko"]`)
			pageLanguage(t, mina, "ko")
			mina.waitPath(t, `^/plans/`+planID+`$`)
		}
		mina.waitUntil(t, "the guest banner", `document.querySelector('main [role="note"] a[href^="/login"]')`)
		if card := eval[string](t, mina, blockCard(timeBlockID)); !strings.Contains(card, shown(palace)) {
			t.Errorf("as a guest Mina sees the block as %q, want %s", card, shown(palace))
		}
		statusIs(t, mina, timeBlockID, "FIXED", "plan.status_fixed")
		s.look(t, mina, "plan as a guest")
		mina.click(t, `main [role="note"] a[href^="/login"]`)
		mina.waitPath(t, `^/login$`)
		s.look(t, mina, "sign-in")
		mina.typeInto(t, `#dev-provider-id`, "e2e-mina")
		mina.typeInto(t, `#dev-nickname`, w.mina)
		mina.click(t, `form:has(#dev-provider-id) button[type="submit"]`)
		mina.waitPath(t, `^/onboarding/terms$`)
		s.look(t, mina, "terms")
		mina.click(t, `form[action="/onboarding/terms"] button[type="submit"]`)
		mina.waitPath(t, `^/onboarding/nickname$`)
		if got := eval[string](t, mina, `document.querySelector("#nickname").value`); got != w.mina {
			t.Errorf("the nickname step proposes %q, want %q", got, w.mina)
		}
		s.look(t, mina, "nickname")
		mina.click(t, `form[hx-put^="/users/me"] button[type="submit"]`)
		mina.waitPath(t, `^/plans/`+planID+`$`)
		mina.waitUntil(t, "the plan's day grid", `document.querySelector("#day")`)
		if n := eval[int](t, mina, `document.querySelectorAll('main [role="note"]').length`); n != 0 {
			t.Errorf("Mina still sees the guest banner after joining")
		}
		// Guests get the page without the side panel of places (hidden); members get it.
		if !eval[bool](t, mina, `getComputedStyle(document.querySelector('aside[aria-labelledby="panel-heading"]')).display !== "none" && document.querySelectorAll("#panel-places li[data-collection-place-id]").length === 3`) {
			t.Errorf("Mina does not see the side panel with the linked collection's places after joining")
		}
		members := getJSON[planMembersJSON](t, mina, "/plans/"+planID+"/members")
		var names []string
		for _, m := range members.Members {
			names = append(names, m.Nickname)
		}
		if members.Me == nil || members.Me.Nickname != w.mina || len(names) != 2 || !slices.Contains(names, "Ana") || !slices.Contains(names, w.mina) {
			t.Errorf("GET /plans/%s/members as Mina: me %+v, members %q; want %s, a member beside Ana", planID, members.Me, names, w.mina)
		}
		s.look(t, mina, "plan as a member")
	})

	s.step("Ana's change reaches Mina's page live", func(t *testing.T) {
		// Mina's presence reaches Ana once Mina's event stream is open, so after this wait a
		// change cannot be missed for want of a connection.
		ana.waitUntil(t, "Mina present on Ana's page", fmt.Sprintf(`document.querySelector('#presence [data-presence] [title=%s]')`, js(w.mina)))
		mina.do(t, "mark the page", chromedp.Evaluate[chromedp.Void](`window.e2eSamePage = true`))
		if n := eval[int](t, mina, fmt.Sprintf(`[...document.querySelectorAll("#day li[data-time-block-id]")].filter(li => li.textContent.includes(%s)).length`, js(shown(tower)))); n != 0 {
			t.Fatalf("Mina's page shows %s before Ana added it", shown(tower))
		}

		ana.click(t, fmt.Sprintf(`#panel-places li[data-place-name=%s] button[data-add-place]`, js(shown(tower))))
		ana.waitUntil(t, "the add-block dialog", `document.querySelector("#block-dialog").open`)
		ana.do(t, "set 14:00–16:00", chromedp.SetValue(chromedp.CSS(`#add-start`), "14:00"), chromedp.SetValue(chromedp.CSS(`#add-end`), "16:00"))
		changed := time.Now()
		ana.clickAndAwait(t, `#block-dialog button[type="submit"]`, "post /plans/"+planID+"/blocks")
		towerCard := fmt.Sprintf(`[...document.querySelectorAll("#day li[data-time-block-id]")].map(li => li.innerText.replace(/\s+/g, " ").trim()).find(t => t.includes(%s)) || ""`, js(shown(tower)))
		ana.waitUntil(t, "the new block on Ana's page", towerCard)
		s.dialogClosed(t, ana, "#block-dialog", "adding the block")

		got := waitFor[string](t, mina, "Ana's new block on Mina's page", towerCard)
		t.Logf("Ana's change appeared on Mina's page %v after Ana submitted it", time.Since(changed).Round(time.Millisecond))
		if want := views.TimeSpan(ctx, "14:00", "16:00"); !strings.Contains(got, want) {
			t.Errorf("Mina sees the new block as %q, want %s", got, want)
		}
		if !eval[bool](t, mina, `window.e2eSamePage === true && location.pathname === `+js("/plans/"+planID)) {
			t.Errorf("Mina's page was reloaded or left; the change should arrive over the event stream")
		}
		if got, want := eval[string](t, mina, textOf(`#day-heading + span`)), say("plan.blocks", "Count", 2); got != want {
			t.Errorf("Mina's day header counts %q, want %q", got, want)
		}
		s.look(t, mina, "plan with Ana's new block")
	})

	s.step("Mina finds what she owes Ana on the budget page", func(t *testing.T) {
		mina.click(t, fmt.Sprintf(`main a[href=%s]`, js("/plans/"+planID+"/budget")))
		mina.waitPath(t, `^/plans/[^/]+/budget$`)
		// Ana paid the 6000 that no tick split: everyone shares it, Ana and Mina half each.
		want := say("budget.transfer", "From", w.mina, "To", "Ana", "Amount", s.l.Money(3000, currency))
		if got := eval[[]string](t, mina, `[...document.querySelectorAll("#budget-settle [data-transfers] [data-transfer]")].map(p => p.textContent.replace(/\s+/g, " ").trim())`); len(got) != 1 || got[0] != want {
			t.Errorf("the settle-up says %q, want only %q", got, want)
		}
		s.look(t, mina, "settle-up")
	})

	s.step("the pages reported no script errors", func(t *testing.T) {
		for _, b := range s.browsers {
			for _, p := range b.reported() {
				t.Errorf("%s: %s", b.name, p)
			}
		}
	})
}
