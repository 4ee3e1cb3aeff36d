package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// moduleRoot is the repository, from this package's directory.
const moduleRoot = "../.."

// dynamicPrefixes start the ids the code builds from a prefix and a value: every id under one
// counts as used, so each must be listed here, with where its ids are built.
var dynamicPrefixes = map[string]string{
	"activity.noun_":           "views.ActivitySentence: plan or collection, the noun of a history",
	"activity.opinion_":        "views.opinionID: an opinion in a history, by its type",
	"activity.notice_opinion_": "views.opinionID: an opinion in a notification, by its type",
	"errors.opinion_":          "web/versions.go: an opinion's type in a stale change's lines",
	"extraction.failure_":      "internal/extraction: why reading a link failed, by failure code",
	"extraction.stage_":        "views/extraction.templ: the stage a link is at, by job stage",
	"extraction.slow_":         "views/extraction.templ: why a link's stage takes long, by job stage",
	"extraction.mention_":      "views/extraction.templ: why a found place is not ticked, by its mention",
	"plan.by_":                 "web/travel.go: the fastest way between blocks, by mode",
	"imports.outcome_":         "views/imports.templ: what became of an imported row, by planner.ImportOutcome",
}

// TestCodeAndCataloguesAgree fails on a message id the code uses that the English catalogues
// do not hold, and on a catalogue id the code never uses (issue 19). The code is every Go file
// but tests, read with go/ast, and the pages' scripts (js.* ids in string literals). The
// templates' words are read in their generated *_templ.go, which say t(ctx, "id") exactly as
// the templ files do and are committed with them, so no templ parsing is needed and the test
// lives here, beside the catalogues, reading the module's files. Used: a string literal that
// is an id, or an id under one of dynamicPrefixes. Missing: the literal id of a call to
// i18n.T(ctx, id), a Localizer's T(id) or the templates' t(ctx, id), and any literal that
// reads as an id of an area the catalogues have ("plan.save_x") but is none. A literal that
// only starts ids ("errors.opinion_") must be one of dynamicPrefixes, and each of those must
// be used and start ids.
func TestCodeAndCataloguesAgree(t *testing.T) {
	known := englishIDs(t)
	used := map[string]bool{}
	prefixes := map[string]bool{}
	missing := map[string]bool{} // where: id
	areas := map[string]bool{}
	for id := range known {
		area, _, _ := strings.Cut(id, ".")
		areas[area] = true
	}
	// shaped is a literal that reads as a message id of an area the catalogues have.
	shaped := func(s string) bool {
		area, rest, ok := strings.Cut(s, ".")
		return ok && areas[area] && messageID.MatchString(rest)
	}
	note := func(where, s string) {
		switch {
		case s == ScriptPrefix: // the scripts' ids, each used as a literal in a script
		case known[s]:
			used[s] = true
		case startsIDs(known, s):
			prefixes[s] = true
			if _, ok := dynamicPrefixes[s]; !ok {
				t.Errorf("%s: ids built from %q are not in dynamicPrefixes", where, s)
			}
		case shaped(s):
			missing[where+": "+s] = true
		}
	}
	for _, name := range goFiles(t) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if lit := idArgument(call); lit != nil {
					if s, _ := strconv.Unquote(lit.Value); !known[s] && !startsIDs(known, s) {
						missing[fset.Position(lit.Pos()).String()+": "+s] = true
					}
				}
				return true
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
			}
			note(fset.Position(lit.Pos()).String(), s)
			return true
		})
	}
	scripts, err := filepath.Glob(filepath.Join(moduleRoot, "static/js/*.js"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, name := range scripts {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range scriptID.FindAllStringSubmatch(string(src), -1) {
			note(name, m[1])
		}
	}

	for _, m := range slices.Sorted(maps.Keys(missing)) {
		t.Errorf("%s is not in the catalogues", m)
	}
	for _, p := range slices.Sorted(maps.Keys(dynamicPrefixes)) {
		if !prefixes[p] {
			t.Errorf("dynamicPrefixes: no code builds ids from %q (or the catalogues have none)", p)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(known)) {
		if !used[id] && !underDynamicPrefix(id) {
			t.Errorf("%s is used nowhere", id)
		}
	}
}

// idArgument is the literal id a call says in a language: i18n.T(ctx, "id", ...), a
// Localizer's l.T("id", ...) or the templates' t(ctx, "id", ...); nil for any other call.
func idArgument(call *ast.CallExpr) *ast.BasicLit {
	i := -1
	switch fun := call.Fun.(type) {
	case *ast.SelectorExpr:
		if fun.Sel.Name == "T" {
			i = 0
			if x, ok := fun.X.(*ast.Ident); ok && x.Name == "i18n" {
				i = 1
			}
		}
	case *ast.Ident:
		if fun.Name == "t" {
			i = 1
		}
	}
	if i < 0 || len(call.Args) <= i {
		return nil
	}
	if lit, ok := call.Args[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return lit
	}
	return nil
}

// messageID is the part of an id after its area: lower-case words joined by _ and dots.
var messageID = regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)*$`)

// scriptID is a js.* id in a script's string literal.
var scriptID = regexp.MustCompile(`["'\x60](` + regexp.QuoteMeta(ScriptPrefix) + `[a-z0-9_.]+)["'\x60]`)

// startsIDs reports whether s, not an id itself, ends in _ or . and starts some ids.
func startsIDs(known map[string]bool, s string) bool {
	if !strings.HasSuffix(s, "_") && !strings.HasSuffix(s, ".") {
		return false
	}
	for id := range known {
		if strings.HasPrefix(id, s) {
			return true
		}
	}
	return false
}

func underDynamicPrefix(id string) bool {
	for p := range dynamicPrefixes {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

// englishIDs are the ids of the English catalogues (the Korean ones hold the same:
// TestCataloguesHaveTheSameMessages).
func englishIDs(t *testing.T) map[string]bool {
	t.Helper()
	names, err := fs.Glob(files, "locales/*.en.toml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no English catalogue: %v", err)
	}
	ids := map[string]bool{}
	for _, name := range names {
		maps.Copy(ids, catalogue(t, path.Base(name)))
	}
	return ids
}

// goFiles are the module's Go files but tests, outside hidden directories and node_modules.
func goFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(moduleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != moduleRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no Go files")
	}
	return out
}
