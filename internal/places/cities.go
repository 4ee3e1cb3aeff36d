package places

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// City is a destination of the built-in catalog: its English name, country, other names and
// centre (the mean of its places' coordinates, WGS84 degrees).
type City struct {
	Name    string
	Country string   // ISO 3166-1 alpha-2
	Names   []string // local and Korean names, for finding the city by them
	Lat     float64
	Lng     float64
}

// cityNames are other names of the catalog's cities: the local name and the Korean one (most
// members sign in with Kakao or Naver). The catalog test checks every key is a catalog city.
var cityNames = map[string][]string{
	"Bangkok":   {"กรุงเทพฯ", "방콕"},
	"Barcelona": {"바르셀로나"},
	"Busan":     {"부산"},
	"Gyeongju":  {"경주"},
	"Jeju":      {"제주", "제주도"},
	"Kyoto":     {"京都", "교토"},
	"London":    {"런던"},
	"New York":  {"뉴욕"},
	"Osaka":     {"大阪", "오사카"},
	"Paris":     {"파리"},
	"Rome":      {"Roma", "로마"},
	"Seoul":     {"서울"},
	"Tokyo":     {"東京", "도쿄"},
}

var cities = sync.OnceValues(func() ([]City, error) {
	entries, _, err := catalogEntries()
	if err != nil {
		return nil, err
	}
	type sum struct {
		country  string
		lat, lng float64
		n        int
	}
	sums := map[string]*sum{}
	for _, e := range entries {
		s := sums[e.City]
		if s == nil {
			s = &sum{country: e.Country}
			sums[e.City] = s
		}
		s.lat, s.lng, s.n = s.lat+e.Lat, s.lng+e.Lng, s.n+1
	}
	out := make([]City, 0, len(sums))
	for name, s := range sums {
		out = append(out, City{Name: name, Country: s.country, Names: slices.Clone(cityNames[name]),
			Lat: math.Round(s.lat/float64(s.n)*1e6) / 1e6, Lng: math.Round(s.lng/float64(s.n)*1e6) / 1e6})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
})

// Cities are the built-in catalog's destinations, by name.
func Cities() ([]City, error) { return cities() }

// FindCity is the catalog city called name (its English name or one of its other names,
// ignoring case and surrounding spaces); false when there is none.
func FindCity(name string) (City, bool) {
	all, err := cities()
	if err != nil {
		return City{}, false
	}
	name = strings.TrimSpace(name)
	for _, c := range all {
		if strings.EqualFold(c.Name, name) || slices.ContainsFunc(c.Names, func(n string) bool { return strings.EqualFold(n, name) }) {
			return c, true
		}
	}
	return City{}, false
}
