package extract

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Many pages keep their content in script data rather than in their HTML: a YouTube watch page
// its title, description and chapters (ytInitialPlayerResponse, ytInitialData), a Next.js or
// Nuxt site its article (__NEXT_DATA__, __NUXT_DATA__, window.__NUXT__), a Google Maps list its
// places (APP_INITIALIZATION_STATE). The data is read as JSON (a JavaScript assignment's value
// is found by scanning for its balanced end, strings respected), never run.

// Limits on reading script data.
const (
	maxLiteral   = 4 << 20 // bytes of one JSON value
	maxJSONNodes = 200_000 // values decoded from one page's script data
	maxJSONDepth = 64      // nesting of a value
	maxFragments = 1 << 20 // bytes of HTML found in script data
)

// script is a page's script that may hold content.
type script struct {
	id   string
	text string
}

// scriptMarkers are the names of the script data read.
var scriptMarkers = []string{"ytInitialPlayerResponse", "ytInitialData", "__NUXT__", "APP_INITIALIZATION_STATE"}

// dataScriptIDs are the ids of JSON scripts read.
var dataScriptIDs = setOf("__NEXT_DATA__", "__NUXT_DATA__")

// holdsContent says whether a script is one read for content.
func holdsContent(id, text string) bool {
	if dataScriptIDs[id] {
		return true
	}
	for _, m := range scriptMarkers {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}

// embedded is what a page's script data says.
type embedded struct {
	video       bool   // a video's data (ytInitialPlayerResponse)
	title       string // the video's title
	description string // the video's description
	outline     []string
	prose       []string
	html        []string    // HTML held in the data (an article's body)
	places      []Candidate // named places with coordinates (a map list)
	nodes       int         // JSON values decoded so far, up to maxJSONNodes
	fragments   int         // bytes in html
}

// readEmbedded reads the content of a page's script data.
func readEmbedded(scripts []script) *embedded {
	e := &embedded{}
	for _, s := range scripts {
		switch s.id {
		case "__NEXT_DATA__":
			if v, ok := e.decode(s.text); ok {
				e.content(mainEntity(path(v, "props", "pageProps"), path(v, "query")))
			}
			continue
		case "__NUXT_DATA__":
			if v, ok := e.decode(s.text); ok {
				if arr, ok := v.([]any); ok {
					e.content(hydrate(arr))
				}
			}
			continue
		}
		if v, ok := e.assigned(s.text, "ytInitialPlayerResponse"); ok {
			e.player(v)
		}
		if v, ok := e.assigned(s.text, "ytInitialData"); ok {
			e.watchData(v)
		}
		if v, ok := e.assigned(s.text, "__NUXT__"); ok {
			e.content(v)
		}
		if v, ok := e.assigned(s.text, "APP_INITIALIZATION_STATE"); ok {
			e.mapList(v)
		}
	}
	return e
}

// object is a JSON object with its members in order (so that what is read comes in the
// page's order).
type object []member

type member struct {
	key string
	val any
}

func (o object) get(key string) any {
	for _, m := range o {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// mainEntity is what a Next.js page's props are about: the object, a few levels down, whose
// slug or id is the page's route parameter of that name (query: {"slug": "kyoto-autumn-temples"}
// for /b/[slug]; "postId" names an id too), when there is one; else all of them. Boards, posts
// or videos beside it (related, recommended, popular) are other pages'.
func mainEntity(props, query any) any {
	q, _ := query.(object)
	params := map[string]string{} // an entity's key → the value it must have
	for _, m := range q {
		v, name := str(m.val), strings.ToLower(m.key)
		if v == "" {
			continue
		}
		for _, k := range []string{"slug", "id", "uid", "handle"} {
			if strings.HasSuffix(name, k) {
				params[name], params[k] = v, v
			}
		}
	}
	if len(params) == 0 {
		return props
	}
	level := []any{props}
	for depth := 0; depth < entityDepth && len(level) > 0; depth++ {
		var next []any
		for _, v := range level {
			o, ok := v.(object)
			if !ok {
				continue
			}
			for _, m := range o {
				if want, ok := params[strings.ToLower(m.key)]; ok && depth > 0 && numText(m.val) == want {
					return o
				}
			}
			for _, m := range o {
				next = append(next, m.val)
			}
		}
		level = next
	}
	return props
}

// entityDepth is how many objects down a page's props its main entity is looked for.
const entityDepth = 4

// path follows object keys.
func path(v any, keys ...string) any {
	for _, k := range keys {
		o, ok := v.(object)
		if !ok {
			return nil
		}
		v = o.get(k)
	}
	return v
}

// assigned decodes the JSON value assigned to name in a script: `var ytInitialData = {...};`,
// `window["ytInitialData"] = {...}`, `window.__NUXT__={...}`. A value that is not JSON (a
// function call, say) is not read.
func (e *embedded) assigned(src, name string) (any, bool) {
	for off := 0; off < len(src); {
		i := strings.Index(src[off:], name)
		if i < 0 {
			return nil, false
		}
		off += i + len(name)
		rest := strings.TrimLeft(src[off:], "\"'] \t\r\n")
		if !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") {
			continue
		}
		// The first assignment of an object or array is the one read: scanning on from each
		// later mention could take time quadratic in the script's length.
		value := strings.TrimLeft(rest[1:], " \t\r\n")
		if strings.HasPrefix(value, "{") || strings.HasPrefix(value, "[") {
			if lit, ok := literal(value); ok {
				return e.decode(lit)
			}
			return nil, false
		}
	}
	return nil, false
}

// literal returns the object or array literal s starts with, up to its balanced end (brackets
// inside strings, quoted "…" or '…' with backslash escapes, not counted), at most maxLiteral
// bytes; ok is false when s does not start with one or it does not end in time.
func literal(s string) (string, bool) {
	if s == "" || s[0] != '{' && s[0] != '[' {
		return "", false
	}
	depth := 0
	var quote byte
	for i := 0; i < len(s) && i < maxLiteral; i++ {
		c := s[i]
		switch {
		case quote != 0:
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return s[:i+1], true
			}
		}
	}
	return "", false
}

var errTooMuch = errors.New("extract: too much script data")

// decode decodes one JSON value (objects as object, numbers as float64), within the page's
// budget of values and the depth limit.
func (e *embedded) decode(src string) (any, bool) {
	src = strings.TrimSpace(src)
	if len(src) > maxLiteral || src == "" {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(src))
	v, err := e.value(dec, 0)
	return v, err == nil
}

func (e *embedded) value(dec *json.Decoder, depth int) (any, error) {
	if e.nodes++; e.nodes > maxJSONNodes || depth > maxJSONDepth {
		return nil, errTooMuch
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var o object
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			v, err := e.value(dec, depth+1)
			if err != nil {
				return nil, err
			}
			o = append(o, member{key, v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := e.value(dec, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}

// player reads a YouTube player response: the video's title and full description.
func (e *embedded) player(v any) {
	d, ok := path(v, "videoDetails").(object)
	if !ok {
		return
	}
	e.video = true
	e.title = firstNonEmpty(e.title, str(d.get("title")))
	e.description = firstNonEmpty(e.description, str(d.get("shortDescription")))
}

// watchData reads a YouTube watch page's data: chapter titles (chapterRenderer,
// macroMarkersListItemRenderer) and the description shown under the video.
func (e *embedded) watchData(v any) {
	walk(v, maxJSONDepth, func(key string, v any) bool {
		switch key {
		case "chapterRenderer", "macroMarkersListItemRenderer":
			if t := ytText(path(v, "title")); t != "" {
				e.outline = append(e.outline, t)
			}
			return false
		case "attributedDescription", "attributedDescriptionBodyText":
			e.description = firstNonEmpty(e.description, str(path(v, "content")))
			return false
		}
		return true
	})
}

// ytText reads YouTube's text: {"simpleText": "…"} or {"runs": [{"text": "…"}, …]}.
func ytText(v any) string {
	if s := str(path(v, "simpleText")); s != "" {
		return s
	}
	runs, _ := path(v, "runs").([]any)
	var b strings.Builder
	for _, r := range runs {
		s, _ := path(r, "text").(string)
		b.WriteString(s)
	}
	return strings.TrimSpace(b.String())
}

// walk calls fn with each member of the objects in v (and "" for array elements), depth
// first in order; fn returns whether to look inside the member's value.
func walk(v any, depth int, fn func(key string, v any) bool) {
	if depth < 0 {
		return
	}
	switch v := v.(type) {
	case object:
		for _, m := range v {
			if fn(m.key, m.val) {
				walk(m.val, depth-1, fn)
			}
		}
	case []any:
		for _, x := range v {
			if fn("", x) {
				walk(x, depth-1, fn)
			}
		}
	}
}

// nameKeys are the keys of an app's data whose short text is a name or title.
var nameKeys = setOf("name", "title", "heading", "headline", "subtitle", "placename", "place_name", "spot", "label", "caption")

// skipKeys are keys of an app's data that never hold the page's text, nor do keys holding
// otherKeys: other pages' ("relatedPosts", "recommendations", "popularBoards").
var skipKeys = setOf("seo", "meta", "head", "i18n", "messages", "translations", "config", "env", "locale", "locales",
	"navigation", "nav", "menu", "footer", "header", "ads", "tracking")

var otherKeys = []string{"related", "recommend", "popular", "similar", "suggest", "trending"}

// addressKeys hold a place's address, which names streets and districts, not places.
var addressKeys = setOf("address", "formattedaddress", "formatted_address", "vicinity", "streetaddress")

// skipKey says whether an app's data under key is not read.
func skipKey(key string) bool {
	key = strings.ToLower(key)
	return skipKeys[key] || addressKeys[key] || slices.ContainsFunc(otherKeys, func(k string) bool { return strings.Contains(key, k) })
}

// markup matches text that is HTML.
var markup = regexp.MustCompile(`(?i)<(?:p|h[1-6]|li|ul|ol|div|br|strong|b|figure|blockquote|section|a)[\s>/]`)

// content reads an app's data (Next.js page props, Nuxt state) for text: HTML (an article's
// body) is read as a page is, short text under a name key as a name, long text as prose;
// an object with a name and coordinates is a place.
func (e *embedded) content(v any) {
	walk(v, maxJSONDepth, func(key string, v any) bool {
		if skipKey(key) {
			return false
		}
		switch v := v.(type) {
		case object:
			if c, ok := placeObject(v); ok {
				e.places = append(e.places, c)
			}
		case string:
			e.text(strings.ToLower(key), v)
		}
		return true
	})
}

// text reads one string of an app's data.
func (e *embedded) text(key, s string) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "/"):
	case markup.MatchString(s):
		if e.fragments+len(s) <= maxFragments {
			e.fragments += len(s)
			e.html = append(e.html, s)
		}
	case nameKeys[key] && utf8.RuneCountInString(s) <= maxNameRunes:
		e.outline = append(e.outline, s)
	case utf8.RuneCountInString(s) >= 40 && (strings.Contains(s, " ") || hasWide(s)):
		e.prose = append(e.prose, s)
	}
}

// placeObject reads an object with a name and coordinates ({"name": …, "lat": …, "lng": …},
// or "latitude"/"longitude", or inside "location", "position", "geo", "coordinates" or, as
// Google's Places API has it, "geometry"'s "location").
func placeObject(o object) (Candidate, bool) {
	name := firstNonEmpty(str(o.get("name")), str(o.get("title")), str(o.get("placeName")))
	if name == "" || utf8.RuneCountInString(name) > maxNameRunes {
		return Candidate{}, false
	}
	for _, where := range []any{o, o.get("location"), o.get("position"), o.get("geo"), o.get("coordinates"), path(o, "geometry", "location")} {
		w, ok := where.(object)
		if !ok {
			continue
		}
		lat := firstNonNil(w.get("lat"), w.get("latitude"))
		lng := firstNonNil(w.get("lng"), w.get("lon"), w.get("longitude"))
		if la, lo := validCoordinates(numText(lat), numText(lng)); la != "" {
			address := firstNonEmpty(str(o.get("address")), str(o.get("formattedAddress")), str(o.get("formatted_address")))
			return Candidate{Name: name, Address: address, Latitude: la, Longitude: lo}, true
		}
	}
	return Candidate{}, false
}

// linkPlaces reads the places in links' data (see doc.linkData): objects with a name and
// coordinates, as placeObject reads them.
func (e *embedded) linkPlaces(data []string) {
	for _, src := range data {
		if v, ok := e.decode(src); ok {
			if o, ok := v.(object); ok {
				if c, ok := placeObject(o); ok {
					e.places = append(e.places, c)
				}
			}
		}
	}
}

// hydrate turns Nuxt 3's __NUXT_DATA__ (devalue's flat form: an array whose objects and arrays
// hold the indexes of their values; ["Reactive", i] and the like wrap a value) into a value.
func hydrate(arr []any) any {
	budget := maxJSONNodes
	var at func(i any, depth int) any
	at = func(i any, depth int) any {
		f, ok := i.(float64)
		if budget--; !ok || budget < 0 || depth > maxJSONDepth || f < 0 || f >= float64(len(arr)) || f != math.Trunc(f) {
			return nil
		}
		switch v := arr[int(f)].(type) {
		case object:
			out := make(object, 0, len(v))
			for _, m := range v {
				out = append(out, member{m.key, at(m.val, depth+1)})
			}
			return out
		case []any:
			if len(v) > 0 {
				if kind, ok := v[0].(string); ok {
					switch kind {
					case "Reactive", "ShallowReactive", "Ref", "ShallowRef", "NuxtError":
						if len(v) > 1 {
							return at(v[1], depth+1)
						}
					}
					return nil // Date, Set, Map, RegExp, …: no text of the page's
				}
			}
			out := make([]any, 0, len(v))
			for _, x := range v {
				out = append(out, at(x, depth+1))
			}
			return out
		default:
			return v
		}
	}
	if len(arr) == 0 {
		return nil
	}
	return at(0.0, 0)
}

// mapList reads a Google Maps page's APP_INITIALIZATION_STATE: nested arrays in which a place
// is an array holding its name, a few arrays down its coordinates ([…, lat, lng]), and an
// array of its short and full address. A shared list is an array of such places beside the
// list's own data (its title, the bounds of its map, its id): a place is an array that holds
// a name and coordinates but no place, so that the list, whose bounds are coordinates too, is
// not read as one. When the state holds a list (two places or more in one array), places
// alone in theirs (the viewer's saved "Home") are left out. Strings that are JSON themselves
// (")]}'" and a value) are read too, two levels deep at most.
func (e *embedded) mapList(v any) {
	var lists, lone []Candidate
	if _, self := e.mapPlaces(v, 0, &lists, &lone); self != nil {
		lone = append(lone, *self)
	}
	if len(lists) == 0 {
		lists = lone
	}
	e.places = append(e.places, lists...)
}

// mapPlaces finds the places in v (see mapList), adding those of lists to lists and others to
// lone, and returns how many there are in v; when v is a place itself, it is returned instead,
// for the array holding it to add.
func (e *embedded) mapPlaces(v any, nested int, lists, lone *[]Candidate) (int, *Candidate) {
	var kids []any
	switch v := v.(type) {
	case []any:
		kids = v
	case object:
		for _, m := range v {
			kids = append(kids, m.val)
		}
	case string:
		if rest, ok := strings.CutPrefix(v, ")]}'"); ok && nested < 2 {
			if inner, ok := e.decode(rest); ok {
				return e.mapPlaces(inner, nested+1, lists, lone)
			}
		}
		return 0, nil
	default:
		return 0, nil
	}
	n := 0
	var here []Candidate
	for _, x := range kids {
		k, self := e.mapPlaces(x, nested, lists, lone)
		if self != nil {
			here = append(here, *self)
		}
		n += k
	}
	if len(here) >= 2 {
		*lists = append(*lists, here...)
	} else {
		*lone = append(*lone, here...)
	}
	if a, ok := v.([]any); ok && n == 0 {
		if c, ok := listPlace(a); ok {
			return 1, &c
		}
	}
	return n, nil
}

// listPlace reads a place of a map list: the array's first string that is a name, the first
// coordinates within it, at most two arrays down (a list holding places holds their
// coordinates deeper), and its address: the longest string with a comma in an array of
// strings in it (Google's short and full address, ["8 Seongbuk-ro 26-gil", "8 Seongbuk-ro
// 26-gil, Seongbuk-gu, Seoul, South Korea"]).
func listPlace(a []any) (Candidate, bool) {
	name := ""
	for _, x := range a {
		if s, ok := x.(string); ok && placeName(s) {
			name = strings.TrimSpace(s)
			break
		}
	}
	if name == "" {
		return Candidate{}, false
	}
	lat, lng, ok := coordinatesIn(a, 2)
	if !ok {
		return Candidate{}, false
	}
	return Candidate{Name: name, Address: listAddress(a), Latitude: lat, Longitude: lng}, true
}

// listAddress is the longest string with a comma in an array of strings in a.
func listAddress(a []any) string {
	best := ""
	for _, x := range a {
		inner, ok := x.([]any)
		if !ok || len(inner) == 0 {
			continue
		}
		strs := make([]string, 0, len(inner))
		for _, y := range inner {
			if s, ok := y.(string); ok {
				strs = append(strs, strings.TrimSpace(s))
			}
		}
		if len(strs) < len(inner) {
			continue
		}
		for _, s := range strs {
			if strings.Contains(s, ",") && len(s) > len(best) && utf8.RuneCountInString(s) <= maxAddressRunes {
				best = s
			}
		}
	}
	return best
}

// maxAddressRunes is the longest address read from a map list.
const maxAddressRunes = 200

// placeName says whether a string of a map list may be a place's name, not an id, address
// of a page or code.
func placeName(s string) bool {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n < 2 || n > maxNameRunes || strings.ContainsAny(s, "\n/\\{}<>=") || strings.HasPrefix(s, "0x") || idLike(s) {
		return false
	}
	return strings.Contains(s, " ") || hasWide(s) || n >= 4 && strings.ToLower(s) != s
}

// idLike says whether s is an identifier rather than a name: one word of ten characters or
// more, of Latin letters and digits (and "-" or "_"), that mixes digits with letters, or
// small letters with capitals inside it more than once ("ChZVVmVDMlF0SDQ1U2tSRmlzT0hPVmVBEgJrbw",
// "ChIJzWXFYYuifDUR64Pq5LTtioU"; not "LOTTEWORLD").
func idLike(s string) bool {
	if len(s) < 10 {
		return false
	}
	digits, lower, upper, inner := 0, 0, 0, 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z':
			lower++
		case r >= 'A' && r <= 'Z':
			upper++
			if i > 0 {
				inner++
			}
		case r == '-' || r == '_':
		default:
			return false
		}
	}
	return digits > 0 && lower+upper > 0 || lower > 0 && inner > 1
}

// coordinatesIn finds two numbers in a row that are a latitude and a longitude (not both
// whole numbers), in a or the arrays in it, depth arrays down at most.
func coordinatesIn(a []any, depth int) (string, string, bool) {
	for i := 0; i+1 < len(a); i++ {
		la, ok1 := a[i].(float64)
		lo, ok2 := a[i+1].(float64)
		if ok1 && ok2 && (la != math.Trunc(la) || lo != math.Trunc(lo)) {
			if lat, lng := validCoordinates(numText(la), numText(lo)); lat != "" {
				return lat, lng, true
			}
		}
	}
	if depth == 0 {
		return "", "", false
	}
	for _, x := range a {
		if inner, ok := x.([]any); ok {
			if lat, lng, ok := coordinatesIn(inner, depth-1); ok {
				return lat, lng, true
			}
		}
	}
	return "", "", false
}

func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

func numText(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return ""
}

func firstNonNil(vs ...any) any {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}
