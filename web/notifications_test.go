package web

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
)

// notificationsOf is a user's notifications of one event type, newest first.
func (a *testApp) notificationsOf(t *testing.T, token, eventType string) []notificationJSON {
	t.Helper()
	res := a.do(req{Method: "GET", Path: "/notifications?size=100", Token: token})
	var page pageJSON[notificationJSON]
	if err := json.Unmarshal(res.Body, &page); err != nil || res.Status != 200 {
		t.Fatalf("notifications: %d %s", res.Status, res.Body)
	}
	var out []notificationJSON
	for _, n := range page.Contents {
		if n.EventType == eventType {
			out = append(out, n)
		}
	}
	return out
}

// Ben proposing five places for one of Ana's blocks, one request each, is one notification
// for Ana, counted and unread again after she read it, naming the places and the block's day and
// time; a proposal for another block is another.
func TestNotificationsOfOneActorOnOneTargetMerge(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	names := []string{"Changdeokgung Palace", "Deoksugung Palace", "Jongmyo Shrine", "Bukchon Hanok Village", "Lotte World Tower"}
	for i, name := range names {
		res := a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
			Body: map[string]any{"place_ids": []string{a.placeID(f.ben, name)}}})
		if res.Status != http.StatusOK {
			t.Fatalf("add candidate: %d %s", res.Status, res.Body)
		}
		got := a.notificationsOf(t, f.ana, "CANDIDATE_ADDED")
		if len(got) != 1 || got[0].Count != i+1 || got[0].IsRead {
			t.Fatalf("after %d proposals: %+v", i+1, got)
		}
		if i == 0 && got[0].Message != "Ben proposed Changdeokgung Palace for Day 1, 10:00 in Seoul trip" {
			t.Fatalf("first message: %q", got[0].Message)
		}
		if i == 2 { // Ana reads it; the next proposal makes it unread again
			a.do(req{Method: "PATCH", Path: "/notifications/" + got[0].NotificationID, Token: f.ana})
		}
	}
	got := a.notificationsOf(t, f.ana, "CANDIDATE_ADDED")
	if got[0].Message != "Ben proposed Lotte World Tower and 4 more places for Day 1, 10:00 in Seoul trip" || got[0].ReadAt != nil {
		t.Fatalf("merged: %+v", got[0])
	}
	other := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 2, "10:00", "11:00")))
	a.do(req{Method: "POST", Path: f.blocks + "/" + other.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"place_ids": []string{a.placeID(f.ben, "Jongmyo Shrine")}}})
	if got := a.notificationsOf(t, f.ana, "CANDIDATE_ADDED"); len(got) != 2 || got[0].Count != 1 || got[1].Count != 5 ||
		got[0].Message != "Ben proposed Jongmyo Shrine for Day 2, 10:00 in Seoul trip" {
		t.Fatalf("another block: %+v", got)
	}
	// Ben hears nothing of his own proposals; Ana's blocks were one per day, so two BLOCK_ADDED,
	// each naming its place, day and time.
	if got := a.notificationsOf(t, f.ben, "CANDIDATE_ADDED"); len(got) != 0 {
		t.Fatalf("Ben's own: %+v", got)
	}
	if got := a.notificationsOf(t, f.ben, "BLOCK_ADDED"); len(got) != 2 ||
		got[0].Message != "Ana added Gwangjang Market to Day 2, 10:00 in Seoul trip" ||
		got[1].Message != "Ana added Gyeongbokgung Palace to Day 1, 10:00 in Seoul trip" {
		t.Fatalf("blocks on two days: %+v", got)
	}
}

// A pick toggled ten times by Ben on a place Ana added is one notification for Ana, updated by
// each toggle and saying where it ended (docs/API.md §Activity); taking a pick back a minute later
// makes no notification of its own, and a pick of another place is another notification.
func TestAPickToggledTenTimesIsOneNotification(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	toggle := func(cp, typ string) {
		t.Helper()
		if res := a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/places/" + cp + "/preference?type=" + typ, Token: f.ben}); res.Status != http.StatusOK {
			t.Fatalf("toggle: %d %s", res.Status, res.Body)
		}
	}
	ofAna := func() []notificationJSON {
		t.Helper()
		return append(a.notificationsOf(t, f.ana, "PREFERENCE_ADDED"), a.notificationsOf(t, f.ana, "PREFERENCE_REMOVED")...)
	}
	market := f.places[1].CollectionPlaceID
	for i := range 10 {
		toggle(market, "PICK")
		got := ofAna()
		want := "Ben picked Gwangjang Market, which you added to Seoul"
		if i%2 == 1 {
			want = "Ben took back their pick of Gwangjang Market, which you added to Seoul"
		}
		if len(got) != 1 || got[0].Count != i+1 || got[0].Message != want {
			t.Fatalf("after %d toggles: %+v", i+1, got)
		}
	}
	toggle(f.places[2].CollectionPlaceID, "PASS")
	if got := a.notificationsOf(t, f.ana, "PREFERENCE_ADDED"); len(got) != 1 || got[0].Count != 1 ||
		got[0].Message != "Ben passed on N Seoul Tower, which you added to Seoul" {
		t.Fatalf("another place: %+v", got)
	}
	// Once the minute is over, taking the pass back makes nothing new.
	if _, err := a.db.Exec(`UPDATE notifications SET first_at = first_at - interval '61 seconds'`); err != nil {
		t.Fatal(err)
	}
	toggle(f.places[2].CollectionPlaceID, "PASS")
	if got := ofAna(); len(got) != 2 {
		t.Fatalf("a pass taken back after a minute: %+v", got)
	}
}

// Ben toggling a pick on one of Ana's places in eight concurrent requests — each its own
// transaction — leaves Ana exactly one notification counting eight; a minute after its first
// event the next pick starts a new one. Ana adding eight places is one notification for Ben.
func TestConcurrentPicksMergeIntoOneNotification(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	var cps []string
	for _, name := range []string{"Changdeokgung Palace", "Deoksugung Palace", "Jongmyo Shrine", "Bukchon Hanok Village", "Lotte World Tower"} {
		cps = append(cps, a.addPlace(f.ana, f.collection, a.placeID(f.ana, name)).CollectionPlaceID)
	}
	var wg sync.WaitGroup
	status := make([]int, 8)
	for i := range status {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status[i] = a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/places/" + cps[0] + "/preference?type=PICK", Token: f.ben}).Status
		}()
	}
	wg.Wait()
	for i, s := range status {
		if s != http.StatusOK {
			t.Fatalf("pick %d: %d", i, s)
		}
	}
	// Eight toggles from nothing end with no pick, and the notification says so.
	got := a.notificationsOf(t, f.ana, "PREFERENCE_REMOVED")
	if len(got) != 1 || got[0].Count != 8 || got[0].Message != "Ben took back their pick of Changdeokgung Palace, which you added to Seoul" ||
		len(a.notificationsOf(t, f.ana, "PREFERENCE_ADDED")) != 0 {
		t.Fatalf("merged picks: %+v; added: %+v", got, a.notificationsOf(t, f.ana, "PREFERENCE_ADDED"))
	}
	// Ana's own additions of those places (and the fixture's three), one actor on one collection,
	// are one for Ben too, naming the latest.
	if added := a.notificationsOf(t, f.ben, "PLACE_ADDED"); len(added) != 1 || added[0].Count != 8 ||
		added[0].Message != "Ana added Lotte World Tower and 7 more places to Seoul" {
		t.Fatalf("Ben's PLACE_ADDED: %+v", added)
	}

	// The window is a minute from the first event: move it back instead of waiting.
	if _, err := a.db.Exec(`UPDATE notifications SET first_at = first_at - interval '61 seconds'`); err != nil {
		t.Fatal(err)
	}
	a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/places/" + cps[0] + "/preference?type=PASS", Token: f.ben})
	got = a.notificationsOf(t, f.ana, "PREFERENCE_ADDED")
	if len(got) != 1 || got[0].Count != 1 || got[0].Message != "Ben passed on Changdeokgung Palace, which you added to Seoul" {
		t.Fatalf("after a minute: %+v", got)
	}
}

// Notifications written before their facts were kept answer in the reader's language once
// migration 00024 read their text back into facts (they name less), and as they were written
// when it could not.
func TestOldNotificationsSpeakTheReadersLanguage(t *testing.T) {
	a := newTestApp(t)
	token := a.member("old-notes", "하늘")
	userID := a.do(req{Method: "GET", Path: "/users/me", Token: token}).json(t)["user_id"]
	a.db.MustExec(`INSERT INTO notifications (id, user_id, category, event_type, message, details, event_count, created_at) VALUES
		('oldread00000000000001', $1, 'PLAN', 'BLOCK_REMOVED', '민지 removed 2 blocks from 서울 여행', '{"actor": "민지", "in": "서울 여행"}', 2, now()),
		('oldtext00000000000001', $1, 'PLAN', 'BLOCK_ADDED', 'Ana added Back to the Future to Trip to Jeju (day 1)', NULL, 1, now() - interval '1 minute')`, userID)
	for _, c := range []struct{ lang, read, text string }{
		{"ko", "민지가 서울 여행에서 일정 2개를 삭제했어요", "Ana added Back to the Future to Trip to Jeju (day 1)"},
		{"en", "민지 removed 2 blocks from 서울 여행", "Ana added Back to the Future to Trip to Jeju (day 1)"},
	} {
		res := a.mustDo(t, req{Method: "GET", Path: "/notifications", Token: token, Header: map[string]string{"Accept-Language": c.lang}}, http.StatusOK)
		var page pageJSON[notificationJSON]
		if err := json.Unmarshal(res.Body, &page); err != nil || len(page.Contents) != 2 ||
			page.Contents[0].Message != c.read || page.Contents[1].Message != c.text || res.Header.Get("Content-Language") != c.lang {
			t.Errorf("in %s: %s %s", c.lang, res.Header.Get("Content-Language"), res.Body)
		}
	}
}
