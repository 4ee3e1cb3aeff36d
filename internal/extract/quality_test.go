package extract_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
// file named <name>.* its body.
type fixture struct {
	name        string
	body        []byte
	URL         string   `json:"url"`
	ContentType string   `json:"content_type"`
	MediaType   string   `json:"media_type"`  // the expected media type
	City        string   `json:"city"`        // the expected city ("" when none)
	Expect      []string `json:"expect"`      // the catalog places it should yield, by name
	Unsupported bool     `json:"unsupported"` // Analyze should refuse the content type
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
		bodies, _ := filepath.Glob(filepath.Join("testdata/pages", name+".*"))
		bodies = slices.DeleteFunc(bodies, func(p string) bool { return p == spec })
		if len(bodies) != 1 {
			t.Fatalf("%s: want one body file, found %v", name, bodies)
		}
		if f.body, err = os.ReadFile(bodies[0]); err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
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

// TestExtractionQuality runs Analyze and Resolve over the fixture pages with the built-in
// catalog as the place search, reports precision and recall per page and overall, and fails
// below 90% of either overall (or when a page's media type, city or error is wrong).
func TestExtractionQuality(t *testing.T) {
	db, catalogNames := catalogDB(t)
	var found, expected, correct int
	for _, f := range loadFixtures(t) {
		for _, name := range f.Expect {
			if !catalogNames[name] {
				t.Errorf("%s: expects %q, which is not a catalog place name", f.name, name)
			}
		}
		a, err := extract.Analyze(extract.Page{URL: f.URL, ContentType: f.ContentType, Body: f.body})
		if f.Unsupported {
			if !errors.Is(err, extract.ErrUnsupported) {
				t.Errorf("%s: Analyze = %v, want ErrUnsupported", f.name, err)
			}
			t.Logf("%-24s unsupported content refused", f.name)
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
		res, err := extract.Resolve(t.Context(), s, a)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		detected := res.Detected
		var names []string
		for _, p := range res.Places {
			names = append(names, p.Name)
		}
		hits := len(intersect(names, f.Expect))
		found, expected, correct = found+len(names), expected+len(f.Expect), correct+hits
		t.Logf("%-24s precision %s recall %s (%d detected, %d found, %d expected; %d searches in %v)",
			f.name, ratio(hits, len(names)), ratio(hits, len(f.Expect)), detected, len(names), len(f.Expect),
			s.searches, time.Since(start).Round(time.Millisecond))
		if missing := minus(f.Expect, names); len(missing) > 0 {
			t.Logf("%-24s   missed: %s", "", strings.Join(missing, "; "))
		}
		if extra := minus(names, f.Expect); len(extra) > 0 {
			t.Logf("%-24s   unexpected: %s", "", strings.Join(extra, "; "))
		}
		if len(res.Unmatched) > 0 {
			var un []string
			for _, u := range res.Unmatched {
				un = append(un, u.Name)
			}
			t.Logf("%-24s   unmatched: %s", "", strings.Join(un, "; "))
		}
	}
	precision, recall := float64(correct)/float64(max(found, 1)), float64(correct)/float64(max(expected, 1))
	t.Logf("overall: precision %.1f%% (%d/%d), recall %.1f%% (%d/%d)", 100*precision, correct, found, 100*recall, correct, expected)
	if precision < 0.9 || recall < 0.9 {
		t.Errorf("quality below 90%%: precision %.1f%%, recall %.1f%%", 100*precision, 100*recall)
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
