package web

import (
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
)

// languageCookie keeps a browser's language: a guest's choice, and a signed-in user's setting,
// which sign-in and every change of it copy to the browser (so pages never read the user for
// it; another browser the user is signed in on follows at its next sign-in).
const languageCookie = "lang"

const languageKey = "language"

// language is the request's language (API-additions §4): the signed-in user's setting (for
// a browser, its copy in the language cookie), else the browser's language cookie, else the
// first of Accept-Language that Tripplan speaks, else English. It is worked out once per
// request; for an access token the setting costs one read of the user.
func (s *Server) language(c echo.Context) i18n.Lang {
	if l, ok := c.Get(languageKey).(i18n.Lang); ok {
		return l
	}
	r := c.Request()
	var setting, cookie string
	if p := caller(c); p != nil && p.Bearer {
		if u, err := s.store.User(r.Context(), p.UserID); err == nil && u.Language != nil {
			setting = *u.Language
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
		ctx := c.Request().Context()
		if negotiate(c.Request()) != asJSON {
			ctx = i18n.With(ctx, i18n.For(s.answerLanguage(c)))
		} else {
			ctx = i18n.WithChooser(ctx, func() i18n.Lang { return s.answerLanguage(c) })
		}
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}

// setLanguageCookie remembers a browser's language for a year; nil forgets it.
func (s *Server) setLanguageCookie(c echo.Context, lang *string) {
	if lang == nil {
		c.SetCookie(s.cookie(languageCookie, "", -1))
		return
	}
	c.SetCookie(s.cookie(languageCookie, *lang, 365*24*60*60))
}
