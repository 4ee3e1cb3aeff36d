package web

import (
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestPlanPagesInKorean: with Accept-Language: ko the plans list, the plan page (blocks,
// candidates, opinions, free time, the route's warning), a day partial, the candidate picker,
// the print page and a place page speak Korean, with none of the plan and place catalogues'
// English sentences left; the viewer's own changes are announced in Korean. Without the
// header they are in English as before.
func TestPlanPagesInKorean(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "11:00", "12:00")))
	pending := decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 1, "13:00", "14:00")))
	pending = decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + pending.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[0].CollectionPlaceID}}}))
	f.opine(t, f.ben, pending.Candidates[1].BlockID, map[string]any{"type": "POSITIVE", "tag_ids": []string{"must_see"}, "comment": "가 보자"})
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	const ko = "ko-KR,ko;q=0.9"
	english := englishSentences(t, "plan", "place")
	noEnglish := func(name, page string) {
		t.Helper()
		for _, s := range english {
			if strings.Contains(page, s) || strings.Contains(page, html.EscapeString(s)) {
				t.Errorf("the Korean %s shows %q", name, s)
			}
		}
	}
	has := func(name, page string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(page, w) {
				t.Errorf("the %s lacks %q", name, w)
			}
		}
	}

	// Adding free time on the page says so in Korean.
	added := a.answerIn(t, ana, true, "POST", f.blocks, "type=FREE&day=1&start_time=15:00&end_time=16:00", ko, http.StatusOK)
	has("answer to an add", added, "1일차 오후 3:00–4:00에 자유 시간을 추가했어요")

	list := a.answerIn(t, ana, false, "GET", "/plans", "", ko, http.StatusOK)
	has("plans list", list, "새 여행", "Seoul trip", "2026년 4월 1일 – 4월 3일")
	noEnglish("plans list", list)

	page := a.answerIn(t, ana, false, "GET", plan, "", ko, http.StatusOK)
	has("plan page", page, "1일차", "2일차", "4월 2일 (목)", "1일차 · 4월 1일 (수)", "일정 4개", "장소 추가", "추가할 장소", "자유 시간",
		"오전 10:00–11:00", "오후 1:00–2:00", "후보 2곳", "결정 중", "예정", "오전 9시", "오후 2시", "비어 있음", "멤버 2명",
		"경복궁에서 ", "일정 사이는 0분뿐", "시간이 부족해요", "내보내기", "캘린더 파일 (.ics)",
		`"js.plan.add_here":"여기에 추가"`, `data-start="10:00"`, `data-warning="NOT_ENOUGH_TIME"`)
	noEnglish("plan page", page)

	day := a.answerIn(t, ana, true, "GET", f.blocks+"?size=100&day=1", "", ko, http.StatusOK)
	has("day partial", day, "1일차 · 4월 1일 (수)", "오전 9:00에 추가", "후보 2곳", "동선")
	noEnglish("day partial", day)

	picker := a.answerIn(t, ana, true, "GET", f.blocks+"/"+pending.TimeBlockID+"/candidates", "", ko, http.StatusOK)
	has("candidate picker", picker, "1일차 · 오후 1:00–2:00 · 후보 2곳", "후보 추가", "1 / 2", "Ana 님이 제안", "좋아요", "보통이에요", "별로예요",
		">꼭 가 봐야 해요<", "방금", "가 보자", "의견 남기기", "이유 (선택)", "좋은 점")
	noEnglish("candidate picker", picker)

	print := a.answerIn(t, ana, false, "GET", plan+"/print", "", ko, http.StatusOK)
	has("print page", print, "인쇄", "1일차 · 4월 1일 (수)", "오전 10:00–11:00", "정하는 중", "(미정)", "후보: ", "Asia/Seoul 시간 기준",
		"계획한 일정이 없어요.", "경복궁에서 ")
	noEnglish("print page", print)

	place := a.answerIn(t, ana, false, "GET", "/collections/"+f.collection+"/places/"+f.places[0].CollectionPlaceID, "", ko, http.StatusOK)
	has("place page", place, "컬렉션", "추가한 사람", "지도", ">경복궁</h1>", "data-subtitle>Gyeongbokgung Palace<")
	noEnglish("place page", place)

	// Deleting the free time offers to put it back, in Korean.
	free := regexp.MustCompile(`data-time-block-id="([^"]+)" data-start="15:00"`).FindStringSubmatch(page)
	if free == nil {
		t.Fatal("the free time is not on the plan page")
	}
	deleted := a.answerIn(t, ana, true, "DELETE", f.blocks+"/"+free[1]+"?day=1", "", ko, http.StatusOK)
	has("answer to a delete", deleted, "1일차 오후 3:00–4:00의 자유 시간을 삭제했어요", "되돌리기")

	// Without the header: English, as before.
	page = a.answerIn(t, ana, false, "GET", plan, "", "", http.StatusOK)
	has("English plan page", page, "Day 1", "Day 1 · Wednesday 1 April", "3 blocks", "Add place", "10:00–11:00",
		"2 candidates", "Deciding", "Planned", "13:00", "from Gyeongbokgung Palace, only 0 min between", "Apr 1 – Apr 3, 2026")
	picker = a.answerIn(t, ana, true, "GET", f.blocks+"/"+pending.TimeBlockID+"/candidates", "", "", http.StatusOK)
	has("English picker", picker, "Day 1 · 13:00–14:00 · 2 candidates", "1 of 2", "Proposed by Ana", ">Must-see<", "just now")
	print = a.answerIn(t, ana, false, "GET", plan+"/print", "", "", http.StatusOK)
	has("English print page", print, "Day 1 · Wednesday 1 April", "10:00–11:00", "To decide", "times in Asia/Seoul", "Nothing planned.")
	for name, s := range map[string]string{"plan page": page, "picker": picker, "print page": print} {
		if strings.Contains(s, "일차") || strings.Contains(s, "후보") {
			t.Errorf("the English %s shows Korean", name)
		}
	}
}
