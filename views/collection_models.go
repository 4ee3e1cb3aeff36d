package views

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"tripplan/internal/paths"

	"github.com/a-h/templ"
)

// CollectionsView is the collections list page (GET /collections in a browser).
type CollectionsView struct {
	Collections []CollectionCard
	NextHref    string // the next page's partial, "" when this is the last page
}

// NewCollectionView is the "new collection" form, refilled after an error.
type NewCollectionView struct {
	Title string
	Error string
}

// MemberView is a member of a collection or plan as shown beside what they did.
type MemberView struct {
	ID       string
	Nickname string
	Picture  string
	Owner    bool
}

// CollectionView is one collection's page: its places, the add-place search box and the
// sort and "added by" filter.
type CollectionView struct {
	ID          string
	Title       string
	PlaceCount  int
	MemberCount int
	Members     []MemberView
	IsOwner     bool
	Guest       bool // a read-only view for a guest holding an invite link
	Places      PlaceListView
	Categories  []CategoryOption // the category filter's choices
	Map         CollectionMapView
	Job         *JobView // the viewer's undecided extraction job, if any
	Version     int      // the collection's, sent back with a rename
}

// CategoryOption is a level-1 category offered by a filter.
type CategoryOption struct {
	ID, Name string
}

// CollectionMapView is the map of the places the collection page's filters select: all of them
// (not only the list's first page), up to planner.MapPinsMax.
type CollectionMapView struct {
	Pins        []MapPin
	Total       int    // the places the filters select that have coordinates; more than len(Pins) when capped
	Filter      string // the filters' query, so the map refits its view when they change, not on a live update
	TileURL     string // {z}/{x}/{y} template, or "" for no tiles
	Attribution string
}

// MapPin is a place on the collection's map, in the JSON static/js/map.js reads.
type MapPin struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Category string  `json:"category"`
	AddedBy  string  `json:"by"`
	Href     string  `json:"href"`
	Lat      float64 `json:"lat"`
	Lng      float64 `json:"lng"`
}

// PinsJSON is the pins for the map's data-pins attribute.
func (m CollectionMapView) PinsJSON() string {
	b, _ := json.Marshal(m.Pins)
	return string(b)
}

// MapPinFor is the pin of a place card at a coordinate.
func MapPinFor(c PlaceCard, lat, lng float64) MapPin {
	return MapPin{ID: c.ID, Name: c.Name, Category: c.Category, AddedBy: c.AddedBy.Nickname,
		Href: collectionPlaceHref(c.CollectionID, c.ID), Lat: lat, Lng: lng}
}

// PlaceListView is one page of a collection's place cards with what it was asked for, so the
// next page (loaded on scroll) keeps the same order and filter.
type PlaceListView struct {
	CollectionID string
	Places       []PlaceCard
	Sort         string // LATEST | OLDEST | UPDATED_AT_DESC | ...
	AddedBy      string // a collection member id, or ""
	Category     string // a level-1 category id, or ""
	Picked       string // ME | ANYONE | ""
	Page         int
	HasNext      bool
}

// PlaceCard is a place in a collection as its card shows it.
type PlaceCard struct {
	CollectionID string
	ID           string // the collection place id
	Name         string // in the reader's language where the place has a name in it
	Subtitle     string // the place's other name (English under Korean, local under English), or ""
	Address      string
	Category     string // the level-2 category name ("Cafe")
	CategoryKind string // the level-1 category id, for the placeholder icon
	Photo        string // "" when the place has no photo
	Memo         string
	AddedBy      MemberView
	Picked       []MemberView
	Passed       []MemberView
	MyPreference string // PICK | PASS | NOTHING
	ReadOnly     bool   // shown to a guest: no buttons that change it
	Version      int    // the collection place's, sent back with a memo
}

// PlaceDetailView is a collection place's own page with its map.
type PlaceDetailView struct {
	Card            PlaceCard
	CollectionTitle string
	Photos          []string
	MapsURI         string // the provider's page for the place, or ""
	Map             MapView
}

// MapView is a Leaflet map centred on one point. The page must stay usable without it: the
// coordinates and an external maps link are always shown as text.
type MapView struct {
	Latitude, Longitude string // decimal degrees; "" when unknown (no map is drawn)
	Label               string
	TileURL             string // {z}/{x}/{y} template, or "" for no tiles
	Attribution         string
}

// SearchResultsView is the add-place search box's result list.
type SearchResultsView struct {
	CollectionID string // where "Add" puts a result; "" shows no add buttons
	Query        string
	Results      []SearchResult
}

// SearchResult is one place found by search.
type SearchResult struct {
	PlaceID      string
	Name         string
	Subtitle     string // the place's other name, as on PlaceCard
	Address      string
	Category     string
	CategoryKind string
	Photo        string
}

// PlaceSorts are the sort choices of a collection's places, in menu order, with the message
// that names each.
var PlaceSorts = []struct{ Value, Message string }{
	{"LATEST", "collection.sort_latest"},
	{"OLDEST", "collection.sort_oldest"},
	{"UPDATED_AT_DESC", "collection.sort_updated"},
}

func collectionPlacesHref(collectionID string) string {
	return paths.Collection(collectionID) + "/places"
}

func collectionPlaceHref(collectionID, cpID string) string {
	return collectionPlacesHref(collectionID) + "/" + url.PathEscape(cpID)
}

func preferenceHref(p PlaceCard, pref string) string {
	return collectionPlaceHref(p.CollectionID, p.ID) + "/preference?type=" + pref
}

// nextPageHref is the partial holding the page after v, with the same sort and filter.
func (v PlaceListView) nextPageHref() string {
	q := url.Values{"page": {strconv.Itoa(v.Page + 1)}}
	if v.Sort != "" {
		q.Set("sort", v.Sort)
	}
	for k, val := range v.filters() {
		q[k] = val
	}
	return collectionPlacesHref(v.CollectionID) + "?" + q.Encode()
}

// filters are the list's filters as query parameters, those in use only.
func (v PlaceListView) filters() url.Values {
	q := url.Values{}
	for k, val := range map[string]string{"added_by": v.AddedBy, "category": v.Category, "picked": v.Picked} {
		if val != "" {
			q.Set(k, val)
		}
	}
	return q
}

// Filtered tells whether a filter narrows the list.
func (v PlaceListView) Filtered() bool { return len(v.filters()) > 0 }

// Query is the collection page's query for this list: its sort, unless the default, and its
// filters (the address the page keeps, so a reload or a shared link shows the same list and map).
func (v PlaceListView) Query() string {
	q := v.filters()
	if v.Sort != "" && v.Sort != PlaceSorts[0].Value {
		q.Set("sort", v.Sort)
	}
	return q.Encode()
}

// categoryIcon is the placeholder icon for a place without a photo, by its level-1 category.
func categoryIcon(kind string) string {
	switch kind {
	case "100000":
		return "utensils"
	case "200000":
		return "cup"
	case "300000":
		return "camera"
	case "400000":
		return "bed"
	case "500000":
		return "bag"
	}
	return "pin"
}

func pressed(on bool) string {
	if on {
		return "true"
	}
	return "false"
}

func memoID(p PlaceCard) string     { return "memo-" + p.ID }
func pickPassID(p PlaceCard) string { return "pickpass-" + p.ID }

// NewCollectionPath is the "new collection" form page.
const NewCollectionPath = "/collections/new"

// memberNames lists nicknames for a tooltip: "Ana, Ben".
func memberNames(ms []MemberView) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Nickname
	}
	return strings.Join(names, ", ")
}

// osmHref opens the point on openstreetmap.org.
func osmHref(m MapView) string {
	return "https://www.openstreetmap.org/?mlat=" + url.QueryEscape(m.Latitude) + "&mlon=" + url.QueryEscape(m.Longitude) +
		"#map=17/" + url.PathEscape(m.Latitude) + "/" + url.PathEscape(m.Longitude)
}

// LinkErrorPath explains an invite link that does not work (?error=invalid_link|expired_link).
const LinkErrorPath = "/link-error"

// ownerVals is the hx-vals JSON that hands ownership to a member.
func ownerVals(field, memberID string) string {
	b, _ := json.Marshal(map[string]string{field: memberID})
	return string(b)
}

// PlacesChanged is the event (sent in HX-Trigger) that makes the collection page reload its
// list of places after the viewer changed it.
const PlacesChanged = "places-changed"

// swapOOB marks an element that an htmx answer swaps in by its id, beside its main content.
func swapOOB(oob bool) templ.Attributes {
	if !oob {
		return templ.Attributes{}
	}
	return templ.Attributes{"hx-swap-oob": "true"}
}
