package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits that keep one page's work bounded: a candidate name is at most maxNameRunes long,
// a page yields at most maxCandidates candidates, of which at most maxGuesses are guesses
// from running text, and the mentions of at most maxReadings names found are read, of one
// name at most maxNameReadings times (a name found again is read again: its strongest mention
// wins); names found after that are MENTIONED.
const (
	maxNameRunes    = 80
	maxCandidates   = 600
	maxGuesses      = 400
	maxReadings     = 2 * maxCandidates
	maxNameReadings = 8
)

// collector gathers a page's candidates in page order, merging repeats of a name (compared
// case-insensitively, accents folded): a repeat fills in the address and coordinates the
// first mention lacked, and a structural mention makes a guess firm.
type collector struct {
	list    []Candidate
	index   map[string]int
	guesses int
	context string   // the sentence or line being read, for the mentions found in it
	split   []string // its sentences, once asked for
	// readings counts the mentions read, of all names and by name key (see maxReadings).
	readings int
	byName   map[string]int
	// section is the intent of the section being read, from its heading ("What we skipped":
	// SKIPPED), given to the names in it that have no cue of their own; sectionLevel is the
	// heading's level, which a heading of the same or a higher level ends.
	section      string
	sectionLevel int
}

func newCollector() *collector { return &collector{index: map[string]int{}, byName: map[string]int{}} }

// add adds a candidate, unless its name is empty, too long or a non-place heading.
func (c *collector) add(cand Candidate) {
	cand.Name = trimName(cand.Name)
	if cand.Name == "" || utf8.RuneCountInString(cand.Name) > maxNameRunes {
		return
	}
	key := strings.Join(normWords(cand.Name), " ")
	if cand.Mention == "" && c.readings < maxReadings && c.byName[key] < maxNameReadings {
		c.readings++
		c.byName[key]++
		sentence, at := c.sentenceWith(cand.Name)
		sentence, at = nearName(sentence, at, len(cand.Name))
		cand.Mention, cand.Quote = mentionOf(sentence, cand.Name, at), quoteOf(sentence, at, len(cand.Name))
		if cand.Mention == MentionMentioned && c.section != "" {
			cand.Mention = c.section
		}
	}
	if cand.Mention == "" {
		cand.Mention = MentionMentioned
	}
	if i, ok := c.index[key]; ok {
		c.merge(i, cand)
		return
	}
	if c.full(cand.Guess) || key == "" || isStopName(cand.Name) {
		return
	}
	if cand.Guess {
		c.guesses++
	}
	c.index[key] = len(c.list)
	c.list = append(c.list, cand)
}

// full says whether the collector takes no more candidates (of guesses, when guess).
func (c *collector) full(guess bool) bool {
	return len(c.list) >= maxCandidates || guess && c.guesses >= maxGuesses
}

func (c *collector) merge(i int, cand Candidate) {
	old := &c.list[i]
	old.Guess = old.Guess && cand.Guess
	if strongerMention(old.Mention, cand.Mention) || old.Quote == "" && old.Mention == cand.Mention {
		old.Mention, old.Quote = cand.Mention, cand.Quote
	}
	if old.Address == "" {
		old.Address = cand.Address
	}
	if old.Latitude == "" && cand.Latitude != "" {
		old.Latitude, old.Longitude = cand.Latitude, cand.Longitude
	}
}

// outline adds the names in a short piece of page structure (a title, heading, list item,
// numbered line, bold text or video description line): the piece itself when it is short
// enough to be a name, its parts around separators ("1. Gwangjang Market — bindaetteok",
// "Gyeongbokgung and Bukchon"), and the guesses in it.
func (c *collector) outline(text string) {
	defer c.read("")
	for _, line := range strings.Split(text, "\n") {
		c.read(line)
		line = cleanLine(withoutAddress(line))
		for _, piece := range pieces(line) {
			if isShort(piece) {
				c.add(Candidate{Name: piece})
			}
		}
		c.guess(line)
	}
}

// heading adds the names of a heading of the given level (1 to 6, 0 when unknown) and starts
// its section: one headed only by a skip or pass cue ("What we skipped", "건너뛴 곳", "通り過ぎた
// だけ", see headingIntent) gives its intent to the names under it without a cue of their own,
// up to the next heading of the same or a higher level. A page's title (level 1) heads the
// whole page and gives none.
func (c *collector) heading(text string, level int) {
	if c.sectionLevel > 0 && level > 0 && level <= c.sectionLevel {
		c.section, c.sectionLevel = "", 0
	}
	c.outline(text)
	if m := headingIntent(text); m != "" && level >= 2 {
		c.section, c.sectionLevel = m, level
	}
}

// endSection ends the section being read, at the end of a page's body.
func (c *collector) endSection() { c.section, c.sectionLevel = "", 0 }

// prose adds the names in running text: numbered and bulleted lines as outline, guesses in
// the rest.
func (c *collector) prose(text string) {
	defer c.read("")
	for _, line := range strings.Split(text, "\n") {
		if listLine.MatchString(line) {
			c.outline(line)
			continue
		}
		for _, s := range sentences(line) {
			c.read(s)
			c.guess(withoutAddress(s))
		}
	}
}

// read sets the sentence or line the names added next are found in ("" for none).
func (c *collector) read(context string) { c.context, c.split = context, nil }

// withoutAddress cuts a line or sentence at the postal address it gives (see addressLine),
// so that no street, district or block of the address is read as a place: "📍 Senso-ji –
// 2-3-1 Asakusa" is read as "📍 Senso-ji –", "주소: 서울 종로구 창경궁로 185" not at all.
func withoutAddress(s string) string {
	if i := addressStart(s); i >= 0 {
		return s[:i]
	}
	return s
}

// sentenceWith returns the sentence being read that names name, and the byte offset of the
// name in it (-1 when no sentence names it as written: then the first sentence).
func (c *collector) sentenceWith(name string) (string, int) {
	if c.split == nil {
		c.split = sentences(c.context)
	}
	all := c.split
	for _, s := range all {
		if at := indexFold(s, name); at >= 0 {
			return s, at
		}
	}
	if len(all) == 0 {
		return "", -1
	}
	return all[0], -1
}

// indexFold is the byte offset of name in text, case aside, or -1.
func indexFold(text, name string) int {
	if text == "" {
		return -1
	}
	if i := strings.Index(text, name); i >= 0 {
		return i
	}
	if lt := strings.ToLower(text); len(lt) == len(text) {
		return strings.Index(lt, strings.ToLower(name))
	}
	return -1
}

// listLine matches a numbered or bulleted line: "1. Gwangjang Market", "2) …", "#3 …",
// "① …", "(4) …", "- …", "• …", "📍…", "0:45 …" (a video chapter).
var listLine = regexp.MustCompile(`^\s*(?:#\d{1,3}\s|(?:#|No\.?\s*)?\d{1,3}\s*(?:[.)\]:：．、]|\s[-–—]\s)|\(\d{1,3}\)|[①-⑳❶-❿➀-➉]|[-*•·▪▶►✔✓★☆→]\s|📍|\d{1,2}:\d{2}(?::\d{2})?\s)`)

// numbering matches what precedes the name on a list line.
var numbering = regexp.MustCompile(`^\s*(?:\d{1,2}:\d{2}(?::\d{2})?\s*[-–—]?\s*|#\d{1,3}\s*[.):]?\s+|(?:#|No\.?\s*)?\d{1,3}\s*(?:[.)\]:：．、]|\s[-–—]\s)\s*|\(\d{1,3}\)\s*|[①-⑳❶-❿➀-➉]\s*)`)

// cleanLine removes a line's numbering and leading and trailing symbols, and collapses its
// spaces.
func cleanLine(line string) string {
	line = numbering.ReplaceAllString(strings.Join(strings.Fields(line), " "), "")
	line = numbering.ReplaceAllString(trimSymbols(line), "") // after a bullet: "• 1. …"
	return trimSymbols(line)
}

// trimSymbols removes what is neither a letter nor a digit from both ends of s, but for an
// opening bracket at the start ("(4) …") and a closing bracket, full stop or apostrophe at
// the end ("Yaowarat (Chinatown)", "Charles H.").
func trimSymbols(s string) string {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '(' && r != '（' })
	return strings.TrimRightFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ')' && r != '）' && r != '.' && r != '\''
	})
}

// trimName tidies a candidate name: spaces collapsed, symbols off both ends, a trailing
// full stop dropped unless it ends an abbreviation ("Charles H.").
func trimName(s string) string {
	s = trimSymbols(strings.Join(strings.Fields(s), " "))
	if strings.HasSuffix(s, ".") {
		last := s[strings.LastIndexAny(s, " ")+1:]
		if utf8.RuneCountInString(last) > 2 {
			s = strings.TrimSuffix(s, ".")
		}
	}
	return strings.TrimSpace(s)
}

// primarySeparators split a line into parts that may each be a name; secondarySeparators
// split a part further, the part itself being kept too ("Victoria and Albert Museum").
var (
	primarySeparators   = regexp.MustCompile(`\s[-–—|/]\s|[|｜:：()（）\[\]【】「」『』《》<>“”"!?！？]|\s[·•»«]\s`)
	secondarySeparators = regexp.MustCompile(`,\s|、|，|・|\s(?:and|&|to|at|in|from|with|for|near|or|vs\.?|then|via|on)\s|→|⇒|~|〜|\s\+\s`)
)

// fillers are words a part may start with that are not part of a name ("at Gwangjang
// Market").
var fillers = setOf("at", "in", "and", "or", "to", "from", "with", "for", "near", "on", "by", "then", "&", "via")

// pieces returns a line, its parts and their parts, in order and without repeats.
func pieces(line string) []string {
	out := []string{line}
	seen := map[string]bool{line: true}
	keep := func(s string) {
		s = trimName(s)
		for {
			first, rest, ok := strings.Cut(s, " ")
			if !ok || !fillers[strings.ToLower(first)] {
				break
			}
			s = rest
		}
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, part := range primarySeparators.Split(line, -1) {
		keep(part)
		if subs := secondarySeparators.Split(part, -1); len(subs) > 1 {
			for _, s := range subs {
				keep(s)
			}
		}
	}
	return out
}

// isShort says whether text is short enough to be a place's name: six words and 60
// characters at most, or 25 characters of a script written without spaces.
func isShort(text string) bool {
	n := utf8.RuneCountInString(text)
	if hasWide(text) && !strings.Contains(text, " ") {
		return n <= 25
	}
	return n <= 60 && len(strings.Fields(text)) <= 6
}

// isStopName says whether a name is plainly not a place: common words only, or a heading
// such as "Introduction", "How to get there" or "Related posts".
func isStopName(name string) bool {
	words := normWords(name)
	if len(words) == 0 {
		return true
	}
	joined := strings.Join(words, " ")
	if isCityName(name) || stopHeadings[joined] || stopHeadings[strings.ReplaceAll(name, " ", "")] || stopPrefix.MatchString(joined) {
		return true
	}
	for _, w := range words {
		if !commonWords[w] && !isNumber(w) && !connectors[w] {
			return false
		}
	}
	return true
}

// stopPrefix matches headings that introduce a topic rather than name a place.
var stopPrefix = regexp.MustCompile(`^(?:day|part|step|stop|chapter|week|tip|option|bonus|how|where|what|when|why|which|who|getting|things|reasons|ways|my|our|your|a|an)\s` +
	`|^(?:top|best)\s\d|^\d+\s(?:things|places|best|must|reasons|ways|days|hours|tips|spots)\b`)

// stopHeadings are headings (normalised, or CJK without spaces) that are never a place.
var stopHeadings = setOf(
	"introduction", "intro", "conclusion", "conclusions", "tips", "tip", "summary", "overview",
	"contents", "table of contents", "final thoughts", "final words", "faq", "faqs",
	"frequently asked questions", "map", "maps", "itinerary", "budget", "costs", "prices", "price",
	"about", "about me", "about us", "about the author", "share", "share this", "share this post",
	"comments", "comment", "leave a reply", "leave a comment", "related posts", "related articles",
	"related", "you may also like", "recent posts", "popular posts", "more stories", "read more",
	"read next", "search", "menu", "home", "navigation", "categories", "tags", "archives",
	"subscribe", "newsletter", "opening hours", "hours", "address", "location", "directions",
	"verdict", "the verdict", "final verdict", "disclaimer", "before you go", "practical information",
	"good to know", "useful information", "transport", "transportation", "accommodation", "food",
	"shopping", "nightlife", "sightseeing", "day trips", "info", "information", "details",
	"description", "chapters", "timestamps", "credits", "music", "contact", "privacy policy",
	"places", "gear", "camera", "equipment", "sponsors", "follow me", "outro", "ingredients",
	"instructions", "method", "storage", "nutrition", "notes",
	"소개", "들어가며", "마무리", "마치며", "결론", "팁", "꿀팁", "가는법", "가는방법", "위치", "주소",
	"영업시간", "목차", "댓글", "관련글", "지도", "정보", "기본정보", "총평", "후기", "메뉴", "가격",
	"はじめに", "まとめ", "おわりに", "アクセス", "目次", "関連記事", "コメント", "地図", "住所",
	"営業時間", "基本情報", "料金", "メニュー", "感想",
)

// commonWords are words that alone are not a place's name (many are capitalised only at the
// start of a sentence).
var commonWords = setOf(
	"a", "an", "the", "and", "or", "but", "so", "if", "then", "than", "because", "as", "at", "by",
	"for", "from", "in", "into", "of", "on", "onto", "to", "with", "without", "near", "around",
	"inside", "outside", "behind", "across", "after", "before", "during", "while", "until", "since",
	"i", "me", "my", "we", "us", "our", "you", "your", "he", "she", "it", "its", "they", "them",
	"their", "this", "that", "these", "those", "there", "here", "what", "which", "who", "whom",
	"whose", "where", "when", "why", "how", "all", "any", "both", "each", "every", "few", "many",
	"more", "most", "other", "another", "some", "such", "no", "not", "only", "own", "same", "too",
	"very", "just", "also", "even", "still", "yet", "again", "once", "first", "second", "third",
	"last", "next", "finally", "later", "now", "today", "tonight", "tomorrow", "yesterday",
	"morning", "afternoon", "evening", "night", "day", "days", "week", "weekend", "year", "time",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
	"february", "march", "april", "may", "june", "july", "august", "september", "october",
	"november", "december", "spring", "summer", "autumn", "fall", "winter", "is", "are", "was",
	"were", "be", "been", "do", "does", "did", "don", "t", "s", "go", "went", "get", "got", "take",
	"took", "try", "tried", "visit", "visited", "see", "saw", "eat", "ate", "walk", "walked", "book",
	"make", "made", "let", "lets", "head", "stop", "start", "yes", "ok", "okay", "wow", "note",
	"update", "edit", "photo", "photos", "video", "videos", "tip", "tips", "best", "top", "great",
	"good", "nice", "famous", "popular", "local", "hidden", "new", "old", "must", "should", "can",
	"could", "would", "will", "one", "two", "three", "four", "five", "six", "seven", "eight",
	"nine", "ten", "hi", "hello", "thanks", "thank", "please", "welcome", "subscribe", "like",
	"follow", "click", "link", "links", "below", "above", "read", "more", "via", "per", "am", "pm",
	"korean", "japanese", "french", "italian", "spanish", "thai", "english", "british", "american",
	"korea", "japan", "france", "italy", "spain", "thailand", "england", "europe", "asia", "usa",
	"uk", "food", "coffee", "lunch", "dinner", "breakfast", "brunch", "dessert", "drinks", "menu",
	"price", "prices", "won", "yen", "euro", "euros", "dollars", "instagram", "youtube", "tiktok",
	"facebook", "twitter", "google", "maps", "map", "blog", "post", "posts", "travel", "trip",
	"guide", "itinerary", "vlog", "part", "episode", "chapter", "intro", "outro", "exit", "line",
	"bus", "subway", "metro", "train", "taxi", "walk", "minutes", "min", "hour", "hours", "skip", "avoid",
	"forget", "ignore", "don't", "don’t", "dont",
)

// guess adds the name-like phrases of running text as guesses: runs of capitalised words,
// Korean words and Japanese kanji and katakana runs, and hashtags.
func (c *collector) guess(text string) {
	if c.full(true) {
		return
	}
	for _, g := range capitalRuns(text) {
		c.add(Candidate{Name: g, Guess: true})
	}
	for _, g := range hangulWords(text) {
		c.add(Candidate{Name: g, Guess: true})
	}
	for _, g := range japaneseRuns(text) {
		c.add(Candidate{Name: g, Guess: true})
	}
	for _, m := range hashtag.FindAllStringSubmatch(text, -1) {
		c.add(Candidate{Name: m[1], Guess: true})
	}
}

var hashtag = regexp.MustCompile(`#([\pL\pN_]{3,})`)

// abbreviations end with a full stop without ending the sentence.
var abbreviations = setOf("st.", "mt.", "dr.", "ste.", "no.", "jr.", "mr.", "mrs.", "ft.")

// capitalRuns returns the runs of capitalised words in Latin-script text ("Gwangjang
// Market", "Temple of the Emerald Buddha", "63 Square"), and for a run with connecting words
// its parts too ("Tour of Gyeongbokgung" → "Gyeongbokgung"). Leading common words are left
// out ("Then Tosokchon Samgyetang" → "Tosokchon Samgyetang", "Skip Oxford Street" → "Oxford
// Street"); a run naming a transit line ("the Ginza line") is no name; a run followed by a
// kind of place in lower case is guessed with it too ("the COEX mall" → "COEX mall", "COEX").
func capitalRuns(text string) []string {
	var out, run []string
	end := func() {
		out = append(out, finishRun(run)...)
		run = run[:0]
	}
	fields := strings.Fields(text)
	for i, raw := range fields {
		word := strings.TrimLeftFunc(raw, isOpening)
		if word != raw {
			end()
		}
		word, closed := trimClosing(word)
		switch {
		case word == "":
		case word == "I" || strings.HasPrefix(word, "I'") || strings.HasPrefix(word, "I’"):
			end()
		case isCapitalised(word):
			run = append(run, word)
		case len(run) > 0 && isConnector(word) && !closed && capitalisedAfterConnectors(fields[i+1:]):
			run = append(run, word)
		case isNumber(strings.ReplaceAll(word, "/", "")) && !closed && i+1 < len(fields) &&
			isCapitalised(strings.TrimLeftFunc(fields[i+1], isOpening)):
			run = append(run, word) // "63 Square", "9/11 Memorial"
		case len(run) > 0 && isNumber(word):
			run = append(run, word) // "Seoullo 7017"
		case len(run) > 0 && (word == "line" || word == "lines"):
			run = run[:0] // a transit line ("the Ginza line"), not the place it is named after
		case len(run) > 0 && kindWords[word]:
			out = append(out, strings.Join(append(run[:len(run):len(run)], word), " ")) // "the COEX mall"
			end()
		default:
			end()
		}
		if closed {
			end()
		}
	}
	end()
	return out
}

// kindWords are kinds of place a writer may put in lower case after a name ("the COEX mall",
// "the Gwangjang market"): the name with it is guessed too.
var kindWords = setOf("mall", "market", "museum", "park", "palace", "temple", "shrine", "tower", "bridge",
	"garden", "gardens", "beach", "square", "cathedral", "church", "castle", "lake", "village", "station")

func isConnector(word string) bool { return word == "&" || connectors[strings.ToLower(word)] }

// capitalisedAfterConnectors says whether the first word of fields that is not a connector
// (looking at three words at most) is capitalised, with no punctuation before it ("Du Pain
// et des Idées").
func capitalisedAfterConnectors(fields []string) bool {
	for _, f := range fields[:min(3, len(fields))] {
		if strings.TrimLeftFunc(f, isOpening) != f {
			return false
		}
		word, closed := trimClosing(f)
		if !isConnector(word) {
			return isCapitalised(word)
		}
		if closed {
			return false
		}
	}
	return false
}

func isOpening(r rune) bool { return strings.ContainsRune(`("“‘'[{<«`, r) }

// trimClosing removes closing punctuation from a word and says whether it ended a phrase.
func trimClosing(word string) (string, bool) {
	if abbreviations[strings.ToLower(word)] {
		return word, false
	}
	trimmed := strings.TrimRightFunc(word, func(r rune) bool { return strings.ContainsRune(`.,;:!?)"”’]}>»…`, r) })
	return trimmed, trimmed != word
}

// isCapitalised says whether a word starts with a capital letter (after "d'" or "l'"), or is
// written with capitals inside ("teamLab", "SHIBUYA109").
func isCapitalised(word string) bool {
	for _, p := range []string{"d'", "l'", "d’", "l’"} {
		word = strings.TrimPrefix(word, p)
	}
	first, _ := utf8.DecodeRuneInString(word)
	if unicode.IsUpper(first) {
		return true
	}
	if !unicode.IsLetter(first) || !isLatin(word) {
		return false
	}
	return strings.IndexFunc(word, unicode.IsUpper) > 0
}

// finishRun turns a run of words into guesses: the run without leading common words and
// trailing connectors (a leading article such as "Le" or "Les" stays), and its parts around
// connectors.
func finishRun(run []string) []string {
	for len(run) > 0 && commonWords[strings.ToLower(run[0])] {
		run = run[1:]
	}
	for len(run) > 0 && isConnector(run[len(run)-1]) {
		run = run[:len(run)-1]
	}
	if len(run) == 0 {
		return nil
	}
	out := []string{strings.Join(run, " ")}
	last := run[len(run)-1]
	if bare := strings.TrimSuffix(strings.TrimSuffix(last, "'s"), "’s"); bare != last && bare != "" {
		out = append(out, strings.Join(append(run[:len(run)-1:len(run)-1], bare), " ")) // "Gwangjang Market's"
	}
	var part []string
	for _, w := range run {
		if isConnector(w) {
			if len(part) > 0 && len(part) < len(run) {
				out = append(out, strings.Join(part, " "))
			}
			part = nil
			continue
		}
		part = append(part, w)
	}
	if len(part) > 0 && len(part) < len(run) {
		out = append(out, strings.Join(part, " "))
	}
	return out
}

// particles are Korean postpositions that attach to the end of a word ("광장시장에서").
var particles = []string{"에서는", "에서도", "에서의", "으로는", "까지는", "에서", "으로", "에게", "까지",
	"부터", "처럼", "보다", "이랑", "하고", "에는", "에도", "와는", "과는", "은", "는", "이", "가", "을", "를",
	"의", "에", "로", "와", "과", "도", "만", "랑"}

// ambiguousParticles may also be a name's last syllable ("우도", Udo Island): a word ending
// with one is kept as written too.
var ambiguousParticles = setOf("도", "로", "이", "가", "과", "와", "만", "랑")

// hangulWords returns the words of Korean text holding at least two Hangul syllables,
// without their particle ("광장시장에서" → "광장시장"), and as written when the particle may be
// part of the name.
func hangulWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if countIn(w, unicode.Hangul) < 2 || hasVerbEnding(w) {
			continue
		}
		stem := w
		for _, p := range particles {
			if s := strings.TrimSuffix(w, p); s != w && particleFits(s, p) {
				stem = s
				break
			}
		}
		if utf8.RuneCountInString(stem) < 2 || stem == w {
			out = append(out, w)
			continue
		}
		out = append(out, stem)
		if ambiguousParticles[strings.TrimPrefix(w, stem)] {
			out = append(out, w)
		}
	}
	return out
}

// afterConsonant and afterVowel are the forms of particles that follow a syllable with and
// without a final consonant ("창경궁은", "우도는"); 로 also follows a final ㄹ ("서울로").
var (
	afterConsonant = setOf("은", "이", "을", "과", "이랑", "으로", "으로는")
	afterVowel     = setOf("는", "가", "를", "와", "랑", "로")
)

// particleFits says whether particle p can follow stem: "창경궁로" is a road's name, not
// "창경궁" with 로, which would have been "창경궁으로".
func particleFits(stem, p string) bool {
	last, _ := utf8.DecodeLastRuneInString(stem)
	if last < 0xAC00 || last > 0xD7A3 {
		return true
	}
	final := (last - 0xAC00) % 28
	switch {
	case afterConsonant[p]:
		return final != 0 && !(strings.HasPrefix(p, "으로") && final == 8)
	case p == "로":
		return final == 0 || final == 8 // ㄹ
	case afterVowel[p]:
		return final == 0
	}
	return true
}

// verbEndings end Korean verbs and adjectives, which are never a place's name.
var verbEndings = []string{"니다", "어요", "아요", "해요", "에요", "예요", "었다", "았다", "했다", "한다",
	"된다", "있다", "없다", "였다", "지만", "는데", "어서", "아서", "해서", "하고", "하는", "했던", "으면", "려고",
	"는지", "같은", "네요", "세요", "어야", "아야", "겠다", "했고", "봤다", "왔다", "갔다"}

func hasVerbEnding(w string) bool {
	for _, e := range verbEndings {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// japaneseRuns returns the runs of kanji, katakana and Latin letters in Japanese text,
// which hiragana (particles and verb endings) and punctuation separate: "京都駅から伏見稲荷大社へ"
// → "京都駅", "伏見稲荷大社". A "の" between two such characters stays in the run
// ("哲学の道"); see subRuns for the parts kept too.
func japaneseRuns(text string) []string {
	if countIn(text, unicode.Han)+countIn(text, unicode.Katakana) == 0 || countIn(text, unicode.Hangul) > 0 {
		return nil
	}
	rs := []rune(text)
	var out []string
	var run []rune
	end := func() {
		if countIn(string(run), unicode.Han)+countIn(string(run), unicode.Katakana) >= 2 {
			out = append(out, subRuns(string(run))...)
		}
		run = run[:0]
	}
	for i, r := range rs {
		switch {
		case isNameRune(r):
			run = append(run, r)
		case r == 'の' && len(run) > 0 && i+1 < len(rs) && isWideNameRune(run[len(run)-1]) && isWideNameRune(rs[i+1]):
			run = append(run, r)
		default:
			end()
		}
	}
	end()
	return out
}

// maxNoParts is the most parts around "の" whose runs subRuns returns.
const maxNoParts = 6

// subRuns returns a Japanese run and its parts: the pieces a middle dot lists
// ("道頓堀・黒門市場"), and within each the runs of pieces around "の".
func subRuns(s string) []string {
	out := []string{s}
	seen := map[string]bool{s: true}
	dotted := strings.Split(s, "・")
	if len(dotted) > 1 {
		dotted = append([]string{s}, dotted...)
	}
	for _, d := range dotted {
		parts := strings.Split(d, "の")
		span := len(parts)
		if span > maxNoParts {
			span = 1 // a run too long to be a name: its parts alone
		}
		for i := range parts {
			for j := i + 1; j <= min(i+span, len(parts)); j++ {
				if p := strings.Join(parts[i:j], "の"); !seen[p] && utf8.RuneCountInString(p) >= 2 {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// isNameRune says whether r may be part of a Japanese name run: kanji, katakana (with its
// long-vowel mark), the iteration mark, the middle dot or a Latin letter or digit.
func isNameRune(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Katakana) || r == 'ー' || r == '々' || r == 'ヶ' || r == '・' ||
		r < 0x250 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// isWideNameRune is isNameRune but for Latin letters and digits.
func isWideNameRune(r rune) bool { return r >= 0x250 && isNameRune(r) }

func countIn(s string, t *unicode.RangeTable) int {
	n := 0
	for _, r := range s {
		if unicode.Is(t, r) {
			n++
		}
	}
	return n
}
