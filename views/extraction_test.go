package views

import (
	"strings"
	"testing"
	"time"
)

// The panel in Korean: places the writer skipped or passed are unticked with why and the
// sentence, the others ticked; the names the search did not find each have their button.
func TestExtractionPanelInKorean(t *testing.T) {
	v := JobView{CollectionID: "c1", ID: "j1", Status: "COMPLETED", Done: true, Title: "서울 주말",
		Places: []JobPlace{
			{SearchResult: SearchResult{PlaceID: "p-palace", Name: "경복궁"}, Mention: "VISITED", Quote: "오전에 경복궁에 갔다.", Ticked: true},
			{SearchResult: SearchResult{PlaceID: "p-tower", Name: "N서울타워"}, Mention: "SKIPPED", Quote: "남산타워는 안 갔다."},
			{SearchResult: SearchResult{PlaceID: "p-station", Name: "서울역"}, Mention: "PASSING", Quote: "서울역에서 환승했다."},
		},
		Unmatched: []UnmatchedName{{Name: "달빛 찻집", Quote: "달빛 찻집은 간판이 없다."}},
	}
	html := renderIn(t, koCtx, ExtractionJob(v))
	mustContain(t, html, `value="p-palace" checked`, "작성자가 건너뜀", "지나가기만 함", "“남산타워는 안 갔다.”",
		"장소 검색에서 찾지 못함", "직접 추가", `hx-post="/collections/c1/extraction-jobs/j1/custom-places"`, "달빛 찻집")
	for _, id := range []string{"p-tower", "p-station"} {
		if strings.Contains(html, `value="`+id+`" checked`) {
			t.Errorf("%s should not be ticked", id)
		}
	}
	mustNotContain(t, html, "Skipped by the writer", "Not found in the place search")
	for name, want := range map[string]string{ // the particle follows the name's last syllable
		"달빛 찻집": "달빛 찻집을 직접 입력한 장소로 추가했어요",
		"소리 카페": "소리 카페를 직접 입력한 장소로 추가했어요",
	} {
		if added := renderIn(t, koCtx, CustomPlaceAdded(name)); !strings.Contains(added, want) {
			t.Errorf("added %s: %s", name, added)
		}
	}
}

// A job that found only names unknown to the search offers them, and no empty checklist.
func TestExtractionPanelWithOnlyUnmatchedNames(t *testing.T) {
	html := renderIn(t, enCtx, ExtractionJob(JobView{CollectionID: "c1", ID: "j1", Status: "COMPLETED", Done: true,
		Unmatched: []UnmatchedName{{Name: "Hanok Teahouse Moon"}}}))
	mustContain(t, html, "Not found in the place search", "Add as custom place", `hx-delete="/collections/c1/extraction-jobs/j1"`)
	mustNotContain(t, html, `extraction-jobs/j1/places"`, "Add the ticked places")
}

// A job in progress says what it is at in words, in both languages, with a progress bar while
// matching; a stage lasting over 5 s says why, from what the stage is (the age is the
// database's measure, given here).
func TestExtractionPanelStages(t *testing.T) {
	job := func(stage string, age time.Duration) JobView {
		return JobView{CollectionID: "c1", ID: "j1", URL: "https://blog.example.com/post?id=1", Status: "EXTRACTING", Stage: stage,
			StageAge: age, Matched: 12, ToMatch: 40}
	}
	for _, tc := range []struct {
		stage    string
		en, ko   string
		slowEn   string
		slowKo   string
		progress bool
	}{
		{"PENDING", "Waiting in line…", "순서를 기다리고 있어요…", "yours is next in line", "곧 차례가 와요", false},
		{"FETCHING", "Fetching blog.example.com…", "blog.example.com에서 페이지를 가져오고 있어요…", "The site is slow to answer.", "사이트의 응답이 느려요.", false},
		{"READING", "Reading the page…", "페이지를 읽고 있어요…", "This page is long.", "페이지가 길어요.", false},
		{"MATCHING", "Matching places: 12 of 40", "장소 맞추는 중: 40개 중 12개", "Matching 40 names takes a moment.", "이름 40개를 맞추느라 시간이 조금 걸려요.", true},
	} {
		en := renderIn(t, enCtx, ExtractionJob(job(tc.stage, 3*time.Second)))
		ko := renderIn(t, koCtx, ExtractionJob(job(tc.stage, 3*time.Second)))
		mustContain(t, en, tc.en, `role="status"`, `aria-live="polite"`, `hx-trigger="every 1s"`)
		mustContain(t, ko, tc.ko)
		mustNotContain(t, en, tc.slowEn, "data-slow")
		if tc.progress {
			mustContain(t, en, `role="progressbar"`, `aria-valuenow="12"`, `aria-valuemax="40"`, `aria-label="Places matched"`, `width="30%"`)
			mustContain(t, ko, `aria-label="맞춘 장소"`)
		} else {
			mustNotContain(t, en, `role="progressbar"`)
		}
		// Five seconds is not yet slow; a moment more is.
		mustNotContain(t, renderIn(t, enCtx, ExtractionJob(job(tc.stage, 5*time.Second))), tc.slowEn)
		mustContain(t, renderIn(t, enCtx, ExtractionJob(job(tc.stage, 5*time.Second+time.Millisecond))), tc.en, tc.slowEn)
		mustContain(t, renderIn(t, koCtx, ExtractionJob(job(tc.stage, 6*time.Second))), tc.ko, tc.slowKo)
	}
	// Waiting to try again says why already: no second reason.
	retry := renderIn(t, enCtx, ExtractionJob(job("RETRY_WAITING", time.Minute)))
	mustContain(t, retry, "The page did not answer; trying again shortly…")
	mustNotContain(t, retry, "data-slow")
	// A job that is done stops asking.
	done := renderIn(t, enCtx, ExtractionJob(JobView{CollectionID: "c1", ID: "j1", Status: "COMPLETED", Stage: "COMPLETED", Done: true, StageAge: time.Minute}))
	mustNotContain(t, done, `hx-trigger="every 1s"`, `role="progressbar"`, "data-slow")
}
