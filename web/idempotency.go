package web

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// Idempotent POSTs (docs/API.md §Concurrent writes). A POST may carry an Idempotency-Key; for the same caller
// and key within 24 h the same request (method, target and body) gets the first answer again,
// with Idempotent-Replayed: true, and has no second effect; another request is 422
// IDEMPOTENCY_KEY_REUSED, and one made while the first is still processed 409
// IDEMPOTENCY_KEY_IN_USE. The keys live in PostgreSQL (postgres/idempotency.go), so every
// instance sees them.
const (
	idempotencyKeyHeader = "Idempotency-Key"
	replayedHeader       = "Idempotent-Replayed"
	// idempotencyKeyMax is the longest key accepted (1–255 visible ASCII characters).
	idempotencyKeyMax = 255
	// replayBodyMax is the largest answer body kept for replays. POST answers are one
	// resource, or one region of a page for htmx, far below it; a larger answer is kept with
	// its status and headers only (a replay still does nothing twice, but has no body).
	replayBodyMax = 1 << 20
	// recordTimeout bounds recording an answer, which runs even when the client has gone:
	// that is when its retry needs the answer most.
	recordTimeout = 5 * time.Second
)

// validIdempotencyKey reports whether k is 1–255 visible ASCII characters (no spaces).
func validIdempotencyKey(k string) bool {
	if len(k) == 0 || len(k) > idempotencyKeyMax {
		return false
	}
	for i := range len(k) {
		if k[i] < 0x21 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// checkIdempotencyKey refuses a POST whose Idempotency-Key is not one valid key (400
// INVALID_IDEMPOTENCY_KEY), on every route, before anything else happens.
func checkIdempotencyKey(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method == http.MethodPost {
			if keys := r.Header.Values(idempotencyKeyHeader); len(keys) > 1 || len(keys) == 1 && !validIdempotencyKey(keys[0]) {
				return planner.Errorf(planner.CodeInvalidIdempotencyKey,
					"The Idempotency-Key header must be one key of 1 to 255 visible ASCII characters (letters, digits and punctuation, no spaces).")
			}
		}
		return next(c)
	}
}

// idempotencyKey is a caller's key as it is stored: its hash names the row, and the answer is
// sealed with a key derived from it, so the stored answers (a calendar feed's secret address,
// say) cannot be read from the database without the Idempotency-Key the client holds.
type idempotencyKey struct {
	owner string
	hash  []byte
	seal  cipher.AEAD
}

func newIdempotencyKey(owner, key string) (idempotencyKey, error) {
	hash := sha256.Sum256([]byte("tripplan idempotency key\x00" + key))
	secret := sha256.Sum256([]byte("tripplan idempotent answer\x00" + owner + "\x00" + key))
	block, err := aes.NewCipher(secret[:])
	if err != nil {
		return idempotencyKey{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return idempotencyKey{}, err
	}
	return idempotencyKey{owner: owner, hash: hash[:], seal: aead}, nil
}

// requestFingerprint is what makes two requests the same: method, target (path and query)
// and body.
func requestFingerprint(method, target string, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(method + "\x00" + target + "\x00"))
	h.Write(body)
	return h.Sum(nil)
}

// idempotent runs a POST carrying an Idempotency-Key once per caller and key: it claims the
// key (a transaction of its own), runs the handler with its answer held back, records the
// answer and only then sends it, so a client that saw the answer and retries gets it again.
// A 5xx, a 429 (nothing was done; try later) or a panic releases the claim instead, so a
// retry runs. Every route that requires a caller runs its POSTs through it (requireViewer),
// after authentication and the cross-origin check: the key is the caller's. Requests without
// the header, POSTs without a caller (sign-in and token exchange, whose answers are
// credentials kept only as hashes) and a link guest's (the store refuses them every change, so
// there is nothing to replay, and a guest keeps no key rows) run as they are.
func (s *Server) idempotent(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r, p := c.Request(), caller(c)
		key := r.Header.Get(idempotencyKeyHeader)
		if r.Method != http.MethodPost || key == "" || p == nil || p.Guest {
			return next(c)
		}
		body, err := io.ReadAll(r.Body) // within the body limit, which answers 413 beyond it
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		k, err := newIdempotencyKey(p.UserID, key)
		if err != nil {
			return err
		}
		fingerprint := requestFingerprint(r.Method, r.URL.RequestURI(), body)
		claim := planner.NewID()
		held, err := s.store.ClaimIdempotencyKey(r.Context(), k.owner, k.hash, fingerprint, claim)
		if err != nil {
			return err
		}
		if held != nil {
			return s.replay(c, k, fingerprint, held)
		}
		return s.runOnce(c, next, k, claim)
	}
}

// replay answers a request whose key another request holds: that request's answer when it is
// the same request and done.
func (s *Server) replay(c echo.Context, k idempotencyKey, fingerprint []byte, held *postgres.IdempotencyRecord) error {
	switch {
	case !bytes.Equal(held.Fingerprint, fingerprint):
		return planner.Errorf(planner.CodeIdempotencyKeyReused,
			"This Idempotency-Key was used for another request (method, path or body) in the last 24 hours; send a new key with a new request.")
	case !held.Done:
		c.Response().Header().Set("Retry-After", "1")
		return planner.Errorf(planner.CodeIdempotencyKeyInUse,
			"The first request with this Idempotency-Key is still being processed; wait for its answer or try again in a moment.")
	}
	header, body, err := openAnswer(k, held.Answer)
	if err != nil {
		return err
	}
	res := c.Response()
	for name, values := range header {
		res.Header()[name] = values
	}
	res.Header().Set(replayedHeader, "true")
	res.WriteHeader(held.Status)
	_, err = res.Write(body)
	return err
}

// runOnce runs the handler of a claimed request into a buffer, records or releases the claim,
// then sends the answer.
func (s *Server) runOnce(c echo.Context, next echo.HandlerFunc, k idempotencyKey, claim string) error {
	res := c.Response()
	out := res.Writer
	held := &heldAnswer{header: out.Header()}
	res.Writer = held
	finished := false
	defer func() {
		res.Writer = out
		if !finished { // a panic: nothing was sent, the recovery answers 500, a retry may run
			res.Committed, res.Status, res.Size = false, http.StatusOK, 0
			s.releaseIdempotencyKey(c, k, claim)
		}
	}()
	if err := next(c); err != nil {
		c.Error(err) // into the buffer now, so that the answer is known and kept
	}
	finished = true
	status := res.Status
	if status >= 500 || status == http.StatusTooManyRequests {
		s.releaseIdempotencyKey(c, k, claim)
	} else {
		s.recordAnswer(c, k, claim, status, held.body.Bytes())
	}
	out.WriteHeader(status)
	_, err := out.Write(held.body.Bytes())
	return err
}

// recordAnswer keeps the answer for the claim. A failure is logged, and the answer sent all the
// same: the claim then stays until IdempotencyClaimTimeout, answering IN_USE meanwhile.
func (s *Server) recordAnswer(c echo.Context, k idempotencyKey, claim string, status int, body []byte) {
	kept := http.Header{}
	for name, values := range c.Response().Header() {
		if replayedHeaderName(name) {
			kept[name] = values
		}
	}
	if len(body) > replayBodyMax {
		body = nil
		kept.Del(echo.HeaderContentType)
	}
	sealed, err := sealAnswer(k, kept, body)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), recordTimeout)
		defer cancel()
		err = s.store.RecordIdempotentAnswer(ctx, k.owner, k.hash, claim, status, sealed)
	}
	if err != nil {
		s.log.WarnContext(c.Request().Context(), "recording an idempotent answer", "err", err,
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
}

// releaseIdempotencyKey gives the claim up (a failure is logged: the claim then times out).
func (s *Server) releaseIdempotencyKey(c echo.Context, k idempotencyKey, claim string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), recordTimeout)
	defer cancel()
	if err := s.store.ReleaseIdempotencyKey(ctx, k.owner, k.hash, claim); err != nil {
		s.log.WarnContext(ctx, "releasing an idempotency key", "err", err,
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
}

// replayedHeaderName reports whether a replay repeats the answer's header: what the body is,
// where the created resource lives, and htmx's instructions. Cookies are not kept.
func replayedHeaderName(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case echo.HeaderContentType, "Content-Language", echo.HeaderLocation, "Etag":
		return true
	}
	return strings.HasPrefix(http.CanonicalHeaderKey(name), "Hx-")
}

// heldAnswer holds back what the handler writes until it is recorded. Headers go to the real
// writer's map (those set before the handler, such as the request id, stay).
type heldAnswer struct {
	header http.Header
	body   bytes.Buffer
}

func (h *heldAnswer) Header() http.Header         { return h.header }
func (h *heldAnswer) WriteHeader(int)             {} // echo.Response keeps the status
func (h *heldAnswer) Write(p []byte) (int, error) { return h.body.Write(p) }
func (h *heldAnswer) Flush()                      {} // nothing goes out before the answer is kept

// sealAnswer encodes the headers and body (the headers' JSON length, the headers, the body)
// and seals them: a random nonce, then AES-GCM under the key's secret, bound to its owner.
func sealAnswer(k idempotencyKey, header http.Header, body []byte) ([]byte, error) {
	h, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	plain := binary.BigEndian.AppendUint32(nil, uint32(len(h)))
	plain = append(append(plain, h...), body...)
	nonce := make([]byte, k.seal.NonceSize())
	rand.Read(nonce)
	return k.seal.Seal(nonce, nonce, plain, []byte(k.owner)), nil
}

// openAnswer is sealAnswer undone.
func openAnswer(k idempotencyKey, sealed []byte) (http.Header, []byte, error) {
	n := k.seal.NonceSize()
	if len(sealed) < n {
		return nil, nil, errors.New("idempotent answer too short")
	}
	plain, err := k.seal.Open(nil, sealed[:n], sealed[n:], []byte(k.owner))
	if err != nil {
		return nil, nil, err
	}
	if len(plain) < 4 || uint64(len(plain)-4) < uint64(binary.BigEndian.Uint32(plain)) {
		return nil, nil, errors.New("idempotent answer malformed")
	}
	size := binary.BigEndian.Uint32(plain)
	var header http.Header
	if err := json.Unmarshal(plain[4:4+size], &header); err != nil {
		return nil, nil, err
	}
	return header, plain[4+size:], nil
}
