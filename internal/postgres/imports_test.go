package postgres_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// importFixture is a collection with one catalog-like place in it and two more outside it.
type importFixture struct {
	db                    *postgres.DB
	owner, outsider, col  string
	held, palace, market  planner.Place
	heldCollectionPlaceID string
}

func newImportFixture(t *testing.T) *importFixture {
	t.Helper()
	db := pgtest.New(t)
	ctx := t.Context()
	f := &importFixture{db: db, owner: newUser(t, db, "Ana"), outsider: newUser(t, db, "Ben")}
	saved, err := db.SavePlaces(ctx, []planner.Place{
		{Provider: "GOOGLE", ProviderPlaceID: "imp-held", Name: "Namsan Tower", Names: []string{"N서울타워"}, Latitude: "37.551200", Longitude: "126.988200"},
		{Provider: "GOOGLE", ProviderPlaceID: "imp-palace", Name: "Gyeongbokgung Palace", Names: []string{"경복궁"}, Latitude: "37.579600", Longitude: "126.977000"},
		{Provider: "GOOGLE", ProviderPlaceID: "imp-market", Name: "Gwangjang Market", Latitude: "37.570700", Longitude: "127.001700"},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.held, f.palace, f.market = saved[0], saved[1], saved[2]
	c, err := db.CreateCollection(ctx, f.owner, "Seoul")
	if err != nil {
		t.Fatal(err)
	}
	f.col = c.ID
	cp, err := db.AddCollectionPlace(ctx, f.owner, f.col, f.held.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.heldCollectionPlaceID = cp.ID
	return f
}

func pt(row int, name string, lat, lng float64) planner.ImportRow {
	return planner.ImportRow{Row: row, Name: name, HasPoint: true, Lat: lat, Lng: lng}
}

// Matching, creating and duplicates: a catalog place of the same name (any of its names, in
// any case) near the row's point is used; far away, or unknown, the row becomes a custom
// place; a name alone matches only a place that is the one of that name; the collection's
// places and the file's own repeats are reported, not added twice.
func TestImportPlacesMatchesCreatesAndSkips(t *testing.T) {
	f := newImportFixture(t)
	db, ctx := f.db, t.Context()
	before := count(t, db, `SELECT count(*) FROM collection_places`)
	rows := []planner.ImportRow{
		pt(1, "gyeongbokgung palace", 37.5798, 126.9772), // ~30 m off: matched
		pt(2, "N서울타워", 37.5512, 126.9882),                // already in the collection, by another name
		pt(3, "Our guesthouse", 37.5744, 126.9849),       // unknown: created
		pt(4, "OUR GUESTHOUSE", 37.5744, 126.9849),       // the same, again in the file
		{Row: 5, Name: "Gwangjang Market"},               // a name alone, the one place so named
		{Row: 6, Name: "Nowhere Café"},                   // a name alone, unknown
		pt(7, "Gyeongbokgung Palace", 35.1, 129.0),       // same name 300 km away: a place of its own
		{Row: 8, Name: "", Skip: planner.ImportSkipNoName},
	}
	rows[2].Note, rows[2].Address, rows[2].URL = "Door code 1234", "12 Yulgok-ro", "https://maps.google.com/?q=37.5744,126.9849"
	report, err := db.ImportPlaces(ctx, f.owner, f.col, "CSV", rows)
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		Row     int
		Outcome planner.ImportOutcome
		Place   string
	}
	var got []outcome
	for _, r := range report.Rows {
		got = append(got, outcome{r.Row, r.Outcome, r.PlaceID})
	}
	created, far := report.Rows[2].PlaceID, report.Rows[6].PlaceID
	want := []outcome{
		{1, planner.ImportMatched, f.palace.ID},
		{2, planner.ImportAlreadyThere, f.held.ID},
		{3, planner.ImportCreated, created},
		{4, planner.ImportAlreadyThere, ""},
		{5, planner.ImportMatched, f.market.ID},
		{6, planner.ImportSkipNotFound, ""},
		{7, planner.ImportCreated, far},
		{8, planner.ImportSkipNoName, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("outcomes (-want +got):\n%s", diff)
	}
	if created == "" || far == "" || far == f.palace.ID {
		t.Fatalf("created places: %q %q", created, far)
	}
	if report.Rows[1].CollectionPlaceID != f.heldCollectionPlaceID || report.Rows[3].CollectionPlaceID != report.Rows[2].CollectionPlaceID {
		t.Errorf("an already-there row names the collection place it is: %+v", report.Rows)
	}
	if report.Matched != 2 || report.Created != 2 || report.AlreadyThere != 2 || report.Skipped != 2 {
		t.Errorf("counts %+v", report)
	}
	if n := count(t, db, `SELECT count(*) FROM collection_places`); n != before+4 {
		t.Errorf("%d collection places, want %d", n, before+4)
	}
	var p struct {
		Provider, Name, Address, URI, Memo, Lat, Lng string
	}
	mustGet(t, db, &p, `SELECT p.provider, p.name, p.address, p.provider_maps_uri AS uri, cp.memo, p.latitude::text AS lat, p.longitude::text AS lng
		FROM places p JOIN collection_places cp ON cp.place_id = p.id WHERE p.id = $1`, created)
	if p != (struct{ Provider, Name, Address, URI, Memo, Lat, Lng string }{"MANUAL", "Our guesthouse", "12 Yulgok-ro", "https://maps.google.com/?q=37.5744,126.9849", "Door code 1234", "37.574400", "126.984900"}) {
		t.Errorf("created place %+v", p)
	}
	if n := count(t, db, `SELECT count(*) FROM activities WHERE collection_id = $1 AND kind = 'PLACE_ADDED'`, f.col); n != 1+4 {
		t.Errorf("%d history entries of places added, want 5 (one before, four imported)", n)
	}

	// The same file again adds nothing: every usable row is there now (a name alone that
	// was not found is still not found).
	again, err := db.ImportPlaces(ctx, f.owner, f.col, "CSV", rows)
	if err != nil {
		t.Fatal(err)
	}
	if again.AlreadyThere != 6 || again.Matched+again.Created != 0 {
		t.Errorf("again: %+v", again)
	}

	// A name alone that more than one place has is ambiguous.
	if _, err := db.SavePlaces(ctx, []planner.Place{{Provider: "GOOGLE", ProviderPlaceID: "imp-market-2", Name: "Gwangjang Market", Latitude: "35.1", Longitude: "129.0"}}); err != nil {
		t.Fatal(err)
	}
	c2 := must(db.CreateCollection(ctx, f.owner, "Busan"))
	amb, err := db.ImportPlaces(ctx, f.owner, c2.ID, "CSV", []planner.ImportRow{{Row: 1, Name: "Gwangjang Market"}})
	if err != nil {
		t.Fatal(err)
	}
	if amb.Rows[0].Outcome != planner.ImportSkipAmbiguous {
		t.Errorf("ambiguous name: %+v", amb.Rows[0])
	}
}

// Only the collection's members import; a guest cannot (TestGuestsCannotWriteThroughTheStore).
func TestImportPlacesMembersOnly(t *testing.T) {
	f := newImportFixture(t)
	_, err := f.db.ImportPlaces(t.Context(), f.outsider, f.col, "CSV", []planner.ImportRow{pt(1, "Mine", 37.5, 127)})
	wantCode(t, "an outsider's import", err, planner.CodeForbiddenNotMember)
	if n := count(t, f.db, `SELECT count(*) FROM places WHERE name = 'Mine'`); n != 0 {
		t.Errorf("an outsider's import left %d places", n)
	}
}

// All or nothing: when the 300th row fails in the database (a trigger stands in for any
// failure there), the 299 rows before it, already written by then, are gone with it: no place,
// collection place or history entry is left.
func TestImportPlacesIsOneTransaction(t *testing.T) {
	f := newImportFixture(t)
	db, ctx := f.db, t.Context()
	if _, err := db.ExecContext(ctx, `
		CREATE FUNCTION fail_row_300() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF (SELECT name FROM places WHERE id = NEW.place_id) = 'Place 300' THEN
				RAISE EXCEPTION 'row 300 fails';
			END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER fail_row_300 BEFORE INSERT ON collection_places FOR EACH ROW EXECUTE FUNCTION fail_row_300();`); err != nil {
		t.Fatal(err)
	}
	tables := []string{"places", "collection_places", "activities", "notifications"}
	counts := func() map[string]int {
		out := map[string]int{}
		for _, table := range tables {
			out[table] = count(t, db, `SELECT count(*) FROM `+table)
		}
		return out
	}
	before := counts()
	var rows []planner.ImportRow
	for i := 1; i <= 400; i++ {
		rows = append(rows, pt(i, fmt.Sprintf("Place %d", i), 37+float64(i)/1000, 127))
	}
	if _, err := db.ImportPlaces(ctx, f.owner, f.col, "CSV", rows); err == nil {
		t.Fatal("the import succeeded past a failing row")
	}
	if diff := cmp.Diff(before, counts()); diff != "" {
		t.Errorf("a failed import left rows behind (-before +after):\n%s", diff)
	}
}

func count(t *testing.T, db *postgres.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Get(&n, query, args...); err != nil {
		t.Fatal(err)
	}
	return n
}
