package web

import (
	"bytes"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/static"
)

// Cache lifetimes of static files: a hashed name (static.Asset.Hashed) never changes content,
// so it is kept a year without asking again; a plain name (what pages of an older release
// may still point at) is kept five minutes.
const (
	immutableCache = "public, max-age=31536000, immutable"
	plainCache     = "public, max-age=300"
)

// staticFile serves an embedded asset (static.Files) by its hashed or plain name, its
// brotli or gzip form (made once: static.Asset.Compressed) as Accept-Encoding asks, with a
// strong ETag (the content hash, suffixed for an encoded form) and If-None-Match. Range
// requests get the plain bytes. Unknown names, and hashes that are not the file's, are 404.
func staticFile(c echo.Context) error {
	as, hashed := static.Files.Lookup(c.Param("*"))
	if as == nil {
		return echo.ErrNotFound
	}
	r, h := c.Request(), c.Response().Header()
	if hashed {
		h.Set(echo.HeaderCacheControl, immutableCache)
	} else {
		h.Set(echo.HeaderCacheControl, plainCache)
	}
	body, tag, enc := as.Body, `"`+as.Hash+`"`, ""
	if br, gz := as.Compressed(); br != nil || gz != nil {
		addVary(h, "Accept-Encoding")
		if r.Header.Get("Range") == "" {
			enc = negotiateEncoding(r.Header.Get("Accept-Encoding"))
		}
		switch {
		case enc == "br" && br != nil:
			body = br
		case enc == "gzip" && gz != nil:
			body = gz
		default:
			enc = ""
		}
		if enc != "" {
			tag = withEncoding(tag, enc)
		}
	}
	h.Set("ETag", tag)
	if matches(r.Header.Get("If-None-Match"), tag) {
		return c.NoContent(http.StatusNotModified)
	}
	if enc != "" {
		h.Set("Content-Encoding", enc)
		h.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
		return c.Blob(http.StatusOK, as.Type, body)
	}
	h.Set(echo.HeaderContentType, as.Type)
	http.ServeContent(c.Response(), r, "", time.Time{}, bytes.NewReader(body)) // with Range
	return nil
}
