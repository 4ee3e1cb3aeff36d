package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestDebugScratch(t *testing.T) {
	name := os.Getenv("PAGE")
	if name == "" {
		t.Skip()
	}
	var f struct {
		URL         string `json:"url"`
		ContentType string `json:"content_type"`
	}
	data, _ := os.ReadFile("testdata/pages/" + name + ".json")
	json.Unmarshal(data, &f)
	bodies, _ := filepath.Glob("testdata/pages/" + name + ".*")
	var body []byte
	for _, b := range bodies {
		if filepath.Ext(b) != ".json" {
			body, _ = os.ReadFile(b)
		}
	}
	a, err := Analyze(Page{URL: f.URL, ContentType: f.ContentType, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("type %s title %q author %q city %q cities %v\nsummary %q", a.MediaType, a.Title, a.Author, a.City, a.Cities, a.Summary)
	for _, c := range a.Candidates {
		t.Logf("%v %q %q %s,%s", c.Guess, c.Name, c.Address, c.Latitude, c.Longitude)
	}
}
