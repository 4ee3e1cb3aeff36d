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

// Resolve turns candidates into real places. Each candidate's name is searched, and searched
// again with the city as context (the city its address names, else the page's City) when the
// first search finds the name only in other cities. A place is kept only when one of its
// names (the name or an alternate, such as the local-script one) really is the candidate's
// name: equal once case, accents, punctuation and spacing are set aside ("Kinkakuji" =
// "Kinkaku-ji"); equal but for generic words and city names, keeping a distinctive word
// ("Gyeongbokgung" = "Gyeongbokgung Palace", "Park Hyatt" = "Park Hyatt Busan", while "Best
// food" or "Seoul Station" name no other place); or, for a candidate from the page's
// structure, misspelt by a letter. A guess must name a place in one of the page's cities (a
// page that names no city keeps no guess), and so must a match that is not exact when the
// page names cities. A candidate's coordinates, when known, must be within 25 km of the
// place's. The best match wins: exact before others, and, among equals, a place within a
// kilometre of the candidate's position or in the page's cities (its main city first).
//
// Places are deduplicated (by ID, else by provider and provider place id) and come in page
// order. detected counts the candidates searched, guesses only when they matched.
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
	if q.compact == "" || c.Guess && len(r.a.Cities) == 0 {
		return found{}, nil // a guess needs a city to be in
	}
	cities := r.a.Cities
	cc := cityCounter{}
	cc.add(c.Address, 1)
	if len(cc) > 0 {
		cities = cc.ranked()[:1]
	}
	best, named, err := r.best(ctx, c.Name, q, c, cities)
	if err != nil || c.Guess || best.local || !named || len(cities) == 0 || containsName(c.Name, cities[0]) {
		return best, err
	}
	// The name matched places elsewhere only: look again with the city.
	again, _, err := r.best(ctx, c.Name+" "+cities[0], q, c, cities)
	if again.found && (!best.found || again.score > best.score) {
		best = again
	}
	return best, err
}

// best searches query and returns the place that matches the candidate best, and whether
// any place's name matched at all (in a city or at a distance that ruled it out).
func (r *resolver) best(ctx context.Context, query string, q form, c Candidate, cities []string) (best found, named bool, err error) {
	results, err := r.search(ctx, query)
	if err != nil {
		return found{}, false, err
	}
	for _, p := range results {
		score := 0.0
		for _, n := range append([]string{p.Name}, p.Names...) {
			score = max(score, match(q, r.form(n), c.Guess))
		}
		if score == 0 {
			continue
		}
		named = true
		local, bonus := false, 0.0
		for i, city := range cities {
			if inCity(city, p.City, p.Address, p.LocalAddress) {
				local, bonus = true, max(bonus, 0.04/float64(i+1)) // the main city first
			}
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
		score += bonus
		if !best.found || score > best.score {
			best = found{place: p, score: score, local: local, found: true}
		}
	}
	return best, named, nil
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
