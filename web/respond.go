package web

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/views"
)

// representation is what a request asks for.
type representation int

const (
	asJSON representation = iota
	asPartial
	asPage
)

// negotiate decides between JSON, an htmx partial and a full page (docs/API.md §Two representations): JSON for
// bearer-token clients and when Accept ranks application/json above text/html or names no
// text/html; a partial for htmx requests that are not boosted navigations or history restores;
// a full page otherwise.
func negotiate(r *http.Request) representation {
	if bearerToken(r) != "" {
		return asJSON
	}
	jsonQ, htmlQ := acceptQ(r.Header.Get("Accept"))
	htmx := r.Header.Get("HX-Request") == "true"
	switch {
	case jsonQ > htmlQ:
		return asJSON
	case htmx && r.Header.Get("HX-Boosted") != "true" && r.Header.Get("HX-History-Restore-Request") != "true":
		return asPartial
	case htmlQ > 0:
		return asPage
	case htmx:
		return asPage
	}
	return asJSON
}

// acceptQ returns the quality the Accept header gives to JSON and to HTML (0 when not named;
// wildcards do not count as naming either).
func acceptQ(accept string) (jsonQ, htmlQ float64) {
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		mt := strings.ToLower(strings.TrimSpace(fields[0]))
		q := 1.0
		for _, p := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					q = f
				}
			}
		}
		switch {
		case mt == "application/json" || mt == "application/problem+json":
			jsonQ = max(jsonQ, q)
		case mt == "text/html":
			htmlQ = max(htmlQ, q)
		}
	}
	return jsonQ, htmlQ
}

// respond writes data as JSON for API clients, the partial for htmx, the page otherwise. A
// route without a page answers browsers with JSON too; a nil partial falls back to the page.
func respond(c echo.Context, status int, data any, page, partial templ.Component) error {
	c.Response().Header().Add("Vary", "Accept, HX-Request")
	rep := negotiate(c.Request())
	switch {
	case rep == asPartial && partial != nil:
		return render(c, status, partial)
	case rep != asJSON && page != nil:
		return render(c, status, page)
	case data == nil:
		return c.NoContent(status)
	}
	return c.JSON(status, data)
}

// wantsHTML reports whether the request will be answered with a page or a partial, so
// handlers load what only the HTML shows.
func wantsHTML(c echo.Context) bool { return negotiate(c.Request()) != asJSON }

// wantsPartial reports whether the request will be answered with an htmx partial.
func wantsPartial(c echo.Context) bool { return negotiate(c.Request()) == asPartial }

// render writes an HTML component.
func render(c echo.Context, status int, comp templ.Component) error {
	// Whole before sending: a failing component sends nothing (the error handler answers), and
	// templ's flush at the end does not turn the answer into a stream (see conditionalGET).
	var buf bytes.Buffer
	start := time.Now()
	err := comp.Render(c.Request().Context(), &buf)
	if m := meterOf(c); m != nil {
		m.render += time.Since(start)
	}
	if err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// respondChange answers a change: JSON clients get data, htmx gets the partial (with 200 for
// an empty answer, so htmx swaps it in; with no partial it is sent to location through
// HX-Redirect), and plain form posts are sent to location with 303 See Other.
func respondChange(c echo.Context, status int, data any, partial templ.Component, location string) error {
	c.Response().Header().Add("Vary", "Accept, HX-Request")
	switch negotiate(c.Request()) {
	case asJSON:
		if data == nil {
			return c.NoContent(status)
		}
		return c.JSON(status, data)
	case asPartial:
		if partial != nil {
			if status == http.StatusNoContent {
				status = http.StatusOK
			}
			return render(c, status, partial)
		}
		c.Response().Header().Set("HX-Redirect", location)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, location)
}

// localPath keeps only same-site paths for post-login redirects (no open redirects).
func localPath(next, fallback string) string {
	if next = views.SafeNext(next); next == "" {
		return fallback
	}
	return next
}
