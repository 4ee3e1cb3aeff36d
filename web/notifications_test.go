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
// for Ana, counted and unread again after she read it; a proposal for another block is another.
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
		if i == 0 && got[0].Message != "Ben proposed Changdeokgung Palace for day 1, 10:00 in Seoul trip" {
			t.Fatalf("first message: %q", got[0].Message)
		}
		if i == 2 { // Ana reads it; the next proposal makes it unread again
			a.do(req{Method: "PATCH", Path: "/notifications/" + got[0].NotificationID, Token: f.ana})
		}
	}
	got := a.notificationsOf(t, f.ana, "CANDIDATE_ADDED")
	if got[0].Message != "Ben proposed 5 places for day 1, 10:00 in Seoul trip" || got[0].ReadAt != nil {
		t.Fatalf("merged: %+v", got[0])
	}
	other := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 2, "10:00", "11:00")))
	a.do(req{Method: "POST", Path: f.blocks + "/" + other.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"place_ids": []string{a.placeID(f.ben, "Jongmyo Shrine")}}})
	if got := a.notificationsOf(t, f.ana, "CANDIDATE_ADDED"); len(got) != 2 || got[0].Count != 1 || got[1].Count != 5 {
		t.Fatalf("another block: %+v", got)
	}
	// Ben hears nothing of his own proposals; Ana's blocks were one per day, so two BLOCK_ADDED.
	if got := a.notificationsOf(t, f.ben, "CANDIDATE_ADDED"); len(got) != 0 {
		t.Fatalf("Ben's own: %+v", got)
	}
	if got := a.notificationsOf(t, f.ben, "BLOCK_ADDED"); len(got) != 2 {
		t.Fatalf("blocks on two days: %+v", got)
	}
}

// Ben picking eight of Ana's places at once — concurrent requests, each its own transaction —
// leaves Ana exactly one notification counting eight; a minute after its first event the
// next pick starts a new one.
func TestConcurrentPicksMergeIntoOneNotification(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	var cps []string
	for _, name := range []string{"Changdeokgung Palace", "Deoksugung Palace", "Jongmyo Shrine", "Bukchon Hanok Village", "Lotte World Tower"} {
		cps = append(cps, a.addPlace(f.ana, f.collection, a.placeID(f.ana, name)).CollectionPlaceID)
	}
	for _, p := range f.places {
		cps = append(cps, p.CollectionPlaceID)
	}
	var wg sync.WaitGroup
	status := make([]int, len(cps))
	for i, cp := range cps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status[i] = a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/places/" + cp + "/preference?type=PICK", Token: f.ben}).Status
		}()
	}
	wg.Wait()
	for i, s := range status {
		if s != http.StatusOK {
			t.Fatalf("pick %d: %d", i, s)
		}
	}
	got := a.notificationsOf(t, f.ana, "PREFERENCE_ADDED")
	if len(got) != 1 || got[0].Count != len(cps) ||
		got[0].Message != "Ben picked or passed on places you added to Seoul (8 times)" {
		t.Fatalf("merged picks: %+v", got)
	}
	// Ana's own additions of those places, one actor on one collection, are one for Ben too.
	if added := a.notificationsOf(t, f.ben, "PLACE_ADDED"); len(added) != 1 || added[0].Count != 8 ||
		added[0].Message != "Ana added 8 places to Seoul" {
		t.Fatalf("Ben's PLACE_ADDED: %+v", added)
	}

	// The window is a minute from the first event: move it back instead of waiting.
	if _, err := a.db.Exec(`UPDATE notifications SET first_at = first_at - interval '61 seconds'`); err != nil {
		t.Fatal(err)
	}
	a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/places/" + cps[0] + "/preference?type=PASS", Token: f.ben})
	got = a.notificationsOf(t, f.ana, "PREFERENCE_ADDED")
	if len(got) != 2 || got[0].Count != 1 || got[0].Message != "Ben passed on a place you added to Seoul" || got[1].Count != 8 {
		t.Fatalf("after a minute: %+v", got)
	}
}
