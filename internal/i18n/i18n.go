// Package i18n is Tripplan's languages: Korean and English message catalogues
// (locales/*.toml, read with nicksnyder/go-i18n for CLDR plural rules), the choice of a
// request's language, and the formatting of words, dates, times and numbers per language.
//
// go-i18n rather than golang.org/x/text/message: its catalogues are plain TOML files a
// translator can edit and review without generated code, and a message that is missing in
// Korean falls back to English instead of vanishing.
//
// Messages are text/template strings over named values. Korean particles that depend on
// the last syllable of a value are methods of Word ({{.Place.Eul}} → "경복궁을", "카페를").
//
// The sentences of problems (problem+json detail and errors[].reason) are the exception: the
// code writes them in English, gettext-style, as fmt formats (planner.Errorf(code, "The plan
// has no day %d.", day), Validation.Add(field, "is required")), so call sites stay readable
// and the English is where the rule is. The English format is the sentence's id: the Korean
// of each is in locales/problems.ko.toml under its English format, with the same fmt verbs
// (%[2]d where Korean word order needs another order), and Localizer.Problem says it. That
// file has no English twin, since English lives in the code, and is not part of the go-i18n
// bundle (its ids are sentences, its values fmt formats, not templates). A test reads every
// such sentence in the module's code and keeps the file and the code in step.
package i18n

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Lang is a language Tripplan speaks.
type Lang string

// The languages, English first: the default.
const (
	English Lang = "en"
	Korean  Lang = "ko"
)

// Langs are the languages in the order a language switch lists them.
var Langs = []Lang{Korean, English}

// Parse is the language a setting, cookie or form names ("ko", "en", case-insensitive), and
// whether it names one.
func Parse(s string) (Lang, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "en":
		return English, true
	case "ko":
		return Korean, true
	}
	return "", false
}

// Tag is the language's BCP 47 tag.
func (l Lang) Tag() language.Tag {
	if l == Korean {
		return language.Korean
	}
	return language.English
}

//go:embed locales/*.toml
var files embed.FS

// ScriptPrefix starts the ids of the messages the pages' scripts use; the layout gives them to
// the browser (Localizer.Script). Their values are {name}-style, filled by app.js.
const ScriptPrefix = "js."

var bundle, scriptIDs = mustBundle(files)

func mustBundle(fsys fs.FS) (*goi18n.Bundle, []string) {
	b := goi18n.NewBundle(language.English)
	var scripts []string
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(fsys, "locales/*.toml")
	if err != nil {
		panic(err)
	}
	for _, name := range names {
		if name == problemsFile {
			continue // fmt formats by their English, not a go-i18n catalogue (see the package doc)
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			panic(err)
		}
		mf, err := b.ParseMessageFileBytes(data, path.Base(name))
		if err != nil {
			panic(fmt.Sprintf("i18n: %s: %v", name, err))
		}
		if mf.Tag == language.English {
			for _, m := range mf.Messages {
				if strings.HasPrefix(m.ID, ScriptPrefix) {
					scripts = append(scripts, m.ID)
				}
			}
		}
	}
	return b, scripts
}

// Localizer speaks one language.
type Localizer struct {
	lang Lang
	l    *goi18n.Localizer
}

var localizers = map[Lang]*Localizer{
	English: {English, goi18n.NewLocalizer(bundle, "en")},
	Korean:  {Korean, goi18n.NewLocalizer(bundle, "ko", "en")},
}

// For is the localizer of a language (English for any other value).
func For(lang Lang) *Localizer {
	if l, ok := localizers[lang]; ok {
		return l
	}
	return localizers[English]
}

// Lang is the localizer's language.
func (l *Localizer) Lang() Lang { return l.lang }

// T is the message id in the localizer's language, filled with the named values given as
// pairs: T("gap.free", "Hours", 3). A value named Count also chooses the plural form. An
// unknown id answers the id itself (a test keeps every id used in the catalogues).
func (l *Localizer) T(id string, pairs ...any) string {
	cfg := &goi18n.LocalizeConfig{MessageID: id}
	if len(pairs) > 0 {
		data := make(map[string]any, len(pairs)/2)
		for i := 0; i+1 < len(pairs); i += 2 {
			k, _ := pairs[i].(string)
			data[k] = pairs[i+1]
		}
		cfg.TemplateData = data
		if n, ok := data["Count"]; ok {
			cfg.PluralCount = n
		}
	}
	s, err := l.l.Localize(cfg)
	if err != nil {
		return id
	}
	return s
}

// Script is the messages of the pages' scripts in the localizer's language, by id.
func (l *Localizer) Script() map[string]string {
	out := make(map[string]string, len(scriptIDs))
	for _, id := range scriptIDs {
		out[id] = l.T(id)
	}
	return out
}

type ctxKey struct{}

// With is ctx carrying the localizer, for templates and errors rendered further down.
func With(ctx context.Context, l *Localizer) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// chooser is a language worked out when first needed (WithChooser).
type chooser struct {
	once   sync.Once
	choose func() Lang
	lang   Lang
}

// WithChooser is ctx carrying a language that choose works out the first time a word is
// needed, at most once: answers without words never pay for it.
func WithChooser(ctx context.Context, choose func() Lang) context.Context {
	return context.WithValue(ctx, ctxKey{}, &chooser{choose: choose})
}

// From is the localizer ctx carries, else English.
func From(ctx context.Context) *Localizer {
	switch v := ctx.Value(ctxKey{}).(type) {
	case *Localizer:
		return v
	case *chooser:
		v.once.Do(func() { v.lang = v.choose() })
		return For(v.lang)
	}
	return localizers[English]
}

// Carries reports whether ctx carries a localizer or a chooser (With, WithChooser).
func Carries(ctx context.Context) bool { return ctx.Value(ctxKey{}) != nil }

// T is From(ctx).T: the message in the request's language.
func T(ctx context.Context, id string, pairs ...any) string { return From(ctx).T(id, pairs...) }

var matcher = language.NewMatcher([]language.Tag{language.English, language.Korean})

// Choose is the language of a request: the user's setting, else the guest's cookie, else the
// first of Accept-Language that Tripplan speaks, else English. A malformed header counts as
// none.
func Choose(setting, cookie, acceptLanguage string) Lang {
	if l, ok := Parse(setting); ok {
		return l
	}
	if l, ok := Parse(cookie); ok {
		return l
	}
	if tags, _, err := language.ParseAcceptLanguage(acceptLanguage); err == nil && len(tags) > 0 {
		if _, i, conf := matcher.Match(tags...); i == 1 && conf != language.No {
			return Korean
		}
	}
	return English
}
