// Package i18ntest helps the tests that pages speak Korean (issue 19): the English sentences
// that must not show on a Korean page, for the web package's page tests and the browser tests
// alike.
package i18ntest

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// EnglishSentences are the stretches of at least three words of the areas' English messages
// (their {{…}} and {name} values cut out): none of them may show on a Korean page. No areas
// means every area of the catalogues.
func EnglishSentences(t testing.TB, areas ...string) []string {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	locales := filepath.Join(filepath.Dir(self), "..", "locales")
	var files []string
	if len(areas) == 0 {
		var err error
		if files, err = filepath.Glob(filepath.Join(locales, "*.en.toml")); err != nil || len(files) == 0 {
			t.Fatalf("no English catalogues in %s (%v)", locales, err)
		}
	}
	for _, area := range areas {
		files = append(files, filepath.Join(locales, area+".en.toml"))
	}
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
	for _, f := range files {
		data, err := os.ReadFile(f)
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
