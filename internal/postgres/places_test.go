package postgres_test

import (
	"testing"

	"tripplan/internal/planner"
	"tripplan/internal/postgres/pgtest"
)

func TestSavePlacesDeduplicatesByProviderID(t *testing.T) {
	db := pgtest.New(t)
	ctx := t.Context()
	louvre := planner.Place{Provider: "GOOGLE", ProviderPlaceID: "ChIJD3uTd9hx5kcR1IQvGfr8dbk", Name: "Louvre Museum",
		Address: "75001 Paris, France", CategoryLevel1: "300000", CategoryLevel2: "302000", CategoryLevel3: "302001",
		PrimaryType: "museum", PrimaryTypeName: "Museum", Latitude: "48.860611", Longitude: "2.337644"}
	tower := planner.Place{Provider: "OSM", ProviderPlaceID: "W5013364", Name: "Eiffel Tower", Names: []string{"Tour Eiffel"}}
	first, err := db.SavePlaces(ctx, []planner.Place{louvre, tower, louvre})
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 3 || first[0].ID == "" || first[0].ID != first[2].ID || first[1].ID == first[0].ID {
		t.Fatalf("ids: %+v", first)
	}
	// Found again later, with fresher data: same id, refreshed fields.
	louvre.Name = "Musée du Louvre"
	again, err := db.SavePlaces(ctx, []planner.Place{louvre})
	if err != nil {
		t.Fatal(err)
	}
	if again[0].ID != first[0].ID {
		t.Fatalf("a place found again got a new id: %s vs %s", again[0].ID, first[0].ID)
	}
	var name, lat string
	if err := db.QueryRow(`SELECT name, latitude::text FROM places WHERE id = $1`, first[0].ID).Scan(&name, &lat); err != nil {
		t.Fatal(err)
	}
	if name != "Musée du Louvre" || lat != "48.860611" {
		t.Fatalf("stored %q %q", name, lat)
	}
	var n int
	mustGet(t, db, &n, `SELECT count(*) FROM places`)
	if n != 2 {
		t.Fatalf("%d places stored, want 2", n)
	}
}
