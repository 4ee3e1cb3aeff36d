package web

import (
	"html"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// Helpers of the tests that pages speak Korean (issue 19).

// englishSentences are the stretches of at least three words of the areas' English messages
// (their {{…}} and {name} values cut out): none of them may show on a Korean page.
func englishSentences(t *testing.T, areas ...string) []string {
	t.Helper()
	value := regexp.MustCompile(`\{\{[^}]*\}\}|\{[a-z]+\}`)
	var out []string
	var walk func(m map[string]any)
	walk = func(m map[string]any) {
		for k, v := range m {
			switch v := v.(type) {
			case map[string]any:
				walk(v)
			case string:
				if k != "one" && k != "other" {
					t.Fatalf("%q is not a plural form", k)
				}
				for _, s := range value.Split(v, -1) {
					if s = strings.TrimSpace(strings.Trim(s, " ·:,.()")); len(strings.Fields(s)) >= 3 {
						out = append(out, s)
					}
				}
			}
		}
	}
	for _, area := range areas {
		data, err := os.ReadFile("../internal/i18n/locales/" + area + ".en.toml")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		walk(m)
	}
	if len(out) < 20 {
		t.Fatalf("only %d English sentences in %v", len(out), areas)
	}
	return out
}

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
