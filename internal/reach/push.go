// Package reach is news that reaches people away from the notifications page: Web Push to
// their browsers (VAPID, RFC 8291 encryption, by webpush-go) and a daily e-mail digest over
// SMTP. Both are River jobs on the server's queue, and both are off unless the user asked for
// them per notification category (postgres: notification_settings).
package reach

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/SherClockHolmes/webpush-go"
	"github.com/riverqueue/river"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/views"
)

// VAPID is the server's application server key pair (base64url, as webpush-go makes them)
// and the contact push services may write to (VAPID_SUBJECT: mailto: or https:).
type VAPID struct {
	PublicKey, PrivateKey, Subject string
}

// PushArgs is the queue's job: send one notification to one browser.
type PushArgs struct {
	planner.Push
}

// Kind names the job kind on the queue.
func (PushArgs) Kind() string { return "web_push" }

// PushStore is what the push worker reads and records.
type PushStore interface {
	PushDelivery(ctx context.Context, p planner.Push) (*planner.Delivery, error)
	PushDelivered(ctx context.Context, subscriptionID string) error
	DropPushSubscription(ctx context.Context, subscriptionID string) error
}

// PushWorker sends pushes.
type PushWorker struct {
	river.WorkerDefaults[PushArgs]
	Store   PushStore
	Keys    VAPID
	BaseURL string       // the notification's link is made absolute with it
	Client  *http.Client // nil: http.DefaultClient's transport with a timeout
	Log     *slog.Logger
}

// pushTTL is how long a push service keeps a push for a browser that is offline: a day, as
// news older than that is in the digest and on the notifications page anyway.
const pushTTL = 24 * 60 * 60

// Payload is what a push carries, encrypted for the browser: the notification's sentence in
// the recipient's language and the page to open. static/js/sw.js shows it.
type Payload struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
}

// Timeout bounds one attempt.
func (w *PushWorker) Timeout(*river.Job[PushArgs]) time.Duration { return 30 * time.Second }

// Work sends one push. A push service answering 404 or 410 has forgotten the browser: its
// subscription is deleted and the job is done. Any other failure is retried with River's
// backoff.
func (w *PushWorker) Work(ctx context.Context, job *river.Job[PushArgs]) error {
	d, err := w.Store.PushDelivery(ctx, job.Args.Push)
	if err != nil || d == nil { // nil: the notification or the browser is gone
		return err
	}
	l := i18n.For(i18n.Lang(d.Language))
	body, err := json.Marshal(Payload{Title: l.T("news.push_title"), Body: views.NotificationMessage(l, d.Notification),
		URL: w.BaseURL + d.Notification.LinkURL})
	if err != nil {
		return err
	}
	client := w.Client
	if client == nil {
		client = &http.Client{Timeout: 20 * time.Second}
	}
	res, err := webpush.SendNotificationWithContext(ctx, body, &webpush.Subscription{Endpoint: d.Subscription.Endpoint,
		Keys: webpush.Keys{P256dh: d.Subscription.P256dh, Auth: d.Subscription.Auth}}, &webpush.Options{
		HTTPClient: client,
		// webpush-go adds "mailto:" to a subject that is not an https: URL.
		Subscriber:      strings.TrimPrefix(w.Keys.Subject, "mailto:"),
		VAPIDPublicKey:  w.Keys.PublicKey,
		VAPIDPrivateKey: w.Keys.PrivateKey,
		TTL:             pushTTL,
		Urgency:         webpush.UrgencyNormal,
		// One topic per plan or collection (its link, hashed to the 32 characters allowed): a
		// browser offline for a while gets the latest of each, not every step.
		Topic: topic(d.Notification.LinkURL),
	})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 4096))
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return w.Store.PushDelivered(ctx, d.Subscription.ID)
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		if w.Log != nil {
			w.Log.InfoContext(ctx, "push subscription gone; deleted", "subscription_id", d.Subscription.ID, "status", res.StatusCode)
		}
		return w.Store.DropPushSubscription(ctx, d.Subscription.ID)
	}
	return fmt.Errorf("push service answered %s", res.Status)
}

// topic is the push Topic of a notification's link: its plan or collection ("/plans/ID" of
// "/plans/ID/days/2"), hashed into the 32 base64url characters a Topic may have.
func topic(link string) string {
	parts := strings.SplitN(strings.TrimPrefix(link, "/"), "/", 3)
	sum := sha256.Sum256([]byte(strings.Join(parts[:min(2, len(parts))], "/")))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:32]
}

// CheckEndpoint accepts a subscription endpoint: an absolute https URL of at most 1000
// characters without credentials; http only when allowHTTP (a test's fake push service).
func CheckEndpoint(raw string, allowHTTP bool) bool {
	u, err := url.Parse(raw)
	return err == nil && len(raw) <= 1000 && u.Host != "" && u.User == nil && (u.Scheme == "https" || allowHTTP && u.Scheme == "http")
}

// Inserter inserts jobs in a transaction: the server's job queue (extraction.Queue).
type Inserter interface {
	InsertTx(ctx context.Context, tx *sql.Tx, jobs []river.InsertManyParams) error
}

// Enqueue is the store's push queue on q (postgres.DB.OnPush): one job per push.
func Enqueue(q Inserter) func(ctx context.Context, tx *sql.Tx, pushes []planner.Push) error {
	return func(ctx context.Context, tx *sql.Tx, pushes []planner.Push) error {
		jobs := make([]river.InsertManyParams, len(pushes))
		for i, p := range pushes {
			jobs[i] = river.InsertManyParams{Args: PushArgs{p}}
		}
		return q.InsertTx(ctx, tx, jobs)
	}
}

// Check refuses keys that are not a P-256 pair in base64url and a subject that is neither a
// mailto: nor an https: URL.
func (k VAPID) Check() error {
	pub, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.PublicKey, "="))
	if err != nil || len(pub) != 65 || pub[0] != 4 {
		return errors.New("VAPID_PUBLIC_KEY must be an uncompressed P-256 public key in base64url (87 characters)")
	}
	priv, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.PrivateKey, "="))
	if err != nil || len(priv) != 32 {
		return errors.New("VAPID_PRIVATE_KEY must be a P-256 private key in base64url (43 characters)")
	}
	key, err := ecdh.P256().NewPrivateKey(priv)
	if err != nil || !bytes.Equal(key.PublicKey().Bytes(), pub) {
		return errors.New("VAPID_PRIVATE_KEY is not the private key of VAPID_PUBLIC_KEY")
	}
	if !strings.HasPrefix(k.Subject, "mailto:") && !strings.HasPrefix(k.Subject, "https://") {
		return errors.New("VAPID_SUBJECT must be a mailto: or https: URL where push services can reach you")
	}
	return nil
}
