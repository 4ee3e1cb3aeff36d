package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tripplan/internal/planner"
)

// problemIn asks as the token's user with Accept-Language lang, checks the answer is the
// problem with the status and code and names the language want in Content-Language, and
// answers the problem.
func (a *testApp) problemIn(t *testing.T, rq req, lang, want string, status int, code string) map[string]any {
	t.Helper()
	if rq.Header == nil {
		rq.Header = map[string]string{}
	}
	if lang != "" {
		rq.Header["Accept-Language"] = lang
	}
	res := a.do(rq)
	p := res.problem(t, status, code)
	if got := res.Header.Get("Content-Language"); got != want {
		t.Errorf("%s %s (%q): Content-Language %q, want %q", rq.Method, rq.Path, lang, got, want)
	}
	return p
}

// reasons are a problem's errors[] as field → reason.
func reasons(t *testing.T, p map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	errs, _ := p["errors"].([]any)
	for _, e := range errs {
		m, _ := e.(map[string]any)
		field, _ := m["field"].(string)
		reason, _ := m["reason"].(string)
		out[field] = reason
	}
	return out
}

// Problems speak the request's language (docs/API.md §Languages): the detail and each field's
// reason, while codes, fields and statuses stay as they are; every problem names its
// language in Content-Language.
func TestProblemsSpeakTheRequestsLanguage(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("pr-ana", "Ana")
	plan := a.createPlan(ana, "Seoul", "2026-04-01", "2026-04-03")
	blocks := "/plans/" + plan.PlanID + "/blocks"
	dayForty := req{Method: "POST", Path: blocks, Token: ana, Body: map[string]any{"type": "FREE", "day": 40, "start_time": "09:00", "end_time": "10:00"}}

	ko := a.problemIn(t, dayForty, koreanBrowser, "ko", http.StatusBadRequest, "INVALID_REQUEST")
	if ko["detail"] != "요청에 잘못된 항목이 있어요." {
		t.Errorf("Korean detail: %v", ko["detail"])
	}
	if r := reasons(t, ko); len(r) != 1 || r["day"] != "1에서 30 사이여야 해요" {
		t.Errorf("Korean reasons: %v", ko["errors"])
	}
	en := a.problemIn(t, dayForty, "en-US,en;q=0.9", "en", http.StatusBadRequest, "INVALID_REQUEST")
	if en["detail"] != "The request has invalid fields." {
		t.Errorf("English detail: %v", en["detail"])
	}
	if r := reasons(t, en); len(r) != 1 || r["day"] != "must be between 1 and 30" {
		t.Errorf("English reasons: %v", en["errors"])
	}
	// No Accept-Language is English, named as such.
	a.problemIn(t, dayForty, "", "en", http.StatusBadRequest, "INVALID_REQUEST")

	// A detail and a reason made with a number keep it in Korean.
	badDates := req{Method: "POST", Path: "/plans", Token: ana, Body: map[string]string{"title": "Back", "start_date": "2026-05-04", "end_date": "2026-05-01"}}
	p := a.problemIn(t, badDates, koreanBrowser, "ko", http.StatusBadRequest, "INVALID_DATE_RANGE")
	if want := fmt.Sprintf("끝나는 날은 시작하는 날보다 앞설 수 없고, 여행은 최대 %d일까지예요.", planner.MaxPlanDays); p["detail"] != want {
		t.Errorf("Korean date range: %v, want %q", p["detail"], want)
	}
	p = a.problemIn(t, badDates, "en", "en", http.StatusBadRequest, "INVALID_DATE_RANGE")
	if want := fmt.Sprintf("The end date must not be before the start date, and a plan lasts at most %d days.", planner.MaxPlanDays); p["detail"] != want {
		t.Errorf("English date range: %v, want %q", p["detail"], want)
	}
	ids := make([]string, planner.LinkCollectionsMax+1)
	for i := range ids {
		ids[i] = fmt.Sprintf("c%020d", i)
	}
	tooMany := req{Method: "POST", Path: "/plans/" + plan.PlanID + "/collections", Token: ana, Body: map[string]any{"collection_ids": ids}}
	p = a.problemIn(t, tooMany, koreanBrowser, "ko", http.StatusBadRequest, "INVALID_REQUEST")
	if r := reasons(t, p); r["collection_ids"] != fmt.Sprintf("컬렉션은 최대 %d개까지예요", planner.LinkCollectionsMax) {
		t.Errorf("Korean reason with a number: %v", p["errors"])
	}

	// A domain error of the store, with its extra members as they are.
	a.mustDo(t, req{Method: "POST", Path: blocks, Token: ana, Body: map[string]any{"type": "FREE", "day": 1, "start_time": "09:00", "end_time": "11:00"}}, http.StatusOK)
	overlap := req{Method: "POST", Path: blocks, Token: ana, Body: map[string]any{"type": "FREE", "day": 1, "start_time": "10:00", "end_time": "12:00"}}
	p = a.problemIn(t, overlap, koreanBrowser, "ko", http.StatusConflict, "TIME_BLOCK_OVERLAP")
	if p["detail"] != "그날의 다른 일정과 시간이 겹쳐요." || p["conflicting_time_block_id"] == nil {
		t.Errorf("Korean overlap: %v", p)
	}
	p = a.problemIn(t, overlap, "en", "en", http.StatusConflict, "TIME_BLOCK_OVERLAP")
	if p["detail"] != "The time overlaps another block of the day." {
		t.Errorf("English overlap: %v", p["detail"])
	}
	noPlan := req{Method: "GET", Path: "/plans/" + strings.Repeat("A", 21), Token: ana}
	if p := a.problemIn(t, noPlan, koreanBrowser, "ko", http.StatusNotFound, "PLAN_NOT_FOUND"); p["detail"] != "그런 여행이 없어요." {
		t.Errorf("Korean not found: %v", p["detail"])
	}

	// A problem met before the request was given its language (the body limit) speaks it too.
	big := `{"provider":"GOOGLE","provider_id":"` + strings.Repeat("x", 2<<20) + `"}`
	if p := a.problemIn(t, req{Method: "POST", Path: "/dev/auth/login", Body: big}, koreanBrowser, "ko", http.StatusRequestEntityTooLarge,
		"PAYLOAD_TOO_LARGE"); p["detail"] != "보낸 내용이 너무 커요." {
		t.Errorf("Korean body limit: %v", p["detail"])
	}

	// A signed-in user's setting speaks whatever the browser asks for.
	a.mustDo(t, req{Method: "PUT", Path: "/users/me", Token: ana, Body: map[string]any{"language": "ko"}}, http.StatusOK)
	p = a.problemIn(t, dayForty, "en-US,en;q=0.9", "ko", http.StatusBadRequest, "INVALID_REQUEST")
	if r := reasons(t, p); p["detail"] != "요청에 잘못된 항목이 있어요." || r["day"] != "1에서 30 사이여야 해요" {
		t.Errorf("the user's setting: %v", p)
	}
	if p := a.problemIn(t, noPlan, "en", "ko", http.StatusNotFound, "PLAN_NOT_FOUND"); p["detail"] != "그런 여행이 없어요." {
		t.Errorf("the user's setting, not found: %v", p["detail"])
	}
}

// Pages and htmx partials say a problem in the page's language: the detail, and each field's
// reason next to its field.
func TestErrorPagesAndPartialsSpeakTheRequestsLanguage(t *testing.T) {
	a := newTestApp(t)
	b := browser(t)
	english := englishSentences(t, "errors")
	partial := a.answerIn(t, b, true, "POST", "/language", "language=fr&next=/", koreanBrowser, http.StatusBadRequest)
	says(t, "the Korean partial", partial, []string{`data-error-field="language"`, `Language: "ko"나 "en" 중 하나여야 해요.`}, english)
	partial = a.answerIn(t, b, true, "POST", "/language", "language=fr&next=/", "en", http.StatusBadRequest)
	says(t, "the English partial", partial, []string{`data-error-field="language"`, `Language must be "ko" or "en".`}, nil)

	signedIn := a.signedInBrowser(t, "pr-page", "Page")
	page := a.answerIn(t, signedIn, false, "GET", "/plans/"+strings.Repeat("A", 21), "", koreanBrowser, http.StatusNotFound)
	says(t, "the Korean page", page, []string{"그런 여행이 없어요."}, append(english, "No such plan."))
}
