package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"

	"tripplan/static"
)

func TestNegotiateEncoding(t *testing.T) {
	for header, want := range map[string]string{
		"":                           "",
		"identity":                   "",
		"deflate":                    "",
		"gzip":                       "gzip",
		"x-gzip":                     "gzip",
		"br":                         "br",
		"BR":                         "br",
		"gzip, deflate, br":          "br", // equal q: br is smaller
		"gzip;q=1, br;q=0.5":         "gzip",
		"gzip;q=0.8, br;q=0.8":       "br",
		"br;q=0, gzip":               "gzip",
		"br;q=0, gzip;q=0":           "",
		"gzip;q=0":                   "",
		"*":                          "br",
		"*;q=0.5, gzip":              "gzip",
		"*;q=0":                      "",
		"gzip;q=nonsense":            "",
		"gzip;q=2":                   "",
		" gzip ; q=0.3 , br ; q=0.2": "gzip",
	} {
		if got := negotiateEncoding(header); got != want {
			t.Errorf("Accept-Encoding %q: %q, want %q", header, got, want)
		}
	}
}

func TestCompressibleTypes(t *testing.T) {
	for typ, want := range map[string]bool{
		"text/html; charset=utf-8": true, "application/json": true, "application/problem+json": true,
		"text/css; charset=utf-8": true, "text/javascript; charset=utf-8": true, "image/svg+xml": true,
		"text/calendar; charset=utf-8": true, "application/gpx+xml": true, "text/csv; charset=utf-8": true,
		"text/event-stream": false, "image/png": false, "application/octet-stream": false, "": false,
	} {
		if got := static.Compressible(typ); got != want {
			t.Errorf("%q: %v", typ, got)
		}
	}
}

func TestEntityTags(t *testing.T) {
	if got := withEncoding(`W/"abc"`, "br"); got != `W/"abc-br"` {
		t.Errorf("br: %s", got)
	}
	if got := withEncoding(`"abc"`, "gzip"); got != `"abc-gz"` {
		t.Errorf("gzip: %s", got)
	}
	for _, tag := range []string{`W/"abc-br"`, `"abc-gz"`, `W/"abc"`, `"abc"`} {
		if !matches(tag, `W/"abc"`) || !matches(`"x", `+tag, `"abc-br"`) {
			t.Errorf("%s does not match its entity", tag)
		}
	}
	if matches(`W/"abd-br"`, `W/"abc"`) || matches(`W/"abc-zz"`, `W/"abc"`) {
		t.Error("another entity matches")
	}
}

// decode is a body as it was before Content-Encoding enc ("" for none).
func decode(enc string, body []byte) ([]byte, error) {
	switch enc {
	case "":
		return body, nil
	case "br":
		return io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
	case "gzip":
		z, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(z)
	}
	return nil, fmt.Errorf("unknown Content-Encoding %q", enc)
}

func decoded(t *testing.T, enc string, body []byte) []byte {
	t.Helper()
	out, err := decode(enc, body)
	if err != nil {
		t.Fatalf("%s: %v", enc, err)
	}
	return out
}

func varies(h http.Header) bool {
	for _, v := range h.Values("Vary") {
		if strings.Contains(v, "Accept-Encoding") {
			return true
		}
	}
	return false
}

// The API document (JSON, about 200 KB) as each Accept-Encoding asks, the same entity under
// each encoding's ETag, and 304 for whichever tag the client holds.
func TestCompressedAnswers(t *testing.T) {
	a := newTestApp(t)
	get := func(ae string, header ...string) response {
		h := map[string]string{"Accept-Encoding": ae}
		for i := 0; i+1 < len(header); i += 2 {
			h[header[i]] = header[i+1]
		}
		return a.do(req{Method: "GET", Path: "/openapi.json", Header: h})
	}
	plain := get("identity")
	tag := plain.Header.Get("ETag")
	type plainShape struct {
		Status                        int
		Encoding                      string
		Varies, WeakETag, AtLeast10KB bool
	}
	if diff := cmp.Diff(plainShape{Status: 200, Varies: true, WeakETag: true, AtLeast10KB: true},
		plainShape{Status: plain.Status, Encoding: plain.Header.Get("Content-Encoding"), Varies: varies(plain.Header),
			WeakETag: strings.HasPrefix(tag, `W/"`), AtLeast10KB: len(plain.Body) >= 10000}); diff != "" {
		t.Fatalf("identity (-want +got):\n%s\n%v", diff, plain.Header)
	}
	for ae, enc := range map[string]string{"br": "br", "gzip, deflate, br": "br", "gzip": "gzip", "br;q=0.5, gzip": "gzip", "*": "br",
		"br;q=0, gzip;q=0": "", "deflate": ""} {
		res := get(ae)
		if res.Status != 200 || res.Header.Get("Content-Encoding") != enc || !varies(res.Header) {
			t.Fatalf("%q: %d %q %v", ae, res.Status, res.Header.Get("Content-Encoding"), res.Header)
		}
		if got := decoded(t, enc, res.Body); !bytes.Equal(got, plain.Body) {
			t.Fatalf("%q: decoded body differs (%d bytes, want %d)", ae, len(got), len(plain.Body))
		}
		want := tag
		if enc != "" {
			want = tag[:len(tag)-1] + map[string]string{"br": "-br", "gzip": "-gz"}[enc] + `"`
			if len(res.Body) > len(plain.Body)/3 {
				t.Errorf("%q: %d bytes of %d", ae, len(res.Body), len(plain.Body))
			}
		}
		if res.Header.Get("ETag") != want {
			t.Errorf("%q: ETag %s, want %s", ae, res.Header.Get("ETag"), want)
		}
	}
	// The brotli form is current whatever form the client holds; the 304 gives back its tag.
	brTag := tag[:len(tag)-1] + `-br"`
	for _, held := range []string{brTag, tag, `"other", ` + brTag} {
		res := get("br, gzip", "If-None-Match", held)
		if res.Status != http.StatusNotModified || len(res.Body) != 0 || res.Header.Get("Content-Encoding") != "" || !varies(res.Header) {
			t.Fatalf("If-None-Match %s: %d %v", held, res.Status, res.Header)
		}
		if want := strings.TrimPrefix(held, `"other", `); res.Header.Get("ETag") != want {
			t.Errorf("If-None-Match %s: ETag %s", held, res.Header.Get("ETag"))
		}
	}
	// A range asks for bytes of the plain form: not compressed.
	if res := get("br", "Range", "bytes=0-9"); res.Header.Get("Content-Encoding") != "" {
		t.Errorf("range: %v", res.Header)
	}
	// Small answers go as they are, still marked as varying.
	if res := a.do(req{Method: "GET", Path: "/healthz", Header: map[string]string{"Accept-Encoding": "br"}}); res.Status != 200 ||
		res.Header.Get("Content-Encoding") != "" || len(res.Body) >= static.CompressMin || !varies(res.Header) {
		t.Errorf("healthz: %d %v %q", res.Status, res.Header, res.Body)
	}
}

// The middleware on its own: HEAD, 204, already-encoded and no-transform answers pass, and a
// handler that flushes has its bytes sent at each flush.
func TestCompressPassesThrough(t *testing.T) {
	big := strings.Repeat("<p>Seoul in spring</p>", 100)
	e := echo.New()
	e.Use(compress)
	e.Add(http.MethodHead, "/page", func(c echo.Context) error { return c.HTML(200, big) })
	e.GET("/page", func(c echo.Context) error { return c.HTML(200, big) })
	e.GET("/empty", func(c echo.Context) error { return c.NoContent(204) })
	e.GET("/encoded", func(c echo.Context) error {
		c.Response().Header().Set("Content-Encoding", "gzip")
		return c.Blob(200, "text/css", []byte(big)) // pretend: what matters is that it is not encoded twice
	})
	e.GET("/raw", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-transform")
		return c.HTML(200, big)
	})
	do := func(method, path string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, nil)
		r.Header.Set("Accept-Encoding", "br, gzip")
		w := httptest.NewRecorder()
		e.ServeHTTP(w, r)
		return w
	}
	if w := do("GET", "/page"); w.Header().Get("Content-Encoding") != "br" || string(decoded(t, "br", w.Body.Bytes())) != big {
		t.Fatalf("GET: %v", w.Header())
	}
	if w := do("HEAD", "/page"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("HEAD: %d %v", w.Code, w.Header())
	}
	if w := do("GET", "/empty"); w.Code != 204 || w.Header().Get("Content-Encoding") != "" || w.Body.Len() != 0 {
		t.Errorf("204: %v", w.Header())
	}
	if w := do("GET", "/encoded"); w.Header().Get("Content-Encoding") != "gzip" || w.Body.String() != big {
		t.Errorf("encoded twice: %v", w.Header())
	}
	if w := do("GET", "/raw"); w.Header().Get("Content-Encoding") != "" || w.Body.String() != big {
		t.Errorf("no-transform: %v", w.Header())
	}
}

// A live stream asked for with every encoding is sent as it is, and an event reaches the
// client while the stream stays open.
func TestEventStreamNotCompressed(t *testing.T) {
	f := newPlanFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := http.NewRequestWithContext(ctx, "GET", f.a.http.URL+"/plans/"+f.plan.PlanID+"/events", nil)
	r.Header.Set("Authorization", "Bearer "+f.ben)
	r.Header.Set("Accept-Encoding", "br, gzip")
	res, err := http.DefaultClient.Do(r)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("subscribe: %v %v", err, res)
	}
	s := &sse{body: bufio.NewReader(res.Body), cancel: cancel}
	t.Cleanup(func() { cancel(); res.Body.Close() })
	if res.Header.Get("Content-Encoding") != "" || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream headers: %v", res.Header)
	}
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	for ev := s.next(t, 10*time.Second); ev.Event != "block"; ev = s.next(t, 10*time.Second) {
	}
}
