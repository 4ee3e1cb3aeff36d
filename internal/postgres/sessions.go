package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"
)

// SessionStore is a gorilla/sessions store that keeps browser sessions in PostgreSQL. The
// cookie carries only a signed random secret; the row (keyed by the secret's SHA-256) holds the
// values, so every instance shares sessions and deleting the row revokes a copied cookie.
type SessionStore struct {
	db      *DB
	codecs  []securecookie.Codec
	Options *sessions.Options
}

// SessionUserKey is the session value naming the signed-in user; it is also copied to the
// row's user_id so that all of a user's sessions can be revoked at once.
const SessionUserKey = "user_id"

// NewSessionStore signs cookies with keyPairs (as gorilla's securecookie.CodecsFromPairs).
func (db *DB) NewSessionStore(opts sessions.Options, keyPairs ...[]byte) *SessionStore {
	codecs := securecookie.CodecsFromPairs(keyPairs...)
	for _, c := range codecs {
		if sc, ok := c.(*securecookie.SecureCookie); ok {
			sc.MaxAge(0) // expiry is the row's job
		}
	}
	o := opts
	return &SessionStore{db: db, codecs: codecs, Options: &o}
}

// Get returns the session for name from the request's registry (one load per request).
func (s *SessionStore) Get(r *http.Request, name string) (*sessions.Session, error) {
	return sessions.GetRegistry(r).Get(s, name)
}

// New loads the session named by the request's cookie, or returns a new empty one. A missing,
// forged or expired cookie gives a new session, not an error.
func (s *SessionStore) New(r *http.Request, name string) (*sessions.Session, error) {
	session := sessions.NewSession(s, name)
	o := *s.Options
	session.Options = &o
	session.IsNew = true
	c, err := r.Cookie(name)
	if err != nil {
		return session, nil
	}
	var secret string
	if securecookie.DecodeMulti(name, c.Value, &secret, s.codecs...) != nil {
		return session, nil
	}
	var data []byte
	err = s.db.GetContext(r.Context(), &data,
		`SELECT data FROM web_sessions WHERE id = $1 AND expires_at > now()`, sessionKey(secret))
	if errors.Is(err, sql.ErrNoRows) {
		return session, nil
	}
	if err != nil {
		return session, mapError(err)
	}
	if err := (securecookie.GobEncoder{}).Deserialize(data, &session.Values); err != nil {
		return session, nil
	}
	session.ID = secret
	session.IsNew = false
	return session, nil
}

// Save writes the session row and cookie; MaxAge < 0 deletes both.
func (s *SessionStore) Save(r *http.Request, w http.ResponseWriter, session *sessions.Session) error {
	ctx := r.Context()
	if session.Options.MaxAge < 0 {
		if session.ID != "" {
			if _, err := s.db.ExecContext(ctx, `DELETE FROM web_sessions WHERE id = $1`, sessionKey(session.ID)); err != nil {
				return mapError(err)
			}
		}
		http.SetCookie(w, sessions.NewCookie(session.Name(), "", session.Options))
		return nil
	}
	if session.ID == "" {
		b := make([]byte, 32)
		rand.Read(b)
		session.ID = base64.RawURLEncoding.EncodeToString(b)
	}
	data, err := (securecookie.GobEncoder{}).Serialize(session.Values)
	if err != nil {
		return err
	}
	userID, _ := session.Values[SessionUserKey].(string)
	expires := time.Now().Add(time.Duration(session.Options.MaxAge) * time.Second)
	_, err = s.db.ExecContext(ctx, `
		INSERT INTO web_sessions (id, user_id, data, expires_at) VALUES ($1, NULLIF($2, ''), $3, $4)
		ON CONFLICT (id) DO UPDATE SET user_id = EXCLUDED.user_id, data = EXCLUDED.data,
			expires_at = EXCLUDED.expires_at, updated_at = now()`,
		sessionKey(session.ID), userID, data, expires)
	if err != nil {
		return mapError(err)
	}
	encoded, err := securecookie.EncodeMulti(session.Name(), session.ID, s.codecs...)
	if err != nil {
		return err
	}
	http.SetCookie(w, sessions.NewCookie(session.Name(), encoded, session.Options))
	return nil
}

// RevokeUserSessions deletes every browser session of a user.
func (db *DB) RevokeUserSessions(ctx context.Context, userID string) (err error) {
	defer named(&err)
	if err := writer(userID); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = $1`, userID)
	return mapError(err)
}

func sessionKey(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}
