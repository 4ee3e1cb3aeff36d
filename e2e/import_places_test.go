package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// On a phone, a collection's "Import places" takes a file chosen in the file input and shows
// the report under it (a catalog place matched, a custom place created, a line skipped), the
// list of places reloading with them; nothing is wider than the screen. Then on a desktop.
func TestImportPlacesInTheBrowser(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	ana := newBrowser(t, "ana", chromium)
	saveOnFailure(t, srv, ana)
	file := filepath.Join(t.TempDir(), "my-map.kml")
	kml := `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Seoul</name><Folder>
<Placemark><name>Gyeongbokgung Palace</name><Point><coordinates>126.9772,37.5798,0</coordinates></Point></Placemark>
<Placemark><name>Our guesthouse in Bukchon, the one with the blue door and the persimmon tree</name><description>Door code 1234</description><Point><coordinates>126.9849,37.5744,0</coordinates></Point></Placemark>
<Placemark><name>Walk along the stream</name><LineString><coordinates>126.97,37.569,0 126.99,37.569,0</coordinates></LineString></Placemark>
</Folder></Document></kml>`
	if err := os.WriteFile(file, []byte(kml), 0o644); err != nil {
		t.Fatal(err)
	}

	phone.emulate(t, ana)
	devSignIn(t, ana, srv.base, "demo-ana")
	ana.do(t, "open /collections/new", chromedp.Navigate(srv.base+"/collections/new"))
	ana.typeInto(t, `#title`, "Imported")
	ana.click(t, `form[action="/collections"] button[type="submit"]`)
	path := ana.waitPath(t, `^/collections/([^/]+)$`, "/collections/new")[0]
	ana.do(t, "choose the file", chromedp.SetUploadFiles(chromedp.CSS(`#import-file`), []string{file}))
	ana.clickAndAwait(t, `form[hx-post$="/imports"] button[type="submit"]`, "post "+path+"/imports")
	report := eval[string](t, ana, textOf(`[data-import-report]`))
	for _, want := range []string{"What the import did", "Gyeongbokgung Palace", "Added as your own place", "Skipped: a line or an area, not a place"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q: %s", want, report)
		}
	}
	ana.waitUntil(t, "the imported places in the list", `document.querySelectorAll("#place-list [id^=place-]").length === 2`)
	if !eval[bool](t, ana, fitsWidth) {
		t.Error("the page is wider than the phone")
	}
	eval[chromedp.Void](t, ana, `document.querySelector("[data-import-report]").scrollIntoView({behavior: "instant"})`)
	screenshot(t, ana, "phone-import-report", false)

	desktop.emulate(t, ana)
	ana.do(t, "reload", chromedp.Navigate(srv.base+path))
	ana.do(t, "choose the file again", chromedp.SetUploadFiles(chromedp.CSS(`#import-file`), []string{file}))
	ana.clickAndAwait(t, `form[hx-post$="/imports"] button[type="submit"]`, "post "+path+"/imports")
	if got := eval[string](t, ana, textOf(`[data-count="already"]`)); got != "2" {
		t.Errorf("already there: %q", got)
	}
	eval[chromedp.Void](t, ana, `document.querySelector("[data-import-report]").scrollIntoView({behavior: "instant"})`)
	screenshot(t, ana, "desktop-import-report", false)
}
