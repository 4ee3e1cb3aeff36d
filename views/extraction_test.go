package views

import (
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
	p := parsed(t, renderIn(t, koCtx, ExtractionJob(v)))
	p.has(`[value="p-palace"][checked]`, `[hx-post="/collections/c1/extraction-jobs/j1/custom-places"]`)
	p.says("작성자가 건너뜀", "지나가기만 함", "“남산타워는 안 갔다.”", "장소 검색에서 찾지 못함", "직접 추가", "달빛 찻집")
	for _, id := range []string{"p-tower", "p-station"} {
		if p.count(`[value="`+id+`"][checked]`) != 0 {
			t.Errorf("%s should not be ticked", id)
		}
	}
	p.nowhere("Skipped by the writer", "Not found in the place search")
	for name, want := range map[string]string{ // the particle follows the name's last syllable
		"달빛 찻집": "달빛 찻집을 직접 입력한 장소로 추가했어요",
		"소리 카페": "소리 카페를 직접 입력한 장소로 추가했어요",
	} {
		parsed(t, renderIn(t, koCtx, CustomPlaceAdded(name))).says(want)
	}
}

// A job that found only names unknown to the search offers them, and no empty checklist.
func TestExtractionPanelWithOnlyUnmatchedNames(t *testing.T) {
	p := parsed(t, renderIn(t, enCtx, ExtractionJob(JobView{CollectionID: "c1", ID: "j1", Status: "COMPLETED", Done: true,
		Unmatched: []UnmatchedName{{Name: "Hanok Teahouse Moon"}}})))
	p.says("Not found in the place search", "Add as custom place")
	p.has(`[hx-delete="/collections/c1/extraction-jobs/j1"]`)
	p.nowhere("extraction-jobs/j1/places", "Add the ticked places")
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
		en := parsed(t, renderIn(t, enCtx, ExtractionJob(job(tc.stage, 3*time.Second))))
		ko := parsed(t, renderIn(t, koCtx, ExtractionJob(job(tc.stage, 3*time.Second))))
		en.says(tc.en)
		en.has(`[role="status"]`, `[aria-live="polite"]`, `[hx-trigger="every 1s"]`)
		ko.says(tc.ko)
		en.nowhere(tc.slowEn)
		en.lacks("[data-slow]")
		if tc.progress {
			en.has(`[role="progressbar"]`, `[aria-valuenow="12"]`, `[aria-valuemax="40"]`, `[aria-label="Places matched"]`, `[width="30%"]`)
			ko.has(`[aria-label="맞춘 장소"]`)
		} else {
			en.lacks(`[role="progressbar"]`)
		}
		// Five seconds is not yet slow; a moment more is.
		parsed(t, renderIn(t, enCtx, ExtractionJob(job(tc.stage, 5*time.Second)))).nowhere(tc.slowEn)
		parsed(t, renderIn(t, enCtx, ExtractionJob(job(tc.stage, 5*time.Second+time.Millisecond)))).says(tc.en, tc.slowEn)
		parsed(t, renderIn(t, koCtx, ExtractionJob(job(tc.stage, 6*time.Second)))).says(tc.ko, tc.slowKo)
	}
	// Waiting to try again says why already: no second reason.
	retry := parsed(t, renderIn(t, enCtx, ExtractionJob(job("RETRY_WAITING", time.Minute))))
	retry.says("The page did not answer; trying again shortly…")
	retry.lacks("[data-slow]")
	// A job that is done stops asking.
	done := parsed(t, renderIn(t, enCtx, ExtractionJob(JobView{CollectionID: "c1", ID: "j1", Status: "COMPLETED", Stage: "COMPLETED", Done: true, StageAge: time.Minute})))
	done.lacks(`[hx-trigger="every 1s"]`, `[role="progressbar"]`, "[data-slow]")
}
