package extract

import (
	"slices"
	"sort"
	"strings"
)

// city is a destination a page may be about: its English name (as places name their city)
// and other spellings, in Latin script or not.
type city struct {
	name    string
	aliases []string
}

// cities are the destinations Analyze recognises: those of the built-in catalog and other
// cities travellers often write about.
var cities = []city{
	{"Seoul", []string{"서울", "ソウル", "首尔"}},
	{"Busan", []string{"Pusan", "부산", "釜山"}},
	{"Jeju", []string{"Jeju Island", "Jeju-do", "제주", "済州"}},
	{"Gyeongju", []string{"Kyongju", "경주", "慶州"}},
	{"Incheon", []string{"인천", "仁川"}},
	{"Tokyo", []string{"東京", "도쿄", "とうきょう"}},
	{"Kyoto", []string{"京都", "교토", "きょうと"}},
	{"Osaka", []string{"大阪", "오사카", "おおさか"}},
	{"Nara", []string{"奈良", "나라시"}},
	{"Sapporo", []string{"札幌", "삿포로"}},
	{"Fukuoka", []string{"福岡", "후쿠오카"}},
	{"Yokohama", []string{"横浜", "요코하마"}},
	{"Okinawa", []string{"沖縄", "Naha", "那覇", "오키나와"}},
	{"Bangkok", []string{"กรุงเทพ", "방콕", "バンコク"}},
	{"Chiang Mai", []string{"เชียงใหม่", "치앙마이"}},
	{"Singapore", []string{"싱가포르", "シンガポール"}},
	{"Hong Kong", []string{"香港", "홍콩"}},
	{"Taipei", []string{"台北", "臺北", "타이베이"}},
	{"Shanghai", []string{"上海", "상하이"}},
	{"Beijing", []string{"北京", "베이징"}},
	{"Hanoi", []string{"Ha Noi", "Hà Nội", "하노이"}},
	{"Ho Chi Minh City", []string{"Saigon", "호찌민"}},
	{"Da Nang", []string{"Đà Nẵng", "다낭"}},
	{"Bali", []string{"발리"}},
	{"Paris", []string{"파리", "パリ"}},
	{"London", []string{"런던", "ロンドン"}},
	{"Rome", []string{"Roma", "로마", "ローマ"}},
	{"Florence", []string{"Firenze", "피렌체"}},
	{"Venice", []string{"Venezia", "베네치아"}},
	{"Milan", []string{"Milano", "밀라노"}},
	{"Barcelona", []string{"바르셀로나", "バルセロナ"}},
	{"Madrid", []string{"마드리드"}},
	{"Lisbon", []string{"Lisboa", "리스본"}},
	{"Amsterdam", []string{"암스테르담"}},
	{"Berlin", []string{"베를린"}},
	{"Prague", []string{"Praha", "프라하"}},
	{"Vienna", []string{"Wien", "비엔나"}},
	{"Istanbul", []string{"이스탄불"}},
	{"Dubai", []string{"두바이"}},
	{"New York", []string{"New York City", "NYC", "뉴욕", "ニューヨーク"}},
	{"Los Angeles", []string{"로스앤젤레스"}},
	{"San Francisco", []string{"샌프란시스코"}},
	{"Sydney", []string{"시드니"}},
	{"Melbourne", []string{"멜버른"}},
}

// spelling is one way of writing a city's name: in Latin script, as normalised words;
// in another script, as text to find inside other text.
type spelling struct {
	city  string
	words []string // a Latin-script spelling's words
	text  string   // another script's spelling
}

// Every city's spellings: Latin ones by their first word, longest first (so that "new york
// city" wins over "new york"), the others in a list, and all by their normalised text.
var latinSpellings, wideSpellings, cityKeys = indexSpellings()

func indexSpellings() (latin map[string][]spelling, wide []spelling, keys map[string]bool) {
	latin, keys = map[string][]spelling{}, map[string]bool{}
	for _, c := range cities {
		for _, name := range append([]string{c.name}, c.aliases...) {
			words := normWords(name)
			keys[strings.Join(words, " ")] = true
			if !isLatin(name) {
				wide = append(wide, spelling{city: c.name, text: name})
				continue
			}
			latin[words[0]] = append(latin[words[0]], spelling{city: c.name, words: words})
		}
	}
	for _, list := range latin {
		sort.SliceStable(list, func(i, j int) bool { return len(list[i].words) > len(list[j].words) })
	}
	return latin, wide, keys
}

// cityAt returns the Latin spelling of a city that words start with.
func cityAt(words []string) (spelling, bool) {
	if len(words) == 0 {
		return spelling{}, false
	}
	for _, sp := range latinSpellings[words[0]] {
		if len(sp.words) <= len(words) && equalWords(sp.words, words[:len(sp.words)]) {
			return sp, true
		}
	}
	return spelling{}, false
}

// cityWordsAt is how many of words, from the first, spell a city's name (0 if none).
func cityWordsAt(words []string) int {
	sp, _ := cityAt(words)
	return len(sp.words)
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// isCityName says whether name is a city's name or alias.
func isCityName(name string) bool {
	return cityKeys[strings.Join(normWords(name), " ")]
}

// cityCounter weighs the mentions of cities in the parts of a page.
type cityCounter map[string]int

// add counts the cities text names, each mention weighing weight.
func (cc cityCounter) add(text string, weight int) {
	if text == "" {
		return
	}
	words := normWords(text)
	for i := range words {
		if sp, ok := cityAt(words[i:]); ok {
			cc[sp.city] += weight
		}
	}
	if isLatin(text) {
		return
	}
	text = unTokyo(text)
	for _, sp := range wideSpellings {
		if n := countWide(text, sp.text); n > 0 {
			cc[sp.city] += n * weight
		}
	}
}

// cityWords may follow a city's Korean name in the same word, with or without a particle
// after them: 여행 (trip), 역 (station)… ("서울역에서"). A particle alone may too ("서울에서");
// anything else makes another word: "런던베이글" is a café, not London.
var cityWords = []string{"여행", "여행기", "시", "시내", "역", "항", "공항", "근교", "일정", "코스", "투어", "맛집", "카페"}

// cityEnding says whether tail, the Hangul right after a city's name, leaves it a city.
func cityEnding(tail string) bool {
	if tail == "" || slices.Contains(particles, tail) {
		return true
	}
	for _, w := range cityWords {
		if rest, ok := strings.CutPrefix(tail, w); ok && (rest == "" || slices.Contains(particles, rest)) {
			return true
		}
	}
	return false
}

// countWide counts the mentions of a city's name written in another script than Latin: in
// Hangul, only where it is a word of its own or ends as cityEnding allows.
func countWide(text, name string) int {
	if !isHangul(name) {
		return strings.Count(text, name)
	}
	n := 0
	for rest := text; ; {
		i := strings.Index(rest, name)
		if i < 0 {
			return n
		}
		rest = rest[i+len(name):]
		tail := rest[:len(rest)-len(strings.TrimLeftFunc(rest, isHangulRune))]
		if cityEnding(tail) {
			n++
		}
	}
}

func isHangulRune(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

func isHangul(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !isHangulRune(r) }) < 0
}

// ranked returns the cities mentioned, most weighty first.
func (cc cityCounter) ranked() []string {
	out := make([]string, 0, len(cc))
	for name := range cc {
		out = append(out, name)
	}
	sort.Slice(out, func(i, j int) bool {
		if cc[out[i]] != cc[out[j]] {
			return cc[out[i]] > cc[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// minCityWeight is the least weight that makes a city one the page is about: a mention in
// the title, an address, or a few in the text. A city also needs a sixth of the weight of
// the most mentioned one.
const minCityWeight = 3

// significant returns the cities the page is about, the weightiest first.
func (cc cityCounter) significant() []string {
	var out []string
	ranked := cc.ranked()
	for _, name := range ranked {
		if w := cc[name]; w >= minCityWeight && 6*w >= cc[ranked[0]] {
			out = append(out, name)
		}
	}
	return out
}

// countWords counts the occurrences of the word sequence sub in words.
func countWords(words, sub []string) int {
	n := 0
	for i := 0; i+len(sub) <= len(words); i++ {
		if equalWords(sub, words[i:i+len(sub)]) {
			n++
		}
	}
	return n
}

// unTokyo writes "東京都" (Tokyo Metropolis) as "東京", so that it does not read as holding
// "京都" (Kyoto).
func unTokyo(text string) string { return strings.ReplaceAll(text, "東京都", "東京") }

// isLatin says whether s is written in Latin script (with digits and punctuation).
func isLatin(s string) bool {
	for _, r := range s {
		if r > 0x24F {
			return false
		}
	}
	return true
}

// inCity says whether a place with this city and these addresses is in the city called
// name (by that name or one of its aliases).
func inCity(name, placeCity, address, localAddress string) bool {
	spellings := []string{name}
	for _, c := range cities {
		if c.name == name {
			spellings = append(spellings, c.aliases...)
		}
	}
	for _, s := range spellings {
		if strings.EqualFold(placeCity, s) || containsName(address, s) || containsName(localAddress, s) {
			return true
		}
	}
	return false
}

// containsName says whether text mentions name: as words in Latin script, as a substring in
// others.
func containsName(text, name string) bool {
	if text == "" || name == "" {
		return false
	}
	if !isLatin(name) {
		return strings.Contains(unTokyo(text), name)
	}
	return countWords(normWords(text), normWords(name)) > 0
}
