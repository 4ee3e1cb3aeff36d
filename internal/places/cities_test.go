package places

import (
	"math"
	"testing"

	"tripplan/internal/timezone"
)

func TestCitiesAreTheCatalogsDestinations(t *testing.T) {
	all, err := Cities()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 13 {
		t.Fatalf("%d cities, want the catalog's 13: %+v", len(all), all)
	}
	entries, _, err := catalogEntries()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, c := range all {
		known[c.Name] = true
		if len(c.Country) != 2 {
			t.Errorf("%s: country %q", c.Name, c.Country)
		}
		if timezone.At(c.Lat, c.Lng) == "" {
			t.Errorf("%s: no time zone at its centre %v,%v", c.Name, c.Lat, c.Lng)
		}
	}
	// Every place lies within 50 km of its city's centre (about 0.45° of latitude).
	for _, e := range entries {
		c, ok := FindCity(e.City)
		if !ok {
			t.Fatalf("%s: city %q not found", e.ID, e.City)
		}
		if math.Abs(c.Lat-e.Lat) > 0.45 || math.Abs(c.Lng-e.Lng)*math.Cos(c.Lat*math.Pi/180) > 0.45 {
			t.Errorf("%s is far from the centre of %s", e.ID, c.Name)
		}
	}
	for name := range cityNames {
		if !known[name] {
			t.Errorf("cityNames has %q, which is not a catalog city", name)
		}
	}
}

func TestFindCityByOtherNames(t *testing.T) {
	for in, want := range map[string]string{"seoul": "Seoul", " 서울 ": "Seoul", "東京": "Tokyo", "NEW YORK": "New York", "Roma": "Rome"} {
		c, ok := FindCity(in)
		if !ok || c.Name != want {
			t.Errorf("FindCity(%q) = %q, %v; want %q", in, c.Name, ok, want)
		}
	}
	if c, ok := FindCity("Atlantis"); ok {
		t.Errorf("FindCity(Atlantis) = %+v", c)
	}
}
