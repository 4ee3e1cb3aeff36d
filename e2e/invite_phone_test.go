package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFromAnInviteLinkToAConfirmedCandidateOnAPhone is issue 16's "checked by": Mina opens an
// invite link from a chat on a 390×844 phone, looks at the plan as a guest, signs in through
// it, adds a candidate to a time block from the block's picker, gives it a thumbs up and
// confirms it — by touch alone, with no page or dialog ever wider than the screen or reaching
// outside the viewport. Screenshots of every stage are kept.
func TestFromAnInviteLinkToAConfirmedCandidateOnAPhone(t *testing.T) {
	s := newScenario(t, "ana", "mina")
	ana, mina, base := s.browsers[0], s.browsers[1], s.srv.base

	var planID, blockID, inviteURL string
	block := func() string { return fmt.Sprintf(`#day li[data-time-block-id=%s]`, js(blockID)) }
	lunch := func(t *testing.T) timeBlockJSON {
		t.Helper()
		for _, b := range getJSON[dayBlocksJSON](t, mina, "/plans/"+planID+"/blocks?day=1").Contents {
			if b.TimeBlockID == blockID {
				return b
			}
		}
		t.Fatalf("the 12:00 block is gone")
		return timeBlockJSON{}
	}
	// fits checks the page and, when given, a dialog at 390 px and keeps a screenshot.
	fits := func(t *testing.T, where, dialog, shot string) {
		t.Helper()
		fitsScreen(t, mina, 390, where)
		if dialog != "" {
			checkInViewport(t, mina, dialog)
		}
		screenshot(t, mina, shot, false)
	}

	s.step("Ana has a plan with a lunch block and sends Mina an invite link", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		colID, cps := newCollectionWith(t, ana, "Lunch ideas", palace, market)
		planID = newPlanWith(t, ana, "Seoul with Mina", 1, 2, colID)
		blockID = sendJSON[timeBlockJSON](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": cps[0], "day": 1, "start_time": "12:00", "end_time": "13:00"}).TimeBlockID
		inviteURL = sendJSON[struct {
			URL string `json:"url"`
		}](t, ana, "POST", "/plans/"+planID+"/invitations", map[string]any{}).URL
	})

	s.step("on her phone, Mina opens the link and looks at the plan as a guest", func(t *testing.T) {
		phone.emulate(t, mina)
		mina.do(t, "open the invite link", chromedp.Navigate(inviteURL))
		mina.waitPath(t, `^/plans/`+planID+`$`)
		mina.waitUntil(t, "the guest banner and the lunch block", fmt.Sprintf(`document.querySelector('main [role="note"] a[href^="/login"]') && document.querySelector(%s)`, js(block())))
		fits(t, "the plan as a guest", "", "invite-390-guest")
	})

	s.step("Mina signs in through the link and lands back on the plan", func(t *testing.T) {
		tap(t, mina, `main [role="note"] a[href^="/login"]`)
		mina.waitPath(t, `^/login$`)
		fits(t, "sign-in", "", "invite-390-login")
		mina.typeInto(t, `#dev-provider-id`, "e2e-mina-phone")
		mina.typeInto(t, `#dev-nickname`, "Mina")
		tap(t, mina, `form:has(#dev-provider-id) button[type="submit"]`)
		mina.waitPath(t, `^/onboarding/terms$`)
		fits(t, "terms", "", "invite-390-terms")
		tap(t, mina, `form[action="/onboarding/terms"] button[type="submit"]`)
		mina.waitPath(t, `^/onboarding/nickname$`)
		fits(t, "nickname", "", "invite-390-nickname")
		tap(t, mina, `form[hx-put^="/users/me"] button[type="submit"]`)
		mina.waitPath(t, `^/plans/`+planID+`$`)
		mina.waitUntil(t, "the plan as a member", fmt.Sprintf(`document.querySelector(%s) && !document.querySelector('main [role="note"] a[href^="/login"]')`, js(block())))
		fits(t, "the plan as a member", "", "invite-390-member")
	})

	s.step("Mina adds a candidate to the lunch block from its picker", func(t *testing.T) {
		tap(t, mina, block()+` button[hx-get$="/candidates"]`)
		mina.waitUntil(t, "the picker", `document.querySelector("#picker-dialog").open && document.querySelector("#picker-body [data-add-candidate]")`)
		fits(t, "the picker", "#picker-dialog", "invite-390-picker")
		tap(t, mina, `#picker-body [data-add-candidate]`)
		choice := fmt.Sprintf(`#candidate-choices [data-choice][data-place-name=%s]`, js(market))
		mina.waitUntil(t, market+" offered", fmt.Sprintf(`document.querySelector(%s)`, js(choice)))
		fits(t, "Add a candidate", "#picker-dialog", "invite-390-add-candidate")
		mina.awaitRequests(t, []string{"post /plans/" + planID + "/blocks/" + blockID + "/candidates"}, "tap "+market, tapOn(t, mina, choice)...)
		mina.waitUntil(t, "two candidates on the lunch block", fmt.Sprintf(`(li => li && li.innerText.includes("2 candidates"))(document.querySelector(%s))`, js(block())))
		if b := lunch(t); b.CandidateCount != 2 || b.candidateNamed(market) == nil || b.BlockStatus != "PENDING" {
			t.Fatalf("GET blocks?day=1: lunch is %+v, want %s and %s pending", b, palace, market)
		}
		fits(t, "the plan after adding", "", "invite-390-two-candidates")
	})

	s.step("Mina likes the new candidate and confirms it", func(t *testing.T) {
		mina.waitUntil(t, "the picker closed", `!document.querySelector("#picker-dialog").open`)
		tap(t, mina, block()+` button[hx-get$="/candidates"]`)
		mina.waitUntil(t, "the picker with both candidates", `document.querySelector("#picker-dialog").open && document.querySelectorAll("#picker-body [data-candidate-card]").length === 2`)
		candidate := lunch(t).candidateNamed(market).BlockID
		// The candidates are a carousel on a phone: the new one is the second card.
		tap(t, mina, `#picker-body [data-carousel-next]`)
		mina.waitUntil(t, "the second card shown", `document.querySelector("#picker-body [data-carousel-status]").textContent.trim() === "2 of 2"`)
		// It is the last card: at rest, the carousel is scrolled to its end.
		mina.waitUntil(t, "the carousel at rest on the second card", `(t => Math.abs(t.scrollLeft - (t.scrollWidth - t.clientWidth)) < 1)(document.querySelector("#picker-cards"))`)
		vote := fmt.Sprintf(`#pc-%s-vote-POSITIVE`, candidate)
		tapInPlace(t, mina, vote)
		mina.waitUntil(t, "Mina's thumbs up shown", fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-pressed") === "true"`, js(vote)))
		fits(t, "the picker after the opinion", "#picker-dialog", "invite-390-liked")
		if got := eval[string](t, mina, `document.querySelector("#picker-body [data-carousel-status]").textContent.trim()`); got != "2 of 2" {
			t.Errorf("after the thumbs up the carousel shows %q, want still 2 of 2", got)
		}
		tapInPlace(t, mina, fmt.Sprintf(`#pc-%s-confirm`, candidate))
		mina.waitUntil(t, "the picker closed", `!document.querySelector("#picker-dialog").open`)
		mina.waitUntil(t, "the lunch block confirmed", fmt.Sprintf(`(li => li && li.innerText.includes("CONFIRMED") && li.innerText.includes(%s))(document.querySelector(%s))`, js(market), js(block())))
		b := lunch(t)
		if b.BlockStatus != "FIXED" || b.SelectedBlock == nil || b.SelectedBlock.BlockID != candidate {
			t.Errorf("GET blocks?day=1: lunch is %s with %+v selected, want FIXED with %s", b.BlockStatus, b.SelectedBlock, market)
		}
		if c := b.candidateNamed(market); c == nil || c.OpinionSummary.Distribution.Positive != 1 {
			t.Errorf("%s's opinions: %+v, want Mina's thumbs up", market, c)
		}
		fits(t, "the confirmed plan", "", "invite-390-confirmed")
	})

	s.step("the pages reported no script errors", func(t *testing.T) {
		for _, b := range s.browsers {
			for _, p := range b.reported() {
				t.Errorf("%s: %s", b.name, p)
			}
		}
	})
}
