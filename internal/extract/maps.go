package extract

import (
	"net/url"
	"regexp"
	"strings"
)

// mapLink reads a link to a map service: the place (or search) name it names and the
// coordinates it points at, either of which may be missing. Short links (goo.gl/maps,
// maps.app.goo.gl, naver.me) say nothing without being followed, so they are not read.
//
// Understood: Google Maps (/maps/place/<name>/@lat,lng…, /maps/search/<query>, ?q=, ?query=,
// ?ll=), Apple Maps (?q=, ?ll=, ?address=), Kakao Map (/link/map/<name>,lat,lng) and
// OpenStreetMap (?mlat=&mlon=, /search?query=).
func mapLink(raw string) (Candidate, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return Candidate{}, false
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	var c Candidate
	switch {
	case isGoogleMaps(host, u.Path):
		c = googleMaps(u)
	case host == "maps.apple.com":
		c = Candidate{Name: u.Query().Get("q"), Address: u.Query().Get("address")}
		c.Latitude, c.Longitude = latLng(u.Query().Get("ll"))
	case host == "map.kakao.com" || host == "m.map.kakao.com":
		c = kakaoMap(u)
	case host == "openstreetmap.org":
		c = Candidate{Name: u.Query().Get("query")}
		c.Latitude, c.Longitude = validCoordinates(u.Query().Get("mlat"), u.Query().Get("mlon"))
	default:
		return Candidate{}, false
	}
	c.Name, c.Address = splitQuery(c.Name, c.Address)
	return c, c.Name != "" || c.Latitude != ""
}

// isMapService says whether a page's address is on a map service (so the page is a MAP).
func isMapService(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	switch host {
	case "maps.apple.com", "map.kakao.com", "m.map.kakao.com", "map.naver.com", "m.map.naver.com",
		"openstreetmap.org", "maps.app.goo.gl", "naver.me":
		return true
	}
	return isGoogleMaps(host, u.Path) || host == "goo.gl" && strings.HasPrefix(u.Path, "/maps")
}

// isGoogleMaps says whether a host and path are Google Maps': maps.google.<tld>, or
// google.<tld>/maps.
func isGoogleMaps(host, path string) bool {
	if strings.HasPrefix(host, "maps.google.") {
		return true
	}
	return googleHost.MatchString(host) && (path == "/maps" || strings.HasPrefix(path, "/maps/"))
}

var googleHost = regexp.MustCompile(`^google\.[a-z]{2,3}(\.[a-z]{2})?$`)

// googleMaps reads a Google Maps address.
func googleMaps(u *url.URL) Candidate {
	var c Candidate
	segments := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	for i, s := range segments {
		switch {
		case (s == "place" || s == "search") && i+1 < len(segments) && !strings.HasPrefix(segments[i+1], "@"):
			c.Name = unescapePath(segments[i+1])
		case strings.HasPrefix(s, "@"):
			c.Latitude, c.Longitude = latLng(strings.TrimPrefix(s, "@"))
		case strings.HasPrefix(s, "data="):
			// The place's own position: …!3d<lat>!4d<lng>…, more exact than the view's.
			if m := dataCoordinates.FindStringSubmatch(s); m != nil {
				c.Latitude, c.Longitude = validCoordinates(m[1], m[2])
			}
		}
	}
	q := u.Query()
	if c.Name == "" {
		for _, k := range []string{"q", "query", "destination"} {
			if v := strings.TrimSpace(q.Get(k)); v != "" {
				if lat, lng := latLng(v); lat != "" {
					c.Latitude, c.Longitude = lat, lng
				} else {
					c.Name = v
				}
				break
			}
		}
	}
	if c.Latitude == "" {
		c.Latitude, c.Longitude = latLng(q.Get("ll"))
	}
	if strings.HasPrefix(c.Name, "place_id:") {
		c.Name = ""
	}
	return c
}

var dataCoordinates = regexp.MustCompile(`!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?)`)

// kakaoMap reads Kakao Map's link formats: /link/map/<name>,<lat>,<lng>,
// /link/to/<name>,<lat>,<lng> and /link/search/<query>.
func kakaoMap(u *url.URL) Candidate {
	segments := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	if len(segments) < 3 || segments[0] != "link" {
		return Candidate{}
	}
	value := unescapePath(segments[2])
	if segments[1] == "search" {
		return Candidate{Name: value}
	}
	parts := strings.Split(value, ",")
	if len(parts) < 3 {
		return Candidate{Name: value}
	}
	c := Candidate{Name: strings.Join(parts[:len(parts)-2], ",")}
	c.Latitude, c.Longitude = validCoordinates(parts[len(parts)-2], parts[len(parts)-1])
	return c
}

// latLng reads "lat,lng" (the rest, such as a zoom level, ignored).
func latLng(s string) (string, string) {
	parts := strings.Split(s, ",")
	if len(parts) < 2 {
		return "", ""
	}
	return validCoordinates(parts[0], parts[1])
}

func unescapePath(s string) string {
	if v, err := url.PathUnescape(s); err == nil {
		s = v
	}
	return strings.TrimSpace(strings.ReplaceAll(s, "+", " "))
}

// splitQuery splits a map query "Name, street, city" into the name and, when the link gave
// none, the address.
func splitQuery(name, address string) (string, string) {
	name = strings.Join(strings.Fields(name), " ")
	before, after, found := strings.Cut(name, ",")
	if !found {
		return name, address
	}
	if address == "" {
		address = strings.TrimSpace(after)
	}
	return strings.TrimSpace(before), address
}
