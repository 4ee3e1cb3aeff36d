package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// cardOf is the HTML of one candidate's card in the picker.
func cardOf(t *testing.T, picker, candidateID string) string {
	t.Helper()
	start := strings.Index(picker, `id="pc-`+candidateID+`"`)
	if start < 0 {
		t.Fatalf("the picker has no card for %s: %s", candidateID, picker)
	}
	from := start + len(`id="pc-`+candidateID+`" data-candidate-card`)
	end := strings.Index(picker[from:], `data-candidate-card`)
	if end < 0 {
		return picker[start:]
	}
	return picker[start : from+end]
}

// talkOf is the discussion part of a card (tally and opinions), without the viewer's form.
func talkOf(t *testing.T, card string) string {
	t.Helper()
	start := strings.Index(card, `-talk"`)
	end := strings.Index(card, `data-opinion-editor`)
	if start < 0 {
		t.Fatalf("no discussion in %s", card)
	}
	if end < 0 {
		return card[start:]
	}
	return card[start:end]
}

func (f *planFixture) opine(t *testing.T, token, candidateID string, body map[string]any) opinionJSON {
	t.Helper()
	res := f.a.do(req{Method: "POST", Path: f.blocks + "/" + candidateID + "/opinions", Token: token, Body: body})
	var op opinionJSON
	if err := json.Unmarshal(res.Body, &op); err != nil || res.Status != http.StatusCreated {
		t.Fatalf("opinion: %d %s", res.Status, res.Body)
	}
	return op
}

// The picker lists every opinion per candidate — who, the kind, the reasons as words (an id
// the catalogue does not know as given), the comment, when — with the tally, and opens the
// viewer's own opinion in the form to edit or take back.
func TestPickerShowsTheDiscussion(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	tb = decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	palace, market := tb.Candidates[0].BlockID, tb.Candidates[1].BlockID
	f.opine(t, f.ana, palace, map[string]any{"type": "POSITIVE", "tag_ids": []string{"must_see", "my_reason"}, "comment": "Go early <b>please</b>"})
	benPalace := f.opine(t, f.ben, palace, map[string]any{"type": "NEGATIVE", "tag_ids": []string{"crowded"}, "comment": "Too busy"})
	benMarket := f.opine(t, f.ben, market, map[string]any{"type": "POSITIVE", "tag_ids": []string{"tasty"}})
	ben := a.signedInBrowser(t, "pf-ben", "Ben")
	picker := fragment(t, a.htmx(ben, "GET", f.blocks+"/"+tb.TimeBlockID+"/candidates", ""), http.StatusOK)

	if i, j := strings.Index(picker, `id="pc-`+palace+`"`), strings.Index(picker, `id="pc-`+market+`"`); i < 0 || j < i {
		t.Fatalf("the cards are not in the candidates' order: %s", picker)
	}
	if !strings.Contains(picker, `data-cols="2"`) || !strings.Contains(picker, "1 of 2") || !strings.Contains(picker, "Day 1 · 10:00–11:00 · 2 candidates") {
		t.Errorf("the picker's heading or carousel: %s", picker)
	}
	pc, mc := cardOf(t, picker, palace), cardOf(t, picker, market)
	talk := talkOf(t, pc)
	for _, want := range []string{
		// the tally
		`aria-label="Positive: 1"`, `aria-label="Neutral: 0"`, `aria-label="Negative: 1"`,
		// Ana's opinion: who, kind, reasons in words (her own id as given), the comment escaped, when
		"Ana", `<span class="sr-only">Positive</span>`, ">Must-see<", ">my_reason<", "Go early &lt;b&gt;please&lt;/b&gt;",
		// Ben's, marked as his
		"Ben", "(you)", `<span class="sr-only">Negative</span>`, ">Crowded<", "Too busy", "just now", `<time datetime="`,
	} {
		if !strings.Contains(talk, want) {
			t.Errorf("the palace's discussion lacks %q: %s", want, talk)
		}
	}
	if strings.Contains(talk, ">Tasty<") || strings.Contains(talkOf(t, mc), "Too busy") {
		t.Errorf("opinions are not grouped by candidate:\npalace %s\nmarket %s", talk, talkOf(t, mc))
	}
	if !strings.Contains(talkOf(t, mc), ">Tasty<") || !strings.Contains(talkOf(t, mc), `aria-label="Positive: 1"`) {
		t.Errorf("the market's discussion: %s", talkOf(t, mc))
	}
	// The emoji are drawn, not typed.
	for _, emoji := range []string{"👍", "😐", "👎"} {
		if strings.Contains(picker, emoji) {
			t.Errorf("the picker uses the emoji %s (an icon is wanted)", emoji)
		}
	}

	// Ben's own opinions open in the forms: the kind, reasons and comment, to replace or take back.
	for _, c := range []struct {
		card, opinion, typ, tag, comment string
	}{{pc, benPalace.OpinionID, "NEGATIVE", "crowded", "Too busy"}, {mc, benMarket.OpinionID, "POSITIVE", "tasty", ""}} {
		form := c.card[strings.Index(c.card, "data-opinion-editor"):]
		for _, want := range []string{
			"Edit your opinion", `hx-put="` + f.blocks + "/", "/opinions/" + c.opinion + `"`,
			`value="` + c.typ + `" checked`, `value="` + c.tag + `" checked`, ">" + c.comment + "</textarea>", "Remove my opinion",
			`hx-delete="` + f.blocks,
		} {
			if !strings.Contains(form, want) {
				t.Errorf("Ben's form (opinion %s) lacks %q: %s", c.opinion, want, form)
			}
		}
		if n := strings.Count(form, " checked"); n != 2 {
			t.Errorf("Ben's form has %d checked inputs, want his kind and his one reason: %s", n, form)
		}
	}
	// The reasons offered follow the place's category: a palace is a sight, a food market food.
	if !strings.Contains(pc, `name="tag_ids" value="must_see"`) || strings.Contains(pc, `value="tasty"`) ||
		!strings.Contains(mc, `name="tag_ids" value="tasty"`) || strings.Contains(mc, `value="must_see"`) {
		t.Errorf("the reasons offered do not follow the categories:\npalace %s\nmarket %s", pc, mc)
	}
	// A quick vote changing Ben's opinion keeps his reasons and comment.
	if !regexp.MustCompile(`id="pc-`+palace+`-kept" hidden><input type="hidden" name="tag_ids" value="crowded">\s*<input type="hidden" name="comment" value="Too busy">`).MatchString(pc) ||
		strings.Count(pc, `hx-include="#pc-`+palace+`-kept"`) != 2 {
		t.Errorf("the quick votes would lose Ben's reasons: %s", pc)
	}
	// His chosen kind takes it back, and does nothing else.
	if b := regexp.MustCompile(`<button[^>]*id="pc-` + palace + `-vote-NEGATIVE"[^>]*>`).FindString(pc); !strings.Contains(b, `aria-pressed="true"`) ||
		!strings.Contains(b, "hx-delete=") || strings.Contains(b, "hx-put=") || strings.Contains(b, " else") {
		t.Errorf("the pressed vote: %s", b)
	}

	// Ana's form keeps her own reason id, checked, as given.
	anaPicker := fragment(t, a.htmx(a.signedInBrowser(t, "pf-ana", "Ana"), "GET", f.blocks+"/"+tb.TimeBlockID+"/candidates", ""), http.StatusOK)
	anaForm := cardOf(t, anaPicker, palace)
	anaForm = anaForm[strings.Index(anaForm, "data-opinion-editor"):]
	if !strings.Contains(anaForm, `value="my_reason" checked`) || !strings.Contains(anaForm, `value="must_see" checked`) || !strings.Contains(anaForm, "Your own") {
		t.Errorf("Ana's form loses her own reason: %s", anaForm)
	}
	if f2 := cardOf(t, anaPicker, market); !strings.Contains(f2, "Give your opinion") || strings.Contains(f2, " checked") || !strings.Contains(f2, `hx-post="`+f.blocks+"/"+market+`/opinions"`) {
		t.Errorf("Ana has no opinion of the market: her form should be empty and post: %s", f2)
	}

	// A guest reads the discussion and cannot vote, confirm or remove.
	guest := a.guestOf(t, a.invite(f.ana, "/plans/"+f.plan.PlanID))
	g := fragment(t, a.htmx(guest, "GET", f.blocks+"/"+tb.TimeBlockID+"/candidates", ""), http.StatusOK)
	for _, want := range []string{"Too busy", ">Tasty<", `aria-label="Negative: 1"`, `tabindex="0"`} {
		if !strings.Contains(g, want) {
			t.Errorf("the guest's picker lacks %q", want)
		}
	}
	for _, not := range []string{"data-opinion-editor", "Give your opinion", "Confirm", ">Remove<", "Add a candidate", "(you)"} {
		if strings.Contains(g, not) {
			t.Errorf("the guest's picker offers %q: %s", not, g)
		}
	}
	if strings.Count(g, " disabled") < 6 {
		t.Errorf("the guest's vote buttons are not disabled: %s", g)
	}

	// After Ben changes his opinion through the form, the answer is the picker showing it.
	res := a.htmx(ben, "PUT", f.blocks+"/"+palace+"/opinions/"+benPalace.OpinionID, "type=NEUTRAL&tag_ids=if_time&tag_ids=own-one&comment=Maybe")
	after := cardOf(t, fragment(t, res, http.StatusOK), palace)
	for _, want := range []string{`aria-label="Neutral: 1"`, `aria-label="Negative: 0"`, ">If we have time<", ">own-one<", ">Maybe</p>", `value="NEUTRAL" checked`} {
		if !strings.Contains(after, want) {
			t.Errorf("after Ben's change the picker lacks %q: %s", want, after)
		}
	}
}

// The picker's data for a block — candidates, all their opinions and their authors — takes
// the same number of statements however many candidates and opinions there are.
func TestPickerHasAFlatQueryBudget(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	ben := a.signedInBrowser(t, "pf-ben", "Ben")
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	tb = decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	f.opine(t, f.ana, tb.Candidates[0].BlockID, map[string]any{"type": "POSITIVE", "tag_ids": []string{"must_see"}, "comment": "Yes"})
	path := f.blocks + "/" + tb.TimeBlockID + "/candidates"
	measure := func() int {
		a.queries.Reset()
		fragment(t, a.htmx(ben, "GET", path, ""), http.StatusOK)
		return a.queries.Count()
	}
	small := measure()

	// Many more candidates, each with the opinions of many more members.
	var placeIDs []string
	for _, q := range []string{"Bukchon", "Myeongdong", "Insadong", "Namsan"} {
		for _, p := range a.search(f.ana, q) {
			placeIDs = append(placeIDs, p.PlaceID)
		}
	}
	if len(placeIDs) > 8 {
		placeIDs = placeIDs[:8]
	}
	tb = decodeBlock(t, a.do(req{Method: "POST", Path: path, Token: f.ana, Body: map[string]any{"place_ids": placeIDs}}))
	var tokens []string
	for i := range 5 {
		id := fmt.Sprintf("qb-op-%d", i)
		tokens = append(tokens, a.member(id, fmt.Sprintf("Friend%d", i)))
		a.joinPlan(f.plan.PlanID, id)
	}
	for _, c := range tb.Candidates {
		for i, tok := range tokens {
			f.opine(t, tok, c.BlockID, map[string]any{"type": []string{"POSITIVE", "NEUTRAL", "NEGATIVE"}[i%3], "tag_ids": []string{"crowded", "worth_it"}, "comment": "Hmm"})
		}
	}
	if len(tb.Candidates) < 8 {
		t.Fatalf("only %d candidates", len(tb.Candidates))
	}
	large := measure()
	t.Logf("the picker: %d statements with 2 candidates and 1 opinion, %d with %d candidates and %d opinions", small, large, len(tb.Candidates), 5*len(tb.Candidates)+1)
	const budget = 8 // one of them reads the viewer's language setting, the language of the picker's words
	if small > budget || large != small {
		t.Errorf("the picker took %d then %d statements; want the same, at most %d", small, large, budget)
	}
}
