package web

import (
	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"
)

// languages are the languages answers come in (API-additions §4), English first: the default.
var languages = language.NewMatcher([]language.Tag{language.English, language.Korean})

// answerLanguage is the language of an answer that holds words for people: "ko" when the
// request's Accept-Language prefers Korean to English, else "en". It names it in
// Content-Language and varies the answer on Accept-Language.
func answerLanguage(c echo.Context) string {
	h := c.Response().Header()
	h.Add("Vary", "Accept-Language")
	lang := "en"
	// A malformed header counts as none: English.
	if tags, _, err := language.ParseAcceptLanguage(c.Request().Header.Get("Accept-Language")); err == nil && len(tags) > 0 {
		if _, i, conf := languages.Match(tags...); i == 1 && conf != language.No {
			lang = "ko"
		}
	}
	h.Set("Content-Language", lang)
	return lang
}
