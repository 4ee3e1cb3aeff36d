package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/places"
	"tripplan/internal/planner"
)

// loadCatalog stores the built-in catalog in the app's database.
func (a *testApp) loadCatalog() {
	a.t.Helper()
	all, version, err := places.Catalog()
	if err != nil {
		a.t.Fatal(err)
	}
	if _, err := a.db.LoadCatalog(a.t.Context(), version, all); err != nil {
		a.t.Fatal(err)
	}
}

func (a *testApp) search(token, q string) []placeJSON {
	a.t.Helper()
	res := a.do(req{Method: "GET", Path: "/places/search?query=" + url.QueryEscape(q), Token: token})
	if res.Status != http.StatusOK {
		a.t.Fatalf("search %q: %d %s", q, res.Status, res.Body)
	}
	var out []placeJSON
	if err := json.Unmarshal(res.Body, &out); err != nil {
		a.t.Fatal(err)
	}
	return out
}

func TestSearchFindsTheNamedPlacesFirst(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	token := a.member("search-1", "Seeker")
	cases := []struct{ name, english, local string }{
		{"Gyeongbokgung Palace", "Gyeongbokgung Palace", "경복궁"},
		{"N Seoul Tower", "N Seoul Tower", "N서울타워"},
		{"Bukchon Hanok Village", "Bukchon Hanok Village", "북촌한옥마을"},
		{"Gwangjang Market", "Gwangjang Market", "광장시장"},
		{"Haeundae Beach", "Haeundae Beach", "해운대해수욕장"},
		{"Seongsan Ilchulbong", "Seongsan Ilchulbong", "성산일출봉"},
		{"Eiffel Tower", "Eiffel Tower", "Tour Eiffel"},
		{"Louvre Museum", "Louvre Museum", "Musée du Louvre"},
		{"Senso-ji", "Senso-ji", "浅草寺"},
		{"Fushimi Inari Taisha", "Fushimi Inari Taisha", "伏見稲荷大社"},
	}
	for _, tc := range cases {
		for _, q := range []string{tc.english, tc.local} {
			got := a.search(token, q)
			if len(got) == 0 || got[0].Name != tc.name {
				names := []string{}
				for _, p := range got {
					names = append(names, p.Name)
				}
				t.Errorf("search %q: first of %v, want %q", q, names, tc.name)
			}
		}
	}
}

func TestSearchToleratesCaseAccentsAndTypos(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	token := a.member("search-2", "Seeker")
	cases := map[string]string{
		"EIFFEL TOWER":        "Eiffel Tower",
		"musee du louvre":     "Louvre Museum",
		"Gyeongbokgun Palace": "Gyeongbokgung Palace", // a letter missing
		"Eifel Tower":         "Eiffel Tower",         // a letter missing
		"fushimi inari":       "Fushimi Inari Taisha", // a prefix
	}
	for q, want := range cases {
		got := a.search(token, q)
		if len(got) == 0 || got[0].Name != want {
			t.Errorf("search %q: got %d results, first %v; want %q", q, len(got), first(got), want)
		}
	}
	// A city name finds places in that city; at most ten results.
	kyoto := a.search(token, "Kyoto")
	if len(kyoto) != 10 {
		t.Fatalf("search Kyoto: %d results, want 10", len(kyoto))
	}
	for _, p := range kyoto {
		if !strings.Contains(p.Address, "Kyoto") {
			t.Errorf("search Kyoto returned %q at %q", p.Name, p.Address)
		}
	}
}

func first(ps []placeJSON) string {
	if len(ps) == 0 {
		return ""
	}
	return ps[0].Name
}

func TestSearchPlaceShapeAndInputRules(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	token := a.member("search-3", "Seeker")
	got := a.search(token, "Gyeongbokgung Palace")
	p := got[0]
	type placeShape struct {
		IDLength                                  int
		HasProviderPlaceID, InSeoul, HasPhotoList bool // photos: a list, if empty
		Level1, Level3Name, PrimaryType           string
	}
	if diff := cmp.Diff(placeShape{IDLength: 21, HasProviderPlaceID: true, InSeoul: true, HasPhotoList: true, Level1: "300000", Level3Name: "Palace", PrimaryType: "palace"},
		placeShape{IDLength: len(p.PlaceID), HasProviderPlaceID: p.ProviderPlaceID != "", InSeoul: p.Point != nil && strings.HasPrefix(p.Point.Latitude, "37.5"),
			HasPhotoList: p.Photos != nil, Level1: p.Category.Level1.ID, Level3Name: p.Category.Level3.Name, PrimaryType: p.Category.PrimaryType.ID}); diff != "" {
		t.Fatalf("place shape (-want +got):\n%s", diff)
	}
	if got := a.search(token, "   "); len(got) != 0 {
		t.Fatalf("blank query: %v", got)
	}
	// "%" is text, not a LIKE wildcard: it finds only places with a "%" in their name
	// ("% Arabica" is a real coffee chain), not everything.
	percent := a.search(token, "%")
	if len(percent) == 0 || len(percent) == 10 {
		t.Fatalf("search %%: %d results", len(percent))
	}
	for _, p := range percent {
		if !strings.Contains(p.Name, "%") {
			t.Errorf("search %% returned %q", p.Name)
		}
	}
	if got := a.search(token, "zzzzqqqxxjj"); len(got) != 0 {
		t.Fatalf("nonsense matched: %v", got)
	}
	a.do(req{Method: "GET", Path: "/places/search?query=" + strings.Repeat("a", 51), Token: token}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	a.do(req{Method: "GET", Path: "/places/search?query=x"}).problem(t, http.StatusUnauthorized, "MISSING_TOKEN")
}

// fakeProvider is a remote place provider under the test's control.
type fakeProvider struct {
	places []planner.Place
	err    error
}

func (f *fakeProvider) Search(context.Context, string) ([]planner.Place, error) {
	return f.places, f.err
}

func TestSearchThroughARemoteProviderStoresItsPlaces(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	fake := &fakeProvider{places: []planner.Place{{Provider: "GOOGLE", ProviderPlaceID: "ChIJ-gyeongbokgung", Name: "Gyeongbokgung",
		Address: "161 Sajik-ro, Seoul", CategoryLevel1: "300000", CategoryLevel2: "301000", CategoryLevel3: "301003",
		PrimaryType: "historical_landmark", PrimaryTypeName: "Historical landmark", Latitude: "37.579617", Longitude: "126.977041"}}}
	a.srv.finder.Remote = fake
	token := a.member("prov-1", "Prov")
	first := a.search(token, "gyeongbokgung")
	if len(first) != 1 || first[0].ProviderPlaceID != "ChIJ-gyeongbokgung" || len(first[0].PlaceID) != 21 || first[0].Category.Level3.Name != "Palace" {
		t.Fatalf("remote result: %+v", first)
	}
	// The same place found again keeps its id, so it can be added to a collection.
	if again := a.search(token, "gyeongbokgung"); again[0].PlaceID != first[0].PlaceID {
		t.Fatalf("id changed: %s → %s", first[0].PlaceID, again[0].PlaceID)
	}
	col := a.createCollection(token, "Remote")
	a.addPlace(token, col.CollectionID, first[0].PlaceID)

	// When the provider fails, the built-in catalog answers.
	fake.err = errors.New("provider down")
	if got := a.search(token, "Gyeongbokgung Palace"); len(got) == 0 || got[0].ProviderPlaceID != "seoul-gyeongbokgung-palace" {
		t.Fatalf("fallback: %+v", got)
	}
}
