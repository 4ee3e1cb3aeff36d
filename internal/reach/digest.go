package reach

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/views"
)

// DigestArgs is the queue's periodic job: send the day's digests not sent yet.
type DigestArgs struct{}

// Kind names the job kind on the queue.
func (DigestArgs) Kind() string { return "email_digest" }

// DigestInterval is how often the digest job runs. Each user gets at most one digest a UTC day
// (the database holds that); running every hour means a digest a restart or a failed send
// missed goes out within the hour, not a day late.
const DigestInterval = time.Hour

// DigestStore is what the digest worker reads and records.
type DigestStore interface {
	DigestRecipients(ctx context.Context, day time.Time) ([]planner.DigestRecipient, error)
	Digest(ctx context.Context, userID string, day time.Time, send func([]planner.Notification) error) error
}

// DigestWorker sends the daily e-mail digests.
type DigestWorker struct {
	river.WorkerDefaults[DigestArgs]
	Store   DigestStore
	Mailer  Mailer
	From    string // MAIL_FROM: an address, or "Name <address>"
	BaseURL string
	Key     []byte // signs the unsubscribe links (the session secret)
	Now     func() time.Time
	Log     *slog.Logger
}

// Timeout bounds one run: a few seconds a mail for many users.
func (w *DigestWorker) Timeout(*river.Job[DigestArgs]) time.Duration { return 30 * time.Minute }

// Work sends the digest of every user who asked for one and has none today. A failed mail is
// logged and the others go on; the run then fails, and River's retry sends only what is missing.
func (w *DigestWorker) Work(ctx context.Context, _ *river.Job[DigestArgs]) error {
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	day := now().UTC()
	users, err := w.Store.DigestRecipients(ctx, day)
	if err != nil {
		return err
	}
	var failed []error
	for _, u := range users {
		err := w.Store.Digest(ctx, u.UserID, day, func(list []planner.Notification) error {
			msg, err := w.Message(u, list, now())
			if err != nil {
				return err
			}
			return w.Mailer.Send(ctx, addressOf(w.From), u.Email, msg)
		})
		if err != nil {
			if w.Log != nil {
				w.Log.WarnContext(ctx, "e-mail digest not sent", "user_id", u.UserID, "err", err)
			}
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d digests not sent: %w", len(failed), len(users), errors.Join(failed...))
	}
	return nil
}

// addressOf is the bare address of MAIL_FROM, for the SMTP envelope.
func addressOf(from string) string {
	if a, err := mail.ParseAddress(from); err == nil {
		return a.Address
	}
	return from
}

// digestHTML is the digest's HTML part; the text part says the same in lines.
var digestHTML = template.Must(template.New("digest").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family: sans-serif; color: #0f172a; max-width: 36rem; margin: 0 auto; padding: 1rem">
<h1 style="font-size: 1.25rem">{{.Heading}}</h1>
<ul style="padding-left: 1.25rem">{{range .Items}}
<li style="margin: 0.5rem 0"><a href="{{.URL}}" style="color: #0f766e">{{.Text}}</a></li>{{end}}
</ul>
<p><a href="{{.All}}" style="color: #0f766e">{{.AllText}}</a></p>
<p style="font-size: 0.8rem; color: #475569">{{.Why}} <a href="{{.Unsubscribe}}" style="color: #475569">{{.UnsubscribeText}}</a></p>
</body></html>
`))

type digestItem struct{ Text, URL string }

// Message is the digest mail of the notifications for u, in u's language: multipart text and
// HTML, with a List-Unsubscribe link (RFC 8058 one-click) that turns the digest off.
func (w *DigestWorker) Message(u planner.DigestRecipient, list []planner.Notification, now time.Time) ([]byte, error) {
	l := i18n.For(i18n.Lang(u.Language))
	off := w.BaseURL + views.DigestOffPath + "?" + url.Values{"user": {u.UserID}, "sig": {UnsubscribeSignature(w.Key, u.UserID)}}.Encode()
	data := struct {
		Lang, Subject, Heading, All, AllText, Why, Unsubscribe, UnsubscribeText string
		Items                                                                   []digestItem
	}{Lang: string(l.Lang()), Subject: l.T("news.digest_subject", "Count", len(list)), Heading: l.T("news.digest_heading", "Name", u.Nickname),
		All: w.BaseURL + "/notifications", AllText: l.T("news.digest_all"), Why: l.T("news.digest_why"), Unsubscribe: off,
		UnsubscribeText: l.T("news.digest_unsubscribe")}
	var text strings.Builder
	text.WriteString(data.Heading + "\n\n")
	for _, n := range list {
		item := digestItem{Text: views.NotificationMessage(l, n), URL: w.BaseURL + n.LinkURL}
		data.Items = append(data.Items, item)
		fmt.Fprintf(&text, "- %s\n  %s\n", item.Text, item.URL)
	}
	fmt.Fprintf(&text, "\n%s: %s\n\n%s\n%s: %s\n", data.AllText, data.All, data.Why, data.UnsubscribeText, off)
	var html bytes.Buffer
	if err := digestHTML.Execute(&html, data); err != nil {
		return nil, err
	}

	var msg bytes.Buffer
	body := multipart.NewWriter(&msg)
	id := make([]byte, 12)
	rand.Read(id)
	host := "tripplan"
	if b, err := url.Parse(w.BaseURL); err == nil && b.Hostname() != "" {
		host = b.Hostname()
	}
	for _, h := range [][2]string{
		{"From", w.From},
		{"To", u.Email},
		{"Subject", mime.QEncoding.Encode("utf-8", data.Subject)},
		{"Date", now.Format(time.RFC1123Z)},
		{"Message-ID", "<" + hex.EncodeToString(id) + "@" + host + ">"},
		{"MIME-Version", "1.0"},
		{"Content-Type", "multipart/alternative; boundary=" + body.Boundary()},
		{"List-Unsubscribe", "<" + off + ">"},
		{"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"},
		{"Auto-Submitted", "auto-generated"},
	} {
		fmt.Fprintf(&msg, "%s: %s\r\n", h[0], headerSafe(h[1]))
	}
	msg.WriteString("\r\n")
	for _, part := range []struct{ typ, content string }{{"text/plain", text.String()}, {"text/html", html.String()}} {
		pw, err := body.CreatePart(textproto.MIMEHeader{"Content-Type": {part.typ + "; charset=utf-8"},
			"Content-Transfer-Encoding": {"quoted-printable"}})
		if err != nil {
			return nil, err
		}
		qp := quotedprintable.NewWriter(pw)
		if _, err := qp.Write([]byte(part.content)); err != nil {
			return nil, err
		}
		if err := qp.Close(); err != nil {
			return nil, err
		}
	}
	if err := body.Close(); err != nil {
		return nil, err
	}
	return msg.Bytes(), nil
}

// UnsubscribeSignature signs a user's unsubscribe link with key.
func UnsubscribeSignature(key []byte, userID string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("digest-off\x00" + userID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// CheckUnsubscribe reports whether sig is the user's unsubscribe signature.
func CheckUnsubscribe(key []byte, userID, sig string) bool {
	return userID != "" && hmac.Equal([]byte(sig), []byte(UnsubscribeSignature(key, userID)))
}
