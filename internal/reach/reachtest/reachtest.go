// Package reachtest holds local fakes of the services package reach talks to, speaking their
// real protocols, for tests: a Web Push service that checks the VAPID signature (RFC 8292)
// and decrypts the payload (RFC 8291) as a browser would, and an SMTP server.
package reachtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/golang-jwt/jwt/v5"
)

// Browser is the receiving side of Web Push: a P-256 key pair and an auth secret, as a
// browser's PushManager.subscribe makes them.
type Browser struct {
	key  *ecdh.PrivateKey
	auth []byte
}

// NewBrowser makes a browser's keys.
func NewBrowser(t testing.TB) *Browser {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	return &Browser{key: key, auth: auth}
}

// Keys are the subscription's keys as PushSubscription.toJSON() gives them.
func (b *Browser) Keys() map[string]string {
	return map[string]string{"p256dh": base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes()),
		"auth": base64.RawURLEncoding.EncodeToString(b.auth)}
}

// Decrypt opens an aes128gcm message (RFC 8188) encrypted for the browser (RFC 8291).
func (b *Browser) Decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("shorter than the aes128gcm header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 {
		return nil, fmt.Errorf("key id of %d bytes, want the sender's 65-byte public key", idlen)
	}
	sender, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, err
	}
	record := body[21+idlen:]
	if uint32(len(record)) > rs {
		return nil, fmt.Errorf("one record of %d bytes is more than the record size %d", len(record), rs)
	}
	secret, err := b.key.ECDH(sender)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), sender.Bytes()...)
	ikm, err := hkdf.Key(sha256.New, secret, b.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, err
	}
	// The last (here only) record ends with the delimiter 2, then zero padding.
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// Push is one push the fake service accepted, decrypted.
type Push struct {
	Endpoint string
	Payload  []byte
	Header   http.Header
}

// PushService is a fake push service: endpoints are its URL + /push/<name>. It checks each
// request's VAPID JWT against the server's public key and decrypts the payload with the
// browser registered for the endpoint. An endpoint under /gone/ answers 410 Gone.
type PushService struct {
	*httptest.Server
	vapid    *ecdsa.PublicKey
	vapidB64 string

	mu       sync.Mutex
	browsers map[string]*Browser
	// Pushes receives every accepted push; Errors every refused request's reason.
	Pushes chan Push
	Errors chan error
}

// NewPushService starts a fake push service trusting the VAPID public key (base64url).
func NewPushService(t testing.TB, vapidPublicKey string) *PushService {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(vapidPublicKey, "="))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		t.Fatal(err)
	}
	s := &PushService{vapid: pub, vapidB64: base64.RawURLEncoding.EncodeToString(raw), browsers: map[string]*Browser{},
		Pushes: make(chan Push, 100), Errors: make(chan error, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Endpoint registers a browser under a name and answers its endpoint; gone makes it answer 410.
func (s *PushService) Endpoint(b *Browser, name string, gone bool) string {
	path := "/push/" + name
	if gone {
		path = "/gone/" + name
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.browsers[path] = b
	return s.URL + path
}

func (s *PushService) serve(w http.ResponseWriter, r *http.Request) {
	if err := s.check(r); err != nil {
		s.Errors <- err
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	b := s.browsers[r.URL.Path]
	s.mu.Unlock()
	if b == nil {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8192))
	if strings.HasPrefix(r.URL.Path, "/gone/") {
		s.Pushes <- Push{Endpoint: s.URL + r.URL.Path, Header: r.Header}
		w.WriteHeader(http.StatusGone)
		return
	}
	plain, err := b.Decrypt(body)
	if err != nil {
		s.Errors <- fmt.Errorf("decrypt: %w", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.Pushes <- Push{Endpoint: s.URL + r.URL.Path, Payload: plain, Header: r.Header}
	w.WriteHeader(http.StatusCreated)
}

// check is what a push service asks of a request (RFC 8030, 8292): POST, aes128gcm, a TTL, and
// a VAPID JWT signed by the key it names, for this origin, not expired, with a contact.
func (s *PushService) check(r *http.Request) error {
	if r.Method != http.MethodPost || r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") == "" {
		return fmt.Errorf("want a POST with Content-Encoding aes128gcm and a TTL, got %s %q TTL %q", r.Method,
			r.Header.Get("Content-Encoding"), r.Header.Get("TTL"))
	}
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "vapid ")
	if !ok {
		return errors.New("no vapid Authorization")
	}
	var token, key string
	for _, part := range strings.Split(auth, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			token = v
		case "k":
			key = v
		}
	}
	if key != s.vapidB64 {
		return fmt.Errorf("k=%q is not the server's VAPID public key", key)
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return s.vapid, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(s.URL), jwt.WithExpirationRequired())
	if err != nil {
		return fmt.Errorf("VAPID JWT: %w", err)
	}
	exp, _ := claims.GetExpirationTime()
	if exp.After(time.Now().Add(24 * time.Hour)) {
		return errors.New("VAPID JWT expires more than 24 hours from now (RFC 8292)")
	}
	if sub, _ := claims["sub"].(string); !strings.HasPrefix(sub, "mailto:") && !strings.HasPrefix(sub, "https:") {
		return fmt.Errorf("VAPID sub %q is not a mailto: or https: contact", sub)
	}
	return nil
}

// Mail is one message the fake SMTP server received.
type Mail struct {
	From string
	To   []string
	Data []byte
}

// SMTPServer is an in-process SMTP server (go-smtp) that keeps what it receives.
type SMTPServer struct {
	Addr string
	// Mails receives every message accepted.
	Mails chan Mail
}

// NewSMTPServer starts an SMTP server on a local port, without TLS or authentication.
func NewSMTPServer(t testing.TB) *SMTPServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &SMTPServer{Addr: ln.Addr().String(), Mails: make(chan Mail, 100)}
	srv := smtp.NewServer(smtpBackend{s})
	srv.Domain = "localhost"
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

type smtpBackend struct{ s *SMTPServer }

func (b smtpBackend) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{s: b.s}, nil }

type smtpSession struct {
	s *SMTPServer
	m Mail
}

func (x *smtpSession) Reset()        { x.m = Mail{} }
func (x *smtpSession) Logout() error { return nil }
func (x *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	x.m.From = from
	return nil
}
func (x *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.m.To = append(x.m.To, to)
	return nil
}
func (x *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.m.Data = data
	x.s.Mails <- x.m
	return nil
}
