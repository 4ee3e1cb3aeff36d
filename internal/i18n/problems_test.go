package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// message is a sentence of a problem written in the code: a format (its args fill it) or a
// text given as it is.
type sentence struct {
	text   string
	format bool
	at     string // file:line
}

// planner's functions and Validation's methods that take a problem's sentence: which argument,
// and whether it is a format.
var (
	plannerFuncs = map[string]struct {
		arg    int
		format bool
	}{"Errorf": {1, true}, "Stale": {0, false}}
	validationMethods = map[string]struct {
		arg    int
		format bool
	}{
		"Add": {1, false}, "Check": {2, false}, "Addf": {1, true}, "Checkf": {2, true}}
	// The functions that make those errors, whose arguments are not sentences themselves.
	makers = []string{"Errorf", "Stale", "Add", "Addf", "add", "Check", "Checkf"}
)

// problemMessages reads every problem sentence in the module's Go code (tests aside): the
// formats given to planner.Errorf and Validation.Addf/Checkf, the reasons given to
// Validation.Add/Check, Stale's details, and the Detail of planner.Error and Reason of
// planner.FieldError literals. A sentence that is not a string literal is reported.
func problemMessages(t *testing.T) []sentence {
	t.Helper()
	var out []sentence
	fset := token.NewFileSet()
	for _, p := range goFiles(t) {
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		inPlanner := f.Name.Name == "planner"
		// plannerName reports whether e names planner's name: planner.name, or name inside planner.
		plannerName := func(e ast.Expr, name string) bool {
			switch e := e.(type) {
			case *ast.SelectorExpr:
				x, ok := e.X.(*ast.Ident)
				return ok && x.Name == "planner" && e.Sel.Name == name
			case *ast.Ident:
				return inPlanner && e.Name == name
			}
			return false
		}
		isValidation := func(e ast.Expr) bool {
			if s, ok := e.(*ast.StarExpr); ok {
				e = s.X
			}
			return plannerName(e, "Validation")
		}
		add := func(e ast.Expr, format bool) {
			at := fset.Position(e.Pos()).String()
			if rel, err := filepath.Rel(moduleRoot, at); err == nil {
				at = rel
			}
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: a problem's sentence must be a string literal, so that it can be translated", at)
				return
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			out = append(out, sentence{s, format, at})
		}
		// keyed reads the sentence of a literal's key (Detail, Reason).
		keyed := func(cl *ast.CompositeLit, key string) {
			for _, el := range cl.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == key {
						add(kv.Value, false)
					}
				}
			}
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && inPlanner && slices.Contains(makers, fd.Name.Name) {
				continue
			}
			// The names of the Validations in this declaration (all of them are v or bad today;
			// a name shadowed by another type in the same function would be misread).
			validations := map[string]bool{}
			ast.Inspect(decl, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Field:
					if isValidation(n.Type) {
						for _, name := range n.Names {
							validations[name.Name] = true
						}
					}
				case *ast.ValueSpec:
					if n.Type != nil && isValidation(n.Type) {
						for _, name := range n.Names {
							validations[name.Name] = true
						}
					}
				}
				return true
			})
			ast.Inspect(decl, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					for name, m := range plannerFuncs {
						if plannerName(n.Fun, name) && len(n.Args) > m.arg {
							add(n.Args[m.arg], m.format)
						}
					}
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && validations[x.Name] {
							if m, ok := validationMethods[sel.Sel.Name]; ok && len(n.Args) > m.arg {
								add(n.Args[m.arg], m.format)
							}
						}
					}
				case *ast.CompositeLit:
					switch {
					case plannerName(n.Type, "Error"):
						keyed(n, "Detail")
					case plannerName(n.Type, "FieldError"):
						keyed(n, "Reason")
					default: // FieldErrors of a slice, their type elided
						if at, ok := n.Type.(*ast.ArrayType); ok && plannerName(at.Elt, "FieldError") {
							for _, el := range n.Elts {
								if cl, ok := el.(*ast.CompositeLit); ok && cl.Type == nil {
									keyed(cl, "Reason")
								}
							}
						}
					}
				}
				return true
			})
		}
	}
	return out
}

var verb = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*(?:\d+)?(?:\.\d+)?([a-zA-Z%])`)

// verbs is the fmt verb that fills each argument of a format, by argument number.
func verbs(format string) map[int]string {
	out := map[int]string{}
	arg := 0
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		if m[1] != "" {
			n, _ := strconv.Atoi(m[1])
			arg = n - 1
		}
		out[arg] = m[2]
		arg++
	}
	return out
}

// TestProblemsAreTranslated keeps locales/problems.ko.toml and the code in step: every
// problem sentence of the code is a string literal with a Korean entry, the Korean fills the
// same arguments with the same verbs, a text given as it is holds no verb, and every entry is
// a sentence of the code.
func TestProblemsAreTranslated(t *testing.T) {
	msgs := problemMessages(t)
	if len(msgs) == 0 {
		t.Fatal("no problem sentences found in the code")
	}
	used := map[string]bool{}
	for _, m := range msgs {
		used[m.text] = true
		ko, ok := problems[m.text]
		if !ok {
			t.Errorf("%s: %q has no Korean in %s", m.at, m.text, problemsFile)
			continue
		}
		if !m.format && strings.Contains(m.text+ko, "%") {
			t.Errorf("%s: %q is given as it is, not as a format: neither it nor its Korean may hold %%", m.at, m.text)
		}
		if en, k := verbs(m.text), verbs(ko); !maps.Equal(en, k) {
			t.Errorf("%s: the Korean of %q fills its arguments with %v, the English with %v", m.at, m.text, k, en)
		}
	}
	for _, en := range slices.Sorted(maps.Keys(problems)) {
		if !used[en] {
			t.Errorf("%s: %q is no sentence of the code (stale)", problemsFile, en)
		}
		if strings.TrimSpace(problems[en]) == "" {
			t.Errorf("%s: %q has an empty Korean", problemsFile, en)
		}
	}
}

func TestProblem(t *testing.T) {
	const format = "The plan has no day %d."
	if _, ok := problems[format]; !ok {
		t.Fatalf("%q is not in %s", format, problemsFile)
	}
	if got, want := For(English).Problem(format, []any{40}), "The plan has no day 40."; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	if got, want := For(Korean).Problem(format, []any{40}), "이 여행에는 40일차가 없어요."; got != want {
		t.Errorf("Korean: %q, want %q", got, want)
	}
	if got, want := For(Korean).Problem("A sentence of no problem.", nil), "A sentence of no problem."; got != want {
		t.Errorf("a sentence without Korean: %q, want %q", got, want)
	}
}
