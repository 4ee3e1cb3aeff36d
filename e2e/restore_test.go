package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// On a phone, the plans list's "Restore from backup" takes a file: one that is not a backup is
// said in words next to the field; the plan's own export.json becomes a new plan the browser
// goes to. Nothing is wider than the screen; then the form on a desktop.
func TestRestoreInTheBrowser(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	ana := newBrowser(t, "ana", chromium)
	defer func() {
		if t.Failed() {
			saveArtifacts(t, "", srv, ana)
		}
	}()
	phone.emulate(t, ana)
	devSignIn(t, ana, srv.base, "demo-ana")
	plans := getJSON[struct {
		Contents []struct {
			PlanID string `json:"plan_id"`
		} `json:"contents"`
	}](t, ana, "/plans")
	if len(plans.Contents) == 0 {
		t.Fatal("the demo user has no plan")
	}
	original := plans.Contents[0].PlanID
	backup := eval[string](t, ana, `fetch("/plans/`+original+`/export.json").then(r => r.text())`)
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "seoul.json"), filepath.Join(dir, "places.json")
	if err := os.WriteFile(good, []byte(backup), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"type":"FeatureCollection","features":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}

	ana.do(t, "open /plans", chromedp.Navigate(srv.base+"/plans"))
	ana.click(t, `#restore-form summary`)
	ana.do(t, "choose a file that is no backup", chromedp.SetUploadFiles(chromedp.CSS(`#restore-file`), []string{bad}))
	ana.click(t, `#restore-form button[type="submit"]`)
	ana.waitUntil(t, "the error next to the field", `document.querySelector("#restore-file-error") !== null`)
	if msg := eval[string](t, ana, textOf(`#restore-file-error`)); !strings.Contains(msg, "not a Tripplan plan backup") {
		t.Errorf("the error: %q", msg)
	}
	if !eval[bool](t, ana, fitsWidth) {
		t.Error("the page is wider than the phone")
	}
	screenshot(t, ana, "phone-restore-error", false)

	ana.do(t, "choose the backup", chromedp.SetUploadFiles(chromedp.CSS(`#restore-file`), []string{good}))
	ana.click(t, `#restore-form button[type="submit"]`)
	if id := ana.waitPath(t, `^/plans/([^/]+)$`, "/plans")[0]; id == original {
		t.Errorf("the restore went to the original plan")
	}
	if !eval[bool](t, ana, fitsWidth) {
		t.Error("the restored plan is wider than the phone")
	}

	desktop.emulate(t, ana)
	ana.do(t, "open /plans", chromedp.Navigate(srv.base+"/plans"))
	ana.click(t, `#restore-form summary`)
	if !eval[bool](t, ana, fitsWidth) {
		t.Error("the page is wider than the desktop")
	}
	screenshot(t, ana, "desktop-restore-form", false)
}
