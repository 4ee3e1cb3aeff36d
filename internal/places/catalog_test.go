package places

import (
	"testing"
)

func TestCatalogIsRealAndComplete(t *testing.T) {
	all, version, err := Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if len(version) != 16 {
		t.Fatalf("version %q", version)
	}
	if len(all) < 600 {
		t.Errorf("%d places, want at least 600", len(all))
	}
	cities := map[string]int{}
	byName := map[string]bool{}
	groups := map[string]int{}
	for _, p := range all {
		cities[p.City]++
		byName[p.Name] = true
		groups[p.CategoryLevel1]++
		if p.CategoryLevel3 == OtherLeaf || p.Latitude == "" || len(p.Names) > 0 && p.Names[0] == "" {
			t.Errorf("%s: incomplete %+v", p.ProviderPlaceID, p)
		}
	}
	if len(cities) < 12 {
		t.Errorf("%d destinations (%v), want at least 12", len(cities), cities)
	}
	for _, name := range []string{"Gyeongbokgung Palace", "N Seoul Tower", "Bukchon Hanok Village", "Gwangjang Market",
		"Haeundae Beach", "Seongsan Ilchulbong", "Eiffel Tower", "Louvre Museum", "Senso-ji", "Fushimi Inari Taisha"} {
		if !byName[name] {
			t.Errorf("the catalog lacks %q", name)
		}
	}
	// Restaurants, cafes, sights, lodging and shopping are all there.
	for _, l1 := range []string{"100000", "200000", "300000", "400000", "500000"} {
		if groups[l1] < 20 {
			t.Errorf("only %d places in category %s", groups[l1], l1)
		}
	}
	t.Logf("%d places in %d destinations: %v", len(all), len(cities), cities)
}

func TestCatalogEntryChecks(t *testing.T) {
	good := entry{ID: "x-y", Name: "N", Address: "A", City: "C", Country: "KR", Lat: 1, Lng: 2, Type: "cafe"}
	if err := good.check(); err != nil {
		t.Fatal(err)
	}
	bad := []func(e *entry){
		func(e *entry) { e.ID = "Bad Id" },
		func(e *entry) { e.Name = "" },
		func(e *entry) { e.Lat = 91 },
		func(e *entry) { e.Lat, e.Lng = 0, 0 },
		func(e *entry) { e.Type = "spaceport" },
		func(e *entry) { e.Country = "KOR" },
	}
	for i, mutate := range bad {
		e := good
		mutate(&e)
		if e.check() == nil {
			t.Errorf("bad entry %d accepted: %+v", i, e)
		}
	}
}
