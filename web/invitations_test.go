package web

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

func (a *testApp) invite(token, path string) shareLinkJSON {
	a.t.Helper()
	res := a.do(req{Method: "POST", Path: path + "/invitations", Token: token})
	var l shareLinkJSON
	if err := json.Unmarshal(res.Body, &l); err != nil || res.Status != http.StatusOK {
		a.t.Fatalf("invite: %d %s", res.Status, res.Body)
	}
	return l
}

func TestInviteLinksJoinLeaveAndRejoin(t *testing.T) {
	a := newTestApp(t)
	ana, ben, eve := a.member("inv-ana", "Ana"), a.member("inv-ben", "Ben"), a.member("inv-eve", "Eve")
	plan := a.createPlan(ana, "Jeju", "2026-09-01", "2026-09-03")
	link := a.invite(ana, "/plans/"+plan.PlanID)
	if link.Type != "PLAN" || link.ReferenceID != plan.PlanID || !strings.HasPrefix(link.URL, a.http.URL+"/invite/") ||
		link.TTL < 7*24*3600-5 || link.TTL > 7*24*3600 || len(strings.TrimPrefix(link.URL, a.http.URL+"/invite/")) < 22 {
		t.Fatalf("link: %+v", link)
	}
	a.do(req{Method: "POST", Path: "/plans/" + plan.PlanID + "/invitations", Token: eve}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
	path := strings.TrimPrefix(link.URL, a.http.URL)

	// Ben opens it: joins as MEMBER and is sent to the plan.
	res := a.do(req{Method: "GET", Path: path, Token: ben})
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/plans/"+plan.PlanID {
		t.Fatalf("open: %d %q", res.Status, res.Header.Get("Location"))
	}
	var g memberGroupJSON[planMemberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: "/plans/" + plan.PlanID + "/members", Token: ben}).Body, &g)
	if len(g.Members) != 2 || g.Me == nil || g.Me.Role != "MEMBER" {
		t.Fatalf("after joining: %+v", g)
	}
	first := g.Me.PlanMemberID
	// Opening it again changes nothing; leaving and rejoining (through /s/) restores the same
	// member id, with the current nickname.
	a.do(req{Method: "GET", Path: path, Token: ben})
	a.do(req{Method: "DELETE", Path: "/plans/" + plan.PlanID + "/members/me", Token: ben})
	a.do(req{Method: "PUT", Path: "/users/me", Token: ben, Body: map[string]string{"nickname": "Benji"}})
	a.do(req{Method: "GET", Path: strings.Replace(path, "/invite/", "/s/", 1), Token: ben})
	json.Unmarshal(a.do(req{Method: "GET", Path: "/plans/" + plan.PlanID + "/members", Token: ben}).Body, &g)
	if len(g.Members) != 2 || g.Me == nil || g.Me.PlanMemberID != first || g.Me.Nickname != "Benji" {
		t.Fatalf("after rejoining: %+v", g)
	}
	var p planJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: "/plans/" + plan.PlanID, Token: ana}).Body, &p)
	if p.MemberCount != 2 {
		t.Fatalf("member count: %d", p.MemberCount)
	}

	// Unknown and expired links: 404 problems for JSON clients, the explanation page for browsers.
	a.do(req{Method: "GET", Path: "/invite/nope", Token: ben}).problem(t, 404, "INVALID_LINK")
	a.mustExec(t, `UPDATE share_links SET expires_at = now() - interval '1 second'`)
	a.do(req{Method: "GET", Path: path}).problem(t, 404, "EXPIRED_LINK")
	res = a.do(req{Method: "GET", Path: path, Header: map[string]string{"Accept": "text/html"}})
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/link-error?error=expired_link" {
		t.Fatalf("expired in a browser: %d %q", res.Status, res.Header.Get("Location"))
	}
	page := a.do(req{Method: "GET", Path: "/link-error?error=expired_link", Header: map[string]string{"Accept": "text/html"}})
	if page.Status != 404 || !strings.Contains(string(page.Body), "has expired") {
		t.Fatalf("link error page: %d", page.Status)
	}
}

func TestGuestCookieJoinsAtSignIn(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("gst-ana", "Ana")
	col := a.createCollection(ana, "Osaka")
	link := a.invite(ana, "/collections/"+col.CollectionID)
	b := browser(t)
	res := a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Client: b, Header: map[string]string{"Accept": "text/html"}})
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/collections/"+col.CollectionID ||
		!strings.Contains(strings.Join(res.Header.Values("Set-Cookie"), ";"), "guest=") {
		t.Fatalf("anonymous open: %d %v", res.Status, res.Header)
	}
	// Signing in with the cookie joins and goes to the collection (through the terms first).
	res = a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: "provider=GOOGLE&provider_id=gst-new&nickname=Newcomer",
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if loc := res.Header.Get("Location"); res.Status != http.StatusSeeOther || loc != "/onboarding/terms?next=%2Fcollections%2F"+col.CollectionID {
		t.Fatalf("sign-in with a held invite: %d %q", res.Status, loc)
	}
	var g memberGroupJSON[memberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: "/collections/" + col.CollectionID + "/members", Token: ana}).Body, &g)
	if len(g.Members) != 2 || g.Members[1].Nickname != "Newcomer" {
		t.Fatalf("members after the guest signed in: %+v", g)
	}
}

func TestInviteButtonsAnswerTheLink(t *testing.T) {
	f := newPlanFixture(t)
	b := f.a.signedInBrowser(t, "pf-ben", "Ben")
	for _, path := range []string{"/plans/" + f.plan.PlanID, "/collections/" + f.collection} {
		if page := f.a.page(t, b, path); !strings.Contains(page, `hx-post="`+path+`/invitations"`) {
			t.Errorf("%s has no invite button", path)
		}
		link := fragment(t, f.a.htmx(b, "POST", path+"/invitations", ""), http.StatusOK)
		if !strings.Contains(link, f.a.http.URL+"/invite/") || !strings.Contains(link, "data-copy") {
			t.Errorf("invite partial: %s", link)
		}
	}
}

func TestGuestsReadButNeverWrite(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	link := a.invite(f.ana, "/plans/"+f.plan.PlanID)
	other := a.createPlan(f.ana, "Other", "2026-10-01", "2026-10-02")
	g := browser(t)
	a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Client: g, Header: map[string]string{"Accept": "text/html"}})
	plan := "/plans/" + f.plan.PlanID
	as := func(method, path string, body any) response {
		return a.do(req{Method: method, Path: path, Client: g, Body: body, Header: map[string]string{"Sec-Fetch-Site": "same-origin"}})
	}

	// Reading: the plan, its members (not authenticated, no "me"), its days and candidates, and the page.
	for _, path := range []string{plan, plan + "/blocks?day=1", plan + "/blocks/" + tb.Candidates[0].BlockID, plan + "/blocks/" + tb.TimeBlockID + "/candidates"} {
		if r := as("GET", path, nil); r.Status != http.StatusOK {
			t.Errorf("guest GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	var members memberGroupJSON[planMemberJSON]
	json.Unmarshal(as("GET", plan+"/members", nil).Body, &members)
	if members.IsAuthenticated || members.Me != nil || len(members.Members) != 2 {
		t.Fatalf("members as a guest: %+v", members)
	}
	page := a.page(t, g, plan)
	if !strings.Contains(page, "Sign in to join") || strings.Contains(page, `data-collection-place-id=`) || strings.Contains(page, `data-add-here=`) ||
		!regexp.MustCompile(`<button type="button" hidden class="[^"]*" title="Delete"`).MatchString(page) {
		t.Fatalf("the guest page is not read-only")
	}

	// Writing, anything members only, and other plans are refused.
	as("POST", plan+"/blocks", map[string]any{"type": "FREE", "day": 2, "start_time": "09:00", "end_time": "10:00"}).problem(t, 403, "GUEST_FORBIDDEN")
	as("DELETE", plan+"/blocks/"+tb.TimeBlockID, nil).problem(t, 403, "GUEST_FORBIDDEN")
	as("PUT", plan, map[string]any{"title": "Hijack", "start_date": "2026-04-01", "end_date": "2026-04-03"}).problem(t, 403, "GUEST_FORBIDDEN")
	as("GET", plan+"/collections", nil).problem(t, 403, "GUEST_FORBIDDEN")
	as("POST", plan+"/invitations", nil).problem(t, 403, "GUEST_FORBIDDEN")
	as("GET", "/plans/"+other.PlanID, nil).problem(t, 403, "FORBIDDEN_NOT_GUEST")
	as("GET", "/collections/"+f.collection, nil).problem(t, 403, "FORBIDDEN_NOT_GUEST")
	as("GET", "/users/me", nil).problem(t, 403, "GUEST_FORBIDDEN")
	var n int
	a.mustGet(t, &n, `SELECT count(*) FROM time_blocks WHERE plan_id = $1`, f.plan.PlanID)
	if n != 1 {
		t.Fatalf("a guest changed the plan: %d time blocks", n)
	}

	// When the link expires, so does the guest's access.
	a.mustExec(t, `UPDATE share_links SET expires_at = now() - interval '1 second'`)
	as("GET", plan, nil).problem(t, 401, "MISSING_TOKEN")
}

func TestMembersDrawer(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	anaB, benB := a.signedInBrowser(t, "pf-ana", "Ana"), a.signedInBrowser(t, "pf-ben", "Ben")
	plan := "/plans/" + f.plan.PlanID
	if page := a.page(t, anaB, plan); !strings.Contains(page, `hx-get="`+plan+`/members"`) || !strings.Contains(page, `id="members-dialog"`) {
		t.Fatal("the plan page has no members drawer")
	}
	asOwner := fragment(t, a.htmx(anaB, "GET", plan+"/members", ""), http.StatusOK)
	if !strings.Contains(asOwner, "Make owner") || !strings.Contains(asOwner, "Remove") || strings.Contains(asOwner, ">Leave<") {
		t.Fatalf("owner's drawer: %s", asOwner)
	}
	asMember := fragment(t, a.htmx(benB, "GET", plan+"/members", ""), http.StatusOK)
	if strings.Contains(asMember, "Make owner") || !strings.Contains(asMember, ">Leave<") {
		t.Fatalf("member's drawer: %s", asMember)
	}
	// Handing over from the drawer: the hx-vals carry the member id; the browser goes back to the plan.
	res := a.htmx(anaB, "PATCH", plan+"/owner", "plan_member_id="+f.planMemberIDs(t)[0])
	if res.Header.Get("HX-Redirect") != plan {
		t.Fatalf("make owner: %d %v %s", res.Status, res.Header, res.Body)
	}
	if !strings.Contains(fragment(t, a.htmx(benB, "GET", plan+"/members", ""), http.StatusOK), "Make owner") {
		t.Fatal("the new owner's drawer")
	}
	if res := a.htmx(anaB, "DELETE", plan+"/members/me", ""); res.Header.Get("HX-Redirect") != "/plans" {
		t.Fatalf("leave: %d %v", res.Status, res.Header)
	}
}
