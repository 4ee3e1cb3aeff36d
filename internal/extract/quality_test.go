package extract_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tripplan/internal/extract"
	"tripplan/internal/places"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// fixture is a page of testdata/pages: <name>.json holds what it should yield, the other
// file named <name>.* its body (files named *.frame.html are bodies of frames, never a
// fixture's own body). docs/EXTRACTION.md lists the kinds and how to add a fixture.
type fixture struct {
	name        string
	body        []byte
	URL         string   `json:"url"`
	ContentType string   `json:"content_type"`
	Kind        string   `json:"kind"`        // how the page is built ("blog", "video-json", "forum"…), for the per-kind report
	MediaType   string   `json:"media_type"`  // the expected media type
	City        string   `json:"city"`        // the expected city ("" when none)
	Expect      []string `json:"expect"`      // the catalog places it should yield, by name
	Unsupported bool     `json:"unsupported"` // Analyze should refuse the content type
	// Skipped and Passing name catalog places the page mentions only as skipped or avoided
	// ("we skipped X", "don't bother with Y") or only as a way through ("we changed trains at
	// Z"); none may be in Expect, and a proposal of one is reported.
	Skipped []string `json:"skipped"`
	Passing []string `json:"passing"`
	// Frames maps the absolute URL of each frame the page embeds (a Naver blog's
	// <iframe id="mainFrame" src="/PostView.naver?…">) to the file in testdata/pages holding
	// the body served at that URL, named <something>.frame.html; frames holds those bodies.
	Frames map[string]string `json:"frames"`
	frames map[string][]byte
}

// loadFixtures reads every fixture.
func loadFixtures(t *testing.T) []fixture {
	t.Helper()
	specs, err := filepath.Glob("testdata/pages/*.json")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []fixture
	for _, spec := range specs {
		name := strings.TrimSuffix(filepath.Base(spec), ".json")
		data, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		f := fixture{name: name}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if f.Kind == "" {
			t.Fatalf("%s: no kind", spec)
		}
		bodies, _ := filepath.Glob(filepath.Join("testdata/pages", name+".*"))
		bodies = slices.DeleteFunc(bodies, func(p string) bool {
			return p == spec || strings.HasSuffix(p, ".frame.html")
		})
		if len(bodies) != 1 {
			t.Fatalf("%s: want one body file, found %v", name, bodies)
		}
		if f.body, err = os.ReadFile(bodies[0]); err != nil {
			t.Fatal(err)
		}
		f.frames = map[string][]byte{}
		for u, file := range f.Frames {
			if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
				t.Fatalf("%s: frame URL %q is not absolute", name, u)
			}
			if !strings.HasSuffix(file, ".frame.html") || file != filepath.Base(file) {
				t.Fatalf("%s: frame body %q is not a *.frame.html file of testdata/pages", name, file)
			}
			if f.frames[u], err = os.ReadFile(filepath.Join("testdata/pages", file)); err != nil {
				t.Fatalf("%s: frame %s: %v", name, u, err)
			}
		}
		out = append(out, f)
	}
	// Every other file is a fixture's body or one of its frames: a body without its .json or a
	// frame no fixture names would silently leave the gate.
	files, _ := filepath.Glob("testdata/pages/*")
	for _, p := range files {
		base := filepath.Base(p)
		if strings.HasSuffix(base, ".json") {
			continue
		}
		if strings.HasSuffix(base, ".frame.html") {
			if !slices.ContainsFunc(out, func(f fixture) bool { return slices.Contains(slices.Collect(maps.Values(f.Frames)), base) }) {
				t.Errorf("%s: a frame no fixture names", p)
			}
			continue
		}
		if _, err := os.Stat(strings.TrimSuffix(p, filepath.Ext(p)) + ".json"); err != nil {
			t.Errorf("%s: a body without its fixture (.json)", p)
		}
	}
	return out
}

// catalogDB is a test database holding the built-in catalog, with the catalog's names.
func catalogDB(t *testing.T) (*postgres.DB, map[string]bool) {
	t.Helper()
	db := pgtest.New(t)
	all, version, err := places.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.LoadCatalog(t.Context(), version, all); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range all {
		names[p.Name] = true
	}
	return db, names
}

// dbSearcher searches the database's catalog, counting the searches.
type dbSearcher struct {
	db       *postgres.DB
	searches int
}

func (s *dbSearcher) Search(ctx context.Context, query string) ([]planner.Place, error) {
	s.searches++
	return s.db.SearchPlaces(ctx, query, "")
}

// tally counts a set of pages' places: found (proposed), expected, and correct (both).
type tally struct{ pages, found, expected, correct int }

func (t *tally) add(found, expected, correct int) {
	t.pages, t.found, t.expected, t.correct = t.pages+1, t.found+found, t.expected+expected, t.correct+correct
}

// TestExtractionQuality runs Analyze and Resolve over the fixture pages with the built-in
// catalog as the place search, reports precision and recall per page, per kind of page and
// overall, and fails below 95% of either overall (or when a page's media type, city or error
// is wrong).
func TestExtractionQuality(t *testing.T) {
	db, catalogNames := catalogDB(t)
	var found, expected, correct int
	kinds := map[string]*tally{}
	for _, f := range loadFixtures(t) {
		for _, name := range slices.Concat(f.Expect, f.Skipped, f.Passing) {
			if !catalogNames[name] {
				t.Errorf("%s: names %q, which is not a catalog place name", f.name, name)
			}
		}
		if both := intersect(f.Expect, slices.Concat(f.Skipped, f.Passing)); len(both) > 0 {
			t.Errorf("%s: expects %s, which it also lists as skipped or passing", f.name, strings.Join(both, "; "))
		}
		if kinds[f.Kind] == nil {
			kinds[f.Kind] = &tally{}
		}
		page := extract.Page{URL: f.URL, ContentType: f.ContentType, Body: f.body}
		a, err := extract.Analyze(page)
		// The frames the analysis asks for, as the worker fetches them (at most two hops).
		left := maps.Clone(f.frames)
		for hop := 0; err == nil && hop < 2; hop++ {
			i := slices.IndexFunc(a.Frames, func(u string) bool { return left[u] != nil })
			if i < 0 {
				break
			}
			page.Frames = append(page.Frames, extract.Page{URL: a.Frames[i], ContentType: "text/html; charset=utf-8", Body: left[a.Frames[i]]})
			delete(left, a.Frames[i])
			a, err = extract.Analyze(page)
		}
		if f.Unsupported {
			if !errors.Is(err, extract.ErrUnsupported) {
				t.Errorf("%s: Analyze = %v, want ErrUnsupported", f.name, err)
			}
			t.Logf("%-32s unsupported content refused", f.name)
			kinds[f.Kind].add(0, 0, 0)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		if a.MediaType != f.MediaType || a.City != f.City {
			t.Errorf("%s: media type %q, city %q; want %q, %q", f.name, a.MediaType, a.City, f.MediaType, f.City)
		}
		s := &dbSearcher{db: db}
		start := time.Now()
		res, err := extract.Resolve(t.Context(), s, a, nil)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		detected := res.Detected
		// What counts is what the panel proposes ticked: places the writer skipped or only
		// passed through are proposed unticked.
		var names, unticked []string
		for _, p := range res.Places {
			if p.Mention == extract.MentionSkipped || p.Mention == extract.MentionPassing {
				unticked = append(unticked, p.Name)
			} else {
				names = append(names, p.Name)
			}
		}
		hits := len(intersect(names, f.Expect))
		found, expected, correct = found+len(names), expected+len(f.Expect), correct+hits
		kinds[f.Kind].add(len(names), len(f.Expect), hits)
		t.Logf("%-32s precision %s recall %s (%d detected, %d found, %d expected; %d searches in %v)",
			f.name, ratio(hits, len(names)), ratio(hits, len(f.Expect)), detected, len(names), len(f.Expect),
			s.searches, time.Since(start).Round(time.Millisecond))
		if missing := minus(f.Expect, names); len(missing) > 0 {
			t.Logf("%-32s   missed: %s", "", strings.Join(missing, "; "))
		}
		if extra := minus(names, f.Expect); len(extra) > 0 {
			t.Logf("%-32s   unexpected: %s", "", strings.Join(extra, "; "))
		}
		if len(res.Unmatched) > 0 {
			var un []string
			for _, u := range res.Unmatched {
				un = append(un, u.Name)
			}
			t.Logf("%-32s   unmatched: %s", "", strings.Join(un, "; "))
		}
		if skipped := intersect(names, f.Skipped); len(skipped) > 0 {
			t.Logf("%-32s   proposed ticked though skipped: %s", "", strings.Join(skipped, "; "))
		}
		if passing := intersect(names, f.Passing); len(passing) > 0 {
			t.Logf("%-32s   proposed ticked though only passed through: %s", "", strings.Join(passing, "; "))
		}
		if len(unticked) > 0 {
			t.Logf("%-32s   proposed unticked: %s", "", strings.Join(unticked, "; "))
		}
		for _, u := range slices.Sorted(maps.Keys(left)) {
			t.Logf("%-32s   frame not asked for by the analysis: %s (%d bytes)", "", u, len(left[u]))
		}
	}
	t.Logf("%-16s %5s  %-18s %s", "kind", "pages", "precision", "recall")
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		c := kinds[k]
		t.Logf("%-16s %5d  %-18s %s", k, c.pages,
			fmt.Sprintf("%s (%d/%d)", ratio(c.correct, c.found), c.correct, c.found),
			fmt.Sprintf("%s (%d/%d)", ratio(c.correct, c.expected), c.correct, c.expected))
	}
	precision, recall := float64(correct)/float64(max(found, 1)), float64(correct)/float64(max(expected, 1))
	t.Logf("overall: precision %.1f%% (%d/%d), recall %.1f%% (%d/%d)", 100*precision, correct, found, 100*recall, correct, expected)
	if precision < 0.95 || recall < 0.95 {
		t.Errorf("quality below 95%%: precision %.1f%%, recall %.1f%%", 100*precision, 100*recall)
	}
}

func ratio(n, d int) string {
	if d == 0 {
		return "   —  "
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(n)/float64(d))
}

func intersect(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
