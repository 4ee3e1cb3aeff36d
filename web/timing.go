package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/postgres"
)

// meterKey is where a request's meter is kept (c.Get).
const meterKey = "meter"

// meter follows a request for the Server-Timing header and the request log: the time since
// it arrived, the statements it sent and the time they waited for the database, the time
// spent rendering HTML, whether its answer came from a cache, and the bytes written to the
// client (compressed, as sent).
type meter struct {
	start   time.Time
	db      *postgres.DBTime
	render  time.Duration // rendering pages and partials (templ), 0 for other answers
	cache   string        // "hit" or "miss" when the answer could come from a cache; "" otherwise
	written int64
}

// header is the Server-Timing value, durations in milliseconds:
// db;dur=…;desc="N statements"[, render;dur=…][, cache;desc="hit"|"miss"], app;dur=….
func (m *meter) header() string {
	ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', -1, 64) }
	v := "db;dur=" + ms(m.db.Duration()) + `;desc="` + strconv.FormatInt(m.db.Statements(), 10) + ` statements"`
	if m.render > 0 {
		v += ", render;dur=" + ms(m.render)
	}
	if m.cache != "" {
		v += `, cache;desc="` + m.cache + `"`
	}
	return v + ", app;dur=" + ms(time.Since(m.start))
}

// measure gives every answer a Server-Timing header, written with its status line, so error
// answers, 304s, static files and CORS preflights have one too; errors are written here, while
// the meter still watches. It also counts the bytes sent, for the request log.
func measure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, db := postgres.WithTiming(c.Request().Context())
		m := &meter{start: time.Now(), db: db}
		c.Set(meterKey, m)
		c.SetRequest(c.Request().WithContext(ctx))
		res := c.Response()
		w := &meterWriter{ResponseWriter: res.Writer, m: m}
		res.Writer = w
		defer func() { res.Writer = w.ResponseWriter }()
		if err := next(c); err != nil {
			c.Error(err)
		}
		return nil
	}
}

// meterOf is the request's meter, or nil outside measure.
func meterOf(c echo.Context) *meter {
	m, _ := c.Get(meterKey).(*meter)
	return m
}

// cacheAnswered records whether the answer came from a cache (Server-Timing's cache entry).
func cacheAnswered(c echo.Context, hit bool) {
	if m := meterOf(c); m != nil {
		m.cache = "miss"
		if hit {
			m.cache = "hit"
		}
	}
}

// meterWriter stamps Server-Timing on the status line and counts the body's bytes.
type meterWriter struct {
	http.ResponseWriter
	m       *meter
	written bool // the status line is out
}

func (w *meterWriter) WriteHeader(status int) {
	if !w.written {
		w.written = true
		w.Header().Set("Server-Timing", w.m.header())
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *meterWriter) Write(b []byte) (int, error) {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.m.written += int64(n)
	return n, err
}

func (w *meterWriter) Flush() {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *meterWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
