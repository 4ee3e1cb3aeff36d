// Package placestest helps tests expect a built-in catalog place's name as a page shows it to
// a reader (places.DisplayName), for the web package's tests and the browser tests alike.
package placestest

import (
	"testing"

	"tripplan/internal/places"
)

// Shown is the name a reader of lang sees for the catalog place named name (its English name,
// as JSON gives it): 경복궁 for "Gyeongbokgung Palace" in Korean.
func Shown(t testing.TB, lang, name string) string {
	t.Helper()
	all, _, err := places.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		if p.Name == name {
			shown, _ := places.DisplayName(lang, p)
			return shown
		}
	}
	t.Fatalf("no place named %q in the catalog", name)
	return ""
}
