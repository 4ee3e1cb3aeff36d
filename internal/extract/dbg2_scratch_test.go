package extract

import (
	"os"
	"testing"
)

func TestDbg2Scratch(t *testing.T) {
	body, _ := os.ReadFile("testdata/pages/tokyo-video.html")
	d := scan(parseHTML(Page{Body: body, ContentType: "text/html"}))
	t.Logf("%d jsonld", len(d.jsonLD))
	for _, s := range d.jsonLD {
		v := decodeJSONLD(s)
		t.Logf("%T %.200s", v, s)
	}
}
