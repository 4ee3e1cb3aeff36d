package extract

import (
	"testing"

	"tripplan/internal/places"
)

// TestCatalogNamesAreNames checks that no name or alternate name of the built-in catalog is
// taken for a non-place heading, a city or a run of common words, or normalises to nothing.
func TestCatalogNamesAreNames(t *testing.T) {
	all, _, err := places.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		for _, n := range append([]string{p.Name}, p.Names...) {
			if isStopName(n) {
				t.Errorf("%s: %q reads as a stop name", p.ProviderPlaceID, n)
			}
			if newForm(n).compact == "" {
				t.Errorf("%s: %q normalises to nothing", p.ProviderPlaceID, n)
			}
		}
	}
}
