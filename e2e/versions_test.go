package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// blockDetail is what these steps read of GET /plans/{p}/blocks/{candidate}.
type blockDetail struct {
	StartTime string `json:"start_time"`
	Block     struct {
		Memo string `json:"memo"`
	} `json:"block"`
}

// TestStaleBlockEditIsNotApplied is issue 17's lost update in two browsers: Ana opens a
// block's edit dialog, Ben moves the block and changes its memo in his, then Ana saves. Ana's
// save is refused, her dialog says that someone changed the block and shows it as it is now,
// and Ben's change stays; opened again, the dialog saves. A time that overlaps another block
// is refused with that block's name and the next free start, in words.
func TestStaleBlockEditIsNotApplied(t *testing.T) {
	s := newScenario(t, "ana", "ben")
	ana, ben, base := s.browsers[0], s.browsers[1], s.srv.base
	var planID, timeBlockID, candidateID string
	editButton := func() string {
		return fmt.Sprintf(`#day li[data-time-block-id=%s] [data-edit-block]:not([hidden])`, js(timeBlockID))
	}

	s.step("Ana has a plan with a free-time block and a lunch, and Ben joins it", func(t *testing.T) {
		for _, b := range []*browser{ana, ben} {
			desktop.emulate(t, b)
			devSignIn(t, b, base, "demo-"+b.name)
		}
		planID = newPlanWith(t, ana, "Edit race", 3, 2)
		free := sendJSON[timeBlockJSON](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "FREE", "day": 1, "start_time": "10:00", "end_time": "11:00", "memo": "Ana's plan"})
		timeBlockID, candidateID = free.TimeBlockID, free.Candidates[0].BlockID
		sendJSON[timeBlockJSON](t, ana, "POST", "/plans/"+planID+"/blocks", map[string]any{"type": "FREE", "day": 1, "start_time": "12:00", "end_time": "13:00", "memo": "Lunch"})
		link := sendJSON[struct {
			URL string `json:"url"`
		}](t, ana, "POST", "/plans/"+planID+"/invitations", nil)
		ben.do(t, "open the invite link", chromedp.Navigate(link.URL))
		ben.waitPath(t, `^/plans/`+planID+`$`)
		ana.do(t, "open the plan", chromedp.Navigate(base+"/plans/"+planID))
		for _, b := range []*browser{ana, ben} {
			b.waitUntil(t, "the block's edit button", fmt.Sprintf(`document.querySelector(%s)`, js(editButton())))
		}
	})

	s.step("Ana opens the edit dialog; Ben moves the block and changes its memo", func(t *testing.T) {
		ana.click(t, editButton())
		ana.waitUntil(t, "Ana's edit dialog", `document.querySelector("#edit-dialog").open`)
		ben.click(t, editButton())
		ben.waitUntil(t, "Ben's edit dialog", `document.querySelector("#edit-dialog").open`)
		eval[chromedp.Void](t, ben, `(f => { f.querySelector("[name=start_time]").value = "09:00"; f.querySelector("[name=end_time]").value = "10:00";
			f.querySelector("[name=memo]").value = "Ben's plan"; })(document.querySelector("#edit-dialog form"))`)
		ben.awaitRequests(t, []string{"patch /plans/" + planID + "/blocks/" + candidateID}, "Ben saves", chromedp.Click(chromedp.CSS(`#edit-dialog button[type="submit"]`)))
		ben.waitUntil(t, "Ben's dialog closed", `!document.querySelector("#edit-dialog").open`)
		// Ana's page shows Ben's change live; her dialog stays as she opened it.
		ana.waitUntil(t, "Ben's move shown to Ana", fmt.Sprintf(`(li => li && li.dataset.start === "09:00")(document.querySelector('#day li[data-time-block-id=%s]'))`, js(timeBlockID)))
	})

	s.step("Ana saves her stale dialog: refused, with the block as it is now", func(t *testing.T) {
		eval[chromedp.Void](t, ana, `document.querySelector("#edit-dialog [name=memo]").value = "Ana's new plan"`)
		ana.do(t, "Ana saves", chromedp.Click(chromedp.CSS(`#edit-dialog button[type="submit"]`)))
		ana.waitUntil(t, "the stale-edit message in the dialog", `document.querySelector("#edit-dialog [data-dialog-errors] [data-stale]")`)
		msg := eval[string](t, ana, `document.querySelector("#edit-dialog [data-dialog-errors]").innerText`)
		for _, want := range []string{"Ben changed this block while you were editing", "Nothing was saved", "Day 1, 09:00–10:00", "Ben's plan", "Keep mine", "Use theirs"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the dialog says %q, want it to say %q", msg, want)
			}
		}
		if !eval[bool](t, ana, `document.querySelector("#edit-dialog").open`) {
			t.Error("the dialog closed: Ana's typing is lost")
		}
		checkInViewport(t, ana, "#edit-dialog [data-stale]")
		screenshot(t, ana, "stale-edit-1440", false)
		d := getJSON[blockDetail](t, ana, "/plans/"+planID+"/blocks/"+candidateID)
		if d.Block.Memo != "Ben's plan" || !strings.HasPrefix(d.StartTime, "09:00") {
			t.Errorf("the block is %s %q after Ana's stale save, want Ben's 09:00 \"Ben's plan\"", d.StartTime, d.Block.Memo)
		}
		// "Use theirs" puts Ben's values into her dialog.
		ana.click(t, `#edit-dialog [data-take-theirs]`)
		if got := eval[[]string](t, ana, `["start_time", "end_time", "memo"].map(n => document.querySelector("#edit-dialog [name=" + n + "]").value)`); strings.Join(got, "|") != "09:00|10:00|Ben's plan" {
			t.Errorf("after Use theirs the dialog holds %q, want Ben's 09:00|10:00|Ben's plan", got)
		}
		if n := eval[int](t, ana, `document.querySelectorAll("#edit-dialog [data-stale]").length`); n != 0 {
			t.Errorf("the stale message stayed after Use theirs")
		}
	})

	s.step("opened again, Ana's dialog saves; an overlap names the block in the way", func(t *testing.T) {
		ana.do(t, "close the dialog", chromedp.Click(chromedp.CSS(`#edit-dialog [data-close-dialog]`)))
		ana.click(t, editButton())
		ana.waitUntil(t, "the dialog with Ben's memo", `document.querySelector("#edit-dialog").open && document.querySelector("#edit-dialog [name=memo]").value === "Ben's plan"`)
		eval[chromedp.Void](t, ana, `(f => { f.querySelector("[name=start_time]").value = "11:30"; f.querySelector("[name=end_time]").value = "12:30"; })(document.querySelector("#edit-dialog form"))`)
		ana.do(t, "Ana saves an overlapping time", chromedp.Click(chromedp.CSS(`#edit-dialog button[type="submit"]`)))
		ana.waitUntil(t, "the overlap message", `document.querySelector("#edit-dialog [data-dialog-errors] [data-flash]")`)
		if msg, want := eval[string](t, ana, `document.querySelector("#edit-dialog [data-dialog-errors] [data-flash-detail]").textContent`),
			"Overlaps “Free time” 12:00–13:00 — the next free start is 13:00."; msg != want {
			t.Errorf("the overlap says %q, want %q", msg, want)
		}
		eval[chromedp.Void](t, ana, `(f => { f.querySelector("[name=start_time]").value = "13:00"; f.querySelector("[name=end_time]").value = "14:00";
			f.querySelector("[name=memo]").value = "Both plans"; })(document.querySelector("#edit-dialog form"))`)
		ana.awaitRequests(t, []string{"patch /plans/" + planID + "/blocks/" + candidateID}, "Ana saves", chromedp.Click(chromedp.CSS(`#edit-dialog button[type="submit"]`)))
		ana.waitUntil(t, "the dialog closed", `!document.querySelector("#edit-dialog").open`)
		if d := getJSON[blockDetail](t, ana, "/plans/"+planID+"/blocks/"+candidateID); d.Block.Memo != "Both plans" || !strings.HasPrefix(d.StartTime, "13:00") {
			t.Errorf("after the fresh save the block is %s %q", d.StartTime, d.Block.Memo)
		}
	})

	s.step("Ben changes the memo again while Ana edits; Ana keeps hers", func(t *testing.T) {
		ana.click(t, editButton())
		ana.waitUntil(t, "Ana's edit dialog", `document.querySelector("#edit-dialog").open`)
		ben.do(t, "reload the plan", chromedp.Navigate(base+"/plans/"+planID))
		ben.click(t, editButton())
		ben.waitUntil(t, "Ben's edit dialog", `document.querySelector("#edit-dialog").open`)
		eval[chromedp.Void](t, ben, `document.querySelector("#edit-dialog [name=memo]").value = "Ben again"`)
		ben.awaitRequests(t, []string{"patch /plans/" + planID + "/blocks/" + candidateID}, "Ben saves", chromedp.Click(chromedp.CSS(`#edit-dialog button[type="submit"]`)))
		eval[chromedp.Void](t, ana, `document.querySelector("#edit-dialog [name=memo]").value = "Ana wins"`)
		ana.do(t, "Ana saves", chromedp.Click(chromedp.CSS(`#edit-dialog button[type="submit"]`)))
		ana.waitUntil(t, "the stale-edit message", `document.querySelector("#edit-dialog [data-dialog-errors] [data-keep-mine]")`)
		ana.awaitRequests(t, []string{"patch /plans/" + planID + "/blocks/" + candidateID}, "Keep mine", chromedp.Click(chromedp.CSS(`#edit-dialog [data-keep-mine]`)))
		ana.waitUntil(t, "the dialog closed", `!document.querySelector("#edit-dialog").open`)
		if d := getJSON[blockDetail](t, ana, "/plans/"+planID+"/blocks/"+candidateID); d.Block.Memo != "Ana wins" || !strings.HasPrefix(d.StartTime, "13:00") {
			t.Errorf("after Keep mine the block is %s %q, want 13:00 \"Ana wins\"", d.StartTime, d.Block.Memo)
		}
	})

	s.step("Ana deletes the block with no question asked, Ben sees it go; Undo brings it back for both", func(t *testing.T) {
		block := fmt.Sprintf(`#day li[data-time-block-id=%s]`, js(timeBlockID))
		ana.click(t, block+` button[title="Delete"]`)
		ana.waitUntil(t, "the Undo toast", `document.querySelector("#flash [data-undo] button[hx-post]")`)
		ben.waitUntil(t, "the block gone from Ben's page", fmt.Sprintf(`!document.querySelector(%s)`, js(block)))
		ana.click(t, `#flash [data-undo] button[hx-post]`)
		for _, b := range []*browser{ana, ben} {
			b.waitUntil(t, "the block back at 13:00", fmt.Sprintf(`(li => li && li.dataset.start === "13:00")(document.querySelector(%s))`, js(block)))
		}
		if d := getJSON[blockDetail](t, ben, "/plans/"+planID+"/blocks/"+candidateID); d.Block.Memo != "Ana wins" || !strings.HasPrefix(d.StartTime, "13:00") {
			t.Errorf("put back, the block is %s %q, want it as it was: 13:00 \"Ana wins\"", d.StartTime, d.Block.Memo)
		}
	})
}
