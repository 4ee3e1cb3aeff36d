package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
)

// languageCookie keeps a browser's language: a guest's choice, and a copy of a signed-in
// user's setting (made at sign-in and at every change), which still speaks after signing out.
const languageCookie = "lang"

const languageKey = "language"

// language is the request's language (docs/API.md §Languages): the signed-in user's setting, else
// the browser's language cookie, else the first of Accept-Language that Tripplan speaks, else
// English. It is worked out once per request; the setting is read afresh from the store
// (postgres.DB.Language), so a change on any device counts on every instance at once.
func (s *Server) language(c echo.Context) i18n.Lang {
	if l, ok := c.Get(languageKey).(i18n.Lang); ok {
		return l
	}
	r := c.Request()
	var setting, cookie string
	if p := caller(c); p != nil && !p.Guest {
		if l, err := s.store.Language(r.Context(), p.UserID); err == nil && l != nil {
			setting = *l
		}
	}
	if ck, err := r.Cookie(languageCookie); err == nil {
		cookie = ck.Value
	}
	l := i18n.Choose(setting, cookie, r.Header.Get("Accept-Language"))
	c.Set(languageKey, l)
	return l
}

// answerLanguage is the language of an answer that holds words for people, named in
// Content-Language; the answer varies with Accept-Language and the cookie.
func (s *Server) answerLanguage(c echo.Context) i18n.Lang {
	l := s.language(c)
	h := c.Response().Header()
	h.Add("Vary", "Accept-Language")
	h.Set("Content-Language", string(l))
	return l
}

// speak gives the request's context its language for whatever renders words further down
// (i18n.T(ctx, …)): a page's at once, with Content-Language, since every page holds words; a
// JSON answer's when it first needs a word, naming it in Content-Language then (before the
// answer is written).
func (s *Server) speak(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s.giveLanguage(c)
		return next(c)
	}
}

// giveLanguage gives the request's context its language, as speak says.
func (s *Server) giveLanguage(c echo.Context) {
	ctx := c.Request().Context()
	if negotiate(c.Request()) != asJSON {
		ctx = i18n.With(ctx, i18n.For(s.answerLanguage(c)))
	} else {
		ctx = i18n.WithChooser(ctx, func() i18n.Lang { return s.answerLanguage(c) })
	}
	c.SetRequest(c.Request().WithContext(ctx))
}

// setLanguageCookie remembers a browser's language for a year; nil forgets it.
func (s *Server) setLanguageCookie(c echo.Context, lang *string) {
	if lang == nil {
		c.SetCookie(s.cookie(languageCookie, "", -1))
		return
	}
	c.SetCookie(s.cookie(languageCookie, *lang, 365*24*60*60))
}

// chooseLanguage is the pages' language switch (POST /language, a form: language "ko" or "en",
// next a local path): the browser keeps the choice in its language cookie, and a signed-in
// user's setting keeps it for every browser they sign in on; then back to next.
func (s *Server) chooseLanguage(c echo.Context) error {
	l, ok := i18n.Parse(c.FormValue("language"))
	var v planner.Validation
	v.Check(ok, "language", `must be "ko" or "en"`)
	if err := v.Err(); err != nil {
		return err
	}
	lang := string(l)
	if p := caller(c); p != nil && !p.Guest {
		if _, err := s.store.UpdateProfile(c.Request().Context(), p.UserID, planner.ProfileChange{SetLanguage: true, Language: &lang}); err != nil {
			return err
		}
	}
	s.setLanguageCookie(c, &lang)
	return c.Redirect(http.StatusSeeOther, localPath(c.FormValue("next"), "/"))
}
