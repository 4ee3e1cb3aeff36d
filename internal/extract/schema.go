package extract

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// thing is a schema.org object read from JSON-LD or microdata: its "@type" and properties.
type thing = map[string]any

// decodeJSONLD decodes a JSON-LD script, tolerating the HTML comment or CDATA markers some
// pages wrap it in; broken JSON yields nothing.
func decodeJSONLD(src string) any {
	src = strings.TrimSpace(src)
	for _, marker := range [][2]string{{"<!--", "-->"}, {"//<![CDATA[", "//]]>"}, {"/*<![CDATA[*/", "/*]]>*/"}} {
		src = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(src, marker[0]), marker[1]))
	}
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		return nil
	}
	return v
}

// walkThings calls visit for every object in v, depth first, properties in name order;
// visit says whether to look inside the object.
func walkThings(v any, visit func(thing) bool) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			walkThings(e, visit)
		}
	case map[string]any:
		if !visit(v) {
			return
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// The graph and list first, so that a page's main items keep their order.
		slices.SortFunc(keys, func(a, b string) int {
			if pa, pb := keyRank(a), keyRank(b); pa != pb {
				return pa - pb
			}
			return strings.Compare(a, b)
		})
		for _, k := range keys {
			walkThings(v[k], visit)
		}
	}
}

func keyRank(k string) int {
	switch k {
	case "@graph", "itemListElement", "mainEntity":
		return 0
	}
	return 1
}

// typesOf returns an object's schema.org types, without their vocabulary prefix.
func typesOf(t thing) []string {
	var out []string
	switch v := t["@type"].(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	for i, s := range out {
		out[i] = s[strings.LastIndexAny(s, "/:#")+1:]
	}
	return out
}

func hasType(t thing, types map[string]bool) bool {
	for _, ty := range typesOf(t) {
		if types[ty] {
			return true
		}
	}
	return false
}

// placeTypes are the schema.org types of places Analyze reads (besides any type named like
// "…Restaurant", "…Store", "…Shop", "…Business", "…Establishment", "…Station", "…Venue").
var placeTypes = setOf("Place", "LocalBusiness", "Restaurant", "CafeOrCoffeeShop", "BarOrPub", "Bakery",
	"FoodEstablishment", "IceCreamShop", "Winery", "Brewery", "Distillery", "NightClub", "TouristAttraction",
	"TouristDestination", "LandmarksOrHistoricalBuildings", "LodgingBusiness", "Hotel", "Hostel", "Motel",
	"Resort", "BedAndBreakfast", "Campground", "Museum", "Park", "Zoo", "Aquarium", "AmusementPark", "Beach",
	"PlaceOfWorship", "BuddhistTemple", "Church", "CatholicChurch", "HinduTemple", "Mosque", "Synagogue",
	"ShoppingCenter", "CivicStructure", "Landform", "Mountain", "BodyOfWater", "Waterfall", "MovieTheater",
	"PerformingArtsTheater", "StadiumOrArena", "Airport", "Library", "Bridge", "ArtGallery", "Casino",
	"SportsActivityLocation", "SkiResort", "GolfCourse", "Playground", "MusicVenue", "EventVenue",
	"Accommodation", "Landmark")

// notPlaceTypes are schema.org places too large or abstract to add to a collection, and
// businesses that are not places.
var notPlaceTypes = setOf("City", "Country", "State", "AdministrativeArea", "Continent", "PostalAddress",
	"GeoCoordinates", "GeoShape", "VirtualLocation", "Residence", "OnlineStore", "OnlineBusiness")

func isPlace(t thing) bool {
	if hasType(t, notPlaceTypes) {
		return false
	}
	for _, ty := range typesOf(t) {
		if placeTypes[ty] {
			return true
		}
		for _, suffix := range []string{"Restaurant", "Store", "Shop", "Business", "Establishment", "Station", "Venue"} {
			if strings.HasSuffix(ty, suffix) {
				return true
			}
		}
	}
	return false
}

// articleTypes and videoTypes mark a page as a blog post or a video.
var (
	articleTypes = setOf("Article", "BlogPosting", "NewsArticle", "Report", "SocialMediaPosting", "Blog",
		"TechArticle", "OpinionNewsArticle", "ReviewNewsArticle")
	videoTypes = setOf("VideoObject", "Movie", "Clip", "Episode")
)

// placeOf reads a place object as a candidate.
func placeOf(t thing) Candidate {
	c := Candidate{Name: textValue(t["name"]), Address: addressOf(t["address"])}
	c.Latitude, c.Longitude = coordinates(t)
	if c.Latitude == "" {
		if m, ok := mapLink(textValue(t["hasMap"])); ok {
			c.Latitude, c.Longitude = m.Latitude, m.Longitude
		}
	}
	return c
}

// listNames returns the names in an ItemList whose items are not themselves typed objects
// (those are visited on their own): list items with a name, or plain strings.
func listNames(t thing) []string {
	var out []string
	elems, _ := t["itemListElement"].([]any)
	for _, e := range elems {
		switch e := e.(type) {
		case string:
			out = append(out, e)
		case map[string]any:
			item, _ := e["item"].(map[string]any)
			if item != nil && len(typesOf(item)) > 0 {
				continue
			}
			name := textValue(e["name"])
			if name == "" && item != nil {
				name = textValue(item["name"])
			}
			out = append(out, name)
		}
	}
	return out
}

// textValue reads a property as text: a string, a number, a {"@value"} or named object, or
// the first of a list. A NUL (JSON's \u0000) becomes a space, as decode has it.
func textValue(v any) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(strings.ReplaceAll(v, "\x00", " "))
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case map[string]any:
		if s := textValue(v["@value"]); s != "" {
			return s
		}
		return textValue(v["name"])
	case []any:
		for _, e := range v {
			if s := textValue(e); s != "" {
				return s
			}
		}
	}
	return ""
}

// addressOf reads an address: text, or a PostalAddress's parts joined with commas.
func addressOf(v any) string {
	switch v := v.(type) {
	case map[string]any:
		var parts []string
		for _, k := range []string{"streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"} {
			if s := textValue(v[k]); s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			return textValue(v["name"])
		}
		return strings.Join(parts, ", ")
	case []any:
		for _, e := range v {
			if s := addressOf(e); s != "" {
				return s
			}
		}
		return ""
	}
	return textValue(v)
}

// coordinates reads a place's geo (GeoCoordinates) or its own latitude and longitude.
func coordinates(t thing) (lat, lng string) {
	g := t
	if geo, ok := t["geo"].(map[string]any); ok {
		g = geo
	} else if list, ok := t["geo"].([]any); ok && len(list) > 0 {
		g, _ = list[0].(map[string]any)
	}
	if g == nil {
		return "", ""
	}
	return validCoordinates(textValue(g["latitude"]), textValue(g["longitude"]))
}

// validCoordinates returns lat and lng as decimal text when they are numbers in range.
func validCoordinates(lat, lng string) (string, string) {
	la, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
	lo, err2 := strconv.ParseFloat(strings.TrimSpace(lng), 64)
	if err1 != nil || err2 != nil || la < -90 || la > 90 || lo < -180 || lo > 180 || la == 0 && lo == 0 {
		return "", ""
	}
	return strconv.FormatFloat(la, 'f', -1, 64), strconv.FormatFloat(lo, 'f', -1, 64)
}

// authorOf reads an author or creator: text, a person's name, or the first of a list.
func authorOf(t thing) string {
	for _, k := range []string{"author", "creator"} {
		if s := textValue(t[k]); s != "" && !strings.HasPrefix(s, "http") {
			return s
		}
	}
	return ""
}

// microdata reads a page's top-level microdata items (itemscope without itemprop).
func microdata(root *html.Node) []thing {
	var out []thing
	var find func(*html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && hasAttr(n, "itemscope") && !hasAttr(n, "itemprop") {
			out = append(out, microdataItem(n))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(root)
	return out
}

// microdataItem reads one item: its types and properties.
func microdataItem(n *html.Node) thing {
	t := thing{}
	var types []any
	for _, ty := range strings.Fields(attr(n, "itemtype")) {
		types = append(types, ty)
	}
	if len(types) > 0 {
		t["@type"] = types
	}
	microdataProps(n, t)
	return t
}

// microdataProps reads the properties inside n into t, not looking inside nested items.
func microdataProps(n *html.Node, t thing) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		scope := hasAttr(c, "itemscope")
		if names := strings.Fields(attr(c, "itemprop")); len(names) > 0 {
			var v any
			if scope {
				v = microdataItem(c)
			} else {
				v = microdataValue(c)
			}
			for _, name := range names {
				switch old := t[name].(type) {
				case nil:
					t[name] = v
				case []any:
					t[name] = append(old, v)
				default:
					t[name] = []any{old, v}
				}
			}
		}
		if !scope {
			microdataProps(c, t)
		}
	}
}

// microdataValue is a property's value as the microdata rules read it.
func microdataValue(n *html.Node) string {
	if hasAttr(n, "content") {
		return strings.TrimSpace(attr(n, "content"))
	}
	switch n.DataAtom {
	case atom.A, atom.Link, atom.Area:
		return attr(n, "href")
	case atom.Img, atom.Audio, atom.Video, atom.Source, atom.Iframe, atom.Embed:
		return attr(n, "src")
	case atom.Time:
		if hasAttr(n, "datetime") {
			return attr(n, "datetime")
		}
	case atom.Data, atom.Meter:
		return attr(n, "value")
	}
	return strings.Join(strings.Fields(textOf(n)), " ")
}
