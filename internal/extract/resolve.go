package extract

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tripplan/internal/planner"
)

// Searcher finds real places for a query (the built-in catalog or a remote provider).
type Searcher interface {
	Search(ctx context.Context, query string) ([]planner.Place, error)
}

// Match is a place a page names, with why and where it names it (the strongest of its
// candidates' mentions, see Candidate.Mention).
type Match struct {
	planner.Place
	Mention string
	Quote   string
}

// Unmatched is a name read from the page's structure that no place matched.
type Unmatched struct {
	Name  string
	Quote string
}

// Resolution is what Resolve found: the places in page order, the names it could not
// match, and how many candidates it searched (guesses only when they matched).
type Resolution struct {
	Places    []Match
	Unmatched []Unmatched
	Detected  int
}

// maxUnmatched is the most unmatched names a Resolution keeps.
const maxUnmatched = 30

// Resolve turns candidates into real places. Each candidate's name is searched, and searched
// again with the city as context (the city its address names, else the page's City) when the
// first search finds the name only in other cities. A place is kept only when one of its
// names (the name or an alternate, such as the local-script one) really is the candidate's
// name: equal once case, accents, punctuation and spacing are set aside ("Kinkakuji" =
// "Kinkaku-ji"); equal but for generic words and city names, keeping a distinctive word of
// five letters or more ("Gyeongbokgung" = "Gyeongbokgung Palace", "Park Hyatt" = "Park Hyatt
// Busan", while "Best food" or "Seoul Station" name no other place); for a candidate from
// the page's structure, misspelt by a letter; or a chain's brand in Latin script with its
// branch in the local one ("ONIBUS COFFEE 中目黒", see mixedMatch); or a place's name without
// its leading district ("블루라인파크" of 해운대구's "해운대 블루라인파크", see districtless). The
// name of a street, road or district ("창경궁로", "Jongno-gu", "Rue de Rivoli", "Le Marais")
// matches only a place called exactly that, as does a name in the addresses of two or more of the places the
// search finds ("Asakusa" is the district of "2-3-1 Asakusa", not Asakusa Shrine). A guess
// must name a place in one of the page's cities (a page that names no city keeps no guess);
// when the page names cities, so must any other match, unless the sentence the name is in
// names the place's city. A candidate's coordinates, when known, must be within 25 km of the
// place's. The best match wins: exact before others, and, among equals, a place within a
// kilometre of the candidate's position or in the page's cities (its main city first).
//
// Places are deduplicated (by ID, else by provider and provider place id), come in page
// order, and keep the strongest mention of the candidates that found them; a guess named only
// inside another candidate's name that found another place is left out (see withinOther).
// Names of the page's structure that found nothing (not guesses, streets or districts, nor
// parts of a name that did) are kept as Unmatched, at most maxUnmatched.
//
// progress, when not nil, is told after each candidate how many of them were looked up.
func Resolve(ctx context.Context, s Searcher, a *Analysis, progress func(done, total int)) (*Resolution, error) {
	r := &resolver{s: s, a: a, results: map[string][]planner.Place{}, forms: map[string]form{}}
	out := &Resolution{}
	seen := map[string]int{}
	var missed []Candidate
	ms := make([]found, len(a.Candidates))
	for i, c := range a.Candidates {
		m, err := r.resolve(ctx, c)
		if err != nil {
			return nil, err
		}
		if progress != nil {
			progress(i+1, len(a.Candidates))
		}
		ms[i] = m
	}
	for i, c := range a.Candidates {
		m := ms[i]
		if !c.Guess || m.found {
			out.Detected++
		}
		if !m.found {
			if !c.Guess {
				missed = append(missed, c)
			}
			continue
		}
		if c.Guess && withinOther(i, a.Candidates, ms) {
			continue
		}
		mention := firstNonEmpty(c.Mention, MentionMentioned)
		key := placeKey(m.place)
		if k, ok := seen[key]; ok {
			if old := &out.Places[k]; strongerMention(old.Mention, mention) || old.Quote == "" && old.Mention == mention {
				old.Mention, old.Quote = mention, c.Quote
			}
			continue
		}
		seen[key] = len(out.Places)
		out.Places = append(out.Places, Match{Place: m.place, Mention: mention, Quote: c.Quote})
	}
	out.Unmatched = unmatched(missed, a.Candidates, out.Places, a.Title)
	return out, nil
}

// withinOther says whether the guess candidates[i] is named in its sentence only inside the
// name of another candidate that found another place: "中目黒" of "ONIBUS COFFEE 中目黒" is the
// café's branch, not the district; "Le Marais" of "Breizh Café Le Marais" the crêperie's.
func withinOther(i int, candidates []Candidate, ms []found) bool {
	c := candidates[i]
	for j, d := range candidates {
		if j == i || !ms[j].found || placeKey(ms[j].place) == placeKey(ms[i].place) ||
			len(d.Name) <= len(c.Name) || !containsName(d.Name, c.Name) {
			continue
		}
		if quote := strings.ToLower(c.Quote); strings.Contains(quote, strings.ToLower(d.Name)) &&
			indexFold(strings.ReplaceAll(quote, strings.ToLower(d.Name), " "), c.Name) < 0 {
			return true
		}
	}
	return false
}

// unmatched picks from the missed candidates the ones worth listing: names that look like a
// place's (see listable), with a distinctive word, neither a street or district nor a city,
// that neither hold nor lie within another candidate's name or a found place's, and are not
// the page's title or a part of it (the site's name in "Seoul in a day : Naver Blog").
func unmatched(missed, all []Candidate, found []Match, title string) []Unmatched {
	var places, names [][]string
	for _, m := range found {
		places = append(places, normWords(m.Name))
	}
	for _, c := range all {
		if !c.Guess {
			names = append(names, normWords(c.Name))
		}
	}
	var out []Unmatched
	seen := map[string]bool{}
	for _, c := range missed {
		f := newForm(c.Name)
		if !listable(c) || !f.strong || f.area || isCityName(c.Name) || seen[f.compact] || overlaps(f.words, places) || overlaps(f.words, names) ||
			inTitle(c.Name, title) {
			continue
		}
		seen[f.compact] = true
		out = append(out, Unmatched{Name: c.Name, Quote: c.Quote})
		if len(out) == maxUnmatched {
			break
		}
	}
	return out
}

// inTitle reports whether name is the title or one of its parts between separators.
func inTitle(name, title string) bool {
	parts := strings.FieldsFunc(strings.ReplaceAll(title, " - ", "|"), func(r rune) bool { return strings.ContainsRune(":|–—·•»", r) })
	for _, p := range append(parts, title) {
		if strings.EqualFold(strings.TrimSpace(p), strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

// listable says whether a name looks like a place's rather than a heading or a phrase:
// one the page gives an address or position for; in Latin script, two to four words, each
// capitalised but for connectors, without digits ("Greenwich Village", "Prince Street
// Pizza", not "Free museums", "Rome in 3 Days" or "Serve"); in Korean, one or two words
// without digits, not ending with a word such as "날" (day) or "코스" (route); in Japanese,
// at most twelve characters of kanji and katakana, without digits.
func listable(c Candidate) bool {
	if c.Address != "" || c.Latitude != "" {
		return true
	}
	words := strings.Fields(c.Name)
	if strings.ContainsFunc(c.Name, unicode.IsDigit) || len(words) == 0 {
		return false
	}
	switch {
	case isLatin(c.Name):
		if len(words) < 2 || len(words) > 4 {
			return false
		}
		for _, w := range words {
			if !isCapitalised(w) && !isConnector(w) {
				return false
			}
		}
		return true
	case countIn(c.Name, unicode.Hangul) > 0:
		return len(words) <= 2 && !headingNouns[words[len(words)-1]]
	}
	return utf8.RuneCountInString(c.Name) <= 12 && countIn(c.Name, unicode.Hiragana) == 0
}

// headingNouns end Korean headings rather than places' names.
var headingNouns = setOf("날", "여행", "여행기", "코스", "산책", "일정", "후기", "추천", "정리", "투어", "가이드")

// overlaps says whether words hold, or lie within, the words of another of names
// ("Gwangjang Market — bindaetteok" and "Gwangjang Market"; not "Tea" and "Hanok Teahouse
// Moon"). Words of scripts written without spaces are compared as text ("串カツ" is in
// "串カツだるま").
func overlaps(words []string, names [][]string) bool {
	in := func(outer, inner []string) bool {
		if a, b := strings.Join(outer, ""), strings.Join(inner, ""); !isLatin(a) || !isLatin(b) {
			return strings.Contains(a, b)
		}
		return countWords(outer, inner) > 0
	}
	for _, n := range names {
		if !slices.Equal(n, words) && (in(words, n) || in(n, words)) {
			return true
		}
	}
	return false
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
	area := areaOf(q, results)
	for _, p := range results {
		score := 0.0
		names := append([]string{p.Name}, p.Names...)
		for _, n := range names {
			score = max(score, match(q, r.form(n), c.Guess))
		}
		if score == 0 {
			score = max(mixedMatch(q, names), districtless(q, p, c.Guess))
		}
		if score == 0 || score < 1 && area {
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
		case c.Guess && !local, len(cities) > 0 && !local && !namedNear(c.Quote, p):
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

// districtless scores a name against a place's names without their first word when that
// word is the district of the place's address: "블루라인파크" is "해운대 블루라인파크" of
// 해운대구, as "Blueline Park" is Haeundae Blueline Park of Haeundae-gu. Both the name and
// what is left of the place's must keep a distinctive word ("Street" is not Carnaby Street).
// At most 0.85.
func districtless(q form, p planner.Place, guess bool) float64 {
	if !q.strong {
		return 0
	}
	address := normWords(p.Address + " " + p.LocalAddress)
	best := 0.0
	for _, n := range append([]string{p.Name}, p.Names...) {
		w := normWords(n)
		if len(w) < 2 || !slices.ContainsFunc(address, func(a string) bool { return a == w[0] || hasWide(a) && strings.HasPrefix(a, w[0]) }) {
			continue
		}
		if rest := newForm(strings.Join(w[1:], " ")); rest.strong {
			best = max(best, min(0.85, match(q, rest, guess)))
		}
	}
	return best
}

// areaOf says whether a name is part of the addresses of two places or more among results:
// then it names the district or street they are in ("Asakusa" of "2-3-1 Asakusa, Taito City"
// is where Senso-ji and Asakusa Shrine are, not the shrine), and names a place only when it is
// that place's very name. (A name in one address only may be the place's own: "6 Parvis
// Notre-Dame".)
func areaOf(q form, results []planner.Place) bool {
	n := 0
	for _, p := range results {
		for _, a := range []string{p.Address, p.LocalAddress} {
			w := normWords(a)
			if countWords(w, q.words) > 0 || hasWide(q.compact) && strings.Contains(strings.Join(w, ""), q.compact) {
				n++
				break
			}
		}
	}
	return n >= 2
}

// namedNear says whether a quote names the city a place is in.
func namedNear(quote string, p planner.Place) bool {
	cc := cityCounter{}
	cc.add(quote, 1)
	for city := range cc {
		if inCity(city, p.City, p.Address, p.LocalAddress) {
			return true
		}
	}
	return false
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
