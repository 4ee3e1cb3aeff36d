package static

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"testing/fstest"
)

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:5])
}

// A sheet's relative url()s of files that are there name their hashed names, and the sheet's
// own hash is of the rewritten text; other references stay as written.
func TestBuildHashesAndRewritesSheets(t *testing.T) {
	sheet := `a{background:url(img/pin.png)} b{background:url("img/pin.png")} c{background:url(img/gone.png)} ` +
		`d{background:url(data:image/png;base64,AA==)} e{behavior:url(#default#VML)} f{background:url(/img/pin.png)}`
	a, err := Build(fstest.MapFS{
		"css/site.css":    {Data: []byte(sheet)},
		"css/img/pin.png": {Data: []byte("png")},
		"js/app.js":       {Data: []byte(strings.Repeat("let x = 1;\n", 200))},
		"LICENSE":         {Data: []byte("MIT")},
	})
	if err != nil {
		t.Fatal(err)
	}
	pin := "pin." + hashOf("png") + ".png"
	want := `a{background:url(img/` + pin + `)} b{background:url("img/` + pin + `")} c{background:url(img/gone.png)} ` +
		`d{background:url(data:image/png;base64,AA==)} e{behavior:url(#default#VML)} f{background:url(/img/pin.png)}`
	css, hashed := a.Lookup("css/site." + hashOf(want) + ".css")
	if css == nil || !hashed || string(css.Body) != want || css.Type != "text/css; charset=utf-8" {
		t.Fatalf("sheet: %+v", css)
	}
	if got := a.URL("css/site.css"); got != "/static/css/site."+hashOf(want)+".css" {
		t.Errorf("URL: %s", got)
	}
	if as, hashed := a.Lookup("css/site.css"); as != css || hashed {
		t.Error("the plain name is not the same asset")
	}
	if as, _ := a.Lookup("css/site.0000000000.css"); as != nil {
		t.Error("another hash finds the sheet")
	}
	if got := a.URL("css/nope.css"); got != "/static/css/nope.css" {
		t.Errorf("unknown: %s", got)
	}
	if lic, _ := a.Lookup("LICENSE." + hashOf("MIT")); lic == nil {
		t.Error("a file without an extension gets its hash at the end")
	}
	// Text of 1 KB or more gets both compressed forms; small files and images none.
	js, _ := a.Lookup("js/app.js")
	if br, gz := js.Compressed(); len(br) == 0 || len(gz) == 0 || len(br) >= len(js.Body) {
		t.Errorf("app.js: %d %d of %d", len(br), len(gz), len(js.Body))
	}
	png, _ := a.Lookup("css/img/pin.png")
	if br, gz := png.Compressed(); br != nil || gz != nil {
		t.Error("an image is compressed")
	}
}
