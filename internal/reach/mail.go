package reach

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// Mailer sends one message, its headers and body as RFC 5322 text, to one address.
type Mailer interface {
	Send(ctx context.Context, from, to string, msg []byte) error
}

// SMTP sends mail through a server named by a URL (SMTP_URL): smtp://user:pass@host:port
// (STARTTLS when the server offers it; port 587 by default) or smtps://… (TLS from the start;
// port 465 by default). User and password are optional.
type SMTP struct {
	u *url.URL
}

// NewSMTP checks an SMTP_URL.
func NewSMTP(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") {
		return nil, errors.New("must be smtp://user:password@host:port or smtps://…")
	}
	return &SMTP{u: u}, nil
}

// Host is the server's host and port, for logs (never the credentials).
func (s *SMTP) Host() string { return s.addr() }

func (s *SMTP) addr() string {
	port := s.u.Port()
	if port == "" {
		port = map[string]string{"smtp": "587", "smtps": "465"}[s.u.Scheme]
	}
	return net.JoinHostPort(s.u.Hostname(), port)
}

// Send delivers one message in one connection.
func (s *SMTP) Send(ctx context.Context, from, to string, msg []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	d := net.Dialer{}
	var conn net.Conn
	var err error
	host := s.u.Hostname()
	if s.u.Scheme == "smtps" {
		conn, err = (&tls.Dialer{NetDialer: &d, Config: &tls.Config{ServerName: host}}).DialContext(ctx, "tcp", s.addr())
	} else {
		conn, err = d.DialContext(ctx, "tcp", s.addr())
	}
	if err != nil {
		return err
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
	}
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		return err
	}
	defer c.Close()
	if s.u.Scheme == "smtp" {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(&tls.Config{ServerName: host}); err != nil {
				return err
			}
		}
	}
	if s.u.User != nil {
		pass, _ := s.u.User.Password()
		// net/smtp refuses PLAIN over an unencrypted connection except to localhost.
		if err := c.Auth(smtp.PlainAuth("", s.u.User.Username(), pass, host)); err != nil {
			return err
		}
	}
	if err := c.Mail(from); err != nil {
		return err
	}
	if err := c.Rcpt(to); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("the server refused the message: %w", err)
	}
	return c.Quit()
}

// headerSafe keeps a header value on its line.
func headerSafe(s string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(s) }
