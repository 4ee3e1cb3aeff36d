package web

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/static"
)

// Answers kept beside the data they were rendered from. A day listing kept in the store's day
// cache (planner.DayPage.Answers) keeps its JSON answers too, encoded as sent — compressed,
// with its ETag — one per language and content coding asked for; they go as the page goes (a
// change to the plan, the minute's end). The page is the reader's own (the store keeps one per
// member: it carries their opinions), so one reader never receives another's bytes. A repeated
// listing is then a write of bytes: no encoding, hashing or compressing.

// answerKey names a rendering: the language its words are in and its content coding.
type answerKey struct {
	lang i18n.Lang
	enc  string
}

// keptAnswer is a JSON answer ready to send.
type keptAnswer struct {
	body []byte // encoded with enc ("" when sent as it is)
	etag string // with enc's suffix
	enc  string
	// lang is the language of the words in the answer, "" when it holds none (it does not
	// vary with the language then).
	lang i18n.Lang
}

// keepable reports whether the request's answer may be one kept: JSON, as it is always sent.
func (s *Server) keepable(c echo.Context) bool {
	return negotiate(c.Request()) == asJSON && !s.echo.Debug && !c.QueryParams().Has("pretty")
}

// keptJSON answers with data's JSON (built by data) from kept when it holds the rendering for
// the request's language and coding, rendering it and keeping it otherwise.
func (s *Server) keptJSON(c echo.Context, kept *planner.Renderings, data func() any) error {
	key := answerKey{lang: s.language(c), enc: answerEncoding(c.Request())}
	a, hit := kept.Load(key)
	cacheAnswered(c, hit)
	if !hit {
		fresh, err := renderJSON(c, key, data())
		if err != nil {
			return err
		}
		kept.Store(key, fresh)
		a = fresh
	}
	return sendAnswer(c, a.(*keptAnswer))
}

// renderJSON encodes data as c.JSON would and compresses it as compress would.
func renderJSON(c echo.Context, key answerKey, data any) (*keptAnswer, error) {
	body, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	body = append(body, '\n')
	a := &keptAnswer{body: body, etag: etagOf(body)}
	// Words were named (i18n's chooser set Content-Language while data was built).
	if c.Response().Header().Get("Content-Language") != "" {
		a.lang = key.lang
	}
	if key.enc != "" && len(body) >= static.CompressMin {
		if a.body, err = encodeBody(key.enc, body); err != nil {
			return nil, err
		}
		a.enc, a.etag = key.enc, withEncoding(a.etag, key.enc)
	}
	return a, nil
}

// sendAnswer writes a with the headers respond, answerLanguage, conditionalGET and compress
// would have given it (which then let it through: it has its ETag and coding), or 304 when the
// client holds it.
func sendAnswer(c echo.Context, a *keptAnswer) error {
	h := c.Response().Header()
	h.Add("Vary", "Accept, HX-Request")
	if a.lang != "" {
		addVary(h, "Accept-Language")
		h.Set("Content-Language", string(a.lang))
	}
	h.Set("ETag", a.etag)
	h.Set(echo.HeaderCacheControl, "private, no-cache")
	if matches(c.Request().Header.Get("If-None-Match"), a.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	if a.enc != "" {
		h.Set("Content-Encoding", a.enc)
	}
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(a.body)))
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, a.body)
}
