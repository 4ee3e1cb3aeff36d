package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wantNames fails unless every name in want is a firm candidate and none in unwanted is a
// candidate at all.
func wantNames(t *testing.T, a *Analysis, want, unwanted []string) {
	t.Helper()
	got, all := firm(a), names(a.Candidates)
	for _, n := range want {
		if !slices.Contains(got, n) {
			t.Errorf("missing firm candidate %q; firm: %q", n, got)
		}
	}
	for _, n := range unwanted {
		if slices.Contains(all, n) {
			t.Errorf("unwanted candidate %q; all: %q", n, all)
		}
	}
}

// A YouTube watch page as a browser receives it: the description and chapters only in script
// data, the rendered page holding little but the recommendations.
func TestAnalyzeYouTubeWatchPage(t *testing.T) {
	const page = `<!DOCTYPE html><html><head>
<title>One day in Seoul - YouTube</title>
<meta property="og:title" content="One day in Seoul">
<meta property="og:description" content="Markets, palaces and a night view. Places: Gwangjang Ma...">
<meta property="og:type" content="video.other">
</head><body>
<script nonce="x">var ytcfg = {"a": "}"};</script>
<script nonce="y">var ytInitialPlayerResponse = {"responseContext":{"note":"a } and a { in a string, \"quoted\""},
"videoDetails":{"videoId":"abc123","title":"One day in Seoul",
"shortDescription":"Our first day in Seoul!\n\n📍 Gwangjang Market – bindaetteok\n📍 Changdeokgung Palace\n📍 N Seoul Tower at night\n\n#seoul #korea",
"lengthSeconds":"900"}};var meta = document.createElement('meta');</script>
<script nonce="z">var ytInitialData = {"contents":{"twoColumnWatchNextResults":{"results":{}}},
"engagementPanels":[{"engagementPanelSectionListRenderer":{"content":{"macroMarkersListRenderer":{"contents":[
 {"macroMarkersListItemRenderer":{"title":{"simpleText":"Intro"},"timeDescription":{"simpleText":"0:00"}}},
 {"macroMarkersListItemRenderer":{"title":{"simpleText":"Bukchon Hanok Village"},"timeDescription":{"simpleText":"2:10"}}}]}}}}],
"playerOverlays":{"decoratedPlayerBarRenderer":{"playerBar":{"multiMarkersPlayerBarRenderer":{"markersMap":[{"value":{"chapters":[
 {"chapterRenderer":{"title":{"simpleText":"Gyeongbokgung Palace"},"timeRangeStartMillis":300000}},
 {"chapterRenderer":{"title":{"runs":[{"text":"Tongin "},{"text":"Market"}]},"timeRangeStartMillis":420000}}]}}]}}}}};</script>
<div id="secondary"><a href="/watch?v=zzz"><h3>Haeundae Beach vlog</h3></a><a href="/watch?v=yyy"><h3>Jeonju Hanok Village food tour</h3></a></div>
</body></html>`
	a := analyze(t, "https://www.youtube.com/watch?v=abc123", page)
	if a.MediaType != MediaVideo || a.Title != "One day in Seoul" || a.City != "Seoul" {
		t.Errorf("media type %q, title %q, city %q", a.MediaType, a.Title, a.City)
	}
	wantNames(t, a, []string{"Gwangjang Market", "Changdeokgung Palace", "N Seoul Tower at night", "Bukchon Hanok Village",
		"Gyeongbokgung Palace", "Tongin Market"}, []string{"Haeundae Beach vlog", "Jeonju Hanok Village food tour"})
	// A language model is given the description and chapters too.
	text := Text(Page{URL: "https://www.youtube.com/watch?v=abc123", ContentType: "text/html", Body: []byte(page)})
	for _, s := range []string{"📍 N Seoul Tower at night", "Bukchon Hanok Village", "Tongin Market"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
}

// A Next.js page keeps its post in __NEXT_DATA__: the body as HTML, places with coordinates,
// and the site's own data (SEO, navigation) that is not the post.
func TestAnalyzeNextData(t *testing.T) {
	a := analyze(t, "https://trips.example/posts/busan-two-days", `<html><head><title>Busan in two days</title></head>
<body><div id="__next"><div class="spinner">Loading…</div></div>
<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{
 "seo":{"title":"Jeju Island deals","description":"Cheap flights"},
 "navigation":[{"title":"Daegu guide"}],
 "post":{"title":"Busan in two days","slug":"/posts/busan-two-days",
  "body":"<h2>Day 1</h2><p>We started at Jagalchi Fish Market, then walked up to Gamcheon Culture Village.</p><ul><li>Gukje Market</li><li>BIFF Square</li></ul>",
  "excerpt":"Two days in Busan: the fish market, a painted village on a hill and the beaches.",
  "spots":[{"name":"Haeundae Beach","location":{"lat":35.1587,"lng":129.1604}},
           {"name":"Haedong Yonggungsa Temple","latitude":35.1884,"longitude":129.2233,"address":"86 Yonggung-gil, Gijang-eup, Busan"}]}},
 "__N_SSG":true},"page":"/posts/[slug]","buildId":"abc"}</script></body></html>`)
	wantNames(t, a, []string{"Busan in two days", "Gukje Market", "BIFF Square", "Haeundae Beach", "Haedong Yonggungsa Temple"},
		[]string{"Jeju Island deals", "Daegu guide"})
	if c, _ := candidate(a, "Haeundae Beach"); c.Latitude != "35.1587" || c.Longitude != "129.1604" {
		t.Errorf("Haeundae Beach at %q,%q", c.Latitude, c.Longitude)
	}
	if c, _ := candidate(a, "Haedong Yonggungsa Temple"); c.Address != "86 Yonggung-gil, Gijang-eup, Busan" || c.Latitude != "35.1884" {
		t.Errorf("Haedong Yonggungsa Temple: %+v", c)
	}
	if !slices.Contains(names(a.Candidates), "Jagalchi Fish Market") || a.City != "Busan" {
		t.Errorf("prose of the post not read: %q, city %q", names(a.Candidates), a.City)
	}
}

// A Next.js board's props hold the board (named by the route's parameter, query.slug), and
// beside it other boards, recommended or not: only the board is read. Its places, with
// coordinates under "geometry", are places (their addresses not read as text), and do not
// make the page a map.
func TestAnalyzeNextDataMainEntity(t *testing.T) {
	place := func(name string, lat float64) string {
		return fmt.Sprintf(`{"note":"Go early.","place":{"name":%q,"address":"15-778 Honmachi, Higashiyama Ward, Kyoto","geometry":{"location":{"lat":%v,"lng":135.77}}}}`, name, lat)
	}
	a := analyze(t, "https://boards.example/b/kyoto-autumn", `<html><head><meta property="og:title" content="Kyoto autumn"></head>
<body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{
 "board":{"id":"b_1","slug":"kyoto-autumn","title":"Kyoto autumn","items":[`+place("Tofuku-ji", 34.97)+`,`+place("Kennin-ji", 35.0)+`,`+place("Ginkaku-ji", 35.02)+`]},
 "moreBoards":{"title":"More from Japan","boards":[{"slug":"osaka","title":"Dotonbori at night"}]},
 "recommendations":{"boards":[{"slug":"arashiyama","title":"Arashiyama Bamboo Grove in a day"}]}}},
 "page":"/b/[slug]","query":{"slug":"kyoto-autumn"}}</script></body></html>`)
	wantNames(t, a, []string{"Tofuku-ji", "Kennin-ji", "Ginkaku-ji"}, []string{"Dotonbori at night", "Arashiyama Bamboo Grove in a day", "Higashiyama Ward"})
	if c, _ := candidate(a, "Kennin-ji"); c.Latitude != "35" || c.Address != "15-778 Honmachi, Higashiyama Ward, Kyoto" {
		t.Errorf("Kennin-ji: %+v", c)
	}
	if a.MediaType != MediaWeb || a.City != "Kyoto" {
		t.Errorf("media type %q, city %q", a.MediaType, a.City)
	}
	// Without route parameters naming one (a page number is not an id), the props are read
	// whole, but for other pages' lists.
	b := analyze(t, "https://boards.example/popular?page=2", `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{
 "intro":{"title":"Tofuku-ji"},"boards":[{"id":2,"title":"Kennin-ji"}],"popularBoards":[{"title":"Dotonbori at night"}]}},"page":"/popular","query":{"page":"2"}}</script>`)
	wantNames(t, b, []string{"Tofuku-ji", "Kennin-ji"}, []string{"Dotonbori at night"})
	// A numeric id names the entity as well as a slug does.
	c := analyze(t, "https://boards.example/b/77", `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{
 "board":{"boardId":77,"title":"Tofuku-ji"},"others":[{"title":"Dotonbori at night"}]}},"page":"/b/[boardId]","query":{"boardId":"77"}}</script>`)
	wantNames(t, c, []string{"Tofuku-ji"}, []string{"Dotonbori at night"})
	// What the data names in a city the page is not about is another page's, whatever its key.
	d := analyze(t, "https://boards.example/kyoto", `<html><head><title>Kyoto in autumn</title></head><body><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{
 "intro":{"title":"Tofuku-ji at dawn","text":"Kyoto's maples turn late in November; Tofuku-ji and Eikan-do are the best of them."},
 "moreBoards":[{"title":"Osaka street food: Dotonbori to Shinsekai"}]}},"page":"/kyoto","query":{}}</script></body></html>`)
	wantNames(t, d, []string{"Tofuku-ji at dawn"}, []string{"Dotonbori", "Shinsekai", "Osaka street food"})
}

// Nuxt keeps its state in __NUXT_DATA__ (Nuxt 3, devalue's flat array of indexes) or in
// window.__NUXT__ (Nuxt 2, when it is a plain object).
func TestAnalyzeNuxt(t *testing.T) {
	// [0] {data:1} [1] ["ShallowReactive",2] [2] {article:3} [3] {title:4, places:5, published:8}
	// [4] "Kyoto temples" [5] [6,7] [6] {name:9} [7] {name:10} [8] a Date [9], [10] the names
	a := analyze(t, "https://example.jp/articles/kyoto", `<html><body><div id="__nuxt"></div>
<script type="application/json" id="__NUXT_DATA__" data-ssr="true">[{"data":1},["ShallowReactive",2],{"article":3},
 {"title":4,"places":5,"published":8},"Kyoto temples",[6,7],{"name":9},{"name":10},["Date","2024-04-01T00:00:00.000Z"],
 "Kiyomizu-dera","Fushimi Inari Taisha"]</script>
<script>window.__NUXT__={"state":{"guide":{"spots":[{"title":"Nishiki Market"}],
 "intro":"Kyoto has more than a thousand temples; we picked the ones worth an early start."}}};</script>
</body></html>`)
	wantNames(t, a, []string{"Kyoto temples", "Kiyomizu-dera", "Fushimi Inari Taisha", "Nishiki Market"}, nil)
	// The Nuxt 2 form that is a function call is not JSON: nothing is read, nothing is run.
	b := analyze(t, "https://example.jp/a", `<script>window.__NUXT__=(function(a){return {state:{title:"Kinkaku-ji"}}}(1));</script>`)
	if len(b.Candidates) != 0 {
		t.Errorf("candidates from a function: %q", names(b.Candidates))
	}
}

// A Google Maps list keeps its places in APP_INITIALIZATION_STATE: nested arrays, some of them
// JSON inside a string after ")]}'".
func TestAnalyzeMapsList(t *testing.T) {
	// The list: its title, its places, the bounds of its map and its id; a place: its name,
	// a note, its coordinates a few arrays down and its short and full address.
	inner := ")]}'\n" + `[null,[["Seoul food",null,[[null,[null,null,"",null,"",[null,null,37.5700,126.9996]],"Gwangjang Market","Bindaetteok!",` +
		`null,["88 Changgyeonggung-ro","88 Changgyeonggung-ro, Jongno-gu, Seoul, South Korea"],[4.4,120]],` +
		`[null,[null,null,"",null,"",[null,null,37.5796,126.9770]],"Gyeongbokgung Palace",""],` +
		`[null,[null,null,"",null,"",[null,null,37.5512,126.9882]],"N Seoul Tower","sunset"]],` +
		`[[37.5612,126.9874],[37.6012,127.0661,37.5358,126.9108]],"ChZVVmVDMlF0SDQ1U2tSRmlzT0hPVmVBEgJrbw"]]]`
	state := `[[[15.2,126.97,37.56],[0,0,0],[1024,768],13.1],[["0x357ca2eb","en"]],` + jsonString(inner) +
		`,[null,[["Home",null,[37.5665,126.978]],["Work",null,null]]],null]`
	a := analyze(t, "https://www.google.com/maps/@37.56,126.97,13z/data=!4m3!11m2!2sAbCdEf!3e3",
		`<html><head><title>Seoul food - Google Maps</title></head><body><script>window.APP_INITIALIZATION_STATE=`+state+`;window.APP_FLAGS=[1];</script></body></html>`)
	if a.MediaType != MediaMap {
		t.Errorf("media type %q", a.MediaType)
	}
	want := map[string][2]string{"Gwangjang Market": {"37.57", "126.9996"}, "Gyeongbokgung Palace": {"37.5796", "126.977"},
		"N Seoul Tower": {"37.5512", "126.9882"}}
	for name, at := range want {
		c, ok := candidate(a, name)
		if !ok || c.Latitude != at[0] || c.Longitude != at[1] {
			t.Errorf("%s: %+v (found %v); all %q", name, c, ok, names(a.Candidates))
		}
	}
	if c, _ := candidate(a, "Gwangjang Market"); c.Address != "88 Changgyeonggung-ro, Jongno-gu, Seoul, South Korea" {
		t.Errorf("Gwangjang Market's address %q", c.Address)
	}
	// Neither the list (whose bounds are coordinates), nor its id, nor the viewer's saved
	// places beside it are places of the list.
	if got := names(a.Candidates); !slices.Equal(got, []string{"Seoul food - Google Maps", "Seoul food", "Gwangjang Market", "Gyeongbokgung Palace", "N Seoul Tower"}) {
		t.Errorf("candidates %q", got)
	}
}

func TestIDLike(t *testing.T) {
	for s, want := range map[string]bool{
		"ChZVVmVDMlF0SDQ1U2tSRmlzT0hPVmVBEgJrbw": true, "ChIJzWXFYYuifDUR64Pq5LTtioU": true, "a1b2c3d4e5f6": true,
		"Dotonbori": false, "LOTTEWORLD": false, "Tenjinbashisuji": false, "teamLab Planets": false, "2024-05-01": false,
	} {
		if got := idLike(s); got != want {
			t.Errorf("idLike(%q) = %v", s, got)
		}
	}
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// A Naver blog post's address serves a frame page: Analyze asks for the frame on the same
// site (not the other site's), and reads the post once the frame is given.
func TestAnalyzeFramedBlog(t *testing.T) {
	outer := `<html><head><title>서울 하루 여행 : 네이버 블로그</title><meta property="og:title" content="서울 하루 여행"></head>
<body><iframe src="https://ads.example.net/banner"></iframe>
<iframe id="mainFrame" name="mainFrame" src="/PostView.naver?blogId=traveller&logNo=223456789&redirect=Dlog"></iframe></body></html>`
	p := Page{URL: "https://blog.naver.com/traveller/223456789", ContentType: "text/html", Body: []byte(outer)}
	a, err := Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	frameURL := "https://blog.naver.com/PostView.naver?blogId=traveller&logNo=223456789&redirect=Dlog"
	if !slices.Equal(a.Frames, []string{frameURL}) || a.MediaType != MediaBlog {
		t.Fatalf("frames %q, media type %q", a.Frames, a.MediaType)
	}
	p.Frames = []Page{{URL: frameURL, ContentType: "text/html", Body: []byte(`<html><body>
<div class="se-main-container"><div class="se-component se-text"><p class="se-text-paragraph">아침 일찍 경복궁에 갔어요. 한복을 입으면 입장료가 무료예요!</p>
<p class="se-text-paragraph">점심은 광장시장에서 빈대떡과 마약김밥을 먹었어요. 사람이 정말 많았어요.</p></div>
<div class="se-component se-placesMap"><a href="https://map.naver.com/p/entry/place/11591563">북촌한옥마을</a></div>
<h3 class="se-text">📍 창덕궁</h3></div></body></html>`)}}
	if a, err = Analyze(p); err != nil {
		t.Fatal(err)
	}
	if len(a.Frames) != 0 || a.Title != "서울 하루 여행" || a.City != "Seoul" {
		t.Errorf("frames %q, title %q, city %q", a.Frames, a.Title, a.City)
	}
	for _, n := range []string{"경복궁", "광장시장", "창덕궁"} {
		if !slices.Contains(names(a.Candidates), n) {
			t.Errorf("missing %q in %q", n, names(a.Candidates))
		}
	}
	// A page with text of its own, or a frame on another site, asks for nothing.
	long := `<iframe src="/PostView.naver?x=1"></iframe><article><p>` + strings.Repeat("We walked from the palace to the market. ", 10) + `</p></article>`
	if a := analyze(t, "https://blog.naver.com/a/1", long); len(a.Frames) != 0 {
		t.Errorf("frames of a page with text: %q", a.Frames)
	}
	if a := analyze(t, "https://a.github.io/post", `<iframe id="mainFrame" src="https://b.github.io/post"></iframe>`); len(a.Frames) != 0 {
		t.Errorf("frames on another site: %q", a.Frames)
	}
}

// A Naver post's place card keeps the place's name, address and position in its link's
// data-linkdata: the card's place has them.
func TestAnalyzePlaceCard(t *testing.T) {
	a := analyze(t, "https://blog.naver.com/PostView.naver?blogId=a&logNo=1", `<html><body><div class="se-main-container">
<p>아침 일찍 창덕궁에 갔어요. 후원은 해설사 동반 관람만 가능해서 미리 예약했어요.</p>
<div class="se-component se-placesMap"><a href="#" class="se-map-info __se_link" data-linktype="map"
 data-linkdata='{"placeId": "11491438", "name": "창덕궁", "address": "서울특별시 종로구 율곡로 99", "latitude": "37.5794", "longitude": "126.991", "bookingUrl": null}'>
<strong class="se-map-title">창덕궁</strong><p class="se-map-address">서울특별시 종로구 율곡로 99</p></a></div>
<a href="#" data-linktype="sticker" data-linkdata='{"src": "https://storep-phinf.pstatic.net/sticker.png"}'><img alt=""></a>
</div><div hidden><a href="#" data-linkdata='{"name": "해운대해수욕장", "latitude": "35.1587", "longitude": "129.1604"}'>해운대</a></div></body></html>`)
	c, ok := candidate(a, "창덕궁")
	if !ok || c.Address != "서울특별시 종로구 율곡로 99" || c.Latitude != "37.5794" || c.Longitude != "126.991" {
		t.Errorf("card's place: %+v (found %v)", c, ok)
	}
	wantNames(t, a, nil, []string{"해운대해수욕장"})
}

// Blogger wraps the post in "widget Blog" and the sidebar in widgets too: the post is read,
// the sidebar's lists of links are not.
func TestAnalyzeBloggerWidgets(t *testing.T) {
	a := analyze(t, "https://wanderjeju.blogspot.com/2024/05/east-jeju.html", `<html><head><title>Wander Jeju: East Jeju in a day</title></head><body>
<div class="content-outer"><div class="main-inner"><div class="columns">
<div class="column-center-inner"><div class="section" id="main"><div class="widget Blog" data-version="1" id="Blog1">
 <div class="blog-posts hfeed"><div class="post-outer"><div class="post hentry">
  <h3 class="post-title entry-title">East Jeju in a day</h3>
  <div class="post-body entry-content" id="post-body-123">
   We drove out of Jeju City early, with coffee in hand and the sea on our left.<br><br>
   <b>Seongsan Ilchulbong</b><br>The climb takes about twenty minutes, and the crater view is worth every step.<br><br>
   <b>Manjanggul Cave</b><br>A lava tube of more than seven kilometres, cool even in summer; bring a jacket.<br><br>
   <b>Woljeongri Beach</b><br>Turquoise water, cafés with big windows, and a long lazy lunch to end the day.
  </div>
 </div></div></div>
</div></div></div>
<div class="column-right-inner"><div class="section" id="sidebar-right-1">
 <div class="widget PopularPosts" id="PopularPosts1"><h2>Popular Posts</h2><ul>
  <li><a href="https://wanderjeju.blogspot.com/2024/03/busan.html">Haeundae Beach at dawn</a></li>
  <li><a href="https://wanderjeju.blogspot.com/2024/02/seoul.html">Gyeongbokgung Palace in the snow</a></li></ul></div>
 <div class="widget Label" id="Label1"><h2>Labels</h2><ul><li><a href="/search/label/Busan">Busan</a></li><li><a href="/search/label/Jeonju">Jeonju</a></li></ul></div>
</div></div></div></div></div></body></html>`)
	wantNames(t, a, []string{"Seongsan Ilchulbong", "Manjanggul Cave", "Woljeongri Beach"},
		[]string{"Haeundae Beach at dawn", "Gyeongbokgung Palace in the snow", "Busan", "Jeonju"})
	if a.City != "Jeju" {
		t.Errorf("city %q, cities %q", a.City, a.Cities)
	}
}

// A forum thread's replies, in elements named "comment", are content; the forum's navigation
// and its list of similar threads are not.
func TestAnalyzeForumReplies(t *testing.T) {
	a := analyze(t, "https://forum.example.com/t/osaka-food/123", `<html><head><title>Where to eat in Osaka? - Travel Forum</title></head><body>
<div class="nav-menu"><ul><li><a href="/c/japan">Japan</a></li><li><a href="/c/korea">Korea</a></li><li><a href="/latest">Latest</a></li></ul></div>
<div id="topic">
 <div class="post topic-post"><h1>Where to eat in Osaka?</h1>
  <div class="cooked"><p>Three nights in Osaka next month, staying in Namba. Where should we eat, and which markets are worth it?</p></div></div>
 <div class="comment" id="comment-1"><div class="cooked"><p>Kuromon Market for breakfast, and go early, before the tour groups arrive.</p></div></div>
 <div class="comment" id="comment-2"><div class="cooked"><p>Dotonbori at night for takoyaki. Wanaka is good, and the queue moves fast.</p></div></div>
 <div class="comment reply" id="comment-3"><div class="cooked"><p>Shinsekai for kushikatsu, then walk up Tsutenkaku, the view is nice.</p></div></div>
</div>
<div class="suggested-topics"><h3>Suggested topics</h3><ul>
 <li><a href="/t/kyoto-temples/99">Kinkaku-ji or Ginkaku-ji?</a></li><li><a href="/t/nara/98">Nara Park with kids</a></li><li><a href="/t/kobe/97">Kobe beef on a budget</a></li></ul></div>
</body></html>`)
	all := names(a.Candidates)
	for _, n := range []string{"Kuromon Market", "Dotonbori", "Shinsekai", "Tsutenkaku"} {
		if !slices.Contains(all, n) {
			t.Errorf("reply's %q missing from %q", n, all)
		}
	}
	for _, n := range []string{"Kinkaku-ji or Ginkaku-ji", "Nara Park with kids", "Kinkaku-ji", "Nara Park"} {
		if slices.Contains(all, n) {
			t.Errorf("similar thread's %q in %q", n, all)
		}
	}
	if a.City != "Osaka" {
		t.Errorf("city %q", a.City)
	}
}

// A forum that puts each post in a form (old Reddit) and marks its thread as the main
// landmark: the posts are read, the sidebar beside the landmark (the forum's wiki links, its
// trending threads) is not, though it scores as text.
func TestAnalyzeThreadInMainLandmark(t *testing.T) {
	post := func(text string) string {
		return `<div class="thing comment"><form action="#" class="usertext"><input type="hidden" name="thing_id" value="t1">` +
			`<div class="usertext-body"><div class="md"><p>` + text + `</p></div></div></form></div>`
	}
	a := analyze(t, "https://old.reddit.com/r/JapanTravel/comments/abc/osaka_food/", `<html><head><title>Osaka food? : JapanTravel</title></head><body>
<div class="side"><div class="md"><h2>Welcome to r/JapanTravel</h2><p>A place to ask and answer questions about travelling in Japan.</p>
 <ul><li><a href="/wiki/tokyo">Tokyo guide</a> – Senso-ji, Shibuya Crossing and the rest</li>
 <li><a href="/wiki/kyoto">Kyoto guide</a> – Fushimi Inari Taisha at dawn, Arashiyama</li>
 <li><a href="/wiki/osaka">Osaka guide</a> – Osaka Castle, the aquarium, day trips to Nara</li></ul></div></div>
<div class="content" role="main">`+post("Two days in Osaka, staying in Namba. Where do locals actually eat?")+
		post("Go to Tenjinbashisuji Shopping Street, the longest covered shopping street in Japan.")+
		post("Shinsekai for kushikatsu, one evening; the doteyaki alone is worth it.")+`</div></body></html>`)
	wantNames(t, a, nil, []string{"Senso-ji", "Shibuya Crossing", "Fushimi Inari Taisha", "Osaka Castle"})
	all := names(a.Candidates)
	for _, n := range []string{"Tenjinbashisuji Shopping Street", "Shinsekai"} {
		if !slices.Contains(all, n) {
			t.Errorf("post's %q missing from %q", n, all)
		}
	}
	if a.City != "Osaka" {
		t.Errorf("city %q", a.City)
	}
	// A main landmark that does not hold the main content bounds nothing.
	b := analyze(t, "https://example.com/seoul", `<html><body><main><p>Menu</p></main><div class="post">`+
		strings.Repeat(`<p>We spent the morning at Tongin Market, filling a lunch box with coins, and then walked, slowly, to the palace.</p>`, 3)+`</div></body></html>`)
	if !slices.Contains(names(b.Candidates), "Tongin Market") {
		t.Errorf("post outside a landmark without content left out: %q", names(b.Candidates))
	}
}

// A post split into editor components of like weight (Naver's SmartEditor: a bold title, a
// few short paragraphs, a place card, each in its own nest of divs) is one whole: the short
// titles and cards beside the best-scoring component are read, the comments after it not.
func TestAnalyzeSplitPost(t *testing.T) {
	component := func(title, text string) string {
		return `<div class="se-component se-sectionTitle"><div class="se-component-content"><div class="se-section"><div class="se-module se-title-text"><p><b>` + title + `</b></p></div></div></div></div>` +
			`<div class="se-component se-text"><div class="se-component-content"><div class="se-section"><div class="se-module se-module-text"><p>` +
			text + `</p><p>사람이 많으니까 평일 오전에 가는 걸 추천해요.</p></div></div></div></div>` +
			`<div class="se-component se-placesMap"><div class="se-module"><a href="#" class="se-map-info"><strong class="se-map-title">` + title + `</strong></a></div></div>`
	}
	a := analyze(t, "https://blog.naver.com/PostView.naver?blogId=a&logNo=1", `<html><body><div id="postViewArea"><div class="se-main-container">`+
		component("런던베이글뮤지엄 안국점", "안국역 1번 출구로 나와서 조금만 걸으면 바로 보여요. 오픈 전에 가도 줄이 길어요, 정말로요.")+
		component("창덕궁", "베이글 먹고 바로 창덕궁으로 갔어요. 후원은 예약하고 가야 해요.")+
		component("익선동", "길 건너면 바로 익선동이에요. 골목마다 한옥 가게가 빼곡해요.")+
		component("어니언 안국", "다시 안국 쪽으로 넘어가서 어니언 안국에서 커피 타임이에요.")+
		`</div></div><div class="comment_area"><p class="comment">저도 다음주에 한남동 가보려구요! 추천해 주실 곳 있을까요?</p></div></body></html>`)
	wantNames(t, a, []string{"런던베이글뮤지엄 안국점", "창덕궁", "익선동", "어니언 안국"}, nil)
}

// The main content's cities weigh more than those of the matter beside it: a post about Osaka
// beside a box of tips naming Tokyo more often is about Osaka.
func TestCityOfMainContent(t *testing.T) {
	a := analyze(t, "https://example.com/food", `<html><head><title>Where we ate</title></head><body>
<div class="post"><p>Our first evening in Osaka started at a tiny counter, with kushikatsu, cabbage and cold beer, and went on late.</p>
<p>Next morning, in Osaka still, we queued for cheesecake, then for okonomiyaki, and then, happily, for takoyaki.</p>
<p>Osaka eats standing up, cheaply, and late: we did too, every night, and never once regretted it.</p></div>
<div class="tips"><ul><li>Tokyo: get a Suica card</li><li>Tokyo: trains stop at midnight</li><li>Tokyo: book sushi early</li><li>Tokyo: carry cash</li><li>Tokyo: walk a lot</li><li>Tokyo: eat late</li></ul></div>
</body></html>`)
	if a.City != "Osaka" {
		t.Errorf("city %q, cities %q", a.City, a.Cities)
	}
}

// A blog's comments under a long post are side matter, as is an "about me" box: their names
// are left out, while the post's stay.
func TestAnalyzeBlogCommentsLeftOut(t *testing.T) {
	post := strings.Repeat(`<p>We spent the morning at Tongin Market, filling a lunch box with coins, and then walked, slowly, to the palace.</p>`, 6)
	a := analyze(t, "https://example.com/seoul", `<html><body><div class="post"><h1>Seoul, slowly</h1>`+post+`</div>
<div class="comments"><div class="comment"><p>Next time try <b>Samjin Eomuk</b> in Yeongdo, it is worth the trip!</p></div></div>
<div class="about"><p>Hi, I'm Mina from Daejeon. I write about Hanbat Arboretum and slow travel.</p></div></body></html>`)
	all := names(a.Candidates)
	if !slices.Contains(all, "Tongin Market") {
		t.Errorf("post's Tongin Market missing: %q", all)
	}
	for _, n := range []string{"Samjin Eomuk", "Yeongdo", "Hanbat Arboretum", "Daejeon"} {
		if slices.Contains(all, n) {
			t.Errorf("side matter's %q in %q", n, all)
		}
	}
}

// A list of places linked to their own sites, beside the post's text, is content; lists of
// links elsewhere, to the site's other posts or to other sites, are not.
func TestAnalyzeLinkedPlaceList(t *testing.T) {
	intro := strings.Repeat(`<p>Seoul's cafés are best found on foot, between the palaces, in the lanes of Bukchon and Seochon.</p>`, 3)
	a := analyze(t, "https://example.com/seoul-cafes", `<html><body><div class="entry"><div class="intro">`+intro+`</div>
<ul class="spots"><li><a href="https://www.instagram.com/cafe.onion">Cafe Onion Anguk</a></li>
<li><a href="https://tonginmarket.example.kr/">Tongin Market</a></li></ul></div>
<div class="sidebar"><ul><li><a href="/2024/busan">Haeundae Beach</a></li><li><a href="/2024/jeju">Seongsan Ilchulbong</a></li></ul>
<ul><li><a href="https://friend.example/">Gamcheon Culture Village</a></li><li><a href="https://pal.example/">Jagalchi Market</a></li></ul></div>
</body></html>`)
	wantNames(t, a, []string{"Cafe Onion Anguk", "Tongin Market"},
		[]string{"Haeundae Beach", "Seongsan Ilchulbong", "Gamcheon Culture Village", "Jagalchi Market"})
}

func TestLiteral(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{`{"a":1};x`, `{"a":1}`, true},
		{`[1,[2,{"b":"]"}]] rest`, `[1,[2,{"b":"]"}]]`, true},
		{`{"s":"a \"}\" b",'t':'}\''}` + "\n", `{"s":"a \"}\" b",'t':'}\''}`, true},
		{`{"open":`, "", false},
		{`"not an object"`, "", false},
		{``, "", false},
		{`{"a":"\`, "", false},
	} {
		got, ok := literal(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("literal(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := literal("[" + strings.Repeat(" ", maxLiteral)); ok {
		t.Error("a literal longer than the limit was read")
	}
}

// The budget of JSON values is per page: a page of huge script data stops being read, and
// what was read stays.
func TestEmbeddedBudget(t *testing.T) {
	big := "[" + strings.Repeat("1,", maxJSONNodes) + "1]"
	e := readEmbedded([]script{{id: "__NEXT_DATA__", text: big}, {id: "__NEXT_DATA__", text: `{"props":{"pageProps":{"title":"Tongin Market"}}}`}})
	if len(e.outline) != 0 {
		t.Errorf("read past the budget: %q", e.outline)
	}
	e = readEmbedded([]script{{id: "__NEXT_DATA__", text: `{"props":{"pageProps":{"title":"Tongin Market"}}}`}})
	if !slices.Equal(e.outline, []string{"Tongin Market"}) {
		t.Errorf("outline %q", e.outline)
	}
}

// BenchmarkAnalyzeUnclosedScriptData analyses a script of many unclosed assignments, which
// would take quadratic time if each were scanned to the end: it is scanned once.
func BenchmarkAnalyzeUnclosedScriptData(b *testing.B) {
	p := Page{URL: "https://www.youtube.com/watch?v=x", ContentType: "text/html",
		Body: []byte("<script>" + strings.Repeat("ytInitialData=[", 20_000) + "</script>")}
	b.SetBytes(int64(len(p.Body)))
	for b.Loop() {
		if _, err := Analyze(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeDeepSiblings analyses paragraphs deep in nested elements, many of them
// siblings of the main content: the main content's ancestors are marked once, not once per
// sibling.
func BenchmarkAnalyzeDeepSiblings(b *testing.B) {
	p := Page{URL: "https://example.com/", ContentType: "text/html",
		Body: []byte(strings.Repeat("<div>", 20_000) + strings.Repeat("<div><p>Gwangjang Market, Tongin Market, and more.</p></div>", 5_000))}
	b.SetBytes(int64(len(p.Body)))
	for b.Loop() {
		if _, err := Analyze(p); err != nil {
			b.Fatal(err)
		}
	}
}
