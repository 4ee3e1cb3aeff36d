package extract

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// analyze runs Analyze on an HTML page and fails the test on error.
func analyze(t *testing.T, url, page string) *Analysis {
	t.Helper()
	a, err := Analyze(Page{URL: url, ContentType: "text/html; charset=utf-8", Body: []byte(page)})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// firm returns the names of the candidates that are not guesses.
func firm(a *Analysis) []string {
	var out []string
	for _, c := range a.Candidates {
		if !c.Guess {
			out = append(out, c.Name)
		}
	}
	return out
}

func candidate(a *Analysis, name string) (Candidate, bool) {
	for _, c := range a.Candidates {
		if c.Name == name {
			return c, true
		}
	}
	return Candidate{}, false
}

func TestAnalyzeJSONLD(t *testing.T) {
	a := analyze(t, "https://example.com/seoul-eats", `<html><head>
<title>Where to eat in Seoul | Example</title>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
  {"@type":"BlogPosting","headline":"Where to eat in Seoul","author":{"@type":"Person","name":"Ji-ho Lee"},
   "description":"Markets and noodle houses."},
  {"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home"}]},
  {"@type":["Restaurant","LocalBusiness"],"name":"Myeongdong Kyoja",
   "address":{"@type":"PostalAddress","streetAddress":"29 Myeongdong 10-gil","addressLocality":"Seoul","addressCountry":"KR"},
   "geo":{"@type":"GeoCoordinates","latitude":37.5625,"longitude":"126.9856"}},
  {"@type":"ItemList","itemListElement":[
    {"@type":"ListItem","position":1,"item":{"@type":"TouristAttraction","name":"Gwangjang Market","address":"88 Changgyeonggung-ro, Seoul"}},
    {"@type":"ListItem","position":2,"name":"Tongin Market","url":"https://example.com/tongin"},
    {"@type":"ListItem","position":3,"item":{"@type":"BlogPosting","name":"Another post"}}]},
  {"@type":"Organization","name":"Example Media"}
]}</script>
<script type="application/ld+json"><!-- {"@type":"Museum","name":"Leeum Museum of Art","hasMap":"https://www.google.com/maps/place/Leeum/@37.5384,126.9990,17z"} --></script>
<script type="application/ld+json">{ this is not json </script>
</head><body></body></html>`)
	if a.MediaType != MediaBlog || a.Title != "Where to eat in Seoul" || a.Author != "Ji-ho Lee" ||
		a.Summary != "Markets and noodle houses." || a.City != "Seoul" {
		t.Errorf("metadata: %+v", a)
	}
	want := []string{"Myeongdong Kyoja", "Gwangjang Market", "Tongin Market", "Leeum Museum of Art"}
	for _, name := range want {
		if !slices.Contains(firm(a), name) {
			t.Errorf("missing %q in %q", name, firm(a))
		}
	}
	for _, name := range []string{"Home", "Another post", "Example Media"} {
		if slices.Contains(firm(a), name) {
			t.Errorf("%q is not a place: %q", name, firm(a))
		}
	}
	kyoja, _ := candidate(a, "Myeongdong Kyoja")
	if kyoja.Address != "29 Myeongdong 10-gil, Seoul, KR" || kyoja.Latitude != "37.5625" || kyoja.Longitude != "126.9856" {
		t.Errorf("Myeongdong Kyoja: %+v", kyoja)
	}
	if leeum, _ := candidate(a, "Leeum Museum of Art"); leeum.Latitude != "37.5384" || leeum.Longitude != "126.999" {
		t.Errorf("hasMap coordinates: %+v", leeum)
	}
	if market, _ := candidate(a, "Gwangjang Market"); market.Address != "88 Changgyeonggung-ro, Seoul" {
		t.Errorf("text address: %+v", market)
	}
}

func TestAnalyzeMicrodata(t *testing.T) {
	a := analyze(t, "https://example.com/tokyo", `<html><body>
<div itemscope itemtype="https://schema.org/Restaurant">
  <h2 itemprop="name">Ichiran Shibuya</h2>
  <div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">
    <span itemprop="streetAddress">1-22-7 Jinnan</span> <span itemprop="addressLocality">Shibuya City, Tokyo</span>
  </div>
  <div itemprop="geo" itemscope itemtype="https://schema.org/GeoCoordinates">
    <meta itemprop="latitude" content="35.6614"><meta itemprop="longitude" content="139.7004">
  </div>
  <div itemprop="review" itemscope itemtype="https://schema.org/Review"><span itemprop="author">Aki</span></div>
</div>
<div itemscope itemtype="http://schema.org/Person"><span itemprop="name">Not A Place</span></div>
</body></html>`)
	c, ok := candidate(a, "Ichiran Shibuya")
	type found struct {
		OK, Guess                    bool
		Address, Latitude, Longitude string
	}
	if diff := cmp.Diff(found{OK: true, Address: "1-22-7 Jinnan, Shibuya City, Tokyo", Latitude: "35.6614", Longitude: "139.7004"},
		found{OK: ok, Guess: c.Guess, Address: c.Address, Latitude: c.Latitude, Longitude: c.Longitude}); diff != "" {
		t.Errorf("Ichiran (-want +got):\n%s", diff)
	}
	if _, ok := candidate(a, "Not A Place"); ok {
		t.Error("a Person became a candidate")
	}
	if a.City != "Tokyo" {
		t.Errorf("city %q", a.City)
	}
}

func TestMapLink(t *testing.T) {
	tests := []struct {
		url                     string
		ok                      bool
		name, address, lat, lng string
	}{
		{"https://www.google.com/maps/place/Gwangjang+Market/@37.5701,126.9996,17z", true, "Gwangjang Market", "", "37.5701", "126.9996"},
		{"https://www.google.com/maps/place/Cafe+Onion/@37.57,126.98,17z/data=!3m1!4b1!8m2!3d37.577741!4d126.986289", true, "Cafe Onion", "", "37.577741", "126.986289"},
		{"https://www.google.co.kr/maps/place/%EA%B4%91%EC%9E%A5%EC%8B%9C%EC%9E%A5/", true, "광장시장", "", "", ""},
		{"https://www.google.com/maps/search/Tosokchon+Samgyetang/@37.578,126.971,16z", true, "Tosokchon Samgyetang", "", "37.578", "126.971"},
		{"https://www.google.com/maps/search/?api=1&query=Blue+Bottle+Samcheong%2C+Seoul", true, "Blue Bottle Samcheong", "Seoul", "", ""},
		{"https://maps.google.com/?q=Jungsik,+11+Seolleung-ro+158-gil,+Seoul", true, "Jungsik", "11 Seolleung-ro 158-gil, Seoul", "", ""},
		{"https://maps.google.com/maps?q=37.5796,126.9770", true, "", "", "37.5796", "126.977"},
		{"https://www.google.com/maps/dir/?api=1&destination=Seoul+Station", true, "Seoul Station", "", "", ""},
		{"https://maps.apple.com/?q=Tokyo+Tower&ll=35.6586,139.7454", true, "Tokyo Tower", "", "35.6586", "139.7454"},
		{"https://map.kakao.com/link/map/수연산방,37.5934,126.9949", true, "수연산방", "", "37.5934", "126.9949"},
		{"https://map.kakao.com/link/search/초량밀면", true, "초량밀면", "", "", ""},
		{"https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=18/48.8584/2.2945", true, "", "", "48.8584", "2.2945"},
		{"https://maps.app.goo.gl/3xYzAbCdEf12", false, "", "", "", ""},
		{"https://goo.gl/maps/Qw3rTy7UiOp", false, "", "", "", ""},
		{"https://www.google.com/search?q=Gwangjang+Market", false, "", "", "", ""},
		{"https://www.google.com/maps/place/Somewhere/@91,200,17z", true, "Somewhere", "", "", ""},
		{"/relative/link", false, "", "", "", ""},
	}
	for _, tt := range tests {
		type link struct {
			OK                      bool
			Name, Address, Lat, Lng string
		}
		c, ok := mapLink(tt.url)
		if diff := cmp.Diff(link{OK: tt.ok, Name: tt.name, Address: tt.address, Lat: tt.lat, Lng: tt.lng},
			link{OK: ok, Name: c.Name, Address: c.Address, Lat: c.Latitude, Lng: c.Longitude}); diff != "" {
			t.Errorf("mapLink(%q) (-want +got):\n%s", tt.url, diff)
		}
	}
}

func TestAnalyzeMapLinks(t *testing.T) {
	a := analyze(t, "https://example.com/list", `<html><body><h1>Saved places in Seoul</h1><ul>
<li><a href="https://www.google.com/maps/place/Tongin+Market/@37.5809,126.9701,17z">Tongin</a></li>
<li><a href="https://www.openstreetmap.org/?mlat=37.5601&amp;mlon=126.9752">Namdaemun Market</a></li>
<li><a href="https://www.openstreetmap.org/?mlat=37.57&amp;mlon=126.98">map</a></li>
<li><a href="https://maps.google.com/?q=Mangwon+Market">Mangwon</a></li>
</ul></body></html>`)
	if a.MediaType != MediaMap {
		t.Errorf("media type %s, want MAP", a.MediaType)
	}
	if c, _ := candidate(a, "Tongin Market"); c.Latitude != "37.5809" {
		t.Errorf("Tongin Market: %+v", c)
	}
	if c, _ := candidate(a, "Namdaemun Market"); c.Latitude != "37.5601" || c.Longitude != "126.9752" {
		t.Errorf("a coordinates-only link takes its text as the name: %+v", c)
	}
	if _, ok := candidate(a, "map"); ok {
		t.Error(`a link text "map" became a name`)
	}
	a = analyze(t, "https://www.google.com/maps/place/Gwangjang+Market/@37.5701,126.9996,17z", `<html><title>Google Maps</title></html>`)
	if a.MediaType != MediaMap || !slices.Contains(firm(a), "Gwangjang Market") {
		t.Errorf("a map page: %s %q", a.MediaType, firm(a))
	}
}

func TestAnalyzeListicle(t *testing.T) {
	a := analyze(t, "https://example.com/kyoto", `<html><head><meta property="og:type" content="article"></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li>Destinations</li><li>Ginkaku-ji guide</li></ul></nav></header>
<article>
<h1>Kyoto in two days</h1>
<h2>Introduction</h2><p>Short intro.</p>
<h2>1. Fushimi Inari Taisha</h2>
<h2>2) Kiyomizu-dera — go at dawn</h2>
<h2>#3 Nishiki Market: lunch</h2>
<h3>④ Gion (祇園)</h3>
<h2>How to get there</h2>
<h2>Tips</h2>
<ul><li>Kinkaku-ji</li><li>Ryoan-ji, then Ninna-ji</li></ul>
<p>Our stops:<br>1. Tenryu-ji<br>2. Arashiyama Bamboo Grove<br>and then we went home.</p>
<p>We also loved <strong>Honke Owariya</strong> for soba.</p>
<h2>Related posts</h2>
<ul><li>Osaka Castle at night</li></ul>
<h2>Conclusion</h2>
</article>
<footer><ul><li>Tokyo Tower</li></ul></footer>
</body></html>`)
	got := firm(a)
	for _, name := range []string{"Fushimi Inari Taisha", "Kiyomizu-dera", "Nishiki Market", "Gion", "祇園", "Kinkaku-ji",
		"Ryoan-ji", "Ninna-ji", "Tenryu-ji", "Arashiyama Bamboo Grove", "Honke Owariya"} {
		if !slices.Contains(got, name) {
			t.Errorf("missing %q in %q", name, got)
		}
	}
	for _, name := range []string{"Introduction", "How to get there", "Tips", "Conclusion", "Related posts",
		"Osaka Castle at night", "Osaka Castle", "Tokyo Tower", "Home", "Destinations", "Ginkaku-ji guide"} {
		if _, ok := candidate(a, name); ok {
			t.Errorf("%q should not be a candidate", name)
		}
	}
	if i, j := slices.Index(got, "Fushimi Inari Taisha"), slices.Index(got, "Tenryu-ji"); i < 0 || j < i {
		t.Errorf("not in page order: %q", got)
	}
	if a.MediaType != MediaBlog || a.City != "Kyoto" || a.Title != "Kyoto in two days" {
		t.Errorf("%s %q %q", a.MediaType, a.City, a.Title)
	}
}

func TestAnalyzeDeduplicatesCaseInsensitively(t *testing.T) {
	a := analyze(t, "", `<h2>Gwangjang Market</h2><ul><li>GWANGJANG MARKET</li><li>gwangjang market</li></ul>
<a href="https://www.google.com/maps/place/Gwangjang+Market/@37.5701,126.9996,17z">here</a>`)
	n := 0
	for _, c := range a.Candidates {
		if strings.EqualFold(c.Name, "Gwangjang Market") {
			n++
			if c.Latitude != "37.5701" {
				t.Errorf("the map link's coordinates were not merged: %+v", c)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d Gwangjang Market candidates: %+v", n, a.Candidates)
	}
}

func TestAnalyzeGuesses(t *testing.T) {
	a := analyze(t, "", `<p>Then we walked from Gwangjang Market to the Temple of the Emerald Buddha and had
coffee at Du Pain et des Idées. I loved it. Next, 63 Square.</p>
<p>서울에서는 광장시장에서 빈대떡을 먹었어요. 우도에 갔습니다.</p>
<p>京都駅から伏見稲荷大社へ。途中の八坂の塔も見ました。#sensoji</p>`)
	var guesses []string
	for _, c := range a.Candidates {
		if c.Guess {
			guesses = append(guesses, c.Name)
		}
	}
	for _, name := range []string{"Gwangjang Market", "Temple of the Emerald Buddha", "Emerald Buddha", "Du Pain et des Idées",
		"63 Square", "광장시장", "우도", "京都駅", "伏見稲荷大社", "八坂の塔", "sensoji"} {
		if !slices.Contains(guesses, name) {
			t.Errorf("missing guess %q in %q", name, guesses)
		}
	}
	for _, name := range []string{"Then", "I", "Next", "광장시장에서", "먹었어요", "갔습니다"} {
		if slices.Contains(guesses, name) {
			t.Errorf("%q should not be a guess", name)
		}
	}
}

func TestAnalyzeVideo(t *testing.T) {
	a := analyze(t, "https://vimeo.com/123456", `<html><head>
<meta property="og:title" content="Busan in a day">
<script type="application/ld+json">{"@type":"VideoObject","name":"Busan in a day","author":"Sea Walks",
 "description":"Our day by the sea.\n0:00 Intro\n1:20 Haeundae Beach\n5:45 Jagalchi Fish Market (lunch)\n#busan"}</script>
</head><body></body></html>`)
	if a.MediaType != MediaVideo || a.Author != "Sea Walks" || a.Title != "Busan in a day" || a.City != "Busan" {
		t.Errorf("%+v", a)
	}
	for _, name := range []string{"Haeundae Beach", "Jagalchi Fish Market"} {
		if !slices.Contains(firm(a), name) {
			t.Errorf("missing %q in %q", name, firm(a))
		}
	}
	if _, ok := candidate(a, "Intro"); ok {
		t.Error(`"Intro" became a candidate`)
	}
	a = analyze(t, "https://example.com/watch", `<meta property="og:type" content="video.other"><title>x</title>`)
	if a.MediaType != MediaVideo {
		t.Errorf("og:type video.other: %s", a.MediaType)
	}
	a = analyze(t, "https://example.com/post", `<script type="application/ld+json">[{"@type":"BlogPosting","headline":"A post"},
{"@type":"VideoObject","name":"An embedded clip"}]</script>`)
	if a.MediaType != MediaBlog || a.Title != "A post" {
		t.Errorf("a post with a video: %s %q", a.MediaType, a.Title)
	}
}

func TestAnalyzeSummary(t *testing.T) {
	long := strings.Repeat("Gwangjang Market is the oldest market in Seoul. ", 20)
	a := analyze(t, "", `<p>Short.</p><p>`+long+`</p>`)
	if n := utf8.RuneCountInString(a.Summary); n > summaryRunes || n < 200 || !strings.HasSuffix(a.Summary, "…") ||
		!strings.HasPrefix(a.Summary, "Gwangjang Market is") {
		t.Errorf("summary (%d characters): %q", n, a.Summary)
	}
	a = analyze(t, "", `<meta name="description" content="  A  described   page. "><p>`+long+`</p>`)
	if a.Summary != "A described page." {
		t.Errorf("summary %q", a.Summary)
	}
}

func TestAnalyzeText(t *testing.T) {
	a, err := Analyze(Page{URL: "https://example.com/notes.txt", ContentType: "text/plain", Body: []byte(
		"Seoul notes\n\nThree days in Seoul with friends.\nMostly food.\n\n- Gwangjang Market\n2) Tongin Market\n" +
			"Then we walked to Bukchon Hanok Village and it rained.\nhttps://www.google.com/maps/place/Mangwon+Market/@37.556,126.906,17z\n")})
	if err != nil {
		t.Fatal(err)
	}
	if a.MediaType != MediaWeb || a.Title != "Seoul notes" || a.Summary != "Three days in Seoul with friends. Mostly food." || a.City != "Seoul" {
		t.Errorf("%+v", a)
	}
	for _, name := range []string{"Gwangjang Market", "Tongin Market", "Mangwon Market"} {
		if !slices.Contains(firm(a), name) {
			t.Errorf("missing %q in %q", name, firm(a))
		}
	}
	if c, ok := candidate(a, "Bukchon Hanok Village"); !ok || !c.Guess {
		t.Errorf("running text: %+v %v", c, ok)
	}
}

func TestAnalyzeContentTypes(t *testing.T) {
	for _, p := range []Page{
		{ContentType: "application/pdf", Body: []byte("%PDF-1.7")},
		{ContentType: "image/png", Body: []byte("\x89PNG\r\n\x1a\n")},
		{ContentType: "application/json", Body: []byte(`{"name":"Gwangjang Market"}`)},
		{ContentType: "", Body: []byte("\x89PNG\r\n\x1a\n\x00\x00")},
		{ContentType: "not a / type;;", Body: []byte("<p>x</p>")},
	} {
		if _, err := Analyze(p); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%q: err = %v, want ErrUnsupported", p.ContentType, err)
		}
	}
	a, err := Analyze(Page{Body: []byte("<!DOCTYPE html><title>Sniffed</title>")})
	if err != nil || a.Title != "Sniffed" {
		t.Errorf("sniffed HTML: %v %+v", err, a)
	}
	// EUC-KR named by the page's <meta>: "광장시장" is B1A4 C0E5 BDC3 C0E5.
	body := append([]byte(`<meta charset="euc-kr"><h2>`), 0xB1, 0xA4, 0xC0, 0xE5, 0xBD, 0xC3, 0xC0, 0xE5)
	a, err = Analyze(Page{ContentType: "text/html", Body: append(body, []byte("</h2>")...)})
	if err != nil || !slices.Contains(firm(a), "광장시장") {
		t.Errorf("EUC-KR: %v %+v", err, a)
	}
	// UTF-8 without a charset, its first kilobyte ASCII.
	a, err = Analyze(Page{ContentType: "text/plain", Body: []byte(strings.Repeat(" ", 2000) + "\n광장시장")})
	if err != nil || !slices.Contains(firm(a), "광장시장") {
		t.Errorf("UTF-8 without a charset: %v %+v", err, a)
	}
}

func TestText(t *testing.T) {
	text := Text(Page{ContentType: "text/html", Body: []byte(`<title>Kyoto</title><meta name="description" content="Temples.">
<nav>Menu Home</nav><h1>Kyoto   days</h1><p>We went to
Kinkaku-ji.</p><ul><li>Nishiki Market</li></ul><footer>© me</footer>`)})
	if want := "Kyoto\nTemples.\nKyoto days\nWe went to Kinkaku-ji.\nNishiki Market"; text != want {
		t.Errorf("Text = %q, want %q", text, want)
	}
	if Text(Page{ContentType: "image/png"}) != "" {
		t.Error("Text of an image")
	}
}

func TestKoreanCityMentions(t *testing.T) {
	for text, want := range map[string]int{
		"런던베이글뮤지엄 안국점": 0, "런던 여행": 1, "런던에서 먹은": 1, "서울역에서 런던으로": 2, "서울숲": 0, "부산, 서울": 2,
	} {
		cc := cityCounter{}
		cc.add(text, 1)
		n := 0
		for _, v := range cc {
			n += v
		}
		if n != want {
			t.Errorf("%q: %d city mentions %v, want %d", text, n, cc, want)
		}
	}
}
