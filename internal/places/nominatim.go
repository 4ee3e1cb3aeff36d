package places

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"tripplan/internal/planner"
)

// Nominatim searches OpenStreetMap through a Nominatim server's /search endpoint.
type Nominatim struct {
	// BaseURL is required: the public server (https://nominatim.openstreetmap.org) allows one
	// request a second and no heavy use, so choosing it must be a deliberate configuration.
	BaseURL   string
	UserAgent string       // default "Tripplan/1.0"; the usage policy requires one that names the app
	HTTP      *http.Client // default: 10 s timeout
}

// nominatimPlace is one result of format=jsonv2 with addressdetails and namedetails.
type nominatimPlace struct {
	OSMType     string            `json:"osm_type"` // node, way or relation
	OSMID       int64             `json:"osm_id"`
	Lat         string            `json:"lat"`
	Lon         string            `json:"lon"`
	Category    string            `json:"category"` // the main tag's key, e.g. tourism
	Type        string            `json:"type"`     // and its value, e.g. museum
	Name        string            `json:"name"`     // already localised by accept-language
	DisplayName string            `json:"display_name"`
	Address     map[string]string `json:"address"`
	NameDetails map[string]string `json:"namedetails"` // raw name tags: name, name:en, alt_name…
}

// osmElements gives each OSM element type its id prefix and its path on openstreetmap.org.
var osmElements = map[string]struct{ prefix, path string }{
	"node": {"N", "node"}, "way": {"W", "way"}, "relation": {"R", "relation"},
}

// Search returns up to 10 places matching a free-text query, in Nominatim's order.
func (n *Nominatim) Search(ctx context.Context, query string) ([]planner.Place, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return []planner.Place{}, nil
	}
	if n.BaseURL == "" {
		return nil, errors.New("nominatim: no BaseURL configured")
	}
	q := url.Values{
		"q": {query}, "format": {"jsonv2"}, "limit": {strconv.Itoa(maxResults)},
		"addressdetails": {"1"}, "namedetails": {"1"}, "accept-language": {"en"},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		strings.TrimRight(n.BaseURL, "/")+"/search?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("nominatim: %w", err)
	}
	ua := n.UserAgent
	if ua == "" {
		ua = "Tripplan/1.0"
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "application/json")

	client := n.HTTP
	if client == nil {
		client = &http.Client{Timeout: timeout}
	}
	var results []nominatimPlace
	if err := fetchJSON(client, req, "nominatim", &results); err != nil {
		return nil, err
	}
	tax := NewTaxonomy()
	places := []planner.Place{}
	for _, r := range results {
		el, ok := osmElements[r.OSMType]
		if !ok || r.OSMID <= 0 {
			continue // no OSM element (e.g. an interpolated address): nothing stable to store
		}
		places = append(places, r.place(tax, el.prefix, el.path))
		if len(places) == maxResults {
			break
		}
	}
	return places, nil
}

func (r nominatimPlace) place(tax *Taxonomy, prefix, path string) planner.Place {
	id := strconv.FormatInt(r.OSMID, 10)
	key := r.Category + ":" + r.Type
	// osmTypes[key] is "" for an unknown tag, which LeafForTypes sends to OtherLeaf.
	c := tax.Categories(LeafForTypes(osmTypes[key]), Category{})
	name := firstOf(r.NameDetails["name:en"], r.Name, strings.Split(r.DisplayName, ",")[0])
	p := planner.Place{
		// Nominatim's place_id differs between servers and re-imports; the OSM element does not.
		Provider: ProviderOSM, ProviderPlaceID: prefix + id,
		Name: name, Names: otherNames(name, r.NameDetails), Address: r.DisplayName,
		City:           firstOf(r.Address["city"], r.Address["town"], r.Address["village"]),
		CategoryLevel1: c.Level1.ID, CategoryLevel2: c.Level2.ID, CategoryLevel3: c.Level3.ID,
		PrimaryType: key, PrimaryTypeName: TypeName(r.Type),
		MapsURI: "https://www.openstreetmap.org/" + path + "/" + id,
		Photos:  []string{},
	}
	lat, errLat := strconv.ParseFloat(r.Lat, 64)
	lng, errLng := strconv.ParseFloat(r.Lon, 64)
	if errLat == nil && errLng == nil && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 {
		p.Latitude, p.Longitude = coord(lat), coord(lng)
	}
	return p
}

// nameKey matches the translated-name tags (name:ko, name:zh-Hans), not tags such as
// name:etymology:wikidata that hold no name.
var nameKey = regexp.MustCompile(`^name:[a-z]{2,3}(-[A-Za-z]{2,8})*$`)

// preferredLanguages come first among the translations: Tripplan's users are largely Korean
// (Kakao and Naver sign-in) and most catalog destinations are in Korea and Japan, so these are
// the names they read or meet on signs. The rest follow in tag order, which is stable.
var preferredLanguages = []string{"name:ko", "name:ja", "name:zh"}

// otherNames lists up to five names besides name: the local one first, as the catalog does,
// then translations.
func otherNames(name string, details map[string]string) []string {
	keys := make([]string, 0, len(details))
	for k := range details {
		if nameKey.MatchString(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	seen := map[string]bool{name: true}
	names := []string{}
	for _, k := range append(append([]string{"name"}, preferredLanguages...), keys...) {
		v := strings.TrimSpace(details[k])
		if v != "" && !seen[v] && len(names) < 5 {
			seen[v] = true
			names = append(names, v)
		}
	}
	return names
}

// firstOf returns the first non-blank value.
func firstOf(values ...string) string {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
