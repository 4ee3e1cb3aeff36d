package web

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestNicknameChangeIsCopiedToMemberships(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	for _, bad := range []any{map[string]string{"nickname": "x"}, map[string]string{"nickname": "with space"},
		map[string]string{"nickname": strings.Repeat("가", 11)}, map[string]int{"nickname": 3}} {
		a.do(req{Method: "PUT", Path: "/users/me", Token: f.ben, Body: bad}).problem(t, 400, "INVALID_REQUEST")
	}
	res := a.do(req{Method: "PUT", Path: "/users/me", Token: f.ben, Body: map[string]string{"nickname": "벤지2"}})
	var u userJSON
	if json.Unmarshal(res.Body, &u); res.Status != 200 || u.Nickname != "벤지2" {
		t.Fatalf("update: %d %s", res.Status, res.Body)
	}
	// Ana sees the new nickname beside Ben's block and in the members lists.
	var detail blockDetailJSON
	res = a.do(req{Method: "GET", Path: f.blocks + "/" + tb.Candidates[0].BlockID, Token: f.ana})
	if json.Unmarshal(res.Body, &detail); detail.Block.AddedBy.Nickname != "벤지2" {
		t.Fatalf("added_by after rename: %s", res.Body)
	}
	res = a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/members", Token: f.ana})
	if !strings.Contains(string(res.Body), "벤지2") {
		t.Fatalf("collection members after rename: %s", res.Body)
	}
}

func TestWithdrawal(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	solo := a.createPlan(f.ana, "Only Ana", "2026-08-01", "2026-08-02")
	login := a.login("pf-ana", "Ana") // a second session with its own refresh token

	for _, bad := range []any{map[string]string{}, map[string]string{"reason": " "}, map[string]string{"reason": strings.Repeat("a", 2001)}} {
		a.do(req{Method: "DELETE", Path: "/users/me", Token: f.ana, Body: bad}).problem(t, 400, "INVALID_REQUEST")
	}
	if r := a.do(req{Method: "DELETE", Path: "/users/me", Token: f.ana, Body: map[string]string{"reason": "Trip is over"}}); r.Status != 204 {
		t.Fatalf("withdraw: %d %s", r.Status, r.Body)
	}

	// Seen from Ben: he owns the plan and the collection now, Ana is gone from the members,
	// and her block shows "Withdrawn user".
	var g memberGroupJSON[planMemberJSON]
	res := a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/members", Token: f.ben})
	if json.Unmarshal(res.Body, &g); len(g.Members) != 1 || g.Members[0].Nickname != "Ben" || g.Members[0].Role != "OWNER" {
		t.Fatalf("plan members after withdrawal: %s", res.Body)
	}
	var cg memberGroupJSON[memberJSON]
	res = a.do(req{Method: "GET", Path: "/collections/" + f.collection + "/members", Token: f.ben})
	if json.Unmarshal(res.Body, &cg); len(cg.Members) != 1 || cg.Members[0].Role != "OWNER" {
		t.Fatalf("collection members after withdrawal: %s", res.Body)
	}
	var detail blockDetailJSON
	res = a.do(req{Method: "GET", Path: f.blocks + "/" + tb.Candidates[0].BlockID, Token: f.ben})
	if json.Unmarshal(res.Body, &detail); detail.Block.AddedBy.Nickname != "Withdrawn user" {
		t.Fatalf("added_by after withdrawal: %s", res.Body)
	}
	// The plan only Ana belonged to is gone.
	a.do(req{Method: "GET", Path: "/plans/" + solo.PlanID, Token: f.ben}).problem(t, 404, "PLAN_NOT_FOUND")

	// Her refresh tokens are revoked, and the account cannot sign in again.
	a.do(req{Method: "POST", Path: "/auth/reissue", Body: map[string]string{"refresh_token": login.RefreshToken}}).problem(t, 401, "INVALID_TOKEN")
	a.do(req{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{"provider": "GOOGLE", "provider_id": "pf-ana", "nickname": "Ana"}}).
		problem(t, 403, "USER_WITHDRAWN")
	// Her access tokens are refused (docs/API.md §Limits), not just her user gone.
	a.do(req{Method: "GET", Path: "/users/me", Token: f.ana}).problem(t, 401, "INVALID_TOKEN")
	var email string
	a.mustGet(t, &email, `SELECT email FROM users WHERE provider_id = 'pf-ana'`)
	if email != "" {
		t.Fatalf("a withdrawn user's email is kept: %q", email)
	}
}

func TestWithdrawalDeletesPictures(t *testing.T) {
	a := newTestApp(t)
	ana, bea := a.member("wd-ana", "Ana"), a.member("wd-bea", "Bea")
	picture := a.uploadPicture(t, ana)
	a.uploadPicture(t, bea)
	pending := a.startUpload(t, bea)
	for _, token := range []string{ana, bea} {
		if r := a.do(req{Method: "DELETE", Path: "/users/me", Token: token, Body: map[string]string{"reason": "bye"}}); r.Status != 204 {
			t.Fatalf("withdraw: %d %s", r.Status, r.Body)
		}
	}
	if s := a.fileStatus(t, picture); s != 404 {
		t.Fatalf("a withdrawn user's picture answers %d", s)
	}
	// An upload URL issued before the withdrawal stores nothing.
	uploadTo(t, pending.PresignedURL, "image/png", pngBytes(t)).problem(t, 403, "INVALID_UPLOAD_URL")
	if s := a.fileStatus(t, pending.Picture); s != 404 {
		t.Fatalf("an upload after withdrawal answers %d", s)
	}
}

func TestProfilePageInABrowser(t *testing.T) {
	a := newTestApp(t)
	b := a.signedInBrowser(t, "prof-1", "Mina")
	page := a.page(t, b, "/profile")
	for _, want := range []string{`value="Mina"`, `hx-put="/users/me"`, `hx-delete="/users/me"`, "Delete my account"} {
		if !strings.Contains(page, want) {
			t.Errorf("profile page lacks %s", want)
		}
	}
	if res := a.htmx(b, "PUT", "/users/me", "nickname=Mina2"); res.Header.Get("HX-Redirect") != "/profile" {
		t.Fatalf("nickname form: %d %v %s", res.Status, res.Header, res.Body)
	}
	if !strings.Contains(a.page(t, b, "/profile"), `value="Mina2"`) {
		t.Fatal("the new nickname is not shown")
	}
	res := a.htmx(b, "DELETE", "/users/me", "reason=bye")
	if res.Header.Get("HX-Redirect") != "/" {
		t.Fatalf("delete account: %d %v", res.Status, res.Header)
	}
	// The browser is signed out: its session was deleted.
	res = a.do(req{Method: "GET", Path: "/profile", Client: b, Header: map[string]string{"Accept": "text/html"}})
	if res.Status != 303 && res.Status != 302 {
		t.Fatalf("after deletion the profile page should send to sign-in, got %d", res.Status)
	}
}

func TestOnboardingAsksForANicknameAfterTheTerms(t *testing.T) {
	a := newTestApp(t)
	b := browser(t)
	a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: map[string]string{"provider": "GOOGLE", "provider_id": "onb-1", "nickname": "Newbie"}})
	// The terms form carries next in its body.
	res := a.do(req{Method: "POST", Path: "/onboarding/terms", Client: b, Body: "next=%2Fplans",
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if loc := res.Header.Get("Location"); res.Status != 303 || loc != "/onboarding/nickname?next=%2Fplans" {
		t.Fatalf("after terms: %d %q", res.Status, loc)
	}
	page := a.page(t, b, "/onboarding/nickname?next=%2Fplans")
	if !strings.Contains(page, `value="Newbie"`) || !strings.Contains(page, `hx-put="/users/me?next=/plans"`) {
		t.Fatalf("nickname step: %s", page)
	}
	if res := a.htmx(b, "PUT", "/users/me?next=/plans", "nickname=Voyager"); res.Header.Get("HX-Redirect") != "/plans" {
		t.Fatalf("nickname step submit: %d %v", res.Status, res.Header)
	}
	if res := a.htmx(b, "PUT", "/users/me?next=//evil.example", "nickname=Voyager"); res.Header.Get("HX-Redirect") != "/profile" {
		t.Fatalf("open redirect through next: %v", res.Header.Get("HX-Redirect"))
	}
}

// A user's language (docs/API.md §Languages): set with PUT /users/me, shown on GET /users/me, and
// ahead of Accept-Language in every answer that holds words; null follows the browser again.
func TestLanguageSetting(t *testing.T) {
	a := newTestApp(t)
	token := a.member("lang-1", "민지")
	koHeader := map[string]string{"Accept-Language": "ko-KR,ko;q=0.9"}
	answerLanguage := func(header map[string]string) string {
		res := a.do(req{Method: "GET", Path: "/opinion-tags?category_id=101000", Token: token, Header: header})
		if res.Status != 200 {
			t.Fatalf("opinion tags: %d %s", res.Status, res.Body)
		}
		return res.Header.Get("Content-Language")
	}
	me := func() userJSON {
		var u userJSON
		if res := a.do(req{Method: "GET", Path: "/users/me", Token: token}); json.Unmarshal(res.Body, &u) != nil || res.Status != 200 {
			t.Fatalf("me: %d %s", res.Status, res.Body)
		}
		return u
	}
	if u := me(); u.Language != nil || answerLanguage(koHeader) != "ko" || answerLanguage(nil) != "en" {
		t.Fatalf("no setting: %+v follows the browser", u)
	}
	for _, bad := range []any{map[string]any{}, map[string]any{"language": "fr"}, map[string]any{"language": 1},
		map[string]any{"language": "ko", "nickname": "x"}} {
		a.do(req{Method: "PUT", Path: "/users/me", Token: token, Body: bad}).problem(t, 400, "INVALID_REQUEST")
	}
	res := a.do(req{Method: "PUT", Path: "/users/me", Token: token, Body: map[string]any{"language": "KO"}})
	var u userJSON
	if json.Unmarshal(res.Body, &u); res.Status != 200 || u.Language == nil || *u.Language != "ko" || u.Nickname != "민지" {
		t.Fatalf("set ko: %d %s", res.Status, res.Body)
	}
	if answerLanguage(map[string]string{"Accept-Language": "en"}) != "ko" {
		t.Error("the setting does not come before Accept-Language")
	}
	// Signing in on a browser brings the setting to it, as its language cookie.
	res = a.do(req{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{"provider": "GOOGLE", "provider_id": "lang-1", "nickname": "민지"}})
	if !slices.ContainsFunc(res.Header.Values("Set-Cookie"), func(c string) bool { return strings.HasPrefix(c, "lang=ko;") }) {
		t.Errorf("sign-in sets no language cookie: %q", res.Header.Values("Set-Cookie"))
	}
	// The nickname alone leaves the language; null goes back to the browser's.
	if res := a.do(req{Method: "PUT", Path: "/users/me", Token: token, Body: map[string]any{"nickname": "민지2"}}); res.Status != 200 {
		t.Fatalf("nickname only: %d %s", res.Status, res.Body)
	}
	if u := me(); u.Language == nil || *u.Language != "ko" || u.Nickname != "민지2" {
		t.Fatalf("after a nickname change: %+v", u)
	}
	if res := a.do(req{Method: "PUT", Path: "/users/me", Token: token, Body: map[string]any{"language": nil}}); res.Status != 200 {
		t.Fatalf("language null: %d %s", res.Status, res.Body)
	}
	if u := me(); u.Language != nil || answerLanguage(map[string]string{"Accept-Language": "en"}) != "en" {
		t.Fatalf("after null: %+v", u)
	}
}
