package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Place names are compared in a normalised form: accents folded, lower case, "&" read as
// "and", apostrophes dropped ("Regent's" = "Regents"), other punctuation as spaces and a
// leading "the" dropped. Two names are the same place name when their compact forms (no
// spaces: "Kinkakuji" = "Kinkaku-ji") are equal, or when their cores are: the words left once
// generic words ("Palace", "Temple", "Market"…) and city names are set aside
// ("Gyeongbokgung" = "Gyeongbokgung Palace", "Lotte Hotel" = "Lotte Hotel Seoul"), provided
// the core keeps a distinctive word (so "Seoul Station" is not "Tokyo Station"); or, for
// names read from the page's structure, when one word is misspelt by a letter.

// form is a name in its normalised forms.
type form struct {
	words   []string // normalised words
	compact string   // the words joined without spaces
	core    string   // the words that are neither generic nor a city's, joined
	strong  bool     // the core holds a distinctive word
	area    bool     // the name is a street's, a road's or a district's (see isAreaName)
}

// newForm normalises a name.
func newForm(name string) form {
	words := normWords(name)
	f := form{words: words, compact: strings.Join(words, ""), area: isAreaName(name, words)}
	var core []string
	for i, w := range dropCityWords(words) {
		if genericWords[w] || i > 0 && isBranchWord(w) {
			continue
		}
		core = append(core, w)
		if distinctive(w) {
			f.strong = true
		}
	}
	f.core = strings.Join(core, "")
	return f
}

// normWords splits a name into normalised words.
func normWords(s string) []string {
	var b strings.Builder
	for _, r := range s {
		if r >= '！' && r <= '～' { // full-width ASCII
			r = r - '！' + '!'
		}
		switch {
		case r == '&':
			b.WriteString(" and ")
		case r == '\'' || r == '’' || r == '‘' || r == '`' || r == '´':
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if f, ok := folds[unicode.ToLower(r)]; ok {
				b.WriteString(f)
			} else if !unicode.Is(unicode.Mn, r) {
				b.WriteRune(unicode.ToLower(r))
			}
		default:
			b.WriteByte(' ')
		}
	}
	words := strings.Fields(b.String())
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	return words
}

// folds maps accented letters to their plain spelling.
var folds = func() map[rune]string {
	m := map[rune]string{'æ': "ae", 'œ': "oe", 'ß': "ss", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i"}
	for plain, accented := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥ", "i": "ìíîïĩīĭį",
		"j": "ĵ", "k": "ķ", "l": "ĺļľŀ", "n": "ñńņňŉ", "o": "òóôõöōŏő", "r": "ŕŗř",
		"s": "śŝşšș", "t": "ţťț", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range accented {
			m[r] = plain
		}
	}
	return m
}()

// distinctive says whether a core word can tell a place apart: not a word that names a kind
// of place or a common qualifier, and long enough (two characters of a CJK script).
func distinctive(w string) bool {
	if typeWords[w] || connectors[w] {
		return false
	}
	n := 0
	for _, r := range w {
		if r > unicode.MaxLatin1 && !unicode.In(r, unicode.Latin) {
			n++ // one CJK or Hangul character weighs as much as a short word
		}
		n++
	}
	return n >= 3 && !isNumber(w)
}

func isNumber(w string) bool {
	return strings.TrimFunc(w, unicode.IsDigit) == ""
}

// genericWords may be added to or left out of a place's name without making it another
// place: kinds of place that are part of the name ("Gyeongbokgung Palace"), qualifiers
// ("Main Store") and articles.
var genericWords = setOf(
	"the", "of", "and", "a", "an", "de", "du", "des", "la", "le", "les", "di", "del", "della", "dei", "d", "l",
	"palace", "temple", "shrine", "castle", "cathedral", "church", "basilica", "chapel", "abbey",
	"museum", "gallery", "park", "garden", "gardens", "market", "tower", "bridge", "beach", "island",
	"mountain", "mount", "mt", "waterfall", "falls", "lake", "pond", "village", "gate", "square", "plaza",
	"grotto", "cave", "observatory", "restaurant", "cafe", "bakery", "bar", "pub", "main", "branch",
	"honten", "flagship", "original", "traditional", "famous", "historic", "old", "jinja", "taisha",
	"musee", "museo", "museu", "jardin", "jardins", "parc", "eglise", "basilique", "cathedrale", "marche",
	"mercat", "mercado", "mercato", "chiesa", "basilica", "palazzo", "castello",
	"본점", "本店", "본관", "카페", "カフェ",
)

// isBranchWord says whether a word after a name's first names a chain's branch in Korean or
// Japanese ("런던베이글뮤지엄 안국점", "ユニクロ 銀座店"), which may be left out like "Main Store".
func isBranchWord(w string) bool {
	return hasWide(w) && utf8.RuneCountInString(w) >= 2 && (strings.HasSuffix(w, "점") || strings.HasSuffix(w, "店"))
}

// typeWords name a kind of place (or qualify one) without telling which: a core of these
// alone ("Station", "National Museum") is no evidence.
var typeWords = setOf(
	"station", "street", "hotel", "hotels", "mall", "center", "centre", "hall", "theater", "theatre",
	"stadium", "airport", "district", "road", "avenue", "building", "department", "store", "shop",
	"shopping", "international", "national", "city", "art", "arts", "modern", "contemporary", "history",
	"science", "food", "coffee", "tea", "house", "world", "grand", "new", "royal", "central", "great",
	"best", "top", "little", "big", "north", "south", "east", "west", "korea", "japan", "france",
	"italy", "spain", "thailand", "england", "america", "american", "korean", "japanese", "french",
	"italian", "spanish", "thai", "british", "english", "local", "night", "day", "walk", "tour",
	"sky", "bay", "river", "hill", "hills", "forest", "line", "terminal", "port", "resort", "spa",
	"club", "inn", "ryokan", "guide", "travel", "trip",
)

// connectors join words inside a place name ("Temple of the Emerald Buddha", "Felice a
// Testaccio").
var connectors = setOf("of", "the", "and", "de", "du", "des", "la", "le", "les", "di", "del", "della",
	"dei", "degli", "d", "l", "y", "i", "e", "et", "al", "da", "van", "von", "on", "en", "sur", "am", "im",
	"a", "à", "alla", "dal", "dalla", "sul", "sulla")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// dropCityWords removes city names ("seoul", "new york") from normalised words.
func dropCityWords(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		if n := cityWordsAt(words[i:]); n > 0 {
			i += n - 1
			continue
		}
		out = append(out, words[i])
	}
	return out
}

// match scores how well a name found on a page (q) names a place called n: 1 for the same
// name, 0.85–0.9 for the same core (the more words in common the better: "Lotte World Tower
// observatory" is the tower rather than the theme park), 0.8 for a typo (not for guesses),
// 0 otherwise. A one-word guess
// from running Latin-script text must not leave out words of the place's name other than
// its city ("Asakusa" is not "Asakusa Shrine", but "Notre-Dame" is "Notre-Dame Cathedral"
// and "Chinatown" is "Bangkok Chinatown").
func match(q, n form, guess bool) float64 {
	switch {
	case q.compact == "" || n.compact == "":
		return 0
	case q.compact == n.compact:
		return 1
	case q.area, shortCore(q):
		return 0 // a street, district or short name names only what is called just that
	case q.strong && n.strong && q.core == n.core:
		if guess && len(q.words) < 2 && isLatin(q.compact) && len(q.words) < len(dropCityWords(n.words)) {
			return 0
		}
		return 0.85 + 0.05*overlap(q.words, n.words)
	case !guess && q.strong && n.strong && typo(q.words, n.words):
		return 0.8
	}
	return 0
}

// mixedMatch scores a name written half in Latin script, half in a local one, the way a
// Japanese or Korean writer names a chain's branch: the brand as the chain writes it, then
// the branch in the local script ("ONIBUS COFFEE 中目黒", "Blue Bottle Coffee 清澄白河"). It is
// the place's when one of the place's names starts with the brand, with a distinctive word,
// and a local-script name gives the branch after its own brand ("オニバスコーヒー 中目黒"):
// 0.85, else 0.
func mixedMatch(q form, names []string) float64 {
	latin := 0
	for latin < len(q.words) && isLatin(q.words[latin]) {
		latin++
	}
	brand, branch := q.words[:latin], strings.Join(q.words[latin:], "")
	if latin == 0 || branch == "" || !slices.ContainsFunc(brand, distinctive) || !hasWide(branch) ||
		slices.ContainsFunc(q.words[latin:], isLatin) {
		return 0
	}
	var brandOK, branchOK bool
	for _, n := range names {
		w := normWords(n)
		if len(w) > latin && slices.Equal(w[:latin], brand) {
			brandOK = true
		}
		if len(w) >= 2 && hasWide(w[0]) && strings.HasPrefix(strings.Join(w[1:], ""), branch) {
			branchOK = true
		}
	}
	if brandOK && branchOK {
		return 0.85
	}
	return 0
}

// shortCore says whether a name's core is too short to tell a place apart without its
// generic words: under five letters, or two characters of a CJK script.
func shortCore(f form) bool {
	n := 0
	for _, r := range f.core {
		if r > unicode.MaxLatin1 && !unicode.In(r, unicode.Latin) {
			n += 2
		} else {
			n++
		}
	}
	return n < 5
}

// areaWords end (or, for streets in Romance languages, start) the names of streets, roads
// and districts, which are never a landmark's: Korean romanised suffixes written apart
// ("Jongno-gu", "Sejong-daero", "Changgyeonggung-ro", "Samcheong-dong"), Japanese ones,
// and street words.
var (
	areaLast = setOf("gu", "dong", "ro", "gil", "daero", "ri", "eup", "myeon", "ga", "ku", "cho", "chome",
		"street", "st", "road", "rd", "avenue", "ave", "boulevard", "blvd", "lane", "drive", "district",
		"quarter", "arrondissement", "neighborhood", "neighbourhood", "ward")
	areaFirst = setOf("rue", "avenue", "boulevard", "bd", "quai", "via", "viale", "calle", "carrer", "rua", "strada")
	// areaNames are districts often written about under their bare name.
	areaNames = setOf("le marais", "marais", "latin quarter", "quartier latin", "st germain", "saint germain")
)

// areaSuffixes end Korean and Japanese names of roads and districts ("창경궁로", "세종대로",
// "종로구", "삼청동", "銀座四丁目").
var areaSuffixes = []string{"대로", "로", "길", "구", "동", "읍", "면", "丁目", "通り", "区"}

// isAreaName says whether a name (with its normalised words) is a street's, a road's or a
// district's: it matches a place only when the place is called exactly that ("Le Marais",
// "Hwangnidan-gil"), never a landmark that shares a word with it ("창경궁로" is a road, not
// Changgyeonggung Palace).
func isAreaName(name string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	if areaNames[strings.Join(words, " ")] || len(words) > 1 && (areaLast[words[len(words)-1]] || areaFirst[words[0]]) {
		return true
	}
	last := strings.TrimSpace(name)
	if i := strings.LastIndexByte(last, ' '); i >= 0 {
		last = last[i+1:]
	}
	if !hasWide(last) || utf8.RuneCountInString(last) < 3 {
		return false
	}
	for _, s := range areaSuffixes {
		if strings.HasSuffix(last, s) {
			return true
		}
	}
	return false
}

// overlap is the Jaccard similarity of two sets of words.
func overlap(a, b []string) float64 {
	in := setOf(a...)
	shared := 0
	for w := range setOf(b...) {
		if in[w] {
			shared++
		}
	}
	return float64(shared) / float64(len(in)+len(setOf(b...))-shared)
}

// typo says whether two names are the same words but one, which differs by at most one
// letter in five ("Gwangjang Markt", "Myeongdong Kyoza").
func typo(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	differ := -1
	for i := range a {
		if a[i] != b[i] {
			if differ >= 0 {
				return false
			}
			differ = i
		}
	}
	if differ < 0 {
		return false
	}
	d := editDistance([]rune(a[differ]), []rune(b[differ]))
	return d <= min(len([]rune(a[differ])), len([]rune(b[differ])))/5
}

// editDistance is the Levenshtein distance between two words.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := range a {
		cur := make([]int, len(b)+1)
		cur[0] = i + 1
		for j := range b {
			cost := 1
			if a[i] == b[j] {
				cost = 0
			}
			cur[j+1] = min(prev[j+1]+1, cur[j]+1, prev[j]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// hasWide says whether s holds CJK or Hangul characters.
func hasWide(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana) {
			return true
		}
	}
	return false
}
