package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestCollectionsExtractionBudgetAndFormsInKorean asks for the collections list, a collection
// with places, the extraction panel in each state, place search, the budget page with expenses
// and the new-plan and new-collection forms as a Korean browser does: each says its words in
// Korean and none of the English sentences of the collection, extraction, budget and forms
// catalogues is left; without Accept-Language the same pages say what they always said.
func TestCollectionsExtractionBudgetAndFormsInKorean(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	english := englishSentences(t, "collection", "extraction", "budget", "forms")
	ana, ben, eve := a.signedInBrowser(t, "pf-ana", "Ana"), a.signedInBrowser(t, "pf-ben", "Ben"), a.signedInBrowser(t, "pf-eve", "Eve")
	srv, host, _ := pageServer(t)
	col := "/collections/" + f.collection
	plan := "/plans/" + f.plan.PlanID

	// check asks for the answer in Korean and in English (no header) and looks for each language's words.
	check := func(what string, get func(lang string) string, ko, en []string) {
		t.Helper()
		page := get(koreanBrowser)
		says(t, what+" in Korean", page, ko, english)
		page = get("")
		for _, w := range en {
			if !strings.Contains(page, w) {
				t.Errorf("%s in English lacks %q", what, w)
			}
		}
	}
	pageOf := func(b *http.Client, path string) func(string) string {
		return func(lang string) string { return a.answerIn(t, b, false, "GET", path, "", lang, http.StatusOK) }
	}

	check("the collections list", pageOf(ana, "/collections"),
		[]string{"<title>컬렉션 · Tripplan</title>", "친구들과 함께 모으는 장소예요.", "새 컬렉션"},
		[]string{"<title>Collections · Tripplan</title>", "Places you and your friends are gathering, to plan days from.", "New collection"})
	check("an empty collections list", pageOf(eve, "/collections"),
		[]string{"아직 컬렉션이 없어요", "컬렉션 만들기"},
		[]string{"No collections yet", "Start a collection"})

	// Ben's page offers the link form; Ana's shows her job waiting (the queue is not running yet).
	check("the link form", pageOf(ben, col),
		[]string{"장소 찾기", `placeholder="블로그·영상·지도 링크"`},
		[]string{"Find places", `placeholder="Paste a link to a blog post, article, video or map list"`})
	job := f.startJob(t, f.ana, srv.URL+"/seoul")
	check("a collection with places", pageOf(ana, col),
		[]string{"장소 추가", "장소 3곳", "멤버 2명", `Ana</span> 님이 추가`, "최신순", "추가한 사람: 모두", "추가한 사람: Ben", "메모 추가",
			"“Seoul” 컬렉션과 담긴 장소를 모두 삭제할까요?", "경복궁을 이 컬렉션에서 뺄까요?", "순서를 기다리고 있어요…"},
		[]string{"Add a place", "3 places", "2 members", `Added by <span class="font-medium text-slate-700">Ana</span>`, "Newest first",
			"Added by anyone", "Added by Ben", "Add a memo", "Delete “Seoul” and all its places?",
			"Remove Gyeongbokgung Palace from this collection?", "Waiting in line…"})

	a.workJobs(host)
	r := f.waitJob(t, f.ana, job.JobID).Result
	if r == nil || len(r.Places) == 0 {
		t.Fatalf("no result: %+v", r)
	}
	check("the extraction result", pageOf(ana, col),
		[]string{"원문 보기", "작성자: Mina Park", fmt.Sprintf("· 언급된 이름 %d개 중 %d곳을 찾았어요", r.DetectedCount, len(r.Places)), "선택한 장소 추가", "닫기"},
		[]string{"Open the source", "by Mina Park", fmt.Sprintf("· found %d of %d names mentioned", len(r.Places), r.DetectedCount),
			"Add the ticked places", "Dismiss"})
	failed := f.startJob(t, f.ben, srv.URL+"/sourdough")
	if j := f.waitJob(t, f.ben, failed.JobID); j.Status != "FAILED" {
		t.Fatalf("sourdough: %+v", j)
	}
	check("a failed extraction", pageOf(ben, col),
		[]string{"페이지에서 아는 장소를 찾지 못했어요.", "다른 링크로 해 보기"},
		[]string{"No places we know were found on the page.", "Try another link"})

	search := "/places/search?collection_id=" + f.collection + "&query="
	check("search results", func(lang string) string {
		return a.answerIn(t, ana, true, "GET", search+"eiffel", "", lang, http.StatusOK) +
			a.answerIn(t, ana, true, "GET", search+"zzqx", "", lang, http.StatusOK)
	},
		[]string{`data-added-label="추가됨"`, "<span data-label>추가</span>", "“zzqx”에 맞는 장소가 없어요."},
		[]string{`data-added-label="Added"`, "<span data-label>Add</span>", "No places match “zzqx”. Try another spelling, the local name, or the city."})
	check("the search page", pageOf(ana, search+"eiffel"),
		[]string{"<title>장소 검색 · Tripplan</title>", "컬렉션으로 돌아가기"},
		[]string{"<title>Search places · Tripplan</title>", "Back to the collection"})

	// The budget: a decided place (12,000), an undecided block (8,000 or 12,000) and a taxi
	// Ben paid for both (8,000).
	palace := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	f.setItems(t, palace.Candidates[0].BlockID, 12000)
	open := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "12:00", "13:00")))
	open = decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + open.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[2].CollectionPlaceID}}}))
	f.setItems(t, open.Candidates[0].BlockID, 8000)
	f.setItems(t, open.Candidates[1].BlockID, 12000)
	var members memberGroupJSON[planMemberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: plan + "/members", Token: f.ben}).Body, &members)
	if res := a.htmx(ben, "POST", plan+"/expenses", "day=1&expense_item_id=&name=Taxi&cost=8000&paid_by="+members.Me.PlanMemberID); res.Header.Get("HX-Redirect") == "" {
		t.Fatalf("taxi: %d %s", res.Status, res.Body)
	}
	check("the budget page", pageOf(ben, plan+"/budget"),
		[]string{"<title>예산 · Seoul trip · Tripplan</title>", "총비용", "32,000원", "1인당", "여행자 2명", "일자별 지출", "카테고리별 지출", "1일차",
			"1일차 지출", "후보 2곳", "아직 확정한 후보가 없어서", "추가 지출", "항목 수정", "낸 사람", "정산",
			`Ana</span> 님이 <span class="font-medium">Ben</span> 님에게 <span class="font-semibold tabular-nums">4,000원</span> 보내요`,
			"내가 냈어요 · 2명이 똑같이 나눠요", "더 보기", "4,000원 받아야 해요", "송금 완료"},
		[]string{"<title>Budget · Seoul trip · Tripplan</title>", "Total cost", "₩32,000", "Per person", "2 travellers", "Spending per day",
			"Day 1", "Expenses of day 1", "2 candidates", "No candidate is confirmed yet: the budget counts the priciest.", "Extra", "Edit items",
			"Paid by", "Settle up", `Ana</span> pays <span class="font-medium">Ben</span> <span class="font-semibold tabular-nums">₩4,000</span></p>`,
			"You paid · split equally among 2", "More options", "You're owed ₩4,000", "Mark as paid"})

	check("the new-plan form", pageOf(ana, "/plans/new"),
		[]string{"여행지", `placeholder="도시 검색: 서울, 도쿄, Paris…"`, "지도를 이 도시에 맞추고",
			"일정 시간은 이 시간대 기준이에요. 비워 두면 여행지의 시간대(여행지가 없으면 첫 장소의 시간대)를 따라요.</p>"},
		[]string{"Destination", `placeholder="Search a city: Seoul, 도쿄, Paris…"`, "Centres the map, puts the city's places first in search",
			"Left empty, the plan takes the zone of its destination (or of its first place).</p>"})
	check("the new-collection form", pageOf(ana, "/collections/new"),
		[]string{"<title>새 컬렉션 · Tripplan</title>", "이름을 정해 주세요.", `placeholder="서울 맛집 여행"`, "컬렉션 만들기"},
		[]string{"<title>New collection · Tripplan</title>", "Give it a name; you can add places and invite friends next.",
			`placeholder="Seoul food trip"`, "Create collection"})
	check("a refused new collection", func(lang string) string {
		return a.answerIn(t, ana, true, "POST", "/collections", "title=", lang, http.StatusBadRequest)
	},
		[]string{"입력 내용을 확인해 주세요", "제목을 1~50자로 정해 주세요."},
		[]string{"Check the form", "Give it a title of 1 to 50 characters."})
	long := strings.Repeat("가", 51)
	check("a refused rename", func(lang string) string {
		return a.answerIn(t, ana, true, "PUT", col, "title="+url.QueryEscape(long), lang, http.StatusBadRequest)
	},
		[]string{"새 제목", "제목을 50자 이하로 줄여 주세요. 지금 51자예요."},
		[]string{"New title", "Shorten the title to 50 characters or fewer; it has 51."})
}
