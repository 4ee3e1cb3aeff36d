package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func (a *testApp) userID(token string) string {
	a.t.Helper()
	var u userJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: "/users/me", Token: token}).Body, &u)
	return u.UserID
}

// eventTypes is the unread notifications' event types of a user, newest first.
func (a *testApp) eventTypes(t *testing.T, token string) []string {
	t.Helper()
	res := a.do(req{Method: "GET", Path: "/notifications?size=100", Token: token})
	var page pageJSON[notificationJSON]
	if err := json.Unmarshal(res.Body, &page); err != nil || res.Status != 200 {
		t.Fatalf("notifications: %d %s", res.Status, res.Body)
	}
	var out []string
	for _, n := range page.Contents {
		out = append(out, n.EventType)
	}
	return out
}

func TestNotificationsForEachEvent(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	// Ben adds a block (Ana hears of it, Ben does not), then a second candidate.
	tb := decodeBlock(t, f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	tb = decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	// Ana gives an opinion on Ben's candidate and confirms it.
	a.do(req{Method: "POST", Path: f.blocks + "/" + tb.Candidates[0].BlockID + "/opinions", Token: f.ana, Body: map[string]any{"type": "POSITIVE"}})
	a.do(req{Method: "PATCH", Path: f.blocks + "/" + tb.TimeBlockID + "/selection", Token: f.ana, Body: map[string]string{"block_id": tb.Candidates[1].BlockID}})
	// Ben adds an expense and removes the block.
	a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "items": item("Taxi", 100)}})
	a.do(req{Method: "DELETE", Path: f.blocks + "/" + tb.TimeBlockID, Token: f.ben})
	// In the collection: Ben adds a place, Ana picks it, Ben removes one.
	cp := a.addPlace(f.ben, f.collection, f.otherPlace.Place.PlaceID)
	a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/places/" + cp.CollectionPlaceID + "/preference?type=PICK", Token: f.ana})
	a.do(req{Method: "DELETE", Path: "/collections/" + f.collection + "/places/" + f.places[2].CollectionPlaceID, Token: f.ben})
	// Eve joins the plan through a link.
	link := a.invite(f.ana, plan)
	a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Token: f.eve})

	ana := strings.Join(a.eventTypes(t, f.ana), " ")
	if ana != "MEMBER_JOINED PLACE_REMOVED PLACE_ADDED BLOCK_REMOVED EXPENSE_ADDED CANDIDATE_ADDED BLOCK_ADDED" {
		t.Errorf("Ana's notifications: %s", ana)
	}
	ben := strings.Join(a.eventTypes(t, f.ben), " ")
	// (the three places Ana added when the fixture was made come first, merged into one)
	if ben != "MEMBER_JOINED PREFERENCE_ADDED CANDIDATE_CONFIRMED OPINION_ADDED PLACE_ADDED" {
		t.Errorf("Ben's notifications: %s", ben)
	}
	if eve := a.eventTypes(t, f.eve); len(eve) != 0 {
		t.Errorf("Eve's notifications: %v", eve)
	}

	res := a.do(req{Method: "GET", Path: "/notifications", Token: f.ana})
	var page pageJSON[notificationJSON]
	json.Unmarshal(res.Body, &page)
	first := page.Contents[0]
	type listShape struct {
		Unread, LinkURL, Category        string
		IsRead, HasReadAt, SaysEveJoined bool
	}
	if diff := cmp.Diff(listShape{Unread: "7", LinkURL: plan, Category: "PLAN", SaysEveJoined: true},
		listShape{Unread: res.Header.Get("X-Unread-Count"), LinkURL: first.LinkURL, Category: first.Category, IsRead: first.IsRead, HasReadAt: first.ReadAt != nil,
			SaysEveJoined: strings.Contains(first.Message, "Eve joined Seoul trip")}); diff != "" {
		t.Fatalf("list (-want +got):\n%s\nmessage %q", diff, first.Message)
	}
	var read notificationJSON
	json.Unmarshal(a.do(req{Method: "PATCH", Path: "/notifications/" + first.NotificationID, Token: f.ana}).Body, &read)
	if !read.IsRead || read.ReadAt == nil {
		t.Fatalf("read: %+v", read)
	}
	a.do(req{Method: "PATCH", Path: "/notifications/" + first.NotificationID, Token: f.ben}).problem(t, 404, "NOTIFICATION_NOT_FOUND")
	var all map[string]int
	json.Unmarshal(a.do(req{Method: "PATCH", Path: "/notifications", Token: f.ana}).Body, &all)
	if all["updated_count"] != 6 {
		t.Fatalf("mark all: %v", all)
	}
	if a.do(req{Method: "GET", Path: "/notifications", Token: f.ana}).Header.Get("X-Unread-Count") != "0" {
		t.Fatal("unread after marking all read")
	}
}

// sse reads events from a stream.
type sse struct {
	body   *bufio.Reader
	cancel context.CancelFunc
}

func (a *testApp) subscribe(t *testing.T, path, token, lastEventID string) *sse {
	t.Helper()
	return a.subscribeWith(t, path, http.DefaultClient, token, lastEventID)
}

// subscribeWith opens the stream with a client (a browser's cookies) and an optional token.
func (a *testApp) subscribeWith(t *testing.T, path string, client *http.Client, token, lastEventID string) *sse {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := http.NewRequestWithContext(ctx, "GET", a.http.URL+path, nil)
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	if lastEventID != "" {
		r.Header.Set("Last-Event-ID", lastEventID)
	}
	res, err := client.Do(r)
	if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("subscribe: %v %v", err, res)
	}
	s := &sse{body: bufio.NewReader(res.Body), cancel: cancel}
	t.Cleanup(func() { cancel(); res.Body.Close() })
	return s
}

type sseEvent struct {
	ID, Event string
	Data      map[string]string
}

// next reads the next event, skipping comments, within the timeout.
func (s *sse) next(t *testing.T, timeout time.Duration) sseEvent {
	t.Helper()
	got := make(chan sseEvent, 1)
	go func() {
		var ev sseEvent
		for {
			line, err := s.body.ReadString('\n')
			if err != nil {
				close(got)
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Event = line[7:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.Data)
			case line == "" && ev.Event != "":
				got <- ev
				return
			}
		}
	}()
	select {
	case ev, ok := <-got:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(timeout):
		t.Fatal("no event in time")
	}
	return sseEvent{}
}

func TestLiveEventsAndCatchingUp(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	benID := a.userID(f.ben)
	f.a.do(req{Method: "GET", Path: plan + "/events", Token: f.eve}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")

	stream := a.subscribe(t, plan+"/events", f.ana, "")
	tb := decodeBlock(t, f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	var ev sseEvent
	for ev = stream.next(t, 5*time.Second); ev.Event != "block"; ev = stream.next(t, 5*time.Second) {
	}
	if ev.Data["id"] != tb.TimeBlockID || ev.Data["actor"] != benID || ev.Data["kind"] != "block" || ev.ID == "" {
		t.Fatalf("event: %+v", ev)
	}
	lastSeen := ev.ID
	stream.cancel()

	// While Ana is away, Ben adds a candidate; reconnecting with Last-Event-ID delivers it.
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	again := a.subscribe(t, plan+"/events", f.ana, lastSeen)
	caught := again.next(t, 5*time.Second)
	if caught.ID <= lastSeen && len(caught.ID) <= len(lastSeen) || caught.Data["actor"] != benID {
		t.Fatalf("catch-up: %+v after %s", caught, lastSeen)
	}
	kinds := map[string]bool{caught.Event: true}
	for len(kinds) < 2 {
		kinds[again.next(t, 5*time.Second).Event] = true
	}
	if !kinds["candidate"] {
		t.Fatalf("catch-up kinds: %v", kinds)
	}

	// A collection's stream too.
	cs := a.subscribe(t, "/collections/"+f.collection+"/events", f.ana, "")
	cp := a.addPlace(f.ben, f.collection, f.otherPlace.Place.PlaceID)
	if ev := cs.next(t, 5*time.Second); ev.Event != "place" || ev.Data["id"] != cp.CollectionPlaceID {
		t.Fatalf("collection event: %+v", ev)
	}
}
