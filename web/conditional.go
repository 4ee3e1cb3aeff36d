package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// conditionalGET gives successful GET answers an ETag (a hash of the body, weak, since the
// same body may be sent differently encoded) and answers 304 Not Modified, with no body, when
// the client already holds it (If-None-Match): a client polling a plan that did not change
// receives a few headers. Answers that manage their own validators or are streamed (Server-Sent
// Events, anything flushed early) pass through untouched. The handler still runs, so access is
// checked on every request; cached day listings make that cheap.
func conditionalGET(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if m := c.Request().Method; m != http.MethodGet && m != http.MethodHead {
			return next(c)
		}
		res := c.Response()
		w := &etagWriter{ResponseWriter: res.Writer, req: c.Request()}
		res.Writer = w
		defer func() { res.Writer = w.ResponseWriter }()
		err := next(c)
		if ferr := w.finish(); err == nil {
			err = ferr
		}
		if w.notModified {
			res.Status = http.StatusNotModified // for the request log
		}
		return err
	}
}

// etagWriter holds a 200 answer's body until the handler is done, to validate it whole.
type etagWriter struct {
	http.ResponseWriter
	req     *http.Request
	status  int
	buf     bytes.Buffer
	through bool // not ours to validate: written straight to the client
	// notModified: the client's copy was current, 304 was sent.
	notModified bool
}

func (w *etagWriter) WriteHeader(status int) {
	h := w.Header()
	w.status = status
	if status != http.StatusOK || h.Get("ETag") != "" || h.Get("Last-Modified") != "" ||
		strings.HasPrefix(h.Get(echo.HeaderContentType), "text/event-stream") {
		w.through = true
		w.ResponseWriter.WriteHeader(status)
	}
}

func (w *etagWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.through {
		return w.ResponseWriter.Write(b)
	}
	return w.buf.Write(b)
}

// Flush means the handler streams: send what is held and stop holding.
func (w *etagWriter) Flush() {
	if !w.through && w.status != 0 {
		w.through = true
		w.ResponseWriter.WriteHeader(w.status)
		w.ResponseWriter.Write(w.buf.Bytes())
		w.buf.Reset()
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *etagWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish sends the held answer: 304 when the client's copy is current, else the body with
// its ETag.
func (w *etagWriter) finish() error {
	if w.through || w.status == 0 {
		return nil
	}
	tag := etagOf(w.buf.Bytes())
	h := w.Header()
	h.Set("ETag", tag)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "private, no-cache") // keep it, but ask each time
	}
	if matches(w.req.Header.Get("If-None-Match"), tag) {
		for _, k := range []string{echo.HeaderContentType, echo.HeaderContentLength} {
			h.Del(k)
		}
		w.notModified = true
		w.ResponseWriter.WriteHeader(http.StatusNotModified)
		return nil
	}
	w.ResponseWriter.WriteHeader(http.StatusOK)
	_, err := w.ResponseWriter.Write(w.buf.Bytes())
	return err
}

// etagOf is the ETag of a body: weak, a hash of it.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
}

// matches applies If-None-Match's weak comparison: any listed tag (or *) equal to tag,
// ignoring W/ prefixes and encoding suffixes (entity: the client may hold the answer
// compressed, under the tag compress gave it).
func matches(header, tag string) bool {
	if header == "" {
		return false
	}
	want := entity(tag)
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || entity(t) == want {
			return true
		}
	}
	return false
}
