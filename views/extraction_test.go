package views

import (
	"strings"
	"testing"
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
