package web

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/SherClockHolmes/webpush-go"
	"github.com/riverqueue/river"

	"tripplan/internal/extraction"
	"tripplan/internal/reach"
	"tripplan/internal/reach/reachtest"
)

// withPush starts a job queue that sends Web Push signed with keys, and sends the store's
// pushes to it (as run.go does when VAPID_* are set).
func withPush(t *testing.T, a *testApp, keys reach.VAPID) {
	t.Helper()
	q, err := extraction.NewQueue(a.db.DB.DB, &extraction.Worker{}, nil,
		extraction.Also(&reach.PushWorker{Store: a.db, Keys: keys, BaseURL: a.http.URL}))
	if err != nil {
		t.Fatal(err)
	}
	a.db.OnPush(reach.Enqueue(q))
	ctx, cancel := context.WithCancel(context.Background())
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		stop, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		q.Stop(stop)
	})
}

// newPushFixture is a plan fixture on a server with Web Push (its keys), whose pushes go to a
// fake push service.
func newPushFixture(t *testing.T) (*planFixture, *reachtest.PushService, reach.VAPID) {
	t.Helper()
	keys := vapidKeys(t)
	svc := reachtest.NewPushService(t, keys.PublicKey)
	f := newPlanFixtureOn(t, newTestApp(t, func(c *Config) { c.VAPIDPublicKey = keys.PublicKey; c.PushAllowHTTP = true }))
	withPush(t, f.a, keys)
	return f, svc, keys
}

func vapidKeys(t *testing.T) reach.VAPID {
	t.Helper()
	private, public, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		t.Fatal(err)
	}
	k := reach.VAPID{PublicKey: public, PrivateKey: private, Subject: "mailto:ops@tripplan.test"}
	if err := k.Check(); err != nil {
		t.Fatal(err)
	}
	return k
}

// jobsOfKind counts the River jobs of a kind, whatever their state.
func (a *testApp) jobsOfKind(t *testing.T, kind string) int {
	t.Helper()
	var n int
	if err := a.db.Get(&n, `SELECT count(*) FROM river_job WHERE kind = $1`, kind); err != nil {
		t.Fatal(err)
	}
	return n
}

// receive waits for the fake push service's next push, failing on a refused request.
func receive(t *testing.T, svc *reachtest.PushService) reachtest.Push {
	t.Helper()
	select {
	case p := <-svc.Pushes:
		return p
	case err := <-svc.Errors:
		t.Fatalf("the push service refused a push: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("no push arrived")
	}
	return reachtest.Push{}
}

// A notification reaches, by Web Push, the browsers of a member who asked for pushes of its
// category: signed with the server's VAPID key for the push service's origin, encrypted for
// the browser (the fake service decrypts it as the browser would), in the member's language,
// with the page to open. Before she asks, and for a category she did not ask for, nothing is
// queued; a browser whose push service answers 410 is forgotten.
func TestWebPushReachesTheBrowsersOfWhoAskedForIt(t *testing.T) {
	f, svc, keys := newPushFixture(t)
	a := f.a
	if res := a.do(req{Method: "PUT", Path: "/users/me", Token: f.ana, Body: map[string]any{"language": "ko"}}); res.Status != http.StatusOK {
		t.Fatalf("language: %d %s", res.Status, res.Body)
	}
	phone, laptop := reachtest.NewBrowser(t), reachtest.NewBrowser(t)
	for _, sub := range []map[string]any{
		{"endpoint": svc.Endpoint(phone, "ana-phone", false), "keys": phone.Keys()},
		{"endpoint": svc.Endpoint(laptop, "ana-laptop", true), "keys": laptop.Keys()},
	} {
		if res := a.do(req{Method: "POST", Path: "/users/me/push-subscriptions", Token: f.ana, Body: sub}); res.Status != http.StatusCreated {
			t.Fatalf("subscribe: %d %s", res.Status, res.Body)
		}
	}

	// Subscribed but not opted in: the notification is made, no push is queued.
	f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00"))
	if got := a.notificationsOf(t, f.ana, "BLOCK_ADDED"); len(got) != 1 || a.jobsOfKind(t, "web_push") != 0 {
		t.Fatalf("before opting in: %d notifications, %d pushes queued", len(got), a.jobsOfKind(t, "web_push"))
	}

	res := a.do(req{Method: "PUT", Path: "/users/me/notification-settings", Token: f.ana,
		Body: map[string]any{"settings": []map[string]any{{"category": "PLAN", "push": true, "email": false}}}})
	var settings notificationSettingsJSON
	if err := json.Unmarshal(res.Body, &settings); err != nil || res.Status != http.StatusOK || len(settings.Settings) != 3 ||
		!settings.Settings[0].Push || settings.Settings[1].Push || settings.VAPIDPublicKey == nil || *settings.VAPIDPublicKey != keys.PublicKey {
		t.Fatalf("settings: %d %s", res.Status, res.Body)
	}

	f.add(f.ben, placeBlock(f.places[1].CollectionPlaceID, 2, "10:00", "11:00"))
	want := a.notificationsOf(t, f.ana, "BLOCK_ADDED")[0]
	got := map[string]reachtest.Push{}
	for range 2 {
		p := receive(t, svc)
		got[p.Endpoint] = p
	}
	p := got[svc.URL+"/push/ana-phone"]
	var payload reach.Payload
	if err := json.Unmarshal(p.Payload, &payload); err != nil {
		t.Fatalf("payload %q: %v", p.Payload, err)
	}
	if payload.Body != want.Message || payload.URL != a.http.URL+want.LinkURL || payload.Title == "" || !regexp.MustCompile(`\p{Hangul}`).MatchString(payload.Body) {
		t.Fatalf("pushed %+v, want the notification %+v in Korean", payload, want)
	}
	if p.Header.Get("Urgency") != "normal" || len(p.Header.Get("Topic")) != 32 || p.Header.Get("TTL") != "86400" {
		t.Fatalf("push headers: %v", p.Header)
	}
	if _, ok := got[svc.URL+"/gone/ana-laptop"]; !ok {
		t.Fatalf("the laptop's push service was not asked: %v", got)
	}
	eventually(t, "the gone laptop's subscription is deleted, the phone's kept with its success", func() bool {
		var endpoints []string
		a.mustSelect(t, &endpoints, `SELECT endpoint FROM push_subscriptions WHERE last_success_at IS NOT NULL OR endpoint LIKE '%/gone/%'`)
		return len(endpoints) == 1 && strings.HasSuffix(endpoints[0], "/push/ana-phone")
	})

	// A category Ana left off: Ben adds a place to their collection, she is notified, nothing
	// more is queued.
	before := a.jobsOfKind(t, "web_push")
	a.addPlace(f.ben, f.collection, a.placeID(f.ben, "Jongmyo Shrine"))
	if got := a.notificationsOf(t, f.ana, "PLACE_ADDED"); len(got) != 1 || a.jobsOfKind(t, "web_push") != before {
		t.Fatalf("a category left off: %d notifications, %d pushes queued (before: %d)", len(got), a.jobsOfKind(t, "web_push"), before)
	}
}

// A push subscription belongs to the sign-in that made it: when Ana signs out on her phone,
// the phone's subscription goes with the sign-in, even though the phone's browser never said
// so (it may have been offline), and the next news reaches only her laptop, still signed in.
func TestSigningOutEndsTheDevicesPushes(t *testing.T) {
	f, svc, _ := newPushFixture(t)
	a := f.a
	phoneSignIn, laptopSignIn := f.ana, a.login("pf-ana", "Ana").AccessToken
	phone, laptop := reachtest.NewBrowser(t), reachtest.NewBrowser(t)
	for token, sub := range map[string]map[string]any{
		phoneSignIn:  {"endpoint": svc.Endpoint(phone, "ana-phone", false), "keys": phone.Keys()},
		laptopSignIn: {"endpoint": svc.Endpoint(laptop, "ana-laptop", false), "keys": laptop.Keys()},
	} {
		if res := a.do(req{Method: "POST", Path: "/users/me/push-subscriptions", Token: token, Body: sub}); res.Status != http.StatusCreated {
			t.Fatalf("subscribe: %d %s", res.Status, res.Body)
		}
	}
	if res := a.do(req{Method: "PUT", Path: "/users/me/notification-settings", Token: laptopSignIn,
		Body: map[string]any{"settings": []map[string]any{{"category": "PLAN", "push": true, "email": false}}}}); res.Status != http.StatusOK {
		t.Fatalf("settings: %d %s", res.Status, res.Body)
	}

	if res := a.do(req{Method: "POST", Path: "/auth/logout", Token: phoneSignIn}); res.Status != http.StatusNoContent {
		t.Fatalf("sign out: %d %s", res.Status, res.Body)
	}
	var endpoints []string
	a.mustSelect(t, &endpoints, `SELECT endpoint FROM push_subscriptions ORDER BY endpoint`)
	if want := []string{svc.URL + "/push/ana-laptop"}; !slices.Equal(endpoints, want) {
		t.Fatalf("subscriptions after the phone signed out: %v, want %v", endpoints, want)
	}

	f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00"))
	if p := receive(t, svc); p.Endpoint != svc.URL+"/push/ana-laptop" {
		t.Fatalf("pushed to %s, want the laptop", p.Endpoint)
	}
	if n := a.jobsOfKind(t, "web_push"); n != 1 {
		t.Fatalf("%d pushes queued for one notification, want 1 (the laptop's)", n)
	}
}

// Subscriptions and settings are checked: an unknown category is a field error, an http
// endpoint is refused unless the server allows it (tests only), keys must be the right sizes;
// without VAPID keys the server has no Web Push.
func TestPushSubscriptionsAndSettingsAreChecked(t *testing.T) {
	keys := vapidKeys(t)
	a := newTestApp(t, func(c *Config) { c.VAPIDPublicKey = keys.PublicKey })
	ana := a.member("ns-ana", "Ana")
	res := a.do(req{Method: "PUT", Path: "/users/me/notification-settings", Token: ana,
		Body: map[string]any{"settings": []map[string]any{{"category": "WEATHER", "push": true}}}})
	if p := res.problem(t, http.StatusBadRequest, "INVALID_REQUEST"); !strings.Contains(string(res.Body), "settings[0].category") {
		t.Fatalf("unknown category: %v", p)
	}
	a.do(req{Method: "PUT", Path: "/users/me/notification-settings", Token: ana,
		Body: map[string]any{"settings": []map[string]any{{"category": "PLAN", "push": true}, {"category": "PLAN", "push": false}}}}).
		problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	browser := reachtest.NewBrowser(t)
	for name, sub := range map[string]map[string]any{
		"http":      {"endpoint": "http://push.example/x", "keys": browser.Keys()},
		"no host":   {"endpoint": "https:///x", "keys": browser.Keys()},
		"short key": {"endpoint": "https://push.example/x", "keys": map[string]string{"p256dh": "AAAA", "auth": browser.Keys()["auth"]}},
	} {
		if res := a.do(req{Method: "POST", Path: "/users/me/push-subscriptions", Token: ana, Body: sub}); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
		}
	}
	// Eleven browsers: the oldest is dropped.
	for i := range 11 {
		sub := map[string]any{"endpoint": "https://push.example/" + string(rune('a'+i)), "keys": browser.Keys()}
		if res := a.do(req{Method: "POST", Path: "/users/me/push-subscriptions", Token: ana, Body: sub}); res.Status != http.StatusCreated {
			t.Fatalf("subscribe %d: %d %s", i, res.Status, res.Body)
		}
	}
	var endpoints []string
	a.mustSelect(t, &endpoints, `SELECT endpoint FROM push_subscriptions ORDER BY endpoint`)
	if len(endpoints) != 10 || endpoints[0] != "https://push.example/b" {
		t.Fatalf("after 11 subscriptions: %v", endpoints)
	}
	if res := a.do(req{Method: "DELETE", Path: "/users/me/push-subscriptions?endpoint=https://push.example/b", Token: ana}); res.Status != http.StatusNoContent {
		t.Fatalf("unsubscribe: %d %s", res.Status, res.Body)
	}

	off := newTestApp(t)
	eve := off.member("ns-eve", "Eve")
	off.do(req{Method: "POST", Path: "/users/me/push-subscriptions", Token: eve,
		Body: map[string]any{"endpoint": "https://push.example/e", "keys": browser.Keys()}}).problem(t, http.StatusNotFound, "NOT_FOUND")
	res = off.do(req{Method: "GET", Path: "/users/me/notification-settings", Token: eve})
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"vapid_public_key":null`) {
		t.Fatalf("settings without Web Push: %d %s", res.Status, res.Body)
	}
}

// The service worker is served at the root, allowed to control every page, not cached long.
func TestServiceWorkerIsServedAtTheRoot(t *testing.T) {
	a := newTestApp(t)
	res := a.do(req{Method: "GET", Path: "/sw.js", Header: map[string]string{"Accept": "*/*"}})
	if res.Status != http.StatusOK || res.Header.Get("Service-Worker-Allowed") != "/" || res.Header.Get("Cache-Control") != "no-cache" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") || !strings.Contains(string(res.Body), `addEventListener("push"`) {
		t.Fatalf("/sw.js: %d %v", res.Status, res.Header)
	}
}

// digestPart is a text part of a received digest, decoded.
func digestParts(t *testing.T, m reachtest.Mail) (header mail.Header, text, htmlPart string) {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(string(m.Data)))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		part, err := r.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(part)
		if strings.HasPrefix(part.Header.Get("Content-Type"), "text/html") {
			htmlPart = string(b)
		} else {
			text = string(b)
		}
	}
	return msg.Header, text, htmlPart
}

// The daily digest is one mail per member who asked for it, in their language, over SMTP,
// holding their unread notifications of the categories they chose; its unsubscribe link turns
// it off without signing in. A second run the same day sends nothing, even with news; the next
// day's digest holds only what came since.
func TestTheDailyDigestReachesWhoAskedForIt(t *testing.T) {
	smtpd := reachtest.NewSMTPServer(t)
	key := []byte("unsubscribe-key-unsubscribe-key-32")
	f := newPlanFixtureOn(t, newTestApp(t, func(c *Config) { c.EmailDigest = true; c.UnsubscribeKey = key }))
	a := f.a
	for who, email := range map[string]string{"pf-ana": "ana@example.com", "pf-ben": "ben@example.com", "pf-eve": "eve@example.com"} {
		if _, err := a.db.Exec(`UPDATE users SET email = $1 WHERE provider_id = $2`, email, who); err != nil {
			t.Fatal(err)
		}
	}
	a.do(req{Method: "PUT", Path: "/users/me", Token: f.ana, Body: map[string]any{"language": "ko"}})
	a.do(req{Method: "PUT", Path: "/users/me", Token: f.ben, Body: map[string]any{"language": "en"}})
	for _, token := range []string{f.ana, f.ben} {
		if res := a.do(req{Method: "PUT", Path: "/users/me/notification-settings", Token: token,
			Body: map[string]any{"settings": []map[string]any{{"category": "PLAN", "email": true}}}}); res.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", res.Status, res.Body)
		}
	}
	f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00"))
	f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 2, "10:00", "11:00"))
	a.addPlace(f.ben, f.collection, a.placeID(f.ben, "Jongmyo Shrine")) // COLLECTION: not in Ana's digest

	smtp, err := reach.NewSMTP("smtp://" + smtpd.Addr)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	w := &reach.DigestWorker{Store: a.db, Mailer: smtp, From: "Tripplan <news@tripplan.test>", BaseURL: a.http.URL, Key: key,
		Now: func() time.Time { return now }}
	run := func() {
		t.Helper()
		if err := w.Work(context.Background(), &river.Job[reach.DigestArgs]{}); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if len(smtpd.Mails) != 2 {
		t.Fatalf("%d mails, want Ana's and Ben's (Eve asked for none)", len(smtpd.Mails))
	}
	mails := map[string]reachtest.Mail{}
	for range 2 {
		m := <-smtpd.Mails
		mails[m.To[0]] = m
	}
	anaMail := mails["ana@example.com"]
	header, text, htmlPart := digestParts(t, anaMail)
	subject, _ := new(mime.WordDecoder).DecodeHeader(header.Get("Subject"))
	block := a.notificationsOf(t, f.ana, "BLOCK_ADDED")[0] // in Korean: Ana's language
	if anaMail.From != "news@tripplan.test" || !strings.Contains(subject, "1") || !regexp.MustCompile(`\p{Hangul}`).MatchString(subject) ||
		!strings.Contains(text, block.Message) || !strings.Contains(htmlPart, html.EscapeString(block.Message)) ||
		strings.Contains(text, "Jongmyo") {
		t.Fatalf("Ana's digest: subject %q\n%s\n%s", subject, text, htmlPart)
	}
	_, benText, _ := digestParts(t, mails["ben@example.com"])
	if benBlock := a.notificationsOf(t, f.ben, "BLOCK_ADDED")[0]; !strings.Contains(benText, benBlock.Message) || !strings.Contains(benText, "Stop these e-mails") {
		t.Fatalf("Ben's digest (English): %s", benText)
	}

	// Same day: nothing, even with news.
	f.add(f.ben, placeBlock(f.places[2].CollectionPlaceID, 3, "10:00", "11:00"))
	run()
	if len(smtpd.Mails) != 0 {
		t.Fatalf("a second run the same day sent %d mails", len(smtpd.Mails))
	}
	// The next day: only what came since.
	now = now.Add(24 * time.Hour)
	run()
	if len(smtpd.Mails) != 1 {
		t.Fatalf("the next day: %d mails, want Ana's", len(smtpd.Mails))
	}
	_, next, _ := digestParts(t, <-smtpd.Mails)
	if latest := a.notificationsOf(t, f.ana, "BLOCK_ADDED"); !strings.Contains(next, latest[0].Message) || strings.Contains(next, block.Message) {
		t.Fatalf("the next day's digest: %s", next)
	}

	// The unsubscribe link: a page first, then the button turns the digest off, no sign-in.
	link := regexp.MustCompile(`https?://\S+/notifications/digest-off\?\S+`).FindString(text)
	if !strings.HasPrefix(header.Get("List-Unsubscribe"), "<"+link) || link == "" {
		t.Fatalf("unsubscribe link %q, List-Unsubscribe %q", link, header.Get("List-Unsubscribe"))
	}
	path := strings.TrimPrefix(link, a.http.URL)
	page := a.do(req{Method: "GET", Path: path, Header: map[string]string{"Accept": "text/html"}})
	if page.Status != http.StatusOK || !strings.Contains(string(page.Body), `method="post"`) {
		t.Fatalf("unsubscribe page: %d", page.Status)
	}
	if s := a.settingsOf(t, f.ana); !s[0].Email {
		t.Fatalf("the page alone turned the digest off: %+v", s)
	}
	if res := a.do(req{Method: "POST", Path: path + "x", Header: map[string]string{"Accept": "text/html"}}); res.Status != http.StatusForbidden {
		t.Fatalf("a forged link: %d", res.Status)
	}
	if res := a.do(req{Method: "POST", Path: path, Header: map[string]string{"Accept": "text/html"}}); res.Status != http.StatusOK {
		t.Fatalf("unsubscribe: %d %s", res.Status, res.Body)
	}
	if s := a.settingsOf(t, f.ana); s[0].Email {
		t.Fatalf("after unsubscribing: %+v", s)
	}
}

// settingsOf is a user's notification settings.
func (a *testApp) settingsOf(t *testing.T, token string) []struct {
	Category    string
	Push, Email bool
} {
	t.Helper()
	res := a.do(req{Method: "GET", Path: "/users/me/notification-settings", Token: token})
	var out struct {
		Settings []struct {
			Category    string
			Push, Email bool
		}
	}
	if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK {
		t.Fatalf("settings: %d %s", res.Status, res.Body)
	}
	return out.Settings
}
