package extract

import (
	"context"
	"math"
	"strconv"
	"strings"

	"tripplan/internal/planner"
)

// Searcher finds real places for a query (the built-in catalog or a remote provider).
type Searcher interface {
	Search(ctx context.Context, query string) ([]planner.Place, error)
}

// Resolve turns candidates into real places. Each candidate's name is searched, and again
// with the city as context (the city its address names, else the page's City) when the first
// search finds no good match there. A found place is kept only when one of its names (the
// name or an alternate, such as the local-script one) really is the candidate's name: the
// same once case, accents, punctuation and spacing are set aside ("Kinkakuji" =
// "Kinkaku-ji"); the same but for generic words and city names ("Gyeongbokgung" =
// "Gyeongbokgung Palace", "Park Hyatt" = "Park Hyatt Busan"), keeping a distinctive word
// (so "Best food" or "Seoul Station" name nothing else); or, for a structural candidate, a
// near spelling (a typo) of such a name. Guesses need the same name (or the name with generic
// words added) and a place in one of the page's cities (a page that names no city keeps no
// guess); a near or generic-word match must be in one of them when the page names any. A
// candidate's coordinates, when known, must be within 25
// km of the place's. The best match wins, a place in the page's city or within a kilometre
// of the candidate's position first.
//
// Places are deduplicated (by ID, else provider and provider place id) and come in the
// page's order. detected counts the candidates searched, guesses only when they matched.
func Resolve(ctx context.Context, s Searcher, a *Analysis) (places []planner.Place, detected int, err error) {
	r := &resolver{s: s, a: a, results: map[string][]planner.Place{}, forms: map[string]form{}}
	seen := map[string]bool{}
	for _, c := range a.Candidates {
		m, err := r.resolve(ctx, c)
		if err != nil {
			return nil, 0, err
		}
		if !c.Guess || m.found {
			detected++
		}
		if key := placeKey(m.place); m.found && !seen[key] {
			seen[key] = true
			places = append(places, m.place)
		}
	}
	return places, detected, nil
}

// resolver resolves one analysis's candidates, remembering searches and normalised names.
type resolver struct {
	s       Searcher
	a       *Analysis
	results map[string][]planner.Place
	forms   map[string]form
}

// found is a candidate's best match.
type found struct {
	place planner.Place
	score float64
	local bool // in the city the candidate or page is about
	found bool
}

func (r *resolver) resolve(ctx context.Context, c Candidate) (found, error) {
	q := newForm(c.Name)
	if q.compact == "" {
		return found{}, nil
	}
	cities := r.a.Cities
	cc := cityCounter{}
	cc.add(c.Address, 1)
	if len(cc) > 0 {
		cities = cc.ranked()[:1]
	}
	best, err := r.best(ctx, c.Name, q, c, cities)
	if err != nil || c.Guess || best.found && best.local || len(cities) == 0 ||
		containsName(c.Name, cities[0]) {
		return best, err
	}
	again, err := r.best(ctx, c.Name+" "+cities[0], q, c, cities)
	if again.found && (!best.found || again.score > best.score) {
		best = again
	}
	return best, err
}

// best searches query and returns the place that matches the candidate best.
func (r *resolver) best(ctx context.Context, query string, q form, c Candidate, cities []string) (found, error) {
	results, err := r.search(ctx, query)
	if err != nil {
		return found{}, err
	}
	var best found
	for _, p := range results {
		score := 0.0
		for _, n := range append([]string{p.Name}, p.Names...) {
			score = max(score, match(q, r.form(n), c.Guess))
		}
		if score == 0 {
			continue
		}
		local := false
		for _, city := range cities {
			local = local || inCity(city, p.City, p.Address, p.LocalAddress)
		}
		km, known := distance(c, p)
		switch {
		case known && km > 25:
			continue
		case known && km <= 1:
			score += 0.05
		case c.Guess && !local, len(cities) > 0 && !local && score < 1:
			continue
		}
		if local {
			score += 0.04
		}
		if !best.found || score > best.score {
			best = found{place: p, score: score, local: local, found: true}
		}
	}
	return best, nil
}

func (r *resolver) search(ctx context.Context, query string) ([]planner.Place, error) {
	key := strings.ToLower(query)
	if res, ok := r.results[key]; ok {
		return res, nil
	}
	res, err := r.s.Search(ctx, query)
	if err != nil {
		return nil, err
	}
	r.results[key] = res
	return res, nil
}

func (r *resolver) form(name string) form {
	f, ok := r.forms[name]
	if !ok {
		f = newForm(name)
		r.forms[name] = f
	}
	return f
}

// placeKey identifies a place: by ID, else by provider and provider place id.
func placeKey(p planner.Place) string {
	if p.ID != "" {
		return p.ID
	}
	return p.Provider + "\x00" + p.ProviderPlaceID + "\x00" + p.Name + "\x00" + p.Address
}

// distance is the great-circle distance in km between a candidate's and a place's
// positions, when both are known.
func distance(c Candidate, p planner.Place) (float64, bool) {
	lat1, err1 := strconv.ParseFloat(c.Latitude, 64)
	lng1, err2 := strconv.ParseFloat(c.Longitude, 64)
	lat2, err3 := strconv.ParseFloat(p.Latitude, 64)
	lng2, err4 := strconv.ParseFloat(p.Longitude, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return 0, false
	}
	const earthKm = 6371
	rad := math.Pi / 180
	dLat, dLng := (lat2-lat1)*rad, (lng2-lng1)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * earthKm * math.Asin(math.Sqrt(h)), true
}
