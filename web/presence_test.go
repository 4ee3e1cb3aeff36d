package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func (f *planFixture) presence(t *testing.T, rq req) presenceJSON {
	t.Helper()
	rq.Method, rq.Path = "GET", "/plans/"+f.plan.PlanID+"/presence"
	res := f.a.do(rq)
	var p presenceJSON
	if err := json.Unmarshal(res.Body, &p); err != nil || res.Status != http.StatusOK {
		t.Fatalf("presence: %d %s", res.Status, res.Body)
	}
	return p
}

func nicknames(p presenceJSON) string {
	var names []string
	for _, m := range p.Members {
		names = append(names, m.Nickname)
	}
	return strings.Join(names, ",")
}

// waitPresence polls until the presence matches (leaving is noticed when the server sees the
// client go, a moment after it does).
func (f *planFixture) waitPresence(t *testing.T, token, members string, guests int) presenceJSON {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p := f.presence(t, req{Token: token})
		if nicknames(p) == members && p.Guests == guests {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("presence: members %q guests %d, want %q and %d", nicknames(p), p.Guests, members, guests)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// nextPresence reads the stream until a presence event about the member ("" for a guest).
func (s *sse) nextPresence(t *testing.T, memberID string) sseEvent {
	t.Helper()
	for {
		ev := s.next(t, 5*time.Second)
		if ev.Event == "presence" && ev.Data["id"] == memberID {
			return ev
		}
	}
}

func TestPresence(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	benMember := f.memberID(t, f.ben)

	if p := f.presence(t, req{Token: f.ana}); len(p.Members) != 0 || p.Guests != 0 || p.Me != nil {
		t.Fatalf("nobody has the plan open yet: %+v", p)
	}
	a.do(req{Method: "GET", Path: plan + "/presence", Token: f.eve}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")

	// Ana opens the plan; Ben, who has not, sees her (and is not "me").
	ana := a.subscribe(t, plan+"/events", f.ana, "")
	if p := f.waitPresence(t, f.ben, "Ana", 0); p.Me != nil || !p.IsAuthenticated {
		t.Fatalf("Ben is not here: %+v", p)
	}

	// Ben opens it in two windows: Ana hears of it (an event without an id, so it does not
	// move Last-Event-ID) and sees him once.
	ben1 := a.subscribe(t, plan+"/events", f.ben, "")
	if ev := ana.nextPresence(t, benMember); ev.ID != "" || ev.Data["kind"] != "presence" {
		t.Fatalf("presence event: %+v", ev)
	}
	ben2 := a.subscribe(t, plan+"/events", f.ben, "")
	p := f.waitPresence(t, f.ben, "Ana,Ben", 0)
	if p.Me == nil || p.Me.PlanMemberID != benMember {
		t.Fatalf("Ben is here: %+v", p.Me)
	}

	// A guest holding an invite link is counted, not named.
	guest := browser(t)
	link := a.invite(f.ana, plan)
	a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Client: guest, Header: map[string]string{"Accept": "text/html"}})
	a.subscribeWith(t, plan+"/events", guest, "", "")
	ana.nextPresence(t, "")
	if p := f.waitPresence(t, f.ana, "Ana,Ben", 1); p.Me == nil || p.Me.Nickname != "Ana" {
		t.Fatalf("Ana is here: %+v", p.Me)
	}
	if p := f.presence(t, req{Client: guest}); p.IsAuthenticated || p.Me != nil || p.Guests != 1 {
		t.Fatalf("as the guest: %+v", p)
	}

	// The strip on Ana's page names the others, not her.
	browserAna := a.signedInBrowser(t, "pf-ana", "Ana")
	strip := fragment(t, a.htmx(browserAna, "GET", plan+"/presence", ""), 200)
	if !strings.Contains(strip, "Ben and a guest are here") || strings.Contains(strip, ">Ana<") {
		t.Fatalf("strip: %s", strip)
	}

	// Ben closes one window: still here. Both: gone, and Ana hears of it.
	ben1.cancel()
	f.waitPresence(t, f.ana, "Ana,Ben", 1)
	ben2.cancel()
	ana.nextPresence(t, benMember)
	f.waitPresence(t, f.ana, "Ana", 1)

	// A row its server stopped touching (the server went away) no longer counts.
	if _, err := a.db.Exec(`INSERT INTO presence (connection, plan_id, member_id, seen_at)
		VALUES ('gone', $1, $2, now() - interval '1 minute')`, f.plan.PlanID, benMember); err != nil {
		t.Fatal(err)
	}
	f.waitPresence(t, f.ana, "Ana", 1)
}

// memberID is the caller's plan member id.
func (f *planFixture) memberID(t *testing.T, token string) string {
	t.Helper()
	var g memberGroupJSON[planMemberJSON]
	json.Unmarshal(f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/members", Token: token}).Body, &g)
	if g.Me == nil {
		t.Fatal("not a member")
	}
	return g.Me.PlanMemberID
}
