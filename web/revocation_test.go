package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sharedKinds are the two things links open: a plan and a collection, each with the name of
// its member id field.
type sharedKind struct {
	name, idField string
	make          func(a *testApp, token string) string // makes one, answers its path
}

var sharedKinds = []sharedKind{
	{"plan", "plan_member_id", func(a *testApp, token string) string {
		return "/plans/" + a.createPlan(token, "Busan", "2026-09-01", "2026-09-03").PlanID
	}},
	{"collection", "collection_member_id", func(a *testApp, token string) string {
		return "/collections/" + a.createCollection(token, "Busan").CollectionID
	}},
}

// linkPath is the path of an invite link, /invite/{code}.
func (a *testApp) linkPath(l shareLinkJSON) string { return strings.TrimPrefix(l.URL, a.http.URL) }

// linkCode is the code of an invite link.
func linkCode(l shareLinkJSON) string { return l.URL[strings.LastIndex(l.URL, "/")+1:] }

// myMemberID is the caller's member id in the plan or collection at base.
func (a *testApp) myMemberID(t *testing.T, token, base, idField string) string {
	t.Helper()
	res := a.do(req{Method: "GET", Path: base + "/members", Token: token})
	me, _ := res.json(t)["me"].(map[string]any)
	if res.Status != http.StatusOK || me == nil {
		t.Fatalf("members of %s: %d %s", base, res.Status, res.Body)
	}
	return me[idField].(string)
}

// joins opens a link signed in, as a member would, expecting to land on base.
func (a *testApp) joins(t *testing.T, token, path, base string) {
	t.Helper()
	if res := a.do(req{Method: "GET", Path: path, Token: token}); res.Status != http.StatusFound || res.Header.Get("Location") != base {
		t.Fatalf("open %s: %d %q %s", path, res.Status, res.Header.Get("Location"), res.Body)
	}
}

func TestRemovedMembersCannotRejoinUntilLetBack(t *testing.T) {
	a := newTestApp(t)
	ana, ben, cy := a.member("rm-ana", "Ana"), a.member("rm-ben", "Ben"), a.member("rm-cy", "Cy")
	benBrowser := a.signedInBrowser(t, "rm-ben", "Ben")
	for _, k := range sharedKinds {
		t.Run(k.name, func(t *testing.T) {
			base := k.make(a, ana)
			first := a.invite(ana, base)
			a.joins(t, ben, a.linkPath(first), base)
			a.joins(t, cy, a.linkPath(first), base)
			benID, cyID := a.myMemberID(t, ben, base, k.idField), a.myMemberID(t, cy, base, k.idField)

			// The owner removes Ben: no link lets him back, neither the one he used nor a new
			// one, through /invite/ or /s/.
			if res := a.do(req{Method: "DELETE", Path: base + "/members/" + benID, Token: ana}); res.Status != http.StatusNoContent {
				t.Fatalf("remove: %d %s", res.Status, res.Body)
			}
			second := a.invite(ana, base)
			a.do(req{Method: "GET", Path: a.linkPath(first), Token: ben}).problem(t, 403, "MEMBER_REMOVED")
			a.do(req{Method: "GET", Path: strings.Replace(a.linkPath(second), "/invite/", "/s/", 1), Token: ben}).problem(t, 403, "MEMBER_REMOVED")
			a.do(req{Method: "GET", Path: base, Token: ben}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
			// A browser is told so in plain words.
			res := a.do(req{Method: "GET", Path: a.linkPath(second), Client: benBrowser, Header: map[string]string{"Accept": "text/html"}})
			if loc := res.Header.Get("Location"); res.Status != http.StatusFound || loc != "/link-error?error=member_removed" {
				t.Fatalf("removed member's browser: %d %q", res.Status, loc)
			}
			page := a.do(req{Method: "GET", Path: "/link-error?error=member_removed", Client: benBrowser, Header: map[string]string{"Accept": "text/html"}})
			if body := string(page.Body); page.Status != http.StatusForbidden || !strings.Contains(body, "You were removed") ||
				!strings.Contains(body, "Let back in") {
				t.Fatalf("the removed member's page: %d %s", page.Status, body)
			}
			// Signing in while holding the link as a guest does not let him in either.
			held := a.guestOf(t, second)
			res = a.do(req{Method: "POST", Path: "/dev/auth/login", Client: held, Body: "provider=GOOGLE&provider_id=rm-ben&nickname=Ben",
				Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
			if loc := res.Header.Get("Location"); res.Status != http.StatusSeeOther || loc != "/link-error?error=member_removed" {
				t.Fatalf("a removed member signing in with the link held: %d %q", res.Status, loc)
			}
			a.do(req{Method: "GET", Path: base, Token: ben}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")

			// Cy leaves by herself: that bans nothing; she comes back through the same link as
			// the same member.
			if res := a.do(req{Method: "DELETE", Path: base + "/members/me", Token: cy}); res.Status != http.StatusNoContent {
				t.Fatalf("leave: %d %s", res.Status, res.Body)
			}
			a.joins(t, cy, a.linkPath(first), base)
			if id := a.myMemberID(t, cy, base, k.idField); id != cyID {
				t.Fatalf("Cy came back as %s, was %s", id, cyID)
			}

			// The owner sees whom she removed; nobody else may look or let them back.
			var removed []map[string]any
			res = a.do(req{Method: "GET", Path: base + "/removed-members", Token: ana})
			if err := json.Unmarshal(res.Body, &removed); err != nil || res.Status != http.StatusOK || len(removed) != 1 ||
				removed[0][k.idField] != benID || removed[0]["nickname"] != "Ben" {
				t.Fatalf("removed members: %d %s", res.Status, res.Body)
			}
			a.do(req{Method: "GET", Path: base + "/removed-members", Token: cy}).problem(t, 403, "FORBIDDEN_NOT_OWNER")
			a.do(req{Method: "DELETE", Path: base + "/removed-members/" + benID, Token: cy}).problem(t, 403, "FORBIDDEN_NOT_OWNER")
			a.do(req{Method: "DELETE", Path: base + "/removed-members/" + cyID, Token: ana}).problem(t, 404, "MEMBER_NOT_FOUND")

			// Let back in: Ben joins again through any link, as the member he was.
			if res := a.do(req{Method: "DELETE", Path: base + "/removed-members/" + benID, Token: ana}); res.Status != http.StatusNoContent {
				t.Fatalf("let back in: %d %s", res.Status, res.Body)
			}
			a.do(req{Method: "DELETE", Path: base + "/removed-members/" + benID, Token: ana}).problem(t, 404, "MEMBER_NOT_FOUND")
			if res := a.do(req{Method: "GET", Path: base + "/removed-members", Token: ana}); string(res.Body) != "[]\n" {
				t.Fatalf("removed members after letting back in: %s", res.Body)
			}
			a.joins(t, ben, strings.Replace(a.linkPath(first), "/invite/", "/s/", 1), base)
			if id := a.myMemberID(t, ben, base, k.idField); id != benID {
				t.Fatalf("Ben came back as %s, was %s", id, benID)
			}
		})
	}
}

// guestOf opens a link anonymously in a new browser, which then holds its guest cookie.
func (a *testApp) guestOf(t *testing.T, l shareLinkJSON) *http.Client {
	t.Helper()
	g := browser(t)
	if res := a.do(req{Method: "GET", Path: a.linkPath(l), Client: g, Header: map[string]string{"Accept": "text/html"}}); res.Status != http.StatusFound {
		t.Fatalf("guest open: %d %s", res.Status, res.Body)
	}
	return g
}

func TestRevokingLinks(t *testing.T) {
	a := newTestApp(t)
	ana, ben, cy := a.member("rv-ana", "Ana"), a.member("rv-ben", "Ben"), a.member("rv-cy", "Cy")
	for _, k := range sharedKinds {
		t.Run(k.name, func(t *testing.T) {
			base := k.make(a, ana)
			anas := a.invite(ana, base)
			a.joins(t, ben, a.linkPath(anas), base)
			bens := a.invite(ben, base)
			a.joins(t, cy, a.linkPath(bens), base)
			benID := a.myMemberID(t, ben, base, k.idField)
			expired := a.invite(ana, base)
			if _, err := a.db.Exec(`UPDATE share_links SET expires_at = now() - interval '1 second' WHERE code = $1`, linkCode(expired)); err != nil {
				t.Fatal(err)
			}

			// Members see the links that still work, newest first, each with its maker.
			var links []map[string]any
			res := a.do(req{Method: "GET", Path: base + "/invitations", Token: cy})
			if err := json.Unmarshal(res.Body, &links); err != nil || res.Status != http.StatusOK || len(links) != 2 {
				t.Fatalf("links: %d %s", res.Status, res.Body)
			}
			by := links[0]["created_by"].(map[string]any)
			until, err := time.Parse(time.RFC3339, links[0]["expires_at"].(string))
			type linksShape struct {
				Codes                 []any
				URL, Maker, MakerName any
				ExpiresInAWeek        bool // six days away at least
			}
			if diff := cmp.Diff(linksShape{Codes: []any{linkCode(bens), linkCode(anas)}, URL: bens.URL, Maker: benID, MakerName: "Ben", ExpiresInAWeek: true},
				linksShape{Codes: []any{links[0]["code"], links[1]["code"]}, URL: links[0]["url"], Maker: by[k.idField], MakerName: by["nickname"],
					ExpiresInAWeek: err == nil && time.Until(until) >= 6*24*time.Hour}); diff != "" {
				t.Fatalf("links (-want +got):\n%s\n%s", diff, res.Body)
			}

			// Each link has a guest looking.
			viaAna, viaBen := a.guestOf(t, anas), a.guestOf(t, bens)
			read := func(g *http.Client) response {
				return a.do(req{Method: "GET", Path: base, Client: g, Header: map[string]string{"Accept": "application/json"}})
			}
			for _, g := range []*http.Client{viaAna, viaBen} {
				if res := read(g); res.Status != http.StatusOK {
					t.Fatalf("guest read: %d %s", res.Status, res.Body)
				}
			}

			// Cy neither made Ben's link nor owns the resource.
			a.do(req{Method: "DELETE", Path: base + "/invitations/" + linkCode(bens), Token: cy}).problem(t, 403, "FORBIDDEN_NOT_OWNER")
			// Ben revokes his own: it stops working at once, and its guest is refused at their
			// next read; the other link's guest reads on.
			if res := a.do(req{Method: "DELETE", Path: base + "/invitations/" + linkCode(bens), Token: ben}); res.Status != http.StatusNoContent {
				t.Fatalf("revoke own link: %d %s", res.Status, res.Body)
			}
			a.do(req{Method: "GET", Path: a.linkPath(bens), Token: a.member("rv-dan-"+k.name, "Dan")}).problem(t, 404, "INVALID_LINK")
			read(viaBen).problem(t, 401, "MISSING_TOKEN")
			if res := read(viaAna); res.Status != http.StatusOK {
				t.Fatalf("the other link's guest: %d %s", res.Status, res.Body)
			}

			// The owner revokes any member's link, and her own.
			another := a.invite(ben, base)
			for _, l := range []shareLinkJSON{another, anas} {
				if res := a.do(req{Method: "DELETE", Path: base + "/invitations/" + linkCode(l), Token: ana}); res.Status != http.StatusNoContent {
					t.Fatalf("owner revokes: %d %s", res.Status, res.Body)
				}
			}
			read(viaAna).problem(t, 401, "MISSING_TOKEN")
			if res := a.do(req{Method: "GET", Path: base + "/invitations", Token: ana}); string(res.Body) != "[]\n" {
				t.Fatalf("links after revoking all: %s", res.Body)
			}
			a.do(req{Method: "DELETE", Path: base + "/invitations/" + linkCode(anas), Token: ana}).problem(t, 404, "INVALID_LINK")
			a.do(req{Method: "DELETE", Path: base + "/invitations/no-such-code", Token: ana}).problem(t, 404, "INVALID_LINK")
		})
	}
}

func TestMembersDrawerShowsLinksAndRemovedMembers(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	anaB, benB := a.signedInBrowser(t, "pf-ana", "Ana"), a.signedInBrowser(t, "pf-ben", "Ben")
	anas, bens := a.invite(f.ana, plan), a.invite(f.ben, plan)
	a.joins(t, f.eve, a.linkPath(anas), plan)
	eveID := a.myMemberID(t, f.eve, plan, "plan_member_id")
	if res := a.do(req{Method: "DELETE", Path: plan + "/members/" + eveID, Token: f.ana}); res.Status != http.StatusNoContent {
		t.Fatalf("remove: %d %s", res.Status, res.Body)
	}
	revoke := func(l shareLinkJSON) string { return `hx-delete="` + plan + `/invitations/` + linkCode(l) + `"` }
	letBack := `hx-delete="` + plan + `/removed-members/` + eveID + `"`

	// The owner: every link with its maker and a Revoke button, and the removed members.
	owners := fragment(t, a.htmx(anaB, "GET", plan+"/members", ""), http.StatusOK)
	for _, want := range []string{"Invite links", "Made by Ana", "Made by Ben", "Works until", revoke(anas), revoke(bens), "Removed", "Eve", letBack, "Let back in"} {
		if !strings.Contains(owners, want) {
			t.Errorf("the owner's drawer lacks %q", want)
		}
	}
	// A member: the links, a Revoke button only on their own, nobody removed.
	members := fragment(t, a.htmx(benB, "GET", plan+"/members", ""), http.StatusOK)
	if !strings.Contains(members, "Made by Ana") || !strings.Contains(members, revoke(bens)) || strings.Contains(members, revoke(anas)) ||
		strings.Contains(members, "Let back in") {
		t.Errorf("the member's drawer: %s", members)
	}
	// A guest: members only.
	guests := fragment(t, a.htmx(a.guestOf(t, anas), "GET", plan+"/members", ""), http.StatusOK)
	if strings.Contains(guests, "Invite links") || strings.Contains(guests, linkCode(anas)) {
		t.Errorf("the guest's drawer shows links: %s", guests)
	}

	// Revoking and letting back in from the drawer answer the drawer as it is now.
	after := fragment(t, a.htmx(benB, "DELETE", plan+"/invitations/"+linkCode(bens), ""), http.StatusOK)
	if strings.Contains(after, revoke(bens)) || !strings.Contains(after, "Made by Ana") {
		t.Errorf("the drawer after revoking: %s", after)
	}
	after = fragment(t, a.htmx(anaB, "DELETE", plan+"/removed-members/"+eveID, ""), http.StatusOK)
	if strings.Contains(after, "Let back in") || !strings.Contains(after, "Invite links") {
		t.Errorf("the drawer after letting back in: %s", after)
	}
	a.joins(t, f.eve, a.linkPath(anas), plan)
}
