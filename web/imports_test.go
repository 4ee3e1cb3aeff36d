package web

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/planner"
)

// multipartFile is a multipart/form-data body with one file part named "file", and its
// content type.
func multipartFile(filename, content string) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile("file", filename)
	if err != nil {
		panic(err)
	}
	part.Write([]byte(content))
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// fileReq posts a file to path as a JSON client does.
func fileReq(path, filename, content string) req {
	body, ct := multipartFile(filename, content)
	return req{Method: "POST", Path: path, Body: body, Header: map[string]string{"Content-Type": ct}}
}

const importGPX = `<?xml version="1.0"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <wpt lat="37.5798" lon="126.9772"><name>Gyeongbokgung Palace</name><desc>Guard change at 10</desc></wpt>
  <wpt lat="37.5744" lon="126.9849"><name>Our guesthouse</name></wpt>
  <wpt lat="37.5" lon="127.0"></wpt>
  <trk><trkseg><trkpt lat="37.56" lon="126.97"><name>a track point</name></trkpt></trkseg></trk>
</gpx>`

// The JSON API: a GPX file's waypoints matched or created, the report row by row, a second
// import finding everything there; limits and unreadable files answer 4xx naming the file;
// nobody but members imports.
func TestImportPlacesAPI(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ana := a.member("imp-ana", "Ana")
	ben := a.member("imp-ben", "Ben")
	col := a.do(req{Method: "POST", Path: "/collections", Token: ana, Body: map[string]any{"title": "Seoul"}})
	var c struct {
		CollectionID string `json:"collection_id"`
	}
	json.Unmarshal(col.Body, &c)
	path := "/collections/" + c.CollectionID + "/imports"

	send := func(token, filename, content string) response {
		t.Helper()
		rq := fileReq(path, filename, content)
		rq.Token = token
		return a.do(rq)
	}
	res := send(ana, "trip.gpx", importGPX)
	if res.Status != http.StatusOK {
		t.Fatalf("import: %d %s", res.Status, res.Body)
	}
	var report importReportJSON
	if err := json.Unmarshal(res.Body, &report); err != nil {
		t.Fatal(err)
	}
	var outcomes []string
	for _, r := range report.Rows {
		outcomes = append(outcomes, r.Outcome)
	}
	type reportShape struct {
		Format                    string
		Outcomes                  []string
		Matched, Created, Skipped int
	}
	if diff := cmp.Diff(reportShape{Format: "GPX", Outcomes: []string{"MATCHED", "CREATED", "NO_NAME"}, Matched: 1, Created: 1, Skipped: 1},
		reportShape{Format: report.Format, Outcomes: outcomes, Matched: report.Matched, Created: report.Created, Skipped: report.Skipped}); diff != "" {
		t.Fatalf("report (-want +got):\n%s", diff)
	}
	list := a.do(req{Method: "GET", Path: "/collections/" + c.CollectionID + "/places", Token: ana})
	if !strings.Contains(string(list.Body), "Gyeongbokgung Palace") || !strings.Contains(string(list.Body), "Our guesthouse") ||
		!strings.Contains(string(list.Body), "Guard change at 10") {
		t.Errorf("the collection's places: %s", list.Body)
	}
	again := send(ana, "trip.gpx", importGPX)
	if !strings.Contains(string(again.Body), `"already_there":2`) {
		t.Errorf("again: %s", again.Body)
	}

	for _, tc := range []struct {
		name, filename, content string
		status                  int
		code                    planner.Code
	}{
		{"not XML", "x.gpx", `<gpx><wpt lat="1" lon="2"><name>x</wpt></gpx>`, http.StatusBadRequest, planner.CodeInvalidRequest},
		{"no header", "x.csv", "just,some\nwords,here\n", http.StatusBadRequest, planner.CodeInvalidRequest},
		{"a picture", "x.png", "\x89PNG\r\n\x1a\n\x00\x00", http.StatusUnsupportedMediaType, planner.CodeUnsupportedMediaType},
		{"501 places", "x.csv", "name,lat,lng\n" + strings.Repeat("P,37.5,127\n", planner.ImportMaxRows+1), http.StatusRequestEntityTooLarge, planner.CodePayloadTooLarge},
		{"over 2 MB", "x.csv", "name,lat,lng\n" + strings.Repeat("x", planner.ImportMaxBytes), http.StatusRequestEntityTooLarge, planner.CodePayloadTooLarge},
	} {
		res := send(ana, tc.filename, tc.content)
		var p struct {
			Code   planner.Code `json:"code"`
			Errors []struct {
				Field string `json:"field"`
			} `json:"errors"`
		}
		json.Unmarshal(res.Body, &p)
		if res.Status != tc.status || p.Code != tc.code || len(p.Errors) != 1 || p.Errors[0].Field != "file" {
			t.Errorf("%s: %d %s", tc.name, res.Status, res.Body)
		}
	}
	// A body far over the limit is refused as it streams in.
	huge := send(ana, "x.csv", strings.Repeat("y", 3<<20))
	if huge.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("3 MB: %d %s", huge.Status, huge.Body)
	}
	// A JSON body instead of a file.
	if res := a.do(req{Method: "POST", Path: path, Token: ana, Body: map[string]any{"file": "x"}}); res.Status != http.StatusUnsupportedMediaType {
		t.Errorf("JSON body: %d %s", res.Status, res.Body)
	}
	if res := send(ben, "trip.gpx", importGPX); res.Status != http.StatusForbidden {
		t.Errorf("a non-member's import: %d %s", res.Status, res.Body)
	}
}

// The page: the collection page offers the file form; htmx posts it as multipart and gets the
// report partial (counts, each row in words, in Korean too) and places-changed; an unreadable
// file's error is a partial naming the field.
func TestImportPlacesPage(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ana := a.signedInBrowser(t, "imp-page-ana", "Ana")
	res := a.do(req{Method: "POST", Path: "/collections", Client: ana, Body: "title=Seoul",
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	loc := res.Header.Get("Location")
	page := a.page(t, ana, loc)
	for _, want := range []string{`hx-post="` + loc + `/imports"`, `hx-encoding="multipart/form-data"`, `name="file" type="file"`,
		`accept=".gpx,.kml,.geojson,.json,.csv,.tsv,.txt"`, `id="import-report"`, "Import places", "data-form-errors"} {
		if !strings.Contains(page, want) {
			t.Errorf("the collection page lacks %s", want)
		}
	}
	upload := func(content, lang string) response {
		body, ct := multipartFile("saved.csv", content)
		return a.do(req{Method: "POST", Path: loc + "/imports", Client: ana, Body: body, Header: map[string]string{
			"Content-Type": ct, "Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin", "Accept-Language": lang}})
	}
	csv := "Title,Note,URL\nGyeongbokgung Palace,,https://www.google.com/maps/search/37.5796,126.977\n" +
		"Nowhere Cafe,,https://www.google.com/maps/place/Nowhere+Cafe/data=!4m2!3m1!1s0x0:0x1\n"
	r := upload(csv, "en")
	body := fragment(t, r, http.StatusOK)
	for _, want := range []string{"What the import did", `data-count="matched">1<`, `data-count="skipped">1<`,
		"Gyeongbokgung Palace", "Skipped: no coordinates, and no place of this name was found", `data-outcome="MATCHED"`,
		`id="place-count" hx-swap-oob="true">1 place<`} {
		if !strings.Contains(body, want) {
			t.Errorf("report lacks %s: %s", want, body)
		}
	}
	if r.Header.Get("HX-Trigger") != "places-changed" {
		t.Errorf("HX-Trigger %q", r.Header.Get("HX-Trigger"))
	}
	if card := fragment(t, a.htmx(ana, "GET", loc+"/places", ""), http.StatusOK); !strings.Contains(card, "Gyeongbokgung Palace") {
		t.Errorf("the list after the import: %s", card)
	}
	// In Korean once Ana's setting says so; the same file again finds everything there.
	if res := a.do(req{Method: "PUT", Path: "/users/me", Client: ana, Body: map[string]any{"nickname": "Ana", "language": "ko"},
		Header: map[string]string{"Sec-Fetch-Site": "same-origin"}}); res.Status >= 300 {
		t.Fatalf("language: %d %s", res.Status, res.Body)
	}
	ko := fragment(t, upload(csv, "ko"), http.StatusOK)
	if !strings.Contains(ko, "가져온 결과") || !strings.Contains(ko, "이미 컬렉션에 있음") || strings.Contains(ko, "What the import did") {
		t.Errorf("Korean report: %s", ko)
	}
	// Without JavaScript the form posts itself and the report is a page of its own.
	body2, ct := multipartFile("saved.csv", csv)
	full := a.do(req{Method: "POST", Path: loc + "/imports", Client: ana, Body: body2, Header: map[string]string{
		"Content-Type": ct, "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if full.Status != http.StatusOK || !strings.Contains(string(full.Body), "<html") || !strings.Contains(string(full.Body), "가져온 결과") ||
		!strings.Contains(string(full.Body), `href="`+loc+`"`) {
		t.Errorf("the page without JavaScript: %d %.300s", full.Status, full.Body)
	}
	bad := upload("nothing to see", "ko")
	if bad.Status != http.StatusBadRequest || !strings.Contains(string(bad.Body), `data-error-field="file"`) {
		t.Errorf("an unreadable file: %d %s", bad.Status, bad.Body)
	}
	if strings.Contains(string(bad.Body), "<html") {
		t.Errorf("the error must be a partial: %.200s", bad.Body)
	}
}
