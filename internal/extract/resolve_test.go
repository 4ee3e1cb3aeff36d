package extract

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"tripplan/internal/planner"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		page, place string
		guess       bool
		match       bool
	}{
		{"Gwangjang Market", "Gwangjang Market", false, true},
		{"gwangjang  market", "Gwangjang Market", true, true},
		{"Kinkakuji", "Kinkaku-ji", true, true},
		{"Sacre-Coeur", "Sacré-Cœur", true, true},
		{"Regents Park", "Regent's Park", true, true},
		{"Fortnum and Mason", "Fortnum & Mason", true, true},
		{"The Louvre", "Louvre Museum", false, true},
		{"Louvre", "Louvre Museum", true, false},
		{"Gyeongbokgung", "Gyeongbokgung Palace", false, true},
		{"Gyeongbokgung", "Gyeongbokgung Palace", true, false}, // a one-word guess leaving words out
		{"Notre-Dame", "Notre-Dame Cathedral", true, true},
		{"Senso-ji Temple", "Senso-ji", true, true},
		{"Park Hyatt", "Park Hyatt Busan", false, true},
		{"Chinatown", "Bangkok Chinatown", true, true},
		{"Asakusa", "Asakusa Shrine", true, false},
		{"Shinjuku", "Shinjuku Station", false, false},
		{"Tokyo Station", "Seoul Station", false, false},
		{"Best food", "Food Court", false, false},
		{"Seoul", "Seoul Forest", false, false},
		{"Gwangjang Market", "Mangwon Market", false, false},
		{"National Museum", "National Museum of Korea", false, false},
		{"Gwangjang Markt", "Gwangjang Market", false, true}, // a typo
		{"Gwangjang Markt", "Gwangjang Market", true, false},
		{"Myeongdong Kyoza", "Myeongdong Kyoja", false, true},
		{"Gyeonghuigung Palace", "Gyeongbokgung Palace", false, false},
		{"Shinsegae Department Store", "Lotte Department Store", false, false},
		{"Edgy", "Edge", false, false},
		{"광장시장", "광장시장", true, true},
		{"명동교자", "명동교자 본점", false, true},
		{"伏見稲荷大社", "伏見稲荷大社", true, true},
		{"551蓬莱", "551蓬莱 本店", true, true},
		{"런던베이글뮤지엄", "런던베이글뮤지엄 안국점", true, true}, // a branch
		{"안국점", "런던베이글뮤지엄 안국점", true, false},
		{"델문도", "카페 델문도", true, true},
		{"카페", "카페 델문도", true, false},
		{"", "Gwangjang Market", false, false},
	}
	for _, tt := range tests {
		if got := match(newForm(tt.page), newForm(tt.place), tt.guess) > 0; got != tt.match {
			t.Errorf("match(%q, %q, guess %v) = %v, want %v", tt.page, tt.place, tt.guess, got, tt.match)
		}
	}
	q := newForm("Lotte World Tower observatory")
	if tower, park := match(q, newForm("Lotte World Tower"), false), match(q, newForm("Lotte World"), false); tower <= park {
		t.Errorf("the tower (%v) should match better than the theme park (%v)", tower, park)
	}
}

// fakeSearcher answers from a fixed list of places: those whose names hold every word of
// the query but for city names, like a loose search would, and records the queries.
type fakeSearcher struct {
	places  []planner.Place
	queries []string
	err     error
}

func (s *fakeSearcher) Search(_ context.Context, query string) ([]planner.Place, error) {
	s.queries = append(s.queries, query)
	if s.err != nil {
		return nil, s.err
	}
	var out []planner.Place
	words := dropCityWords(normWords(query))
	for _, p := range s.places {
		text := strings.Join(normWords(p.Name+" "+strings.Join(p.Names, " ")), " ")
		for _, w := range words {
			if strings.Contains(text, w) {
				out = append(out, p)
				break
			}
		}
	}
	return out, nil
}

var testPlaces = []planner.Place{
	{ID: "gwangjang", Name: "Gwangjang Market", Names: []string{"광장시장"}, City: "Seoul", Latitude: "37.570", Longitude: "126.999"},
	{ID: "mangwon", Name: "Mangwon Market", Names: []string{"망원시장"}, City: "Seoul"},
	{ID: "foodcourt", Name: "Best Food Court", City: "Seoul"},
	{ID: "hyatt-seoul", Name: "Park Hyatt Seoul", City: "Seoul", Latitude: "37.508", Longitude: "127.064"},
	{ID: "hyatt-busan", Name: "Park Hyatt Busan", City: "Busan", Latitude: "35.156", Longitude: "129.144"},
	{ID: "times-seoul", Name: "Times Square", City: "Seoul"},
	{ID: "times-nyc", Name: "Times Square", City: "New York"},
	{ID: "edge", Name: "Edge", City: "New York"},
	{ID: "palace", Name: "Gyeongbokgung Palace", Names: []string{"경복궁", "Gyeongbokgung"}, City: "Seoul"},
}

func TestResolve(t *testing.T) {
	s := &fakeSearcher{places: testPlaces}
	a := &Analysis{City: "Busan", Cities: []string{"Busan", "Seoul"}, Candidates: []Candidate{
		{Name: "Best food"},
		{Name: "Park Hyatt"},
		{Name: "광장시장", Guess: true},
		{Name: "Gwangjang Market"},
		{Name: "Edge", Guess: true},
		{Name: "Times Square"},
		{Name: "Gyeongbokgung"},
		{Name: "Nowhere Cafe", Guess: true},
	}}
	res, err := Resolve(t.Context(), s, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	detected := res.Detected
	var ids []string
	for _, p := range res.Places {
		ids = append(ids, p.ID)
	}
	// Park Hyatt in the page's main city; 광장시장 and Gwangjang Market are one place; Edge is
	// a guess outside the page's cities; Times Square is in Seoul, one of the page's cities.
	if want := []string{"hyatt-busan", "gwangjang", "times-seoul", "palace"}; !slices.Equal(ids, want) {
		t.Errorf("places %q, want %q", ids, want)
	}
	if detected != 6 { // the structural candidates and the guess that matched
		t.Errorf("detected %d, want 6", detected)
	}
	if slices.Contains(s.queries, "Nowhere Cafe Busan") {
		t.Errorf("a guess was searched again: %q", s.queries)
	}
}

func TestResolveUsesContext(t *testing.T) {
	// The candidate's address names the city; its coordinates rule out far places.
	s := &fakeSearcher{places: testPlaces}
	a := &Analysis{City: "Busan", Cities: []string{"Busan"}, Candidates: []Candidate{
		{Name: "Park Hyatt", Address: "Seoul"},
		{Name: "Gwangjang Market", Latitude: "35.1", Longitude: "129.0"}, // in Busan: not the Seoul market
	}}
	res, err := Resolve(t.Context(), s, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Places) != 1 || res.Places[0].ID != "hyatt-seoul" {
		t.Errorf("places %+v", res.Places)
	}

	// A name found only in another city is searched again with the page's city, and, found
	// nowhere else, dropped: it is not listed as unmatched either, having matched.
	s = &fakeSearcher{places: testPlaces[:1]}
	a = &Analysis{City: "Busan", Cities: []string{"Busan"}, Candidates: []Candidate{{Name: "Gwangjang Market"}}}
	res, err = Resolve(t.Context(), s, a, nil)
	if err != nil || len(res.Places) != 0 || !slices.Equal(s.queries, []string{"Gwangjang Market", "Gwangjang Market Busan"}) {
		t.Errorf("places %+v, queries %q, err %v", res.Places, s.queries, err)
	}
	// … unless the sentence it is in names the place's city.
	a.Candidates[0].Quote = "On a day trip to Seoul we ate at Gwangjang Market."
	if res, err = Resolve(t.Context(), s, a, nil); err != nil || len(res.Places) != 1 || res.Places[0].ID != "gwangjang" {
		t.Errorf("named near: places %+v, err %v", res.Places, err)
	}

	// A page that names no city keeps no guess, and searches none.
	s = &fakeSearcher{places: testPlaces}
	res, err = Resolve(t.Context(), s, &Analysis{Candidates: []Candidate{{Name: "Edge", Guess: true}}}, nil)
	if err != nil || len(res.Places) != 0 || res.Detected != 0 || len(s.queries) != 0 {
		t.Errorf("places %+v, detected %d, queries %q, err %v", res.Places, res.Detected, s.queries, err)
	}
}

func TestResolveArea(t *testing.T) {
	// A name in the addresses of several places names the district they are in: the shrine is
	// not "Asakusa". A name in one address only may be the place's own ("Parvis Notre-Dame"),
	// and the district's very name is still the district.
	s := &fakeSearcher{places: []planner.Place{
		{ID: "shrine", Name: "Asakusa Shrine", City: "Tokyo", Address: "2-3-1 Asakusa, Taito City, Tokyo"},
		{ID: "hanayashiki", Name: "Asakusa Hanayashiki", City: "Tokyo", Address: "2-28-1 Asakusa, Taito City, Tokyo"},
		{ID: "notre-dame", Name: "Notre-Dame Cathedral", City: "Paris", Address: "6 Parvis Notre-Dame - Pl. Jean-Paul II, 75004 Paris"},
		{ID: "ginza", Name: "Ginza", City: "Tokyo", Address: "Ginza, Chuo City, Tokyo"},
		{ID: "mitsukoshi", Name: "Ginza Mitsukoshi", City: "Tokyo", Address: "4-6-16 Ginza, Chuo City, Tokyo"},
	}}
	for name, want := range map[string]string{"Asakusa": "", "Notre-Dame": "notre-dame", "Ginza": "ginza", "Asakusa Shrine": "shrine"} {
		res, err := Resolve(t.Context(), s, &Analysis{City: "Tokyo", Cities: []string{"Tokyo", "Paris"}, Candidates: []Candidate{{Name: name}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if len(res.Places) > 0 {
			got = res.Places[0].ID
		}
		if got != want {
			t.Errorf("%q resolved to %q, want %q", name, got, want)
		}
	}
}

func TestMixedScriptNames(t *testing.T) {
	onibus := []string{"Onibus Coffee Nakameguro", "オニバスコーヒー 中目黒"}
	blue := []string{"Blue Bottle Coffee Kiyosumi-Shirakawa", "ブルーボトルコーヒー 清澄白河フラッグシップカフェ"}
	for _, tt := range []struct {
		page  string
		names []string
		match bool
	}{
		{"ONIBUS COFFEE 中目黒", onibus, true},
		{"Blue Bottle Coffee 清澄白河", blue, true},
		{"Blue Bottle Coffee 清澄白河フラッグシップカフェ", blue, true},
		{"ONIBUS COFFEE 渋谷", onibus, false},     // another branch
		{"Blue Bottle Coffee 中目黒", blue, false}, // another branch
		{"COFFEE 中目黒", onibus, false},           // no brand
		{"中目黒", onibus, false},
	} {
		if got := mixedMatch(newForm(tt.page), tt.names) > 0; got != tt.match {
			t.Errorf("mixedMatch(%q, %q) = %v, want %v", tt.page, tt.names, got, tt.match)
		}
	}
}

func TestDistrictless(t *testing.T) {
	blueline := planner.Place{Name: "Haeundae Blueline Park", Names: []string{"해운대 블루라인파크"},
		Address: "13 Dalmaji-gil 62beon-gil, Haeundae-gu, Busan", LocalAddress: "부산광역시 해운대구 달맞이길62번길 13"}
	carnaby := planner.Place{Name: "Carnaby Street", Address: "Carnaby St, London W1F, UK"}
	gwangjang := planner.Place{Name: "Gwangjang Market", Address: "88 Changgyeonggung-ro, Jongno-gu, Seoul"}
	for _, tt := range []struct {
		page  string
		place planner.Place
		guess bool
		match bool
	}{
		{"블루라인파크", blueline, true, true},
		{"Blueline Park", blueline, true, true},
		{"Street", carnaby, true, false},     // nothing distinctive left
		{"Market", gwangjang, false, false},  // Gwangjang is no district of its address
		{"Haeundae", blueline, false, false}, // the district alone
	} {
		if got := districtless(newForm(tt.page), tt.place, tt.guess) > 0; got != tt.match {
			t.Errorf("districtless(%q, %q) = %v, want %v", tt.page, tt.place.Name, got, tt.match)
		}
	}
}

func TestResolveWithinOtherName(t *testing.T) {
	// A guess named only inside another candidate's name that found another place is that
	// place's part: the district in a café's branch name is not proposed; named on its own, it is.
	s := &fakeSearcher{places: []planner.Place{
		{ID: "onibus", Name: "Onibus Coffee Nakameguro", Names: []string{"オニバスコーヒー 中目黒"}, City: "Tokyo"},
		{ID: "nakameguro", Name: "Nakameguro", Names: []string{"中目黒"}, City: "Tokyo"},
	}}
	for quote, want := range map[string]string{
		"そこから電車で移動してONIBUS COFFEE 中目黒へ。": "onibus",
		"中目黒を散歩してからONIBUS COFFEE 中目黒へ。":  "onibus nakameguro",
	} {
		a := &Analysis{City: "Tokyo", Cities: []string{"Tokyo"}, Candidates: []Candidate{
			{Name: "ONIBUS COFFEE 中目黒", Quote: quote},
			{Name: "中目黒", Guess: true, Quote: quote},
		}}
		res, err := Resolve(t.Context(), s, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range res.Places {
			ids = append(ids, p.ID)
		}
		if got := strings.Join(ids, " "); got != want {
			t.Errorf("%q: places %q, want %q", quote, got, want)
		}
	}
}

func TestResolveError(t *testing.T) {
	boom := errors.New("search is down")
	_, err := Resolve(t.Context(), &fakeSearcher{err: boom}, &Analysis{Candidates: []Candidate{{Name: "Gwangjang Market"}}}, nil)
	if !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

func TestResolveMentionsAndUnmatched(t *testing.T) {
	places := append(slices.Clone(testPlaces),
		planner.Place{ID: "changgyeong", Name: "Changgyeonggung Palace", Names: []string{"창경궁", "Changgyeonggung"}, City: "Seoul"},
		planner.Place{ID: "marais-cafe", Name: "Breizh Café Le Marais", City: "Paris"},
		planner.Place{ID: "tower", Name: "N Seoul Tower", Names: []string{"남산타워", "Namsan Tower"}, City: "Seoul"})
	page := Page{URL: "https://example.com/seoul", ContentType: "text/html", Body: []byte(`<html><head><title>Seoul weekend</title></head><body><article>
<p>We had dinner at Gwangjang Market. 광장시장은 꼭 가보세요.</p>
<p>We skipped Namsan Tower. 남산타워는 안 갔다.</p>
<p>주소: 서울 종로구 창경궁로 185</p>
<p>창경궁로 따라 걸었다. Then we walked along Jongno-gu streets in Seoul.</p>
<ul><li>Hanok Teahouse Moon</li><li>Le Marais</li><li>Jongno-gu</li></ul>
</article></body></html>`)}
	a, err := Analyze(page)
	if err != nil {
		t.Fatal(err)
	}
	if a.City != "Seoul" {
		t.Fatalf("city %q", a.City)
	}
	res, err := Resolve(t.Context(), &fakeSearcher{places: places}, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range res.Places {
		got[p.ID] = p.Mention + " | " + p.Quote
	}
	want := map[string]string{
		// Two mentions of one place: the recommendation wins over the visit.
		"gwangjang": MentionRecommended + " | 광장시장은 꼭 가보세요.",
		// Every mention skipped.
		"tower": MentionSkipped + " | We skipped Namsan Tower.",
	}
	if len(got) != len(want) {
		t.Errorf("places %v, want %v (no palace from a road, no café from a district)", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
	// The listed name no place matched; not the road, the district, nor a guess.
	if len(res.Unmatched) != 1 || res.Unmatched[0] != (Unmatched{Name: "Hanok Teahouse Moon", Quote: "Hanok Teahouse Moon"}) {
		t.Errorf("unmatched %+v", res.Unmatched)
	}
}

func TestInTitle(t *testing.T) {
	for name, want := range map[string]bool{"Naver Blog": true, "Seoul in a day": true, "seoul in a day : naver blog - tripadvisor": true, "Tripadvisor": true, "Gwangjang Market": false} {
		if got := inTitle(name, "Seoul in a day : Naver Blog - Tripadvisor"); got != want {
			t.Errorf("inTitle(%q) = %v, want %v", name, got, want)
		}
	}
}
