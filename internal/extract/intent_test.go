package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// mentionIn is the mention of name in sentence, as the collector decides it.
func mentionIn(sentence, name string) string {
	return mentionOf(sentence, name, indexFold(sentence, name))
}

func TestMentionCues(t *testing.T) {
	tests := []struct {
		sentence, name, want string
	}{
		// English: skipped, one cue each.
		{"We skipped Namsan Tower.", "Namsan Tower", MentionSkipped},
		{"We didn't go to Lotte World this time.", "Lotte World", MentionSkipped},
		{"Don't bother with Myeongdong Cathedral.", "Myeongdong Cathedral", MentionSkipped},
		{"Avoid Khao San Road at night.", "Khao San Road", MentionSkipped},
		{"Honestly Times Square is a tourist trap.", "Times Square", MentionSkipped},
		{"Tsukiji Outer Market was closed when we got there.", "Tsukiji Outer Market", MentionSkipped},
		{"Gyeongbokgung Palace is not worth it on a Tuesday.", "Gyeongbokgung Palace", MentionSkipped},
		// … but not the line or the crowds.
		{"Buy a skip-the-line ticket for the Louvre.", "Louvre", MentionMentioned},
		{"Go early to avoid the crowds at Senso-ji.", "Senso-ji", MentionMentioned},
		// English: passing.
		{"We passed through Seoul Station.", "Seoul Station", MentionPassing},
		{"We changed trains at Shinjuku Station.", "Shinjuku Station", MentionPassing},
		{"Took the bus past Dongdaemun Design Plaza.", "Dongdaemun Design Plaza", MentionPassing},
		{"Transfer at Hongik University station for the airport line.", "Hongik University", MentionPassing},
		{"We walked through Insadong on the way to Gyeongbokgung Palace.", "Insadong", MentionPassing},
		// … the destination is not passed (here, gone to: "we walked").
		{"We walked through Insadong on the way to Gyeongbokgung Palace.", "Gyeongbokgung Palace", MentionVisited},
		{"We changed trains at Seoul Station on the way to Busan Tower.", "Busan Tower", MentionMentioned},
		// English: recommended and visited.
		{"Bukchon Hanok Village is a must-see.", "Bukchon Hanok Village", MentionRecommended},
		{"I highly recommend Gwangjang Market.", "Gwangjang Market", MentionRecommended},
		{"Don't miss the Secret Garden at Changdeokgung.", "Changdeokgung", MentionRecommended},
		{"We visited Changdeokgung in the morning.", "Changdeokgung", MentionVisited},
		{"We had lunch at Tosokchon Samgyetang.", "Tosokchon Samgyetang", MentionVisited},
		{"Café de Flore is expensive and I loved every minute of it.", "Café de Flore", MentionRecommended},
		{"Dinner was steak frites at Le Relais de l'Entrecôte.", "Le Relais de l'Entrecôte", MentionVisited},
		{"Seoul Forest is a big park.", "Seoul Forest", MentionMentioned},
		// Clauses: each name with its own verb.
		{"We skipped Namsan Tower but visited Gyeongbokgung Palace.", "Namsan Tower", MentionSkipped},
		{"We skipped Namsan Tower but visited Gyeongbokgung Palace.", "Gyeongbokgung Palace", MentionVisited},
		// English: more ways of passing through, and of leaving out.
		{"We flew into Gimpo International Airport from Osaka.", "Gimpo International Airport", MentionPassing},
		{"On day three we changed lines at Gangnam Station in rush hour.", "Gangnam Station", MentionPassing},
		{"As for the palaces: we only saw Gyeongbokgung Palace from the bus window.", "Gyeongbokgung Palace", MentionPassing},
		{"Then we took the bus south past Circus Maximus to the Baths of Caracalla.", "Circus Maximus", MentionPassing},
		{"Then we took the bus south past Circus Maximus to the Baths of Caracalla.", "Baths of Caracalla", MentionMentioned},
		{"It is half past nine at Borough Market.", "Borough Market", MentionMentioned}, // no one moves
		{"N Seoul Tower at sunset (cable car from the Myeongdong side)", "Myeongdong", MentionPassing},
		{"N Seoul Tower at sunset (cable car from the Myeongdong side)", "N Seoul Tower", MentionMentioned},
		{"N Seoul Tower (cable car from Myeongdong)", "Myeongdong", MentionPassing}, // where a ride starts
		{"We took the ferry from Jeonju Port to the island.", "Jeonju Port", MentionPassing},
		{"We took the ferry from Jeonju Port to Udo Island.", "Udo Island", MentionMentioned},
		{"We flew from Incheon and loved Myeongdong.", "Myeongdong", MentionRecommended},
		{"I do not recommend Namsan Tower with a stroller.", "Namsan Tower", MentionSkipped},
		{"A hostel near King's Cross Station: bunk beds and breakfast.", "King's Cross Station", MentionMentioned},
		// … in a clause that does not name the place again.
		{"Our train got in at Roma Termini at 7, but we only passed through – straight onto the bus.", "Roma Termini", MentionPassing},
		{"The KTX takes two hours to Gyeongju Station, which is far from everything; we only used it to arrive and leave.", "Gyeongju Station", MentionPassing},
		{"Bus 700 runs out to Bomun Lake, which we saw only through the window.", "Bomun Lake", MentionPassing},
		{"The Panthéon is a ten-minute walk east, but I would save it for another morning.", "Panthéon", MentionSkipped},
		{"The Louvre was amazing but we skipped it this time.", "Louvre", MentionSkipped},
		{"Haedong Yonggungsa was crowded, but worth it.", "Haedong Yonggungsa", MentionRecommended},
		{"Times Square is a tourist trap, but worth it at night.", "Times Square", MentionRecommended},
		{"We skipped Namsan Tower but loved Gyeongbokgung Palace.", "Namsan Tower", MentionSkipped},
		// … and a plan that fell through.
		{"We had planned to go down to Yangdong Folk Village but ran out of time; next trip.", "Yangdong Folk Village", MentionSkipped},
		{"We planned to visit Bulguksa Temple on the second day.", "Bulguksa Temple", MentionMentioned},
		// Korean.
		{"남산타워는 안 갔다.", "남산타워", MentionSkipped},
		{"롯데월드는 시간이 없어서 건너뛰었다.", "롯데월드", MentionSkipped},
		{"명동은 솔직히 비추.", "명동", MentionSkipped},
		{"이태원은 가지 마세요.", "이태원", MentionSkipped},
		{"동대문은 패스했다.", "동대문", MentionSkipped},
		{"서울역에서 환승했다.", "서울역", MentionPassing},
		{"인사동을 지나서 걸었다.", "인사동", MentionPassing},
		{"지난주에 인사동에 갔다.", "인사동", MentionVisited}, // "지난주" (last week) is no "지나"
		{"버스로 인사동을 지나갔다.", "인사동", MentionPassing},
		{"대전을 경유해서 부산으로 갔다.", "대전", MentionPassing},
		{"경복궁 가는 길에 인사동을 지나갔다.", "경복궁", MentionVisited}, // the destination, gone to
		{"경복궁 가는 길에 인사동을 지나갔다.", "인사동", MentionPassing},
		{"광장시장 빈대떡 강력 추천!", "광장시장", MentionRecommended},
		{"북촌은 꼭 가보세요.", "북촌", MentionRecommended},
		{"남산타워 꼭대기에 올라갔다.", "남산타워", MentionVisited}, // "꼭대기" (top) is no "꼭"
		{"점심은 토속촌에서 먹었다.", "토속촌", MentionVisited},
		{"오후에 창덕궁에 갔다.", "창덕궁", MentionVisited},
		{"경복궁은 갔지만 창덕궁은 못 갔다.", "경복궁", MentionVisited},
		{"경복궁은 갔지만 창덕궁은 못 갔다.", "창덕궁", MentionSkipped},
		{"교통패스로 이동했다.", "교통패스", MentionMentioned},
		{"원래 만장굴도 가려고 했는데 내부 정비 중이라 못 갔어요 ㅠㅠ 다음에 꼭!", "만장굴", MentionSkipped},
		{"동문시장은 시간이 빠듯해서 못 들렀어요.", "동문시장", MentionSkipped},
		{"감천문화마을은 붐볐지만 가볼 만해요.", "감천문화마을", MentionRecommended},
		{"01:12 부산역 도착 → 본전돼지국밥", "부산역", MentionPassing},
		{"01:12 부산역 도착 → 본전돼지국밥", "본전돼지국밥", MentionMentioned},
		{"우도 도착!", "우도", MentionMentioned},
		{"오전 10시 비행기로 제주국제공항 도착 ✈️", "제주국제공항", MentionPassing},
		{"飛行機で那覇空港に到着。", "那覇空港", MentionPassing},
		{"아침을 먹고 성산항에서 배를 타고 우도로!", "성산항", MentionPassing},
		{"아침을 먹고 성산항에서 배를 타고 우도로!", "우도", MentionMentioned},
		{"성산항에서 점심을 먹었다.", "성산항", MentionVisited}, // no ride
		{"렌터카는 제주공항에서 빌렸고, 숙소는 성산에 잡았어요.", "제주공항", MentionPassing},
		{"제주공항에서 렌터카를 빌렸다.", "제주공항", MentionPassing},
		{"버스 창밖으로 광안대교를 봤다.", "광안대교", MentionPassing},
		{"경복궁 근처의 카페에서 쉬었다.", "경복궁", MentionPassing},
		// Japanese.
		{"清水寺は行かなかった。", "清水寺", MentionSkipped},
		{"浅草のペリカンカフェにも行く予定だったのですが、定休日で断念。", "ペリカンカフェ", MentionSkipped},
		{"その間に銀座三越の前を通って伊東屋を覗いた。", "銀座三越", MentionPassing},
		{"三越は外から見ただけ。", "三越", MentionPassing},
		{"朝は代々木公園のすぐ近く、Fuglen Tokyoへ。", "代々木公園", MentionPassing},
		{"朝は代々木公園のすぐ近く、Fuglen Tokyoへ。", "Fuglen Tokyo", MentionMentioned},
		{"京都駅からバスに乗って金閣寺へ。", "京都駅", MentionPassing},
		{"京都駅で乗り換えた。", "京都駅", MentionPassing},
		{"伏見稲荷大社は必見です。", "伏見稲荷大社", MentionRecommended},
		{"錦市場で食べ歩きました。", "錦市場", MentionVisited},
		// No sentence.
		{"", "Gwangjang Market", MentionMentioned},
	}
	for _, tt := range tests {
		if got := mentionIn(tt.sentence, tt.name); got != tt.want {
			t.Errorf("mention of %q in %q = %s, want %s", tt.name, tt.sentence, got, tt.want)
		}
	}
}

func TestMentionStrongest(t *testing.T) {
	// A name found several times keeps its strongest positive mention, or, with none, its
	// skipped or passing one over a neutral one.
	page := Page{ContentType: "text/html", Body: []byte(`<html><head><title>Seoul in two days</title></head><body><article>
<h2>Gyeongbokgung Palace</h2>
<p>We skipped Gyeongbokgung Palace on the first day. We visited Gyeongbokgung Palace on the second day.</p>
<h2>Namsan Tower</h2>
<p>In the end we skipped Namsan Tower because of the fog.</p>
<h2>Seoul Station</h2>
<p>We changed trains at Seoul Station.</p>
<p>Our favourite: Gwangjang Market, a must-see. We had dinner at Gwangjang Market too.</p>
</article></body></html>`)}
	a, err := Analyze(page)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"Gyeongbokgung Palace": {MentionVisited, "We visited Gyeongbokgung Palace on the second day."},
		"Namsan Tower":         {MentionSkipped, "In the end we skipped Namsan Tower because of the fog."},
		"Seoul Station":        {MentionPassing, "We changed trains at Seoul Station."},
		"Gwangjang Market":     {MentionRecommended, "Our favourite: Gwangjang Market, a must-see."},
	}
	got := map[string]bool{}
	for _, c := range a.Candidates {
		if w, ok := want[c.Name]; ok {
			got[c.Name] = true
			if c.Mention != w[0] || c.Quote != w[1] {
				t.Errorf("%s: mention %s, quote %q; want %s, %q", c.Name, c.Mention, c.Quote, w[0], w[1])
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("found %v of %d names: %+v", got, len(want), a.Candidates)
	}
}

func TestQuote(t *testing.T) {
	short := "We had lunch at Tosokchon Samgyetang."
	if q := quoteOf(short, 16, len("Tosokchon Samgyetang")); q != short {
		t.Errorf("quote %q, want the sentence", q)
	}
	long := strings.Repeat("We walked a long way along the river under the cherry trees and ", 3) +
		"then found Gwangjang Market " + strings.Repeat("where the stalls sell bindaetteok and mayak gimbap to everyone ", 3)
	at := strings.Index(long, "Gwangjang Market")
	q := quoteOf(long, at, len("Gwangjang Market"))
	if n := utf8.RuneCountInString(q); n > maxQuoteRunes {
		t.Errorf("quote of %d characters: %q", n, q)
	}
	if !strings.Contains(q, "Gwangjang Market") || !strings.HasPrefix(q, "…") || !strings.HasSuffix(q, "…") {
		t.Errorf("quote %q should hold the name and show both cuts", q)
	}
	// Cut at word boundaries: every word of the quote is a word of the sentence.
	words := setOf(strings.Fields(long)...)
	for _, w := range strings.Fields(strings.Trim(q, "…")) {
		if !words[w] {
			t.Errorf("quote %q cuts the word %q", q, w)
		}
	}
	if q := quoteOf(long, -1, 0); utf8.RuneCountInString(q) > maxQuoteRunes || !strings.HasSuffix(q, "…") {
		t.Errorf("quote without a position %q", q)
	}
}

func TestSentences(t *testing.T) {
	got := sentences("We went to St. Paul's Cathedral. Then lunch! 경복궁에 갔다. 次は清水寺。最高\nNext line")
	want := []string{"We went to St. Paul's Cathedral.", "Then lunch!", "경복궁에 갔다.", "次は清水寺。", "最高", "Next line"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences %q, want %q", got, want)
	}
}

func TestAreaNames(t *testing.T) {
	for _, tt := range []struct {
		name string
		area bool
	}{
		{"창경궁로", true}, {"세종대로", true}, {"종로구", true}, {"삼청동", true}, {"가로수길", true},
		{"Sejong-daero", true}, {"Jongno-gu", true}, {"Samcheong-dong", true}, {"Changgyeonggung-ro", true},
		{"Rue de Rivoli", true}, {"Le Marais", true}, {"Via del Corso", true}, {"Baker Street", true},
		{"창경궁", false}, {"경복궁", false}, {"명동", false}, {"Gyeongbokgung Palace", false},
		{"Place de la Concorde", false}, {"Cairo", false}, {"St. Paul's Cathedral", false},
	} {
		if got := newForm(tt.name).area; got != tt.area {
			t.Errorf("%q area = %v, want %v", tt.name, got, tt.area)
		}
	}
	// A road, district or street matches only a place called exactly that.
	for _, tt := range []struct {
		page, place string
		match       bool
	}{
		{"창경궁로", "창경궁", false},
		{"Changgyeonggung-ro", "Changgyeonggung Palace", false},
		{"Le Marais", "Breizh Café Le Marais", false},
		{"Le Marais", "Le Marais", true},
		{"Hwangnidan-gil", "Hwangnidan-gil", true},
		{"Gwangbok-ro", "Gwangbok-ro Fashion Street", false},
		{"Jongno-gu", "Jongno Tower", false},
		{"Udo", "Udo Island", false}, // a core too short to tell without "Island"
	} {
		if got := match(newForm(tt.page), newForm(tt.place), false) > 0; got != tt.match {
			t.Errorf("match(%q, %q) = %v, want %v", tt.page, tt.place, got, tt.match)
		}
	}
}

func TestHangulParticles(t *testing.T) {
	// A particle is taken off only when its form fits the syllable before it: "창경궁로" is a
	// road (with 로 after 궁 it would be "창경궁으로"), "서울로" is Seoul with 로.
	for text, want := range map[string]string{
		"창경궁로 따라 걸었다":  "창경궁로",
		"창경궁으로 갔다":     "창경궁",
		"우도는 예뻤다":      "우도",
		"경복궁은 넓다":      "경복궁",
		"경복궁는 넓다":      "경복궁는",
		"광장시장에서 먹었다":   "광장시장",
		"해운대를 걸었다":     "해운대",
		"해운대을 걸었다":     "해운대을",
		"명동이 붐볐다":      "명동",
		"부산역과 해운대":     "부산역",
		"세종대로를 건넜다":    "세종대로",
		"서울로 7017 걸었다": "서울", // and "서울로" too: 로 may be the name's
	} {
		if got := hangulWords(text); len(got) == 0 || got[0] != want {
			t.Errorf("hangulWords(%q) = %q, want %q first", text, got, want)
		}
	}
}

func TestAddressLines(t *testing.T) {
	for line, want := range map[string]string{
		"주소: 서울 종로구 창경궁로 185":                         "",
		"Address: 185 Changgyeonggung-ro, Jongno-gu":  "",
		"📍 Senso-ji – 2-3-1 Asakusa, Taito City":      "📍 Senso-ji –",
		"Hotel Lutetia, 45 Boulevard Raspail":         "Hotel Lutetia",
		"Le Comptoir, 12 rue de Rivoli, 75004 Paris":  "Le Comptoir",
		"Mercer Kitchen at 99 Prince Street, SoHo":    "Mercer Kitchen at 99 Prince Street, SoHo", // prose, no house number first
		"3:15 Nakamise Shopping Street snacks":        "3:15 Nakamise Shopping Street snacks",
		"Gyeongbokgung Palace (Sejong-daero 161)":     "Gyeongbokgung Palace (",
		"Area: 3rd arrondissement · Le Marais":        "",
		"A hostel near King's Cross Station: bunks":   "A hostel near King's Cross Station: bunks",
		"We walked along Changgyeonggung-ro at dusk.": "We walked along Changgyeonggung-ro at dusk.",
	} {
		if got := withoutAddress(line); got != want {
			t.Errorf("withoutAddress(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestCapitalRuns(t *testing.T) {
	for text, want := range map[string]string{
		"Skip Oxford Street unless they shop.":              "Oxford Street",
		"Don't bother with the London Eye.":                 "London Eye",
		"Then dinner at Felice a Testaccio, by the market.": "Felice a Testaccio|Felice|Testaccio",
		"We took the Ginza line to Ueno.":                   "Ueno",
		"Lunch at Café de Flore.":                           "Café de Flore|Café|Flore",
	} {
		if got := strings.Join(capitalRuns(text), "|"); got != want {
			t.Errorf("capitalRuns(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestSectionIntent(t *testing.T) {
	for heading, want := range map[string]string{
		"What we skipped":                                    MentionSkipped,
		"Places we'd skip":                                   MentionSkipped,
		"Just passing through":                               MentionPassing,
		"건너뛴 곳":                                              MentionSkipped,
		"이번에 안 간 곳":                                          MentionSkipped,
		"行かなかった場所":                                           MentionSkipped,
		"通り過ぎただけの場所":                                         MentionPassing,
		"What we did, and what we skipped":                   "",
		"Seoul with a toddler: what worked, what we skipped": "",
		"Skip-the-line tickets":                              "",
		"Must-see, even if you skip the rest":                "",
		"Gwangjang Market":                                   "",
	} {
		if got := headingIntent(heading); got != want {
			t.Errorf("headingIntent(%q) = %q, want %q", heading, got, want)
		}
	}
	// The items under such a heading take its intent unless they have a cue of their own, up
	// to the next heading of its level; the page's title gives none.
	page := Page{ContentType: "text/html", Body: []byte(`<html><head><title>Seoul: what we skipped</title></head><body><article>
<h1>What we skipped in Seoul</h1>
<p>Gwangjang Market was our first stop.</p>
<h2>What we skipped</h2>
<ul><li>Lotte World</li><li>N Seoul Tower – we loved it last time, a must-see</li></ul>
<h3>Queues</h3>
<p>Namsan Tower had a long line.</p>
<h2>Where we ate</h2>
<ul><li>Tosokchon Samgyetang</li></ul>
<h2>건너뛴 곳</h2>
<ul><li>롯데월드</li></ul>
</article></body></html>`)}
	a, err := Analyze(page)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Gwangjang Market": MentionMentioned, "Lotte World": MentionSkipped, "N Seoul Tower": MentionRecommended,
		"Namsan Tower": MentionSkipped, "Tosokchon Samgyetang": MentionMentioned, "롯데월드": MentionSkipped,
	}
	for _, c := range a.Candidates {
		if w, ok := want[c.Name]; ok {
			if c.Mention != w {
				t.Errorf("%s: %s, want %s", c.Name, c.Mention, w)
			}
			delete(want, c.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("not found: %v", want)
	}
}
