package web

import (
	"html"
	"net/http"
	"strings"
	"testing"

	"tripplan/internal/i18n/i18ntest"
)

// Helpers of the tests that pages speak Korean (issue 19).

// englishSentences are the English sentences that must not show on a Korean page (shared with
// the browser tests).
var englishSentences = i18ntest.EnglishSentences

// says checks that a page's text has each of the words and none of the unwanted sentences.
func says(t *testing.T, what, text string, words, unwanted []string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
	for _, u := range unwanted {
		if strings.Contains(text, u) {
			t.Errorf("%s still says %q", what, u)
		}
	}
}

// Accept-Language of a Korean browser; "" is a browser that sends none.
const koreanBrowser = "ko-KR,ko;q=0.9,en;q=0.5"

// answerIn asks for a page (or, with htmx, a partial) in the language of the Accept-Language
// header lang, checks it names that language in Content-Language, and answers its text as a
// person reads it (entities decoded).
func (a *testApp) answerIn(t *testing.T, b *http.Client, htmx bool, method, path, form, lang string, status int) string {
	t.Helper()
	h := map[string]string{"Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Sec-Fetch-Site": "same-origin"}
	if htmx {
		h["HX-Request"] = "true"
	}
	if lang != "" {
		h["Accept-Language"] = lang
	}
	var body any
	if form != "" {
		body, h["Content-Type"] = form, "application/x-www-form-urlencoded"
	}
	res := a.do(req{Method: method, Path: path, Client: b, Header: h, Body: body})
	if res.Status != status || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%s %s (%q): %d %s, want %d\n%s", method, path, lang, res.Status, res.Header.Get("Content-Type"), status, res.Body)
	}
	want := "en"
	if strings.HasPrefix(lang, "ko") {
		want = "ko"
	}
	if got := res.Header.Get("Content-Language"); got != want {
		t.Errorf("%s %s (%q): Content-Language %q, want %q", method, path, lang, got, want)
	}
	return html.UnescapeString(string(res.Body))
}
