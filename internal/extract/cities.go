package extract

import (
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

// cityWords are the normalised words of every city name and Latin alias, for dropCityWords.
var cityWords = func() [][]string {
	var out [][]string
	for _, c := range cities {
		for _, n := range append([]string{c.name}, c.aliases...) {
			if w := normWords(n); !hasWide(n) && len(w) > 0 {
				out = append(out, w)
			}
		}
	}
	// Longest first, so that "new york city" wins over "new york".
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}()

// cityWordsAt is how many of words, from the first, spell a city's name (0 if none).
func cityWordsAt(words []string) int {
	for _, cw := range cityWords {
		if len(cw) <= len(words) && equalWords(cw, words[:len(cw)]) {
			return len(cw)
		}
	}
	return 0
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
	key := strings.Join(normWords(name), " ")
	for _, c := range cities {
		for _, alias := range append([]string{c.name}, c.aliases...) {
			if key == strings.Join(normWords(alias), " ") {
				return true
			}
		}
	}
	return false
}

// cityCounter weighs the mentions of cities in the parts of a page.
type cityCounter map[string]int

// add counts the cities text names, each mention weighing weight.
func (cc cityCounter) add(text string, weight int) {
	if text == "" {
		return
	}
	wide := unTokyo(text)
	words := normWords(text)
	for _, c := range cities {
		n := 0
		for _, alias := range append([]string{c.name}, c.aliases...) {
			if hasWide(alias) || !isLatin(alias) {
				n += strings.Count(wide, alias)
				continue
			}
			n += countWords(words, normWords(alias))
		}
		if n > 0 {
			cc[c.name] += n * weight
		}
	}
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
	for _, name := range cc.ranked() {
		if w := cc[name]; w >= minCityWeight && 6*w >= cc[cc.ranked()[0]] {
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
