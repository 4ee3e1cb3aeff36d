package web

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// shellAreas are the catalogue areas of the site's shell and its small pages.
var shellAreas = []string{"common", "shell", "auth", "profile", "home", "activity", "errors"}

// inKorean checks that a page (or partial) answered in Korean: Content-Language, each of the
// Korean phrases, and none of the English sentences.
func inKorean(t *testing.T, what string, res response, english []string, korean ...string) {
	t.Helper()
	if res.Status >= 500 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%s: %d %s: %.300s", what, res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	if got := res.Header.Get("Content-Language"); got != "ko" {
		t.Errorf("%s: Content-Language %q, want ko", what, got)
	}
	says(t, what, html.UnescapeString(string(res.Body)), korean, english)
}

var pageAccept = "text/html,application/xhtml+xml,*/*;q=0.8"

// get asks for a page as a browser whose languages are accept.
func (a *testApp) get(b *http.Client, path, accept string) response {
	a.t.Helper()
	return a.do(req{Method: "GET", Path: path, Client: b, Header: map[string]string{"Accept": pageAccept, "Accept-Language": accept}})
}

// chooseLanguage sends the language switch's form as the browser does.
func (a *testApp) chooseLanguage(b *http.Client, language, next string) response {
	a.t.Helper()
	form := url.Values{"language": {language}, "next": {next}}.Encode()
	return a.do(req{Method: "POST", Path: "/language", Client: b, Body: form, Header: map[string]string{"Accept": pageAccept,
		"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}})
}

const korean = "ko-KR,ko;q=0.9,en-US;q=0.8"

// The shell and the small pages in Korean, for a browser asking for Korean: every page's
// words come from the Korean catalogue (none of the English sentences is left), with the
// particles right in the sentences of notifications and histories; <html lang> follows. Without
// Accept-Language the same pages are English as before.
func TestShellPagesInKorean(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	english := englishSentences(t, shellAreas...)
	minji, junhyuk := a.member("ko-minji", "민지"), a.member("ko-junhyuk", "준혁")
	col := a.createCollection(minji, "서울 맛집")
	a.joinCollection(col.CollectionID, "ko-junhyuk")
	palace := a.addPlace(minji, col.CollectionID, a.placeID(minji, "경복궁"))
	plan := a.createPlan(minji, "서울 여행", "2026-11-27", "2026-11-29")
	a.joinPlan(plan.PlanID, "ko-junhyuk")
	a.mustDo(t, req{Method: "POST", Path: "/plans/" + plan.PlanID + "/collections", Token: minji,
		Body: map[string]any{"collection_ids": []string{col.CollectionID}}}, http.StatusCreated)
	a.mustDo(t, req{Method: "POST", Path: "/plans/" + plan.PlanID + "/blocks", Token: junhyuk,
		Body: placeBlock(palace.CollectionPlaceID, 1, "10:00", "11:30")}, http.StatusOK)

	b := a.signedInBrowser(t, "ko-minji", "민지")
	home := a.get(b, "/home", korean)
	inKorean(t, "home", home, english, `<html lang="ko"`, "민지 님, 안녕하세요", "나와 친구들이 계획 중인 여행이에요.",
		"2026년 11월 27일 – 11월 29일", "멤버 2명", "장소 1곳", "본문으로 건너뛰기", "로그인 계정", ">한국어</span>", ">English</span>")
	inKorean(t, "profile", a.get(b, "/profile", korean), english, "Google 계정으로 로그인", "사진 고르기", "닉네임 저장",
		"계정 삭제하기", "어느 기기에서 로그인해도")
	inKorean(t, "notifications", a.get(b, "/notifications", korean), english,
		"준혁이 서울 여행 1일차 오전 10:00에 경복궁을 추가했어요", "모두 읽음")
	panel := a.do(req{Method: "GET", Path: "/plans/" + plan.PlanID + "/activity", Client: b,
		Header: map[string]string{"Accept": "text/html", "HX-Request": "true", "Accept-Language": korean}})
	inKorean(t, "the plan's activity panel", panel, english, "활동 기록", "준혁이 1일차 오전 10:00에 경복궁을 추가했어요")
	inKorean(t, "nickname step", a.get(b, "/onboarding/nickname", korean), english, "친구들이 뭐라고 부르면 될까요?", "“민지” 그대로 쓰기")
	notFound := a.get(b, "/no/such/page", korean)
	if notFound.Status != http.StatusNotFound {
		t.Fatalf("404: %d", notFound.Status)
	}
	inKorean(t, "404", notFound, english, `<html lang="ko"`, "찾을 수 없어요", "홈으로 돌아가기")
	inKorean(t, "link error", a.get(b, "/link-error?error=expired_link", korean), english, "초대 링크가 만료됐어요")

	guest := browser(t)
	inKorean(t, "landing", a.get(guest, "/", korean), english, "단톡방 말고 <span class=\"text-brand-600\">함께</span> 여행을 계획해요.", "장소 모으기")
	inKorean(t, "sign-in", a.get(guest, "/login", korean), english, "Tripplan에 로그인", "개발자 로그인", "Ana 님으로 로그인 (데모)")
	newcomer := browser(t)
	a.mustDo(t, req{Method: "POST", Path: "/dev/auth/login", Client: newcomer, Body: map[string]string{
		"provider": "GOOGLE", "provider_id": "ko-newcomer", "nickname": "하늘"}}, http.StatusOK)
	inKorean(t, "terms", a.get(newcomer, "/onboarding/terms", korean), english, "하늘 님, 환영해요!", "동의하고 계속하기")

	// The JSON API speaks the reader's language too: the notification and the history.
	res := a.mustDo(t, req{Method: "GET", Path: "/notifications", Token: minji, Header: map[string]string{"Accept-Language": korean}}, http.StatusOK)
	var notes pageJSON[notificationJSON]
	if err := json.Unmarshal(res.Body, &notes); err != nil || len(notes.Contents) != 1 || res.Header.Get("Content-Language") != "ko" ||
		notes.Contents[0].Message != "준혁이 서울 여행 1일차 오전 10:00에 경복궁을 추가했어요" {
		t.Errorf("notifications in Korean: %s %s", res.Header.Get("Content-Language"), res.Body)
	}
	res = a.mustDo(t, req{Method: "GET", Path: "/plans/" + plan.PlanID + "/activity", Token: minji,
		Header: map[string]string{"Accept-Language": korean}}, http.StatusOK)
	var hist pageJSON[activityJSON[planMemberJSON]]
	if err := json.Unmarshal(res.Body, &hist); err != nil || len(hist.Contents) == 0 || res.Header.Get("Content-Language") != "ko" ||
		hist.Contents[0].Summary != "준혁이 1일차 오전 10:00에 경복궁을 추가했어요" {
		t.Errorf("history in Korean: %s %s", res.Header.Get("Content-Language"), res.Body)
	}

	// No Accept-Language: English, as before.
	en := a.get(b, "/home", "")
	body := string(en.Body)
	for _, want := range []string{`<html lang="en"`, "Hi, 민지", "Here’s what you and your friends are planning.", "Nov 27 – Nov 29, 2026",
		"2 members", "1 place", "Skip to content"} {
		if !strings.Contains(body, want) {
			t.Errorf("English home lacks %q", want)
		}
	}
	if en.Header.Get("Content-Language") != "en" || strings.Contains(body, "안녕하세요") {
		t.Errorf("English home: Content-Language %q", en.Header.Get("Content-Language"))
	}
}

// The language switch: a plain form posted to /language sets the browser's cookie and, for a
// signed-in user, the setting kept with the account, which then wins over Accept-Language and
// the cookie on every browser they use; then it goes back to the page it came from.
func TestLanguageSwitch(t *testing.T) {
	a := newTestApp(t)
	token := a.member("sw-minji", "민지")
	b := a.signedInBrowser(t, "sw-minji", "민지")

	// Every page's header has it (the desktop dropdown and the phone menu), and the profile too:
	// each language named in itself, the page's own marked, coming back to the page.
	home := string(a.get(b, "/home?x=1", "en").Body)
	for _, want := range []string{`<form method="post" action="/language"`, `<input type="hidden" name="next" value="/home?x=1">`,
		`value="ko" lang="ko"`, `>한국어</span>`, `value="en" lang="en"`, `aria-current="true"`} {
		if !strings.Contains(home, want) {
			t.Errorf("home lacks %q", want)
		}
	}
	if n := strings.Count(home, `action="/language"`); n != 2 {
		t.Errorf("%d language switches on the home page, want the header's and the phone menu's", n)
	}
	if n := strings.Count(string(a.get(b, "/profile", "en").Body), `action="/language"`); n != 3 {
		t.Errorf("%d language switches on the profile page, want the header's, the phone menu's and the profile's", n)
	}

	res := a.chooseLanguage(b, "ko", "/notifications?page=1")
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/notifications?page=1" ||
		!strings.Contains(strings.Join(res.Header.Values("Set-Cookie"), "\n"), "lang=ko") {
		t.Fatalf("switch to Korean: %d Location %q Set-Cookie %q", res.Status, res.Header.Get("Location"), res.Header.Values("Set-Cookie"))
	}
	if l := a.me(t, token).Language; l == nil || *l != "ko" {
		t.Fatalf("the setting after the switch: %v", l)
	}
	koreanPage := func(what string, res response) {
		t.Helper()
		if body := string(res.Body); !strings.Contains(body, `<html lang="ko"`) || !strings.Contains(body, "민지 님, 안녕하세요") {
			t.Errorf("%s: not in Korean: %.300s", what, body)
		}
	}
	koreanPage("the next page, though the browser asks for English", a.get(b, "/home", "en-US,en;q=0.9"))
	// Another browser of the same user, without the cookie, asking for English.
	other := a.signedInBrowser(t, "sw-minji", "민지")
	koreanPage("another browser", a.get(other, "/home", "en"))

	// Back to English from there: the setting wins over this browser's cookie and Accept-Language.
	if res := a.chooseLanguage(other, "en", "/profile"); res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/profile" {
		t.Fatalf("switch to English: %d %q", res.Status, res.Header.Get("Location"))
	}
	if l := a.me(t, token).Language; l == nil || *l != "en" {
		t.Fatalf("the setting after switching back: %v", l)
	}
	if body := string(a.get(b, "/home", korean).Body); !strings.Contains(body, `<html lang="en"`) || !strings.Contains(body, "Hi, 민지") {
		t.Errorf("the first browser (cookie ko, asking for Korean) should follow the setting, English: %.300s", body)
	}

	// A guest's choice is the cookie alone; the next page follows it.
	guest := browser(t)
	if res := a.chooseLanguage(guest, "ko", "/login?next=%2Fplans"); res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/login?next=%2Fplans" {
		t.Fatalf("a guest's switch: %d %q", res.Status, res.Header.Get("Location"))
	}
	if body := string(a.get(guest, "/login", "").Body); !strings.Contains(body, `<html lang="ko"`) || !strings.Contains(body, "Tripplan에 로그인") {
		t.Errorf("the guest's next page is not in Korean: %.300s", body)
	}

	// Not a language, somewhere else, or from another site: refused or kept home.
	if res := a.chooseLanguage(guest, "fr", "/login"); res.Status != http.StatusBadRequest || res.Header.Get("Set-Cookie") != "" {
		t.Errorf("language fr: %d %q", res.Status, res.Header.Values("Set-Cookie"))
	}
	if res := a.chooseLanguage(guest, "en", "//evil.example/x"); res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/" {
		t.Errorf("a next elsewhere: %d %q", res.Status, res.Header.Get("Location"))
	}
	res = a.do(req{Method: "POST", Path: "/language", Client: b, Body: "language=ko&next=%2F", Header: map[string]string{
		"Accept": pageAccept, "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"}})
	if res.Status != http.StatusForbidden || res.Header.Get("Set-Cookie") != "" {
		t.Errorf("a cross-site switch: %d %q", res.Status, res.Header.Values("Set-Cookie"))
	}
	if l := a.me(t, token).Language; l == nil || *l != "en" {
		t.Errorf("the setting after a refused switch: %v", l)
	}
}
