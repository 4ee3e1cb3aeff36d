package web

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/emersion/go-ical"

	"tripplan/internal/places/placestest"
)

// The exports and the print page speak the requester's language (issue 19): the calendar's
// event descriptions, the GPX's day routes, the print page's words.

// koreanMemo is long enough to be folded over several lines of an iCalendar file, in the
// middle of its three-octet characters.
const koreanMemo = "한복을 입으면 무료로 들어갈 수 있어요. 5번 출구 쪽 광화문으로 들어가서 근정전, 경회루, 향원정 순서로 둘러보고; 수문장 교대식은 오전 10시에 시작해요."

// descriptions are the calendar's event descriptions, after checking that every line of the
// file is at most 75 octets of whole UTF-8 characters (RFC 5545 §3.1) and that the answer is
// in the language lang ("ko" or "en").
func descriptions(t *testing.T, res response, lang string) []string {
	t.Helper()
	if res.Status != 200 || res.Header.Get("Content-Language") != lang {
		t.Fatalf("%d, Content-Language %q, want %q\n%s", res.Status, res.Header.Get("Content-Language"), lang, res.Body)
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(res.Body), "\r\n"), "\r\n") {
		if len(line) > 75 || !utf8.ValidString(line) {
			t.Errorf("line %d: %d octets %q", i+1, len(line), line)
		}
	}
	_, evs := events(t, res.Body)
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i], _ = e.Props.Text(ical.PropDescription)
	}
	return out
}

func TestCalendarInTheRequestersLanguage(t *testing.T) {
	f := newExportFixture(t)
	a := f.a
	decodeBlock(t, f.add(f.ana, map[string]any{"type": "PLACE", "collection_place_id": f.places[0].CollectionPlaceID,
		"day": 3, "start_time": "09:00", "end_time": "10:00", "memo": koreanMemo}))
	path := "/plans/" + f.plan.PlanID + "/export.ics"

	ko := a.do(req{Method: "GET", Path: path, Token: f.ben, Header: map[string]string{"Accept-Language": koreanBrowser}})
	if !strings.Contains(string(ko.Body), "\r\n ") {
		t.Error("no line was folded")
	}
	want := []string{"Hanbok: free entry, gate at exit 5\n\nSeoul trip · 1일차", "Seoul trip · 1일차", "Seoul trip · 2일차",
		koreanMemo + "\n\nSeoul trip · 3일차"}
	if got := descriptions(t, ko, "ko"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Korean descriptions %q, want %q", got, want)
	}
	en := a.do(req{Method: "GET", Path: path, Token: f.ben})
	want = []string{"Hanbok: free entry, gate at exit 5\n\nSeoul trip · Day 1", "Seoul trip · Day 1", "Seoul trip · Day 2",
		koreanMemo + "\n\nSeoul trip · Day 3"}
	if got := descriptions(t, en, "en"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("English descriptions %q, want %q", got, want)
	}

	// The events are named by their places as the reader sees them (places.DisplayName).
	summaries := func(res response) []string {
		_, evs := events(t, res.Body)
		out := make([]string, len(evs))
		for i, e := range evs {
			out[i], _ = e.Props.Text(ical.PropSummary)
		}
		return out
	}
	for _, c := range []struct {
		res  response
		want []string
	}{
		{ko, []string{"경복궁", "N서울타워", "N서울타워", "경복궁"}},
		{en, []string{"Gyeongbokgung Palace", "N Seoul Tower", "N Seoul Tower", "Gyeongbokgung Palace"}},
	} {
		if got := summaries(c.res); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s summaries %q, want %q", c.res.Header.Get("Content-Language"), got, c.want)
		}
	}
}

// A calendar app has no session or cookie: the feed speaks its member's language setting,
// not the plan owner's, else the app's Accept-Language, else English.
func TestCalendarFeedInItsMembersLanguage(t *testing.T) {
	f := newExportFixture(t)
	a := f.a
	var made calendarFeedJSON
	if res := a.do(req{Method: "POST", Path: "/plans/" + f.plan.PlanID + "/calendar-feed", Token: f.ben}); res.Status != 201 {
		t.Fatalf("make: %d %s", res.Status, res.Body)
	} else if err := json.Unmarshal(res.Body, &made); err != nil || made.URL == nil {
		t.Fatalf("make: %v %s", err, res.Body)
	}
	feed := strings.TrimPrefix(*made.URL, a.http.URL)
	setLanguage := func(token string, lang any) {
		t.Helper()
		if res := a.do(req{Method: "PUT", Path: "/users/me", Token: token, Body: map[string]any{"language": lang}}); res.Status != 200 {
			t.Fatalf("language %v: %d %s", lang, res.Status, res.Body)
		}
	}
	day1 := func(res response, lang string) string {
		t.Helper()
		d := descriptions(t, res, lang)
		if len(d) != 3 {
			t.Fatalf("%d events", len(d))
		}
		return d[1]
	}

	setLanguage(f.ana, "ko") // the owner's setting is not the feed's
	if d := day1(a.do(req{Method: "GET", Path: feed}), "en"); d != "Seoul trip · Day 1" {
		t.Errorf("no setting, no Accept-Language: %q", d)
	}
	if d := day1(a.do(req{Method: "GET", Path: feed, Header: map[string]string{"Accept-Language": "ko"}}), "ko"); d != "Seoul trip · 1일차" {
		t.Errorf("a Korean calendar app: %q", d)
	}
	setLanguage(f.ben, "ko")
	if d := day1(a.do(req{Method: "GET", Path: feed}), "ko"); d != "Seoul trip · 1일차" {
		t.Errorf("Ben's setting: %q", d)
	}
	setLanguage(f.ben, "en")
	if d := day1(a.do(req{Method: "GET", Path: feed, Header: map[string]string{"Accept-Language": "ko"}}), "en"); d != "Seoul trip · Day 1" {
		t.Errorf("Ben's English setting over a Korean app: %q", d)
	}
}

func TestGPXInTheRequestersLanguage(t *testing.T) {
	f := newExportFixture(t)
	for _, c := range []struct {
		accept, lang string
		desc         string
		routes       []string
		waypoints    []string // the places as the reader sees them
	}{
		{koreanBrowser, "ko", "2026년 4월 1일 – 4월 3일", []string{"1일차 · 4월 1일 (수)", "2일차 · 4월 2일 (목)"}, []string{"경복궁", "N서울타워"}},
		{"", "en", "Apr 1 – Apr 3, 2026", []string{"Day 1 · Wed 1 Apr", "Day 2 · Thu 2 Apr"}, []string{"Gyeongbokgung Palace", "N Seoul Tower"}},
	} {
		res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/export.gpx", Token: f.ana, Header: map[string]string{"Accept-Language": c.accept}})
		if res.Status != 200 || res.Header.Get("Content-Language") != c.lang {
			t.Fatalf("%s: %d, Content-Language %q", c.lang, res.Status, res.Header.Get("Content-Language"))
		}
		var doc struct {
			Desc string `xml:"metadata>desc"`
			Rte  []struct {
				Name string `xml:"name"`
			} `xml:"rte"`
			Wpt []struct {
				Name string `xml:"name"`
			} `xml:"wpt"`
		}
		if err := xml.Unmarshal(res.Body, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Desc != c.desc || len(doc.Rte) != len(c.routes) {
			t.Fatalf("%s: desc %q, %d routes\n%s", c.lang, doc.Desc, len(doc.Rte), res.Body)
		}
		for i, r := range doc.Rte {
			if r.Name != c.routes[i] {
				t.Errorf("%s: route %d %q, want %q", c.lang, i, r.Name, c.routes[i])
			}
		}
		var waypoints []string
		for _, w := range doc.Wpt {
			waypoints = append(waypoints, w.Name)
		}
		if strings.Join(waypoints, "|") != strings.Join(c.waypoints, "|") {
			t.Errorf("%s: waypoints %q, want %q", c.lang, waypoints, c.waypoints)
		}
	}
}

func TestPrintPageInKorean(t *testing.T) {
	f := newExportFixture(t)
	b := f.a.signedInBrowser(t, "pf-ben", "Ben")
	page := f.a.answerIn(t, b, false, "GET", "/plans/"+f.plan.PlanID+"/print", "", koreanBrowser, 200)
	// Places go by their Korean names (경복궁); 에서 is the same after any name.
	palace, tower := placestest.Shown(t, "ko", "Gyeongbokgung Palace"), placestest.Shown(t, "ko", "N Seoul Tower")
	says(t, "the Korean print page", page,
		[]string{"<html lang=\"ko\"", "여행으로 돌아가기", "인쇄", "2026년 4월 1일 – 4월 3일 · Asia/Seoul 시간 기준", "1일차 · 4월 1일 (수)", "2일차 · 4월 2일 (목)",
			"3일차 · 4월 3일 (금)", "계획한 일정이 없어요.", "오전 10:00–오후 12:00", "Hanbok: free entry, gate at exit 5", "정하는 중",
			"후보: " + tower + " · " + palace, "자유 시간", palace + "에서"},
		append(englishSentences(t, "plan", "shell"), "Day 1", "Free time", "To decide", "One of:", "Gyeongbokgung Palace"))
}

// The plan form's time zone hint names the zone the plan follows now (here its first place's).
func TestPlanFormZoneHintInKorean(t *testing.T) {
	f := newExportFixture(t)
	b := f.a.signedInBrowser(t, "pf-ana", "Ana")
	path := "/plans/" + f.plan.PlanID + "/edit"
	says(t, "the Korean plan form", f.a.answerIn(t, b, false, "GET", path, "", koreanBrowser, 200),
		[]string{"비워 두면 여행지의 시간대(여행지가 없으면 첫 장소의 시간대)를 따라요. 지금은 Asia/Seoul 기준이에요."},
		[]string{"Block times are local to it", "now Asia/Seoul"})
	says(t, "the English plan form", f.a.answerIn(t, b, false, "GET", path, "", "", 200),
		[]string{"Left empty, the plan takes the zone of its destination (or of its first place), now Asia/Seoul."}, nil)
}
