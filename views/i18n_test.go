package views

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ/parser/v2"
	"github.com/a-h/templ/parser/v2/visitor"

	"tripplan/internal/i18n"
)

func TestPageHelpersSpeakTheContextsLanguage(tt *testing.T) {
	ko := i18n.With(context.Background(), i18n.For(i18n.Korean))
	en := context.Background()
	day := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ got, want string }{
		{lang(ko), "ko"}, {lang(en), "en"},
		{date(ko, day), "11월 27일 (금)"}, {date(en, day), "Fri 27 Nov"},
		{clock(ko, "14:30"), "오후 2:30"}, {clock(en, "14:30"), "2:30 PM"},
		{number(ko, 1250000), "1,250,000"},
		{t(ko, "time.hours_ago", "Count", 2), "2시간 전"}, {t(en, "time.hours_ago", "Count", 1), "1 hour ago"},
	} {
		if c.got != c.want {
			tt.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// wordsForPeople are the attributes whose values people read or hear.
var wordsForPeople = []string{"aria-label", "aria-description", "aria-roledescription", "title", "placeholder", "alt",
	"label", "data-added-label", "data-confirm"}

// names are the words that are the same in every language: names of things, not sentences.
var names = regexp.MustCompile(`\b(Tripplan|Google|Kakao|Naver|Apple|OpenID Connect|GPX|ICS|CSV|JSON|PDF|URL|OK)\b`)

var english = regexp.MustCompile(`[A-Za-z]{2,}`)

// TestTemplatesHoldNoWords fails when a templ file has words for people outside the message
// catalogues: English in text, in a string expression, or in an attribute people read.
func TestTemplatesHoldNoWords(t *testing.T) {
	files, err := filepath.Glob("*.templ")
	if err != nil || len(files) == 0 {
		t.Fatalf("no templ files: %v", err)
	}
	for _, name := range files {
		for _, w := range wordsIn(t, name) {
			t.Errorf("%s: %q is not from the catalogues", name, w)
		}
	}
}

// wordsIn lists the English in a templ file's text, literal string expressions and read
// attributes, leaving out <script> and <style>, comments and names.
func wordsIn(t *testing.T, name string) []string {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := parser.ParseString(string(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var found []string
	check := func(s string) {
		if english.MatchString(names.ReplaceAllString(s, "")) {
			found = append(found, strings.TrimSpace(s))
		}
	}
	v := visitor.New()
	v.Text = func(n *parser.Text) error { check(n.Value); return nil }
	v.StringExpression = func(n *parser.StringExpression) error {
		if e := strings.TrimSpace(n.Expression.Value); strings.HasPrefix(e, `"`) || strings.HasPrefix(e, "`") {
			check(e)
		}
		return nil
	}
	v.ConstantAttribute = func(n *parser.ConstantAttribute) error {
		if slices.Contains(wordsForPeople, n.Key.String()) {
			check(n.Value)
		}
		return nil
	}
	if err := tf.Visit(v); err != nil {
		t.Fatal(err)
	}
	return found
}

// TestTheExtractorFindsWords keeps the check above honest: it finds what it must.
func TestTheExtractorFindsWords(t *testing.T) {
	dir := t.TempDir()
	src := `package views

templ sample() {
	<p title="Open the plan">Add a place</p>
	<span>{ "Saved" }</span>
	<span aria-hidden="true">Tripplan</span>
	<script>const hidden = "not read";</script>
	<b>{ t(ctx, "time.just_now") } · 3</b>
}
`
	name := filepath.Join(dir, "sample.templ")
	if err := os.WriteFile(name, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got := wordsIn(t, name)
	want := []string{"Open the plan", "Add a place", `"Saved"`}
	if !slices.Equal(got, want) {
		t.Fatalf("found %q, want %q", got, want)
	}
}
