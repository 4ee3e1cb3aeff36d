package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"

	"tripplan/static"
)

// Levels for answers compressed as they are sent: the fastest, since a page is compressed at
// every request (static files are compressed once, at the best levels: static.Asset). On the
// 95 KB plan page of the demo, brotli 1 takes about 0.3 ms for 13.7 KB where brotli 4 takes
// 2.5 ms for 11.9 KB, gzip 1 about 0.4 ms for 15.3 KB where gzip 5 takes 2–3 ms for 12.7 KB
// (docs/PERFORMANCE.md).
const (
	brotliLevel = 1
	gzipLevel   = 1
)

var (
	gzipWriters   = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzipLevel); return w }}
	brotliWriters = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, brotliLevel) }}
)

// compressor is what gzip and brotli writers share.
type compressor interface {
	io.WriteCloser
	Flush() error
	Reset(io.Writer)
}

// negotiateEncoding picks the content coding of an answer from Accept-Encoding: "br" or
// "gzip", whichever has the higher q-value (br on a tie, being smaller), or "" (identity)
// when the header is absent or accepts neither. A coding not listed takes the q of "*" if
// there is one, else is not acceptable; q=0 refuses.
func negotiateEncoding(header string) string {
	if header == "" {
		return ""
	}
	star := -1.0
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "x-gzip" {
			name = "gzip"
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
				weight = f
			} else {
				weight = 0 // a q we cannot read accepts nothing
			}
		}
		if name == "*" {
			star = weight
		} else if name == "br" || name == "gzip" {
			q[name] = weight
		}
	}
	of := func(name string) float64 {
		if w, ok := q[name]; ok {
			return w
		}
		return max(star, 0)
	}
	br, gz := of("br"), of("gzip")
	switch {
	case br > 0 && br >= gz:
		return "br"
	case gz > 0:
		return "gzip"
	}
	return ""
}

// answerEncoding is the content coding of the answer to r: as Accept-Encoding asks, but none
// for HEAD and Range requests.
func answerEncoding(r *http.Request) string {
	if r.Method == http.MethodHead || r.Header.Get("Range") != "" {
		return ""
	}
	return negotiateEncoding(r.Header.Get("Accept-Encoding"))
}

// encodeBody is body compressed with enc ("br" or "gzip") at the levels compress uses.
func encodeBody(enc string, body []byte) ([]byte, error) {
	pool := &gzipWriters
	if enc == "br" {
		pool = &brotliWriters
	}
	var out bytes.Buffer
	z := pool.Get().(compressor)
	defer func() {
		z.Reset(io.Discard)
		pool.Put(z)
	}()
	z.Reset(&out)
	if _, err := z.Write(body); err != nil {
		return nil, err
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// encodingSuffix is what an encoded representation's ETag gets inside its quotes, as nginx
// and Caddy do: the same entity compressed is another representation.
var encodingSuffix = map[string]string{"br": "-br", "gzip": "-gz"}

// withEncoding is tag ("abc" or W/"abc") for the representation encoded with enc.
func withEncoding(tag, enc string) string {
	if !strings.HasSuffix(tag, `"`) || len(tag) < 2 {
		return tag
	}
	return tag[:len(tag)-1] + encodingSuffix[enc] + `"`
}

// entity is a tag's opaque part without W/ and without an encoding suffix: what
// If-None-Match compares, so a client holding the brotli form of an answer is current when
// its entity is.
func entity(tag string) string {
	t := strings.TrimPrefix(tag, "W/")
	for _, suffix := range encodingSuffix {
		if strings.HasSuffix(t, suffix+`"`) {
			return t[:len(t)-len(suffix)-1] + `"`
		}
	}
	return t
}

// addVary adds token to the Vary header unless it is there.
func addVary(h http.Header, token string) {
	for _, v := range h.Values("Vary") {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return
			}
		}
	}
	h.Add("Vary", token)
}

// compress sends text answers of CompressMin bytes or more brotli- or gzip-encoded, as
// Accept-Encoding asks (negotiateEncoding), with Vary: Accept-Encoding on every text answer.
// Not compressed: HEAD and Range requests, 1xx, 204 and 304 answers, answers already encoded
// (static files, compressed once: staticFile) or marked no-transform, and event streams, which
// go out event by event untouched. Errors are written here (as logRequests would), so problem
// answers are compressed too. An ETag gets the encoding's suffix (withEncoding); a 304 gives
// back the tag the client sent.
func compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r, res := c.Request(), c.Response()
		enc := answerEncoding(r)
		w := &compressWriter{ResponseWriter: res.Writer, enc: enc, ifNoneMatch: r.Header.Get("If-None-Match")}
		res.Writer = w
		defer func() { res.Writer = w.ResponseWriter }()
		if err := next(c); err != nil {
			c.Error(err)
		}
		w.close()
		return nil
	}
}

// compressWriter decides at WriteHeader whether an answer may be compressed, then holds its
// first CompressMin bytes to see whether it is worth it.
type compressWriter struct {
	http.ResponseWriter
	enc         string
	ifNoneMatch string
	status      int
	state       writeState
	held        []byte
	z           compressor
}

type writeState int

const (
	undecided  writeState = iota
	holding               // may be compressed: body held until CompressMin bytes or the end
	through               // sent as it is
	compressed            // sent through z
)

func (w *compressWriter) WriteHeader(status int) {
	if w.state != undecided {
		return
	}
	h := w.Header()
	text := static.Compressible(h.Get(echo.HeaderContentType))
	if text || status == http.StatusNotModified {
		addVary(h, "Accept-Encoding")
	}
	if status == http.StatusNotModified {
		w.sameTag()
	}
	w.status = status
	if w.enc == "" || !text || status < 200 || status == http.StatusNoContent || status == http.StatusNotModified ||
		h.Get("Content-Encoding") != "" || strings.Contains(h.Get(echo.HeaderCacheControl), "no-transform") {
		w.state = through
		w.ResponseWriter.WriteHeader(status)
		return
	}
	if n, err := strconv.Atoi(h.Get(echo.HeaderContentLength)); err == nil && n < static.CompressMin {
		w.state = through
		w.ResponseWriter.WriteHeader(status)
		return
	}
	w.state = holding
}

// sameTag gives a 304 the tag the client holds when it names the same entity (its encoded
// form, say), so the client keeps the headers of what it has.
func (w *compressWriter) sameTag() {
	tag := w.Header().Get("ETag")
	if tag == "" {
		return
	}
	for _, t := range strings.Split(w.ifNoneMatch, ",") {
		if t = strings.TrimSpace(t); entity(t) == entity(tag) {
			w.Header().Set("ETag", t)
			return
		}
	}
}

func (w *compressWriter) Write(b []byte) (int, error) {
	if w.state == undecided {
		w.WriteHeader(http.StatusOK)
	}
	switch w.state {
	case through:
		return w.ResponseWriter.Write(b)
	case compressed:
		return w.z.Write(b)
	}
	w.held = append(w.held, b...)
	if len(w.held) >= static.CompressMin {
		if err := w.start(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// start sends the headers of the encoded answer and what was held, encoded.
func (w *compressWriter) start() error {
	h := w.Header()
	h.Del(echo.HeaderContentLength)
	h.Set("Content-Encoding", w.enc)
	if tag := h.Get("ETag"); tag != "" {
		h.Set("ETag", withEncoding(tag, w.enc))
	}
	w.ResponseWriter.WriteHeader(w.status)
	if w.enc == "br" {
		w.z = brotliWriters.Get().(compressor)
	} else {
		w.z = gzipWriters.Get().(compressor)
	}
	w.z.Reset(w.ResponseWriter)
	w.state = compressed
	_, err := w.z.Write(w.held)
	w.held = nil
	return err
}

// Flush sends what there is: a handler that flushes streams, so compression starts now
// whatever the size.
func (w *compressWriter) Flush() {
	switch w.state {
	case holding:
		if w.start() != nil {
			return
		}
		w.z.Flush()
	case compressed:
		w.z.Flush()
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// close ends the answer: a held short body goes out as it is; an encoder is finished and
// put back.
func (w *compressWriter) close() {
	switch w.state {
	case holding:
		w.state = through
		w.ResponseWriter.WriteHeader(w.status)
		w.ResponseWriter.Write(w.held)
		w.held = nil
	case compressed:
		w.z.Close()
		w.z.Reset(io.Discard)
		if w.enc == "br" {
			brotliWriters.Put(w.z)
		} else {
			gzipWriters.Put(w.z)
		}
		w.z = nil
		w.state = through
	}
}
