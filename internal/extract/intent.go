package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mentions: why a page names a place, decided from the clause the name is in.
const (
	MentionVisited     = "VISITED"     // the writer went there ("we visited", "we had lunch at", "갔다", "먹었")
	MentionRecommended = "RECOMMENDED" // the writer recommends it ("must-see", "don't miss", "추천", "꼭")
	MentionSkipped     = "SKIPPED"     // the writer skipped or warns against it ("didn't go", "avoid", "안 갔", "비추")
	MentionPassing     = "PASSING"     // only a way to get somewhere ("passed through", "changed trains at", "환승", "경유")
	MentionMentioned   = "MENTIONED"   // named with no cue either way
)

// maxQuoteRunes is the longest quote of the sentence a name was found in.
const maxQuoteRunes = 160

// A mention's intent comes from cues in its clause: a sentence is cut into clauses at
// contrasting joints (" but ", ", and ", "; ", "지만", "는데", "けど"…) so that "we skipped
// Namsan Tower but visited Gyeongbokgung" reads each place with its own verb. Cues are
// looked for in this order, the first kind found deciding:
//
//  1. SKIPPED: negation and warnings ("skipped", "didn't go", "don't bother", "avoid", "not
//     worth", "tourist trap", "was closed", "do not recommend", "save it for", "안 갔", "못 갔",
//     "못 들렀", "건너뛰", "비추", "가지 마", "패스했", "行かなかった", "スキップ", "断念"), except "skip
//     the line" and "avoid the crowds".
//  2. PASSING: transit ("passed through", "changed trains at", "changed lines at", "flew into",
//     "took the bus past", "from the bus window", "on the way to", "layover", "환승", "지나갔",
//     "을 지나", "경유", "거쳐", "차창 밖", "乗り換え", "経由", "前を通", "外から見ただけ"), or a place set
//     around the name: right after "past" in a clause that moves, a side named as a direction
//     ("from the Myeongdong side"), an arrival left straight away ("부산역 도착 → …"), a Japanese
//     or Korean landmark placing what follows ("代々木公園のすぐ近く、…", "경복궁 근처의 카페"); except
//     for the destination of a journey: what follows "on the way to" / "en route to" in
//     English, what precedes "가는 길" / "가던 길" in Korean and "へ行く途中" in Japanese.
//  3. RECOMMENDED: "must-see", "must visit", "recommend", "don't miss", "worth a visit",
//     "추천", "강추", "꼭 ", "가볼 만", "필수", "おすすめ", "必見", "ぜひ".
//  4. VISITED: the writer's own visit, in the past tense ("we visited", "went to", "had lunch
//     at", "stayed at", "갔", "다녀왔", "먹었", "들렀", "묵었", "行きました", "食べ"): travel posts
//     speak in the first person, so a past visit verb is taken as the writer's.
//
// Otherwise a name is MENTIONED. Two readings look past the name's clause: a plan in a clause
// ending with a contrasting joint fell through ("we had planned to go to Yangdong but…",
// "만장굴도 가려고 했는데…", "行く予定だったのですが、…": SKIPPED), and the next clause may speak of
// the place without naming it ("…, but we only passed through", "…; we only used it to arrive
// and leave", "…, but I would save it for another morning", "crowded, but worth it"; in Korean
// a clause with a cue and no topic or object of its own), which decides after a contrasting
// joint or when the name's own clause has no cue. English cues match whole words, case aside;
// Korean and Japanese ones as text.

// mentionRank orders mentions when one name is found several times: a positive intent
// (RECOMMENDED, then VISITED) wins over everything; without one, SKIPPED and PASSING win
// over a neutral MENTIONED, SKIPPED first (see strongerMention).
var mentionRank = map[string]int{MentionRecommended: 5, MentionVisited: 4, MentionSkipped: 3, MentionPassing: 2, MentionMentioned: 1}

// strongerMention says whether a mention b should replace a (see mentionRank).
func strongerMention(a, b string) bool { return mentionRank[b] > mentionRank[a] }

// cueSet is one kind of cue: English phrases (whole words, lower case) and phrases of
// scripts written without spaces between words (matched as text).
type cueSet struct {
	latin []string // lower case, each matched as whole words
	wide  []string
}

func cues(latin []string, wide ...string) cueSet {
	lower := make([]string, len(latin))
	for i, p := range latin {
		lower[i] = strings.ToLower(p)
	}
	return cueSet{latin: lower, wide: wide}
}

// in says whether text holds one of the cues: a Latin one as whole words, case and the
// apostrophe's form aside, or a wide one anywhere. (Literal searches: a regular expression
// alternating every cue took time for each name on a long page.)
func (c cueSet) in(text string) bool {
	lower := strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	for _, p := range c.latin {
		if wordIn(lower, p) {
			return true
		}
	}
	for _, w := range c.wide {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// wordIn says whether p is in text with no word character (ASCII letter, digit or _, as
// regexp's \b sees them) just before or after it.
func wordIn(text, p string) bool {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], p)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(p)
		if (start == 0 || !isWordByte(text[start-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		i = start + 1
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

var (
	skipCues = cues([]string{"skipped", "skip", "skipping", "didn't go", "did not go", "didn't visit", "did not visit",
		"never went", "never made it", "didn't make it", "did not make it", "didn't get to", "don't bother", "do not bother",
		"not bother", "avoid", "not worth", "wasn't worth", "isn't worth", "tourist trap", "closed when we got there",
		"was closed", "were closed", "was shut", "gave up on", "missed out on", "couldn't get in", "could not get in",
		"stay away from", "overrated", "ran out of time", "don't recommend", "do not recommend", "wouldn't recommend",
		"would not recommend", "gave it a miss", "give it a miss", "save it for", "saving it for", "saved it for"},
		"안 갔", "안갔", "못 갔", "못갔", "안 가", "안 간", "못 간", "건너뛰", "건너뛴", "건너 뛰", "비추", "가지 마", "가지마", "패스했", "패스함", "패스하",
		"는 패스", "은 패스", "문 닫", "문닫", "휴무라", "안 들어", "못 들어", "별로였", "못 들렀", "들르지 못", "못 가", "포기했",
		"行かなかった", "行けなかった", "行かず", "行けず", "スキップ", "パスし", "閉まって", "おすすめしない", "行く必要はない",
		"断念", "諦め", "寄れなかった", "入れなかった")
	// skipExceptions are phrases with a skip cue that do not skip the place.
	skipExceptions = regexp.MustCompile(`(?i)\b(?:skip(?:ped|ping)?[- ]the[- ](?:line|lines|queue|queues)|avoid(?:ed|ing)? the (?:crowds?|queues?|lines?|rush|heat|wait)|avoid (?:crowds|queues|lines)|to avoid)\b`)
	passCues       = cues([]string{"passed through", "passing through", "pass through", "passed by", "changed trains at",
		"change trains at", "changed trains in", "changed at", "change at", "transfer at", "transferred at", "transfer in",
		"transferred in", "took the bus past", "drove past", "drove through", "walked past", "went past", "went through",
		"on the way to", "on our way to", "on my way to", "en route to", "stopover in", "stopover at", "layover in",
		"layover at", "connecting flight", "changed lines at", "change lines at", "switched lines at", "changed buses at",
		"changed planes in", "changed planes at", "flew into", "flew in to", "flew out of", "landed at", "landed in",
		"through the window", "from the window", "from the bus window", "from a bus window", "from the train window",
		"from a train window", "from the car window", "from the taxi window"},
		"환승", "갈아탔", "갈아타", "지나갔", "지나가", "지나쳐", "지나친", "을 지나", "를 지나", "스쳐", "경유", "거쳐", "거쳤",
		"차창 밖", "창밖으로", "버스에서 보", "乗り換え", "乗換", "経由", "通過", "通り過ぎ", "素通り", "前を通", "を通って",
		"を通り", "外から見ただけ", "車窓から", "窓から")
	recommendCues = cues([]string{"must-see", "must see", "must-visit", "must visit", "must-try", "must try", "must-do",
		"recommend", "recommended", "highly recommend", "don't miss", "do not miss", "can't miss", "cannot miss",
		"worth a visit", "worth visiting", "worth the trip", "worth the visit", "worth it", "be sure to",
		"you have to go", "you have to visit", "you should go", "you should visit", "favourite", "favorite",
		"highlight of", "the highlight", "unmissable", "loved", "the best", "best thing", "amazing", "wonderful", "delicious"},
		"추천", "강추", "꼭 ", "가볼 만", "가볼만", "가 볼 만", "필수", "놓치지 마", "놓치지마", "인생 맛집", "최고였",
		"おすすめ", "オススメ", "お勧め", "必見", "ぜひ", "是非")
	visitCues = cues([]string{"visited", "we went", "i went", "went to", "had lunch", "had dinner", "had breakfast",
		"had brunch", "had coffee", "had a drink", "had drinks", "ate at", "we ate", "i ate", "stopped at", "stopped by",
		"stayed at", "stayed in", "we stayed", "explored", "toured", "checked out", "walked around", "spent the",
		"spent a", "climbed", "hiked", "we tried", "i tried", "popped into", "dropped by", "we saw", "i saw", "we enjoyed",
		"got to see", "made it to", "we walked", "i walked", "wandered", "crossed to", "got lost in", "finished at",
		"lunch was", "dinner was", "breakfast was", "we spent", "i spent", "browsed", "i bought", "we bought"},
		"갔", "다녀왔", "다녀옴", "방문했", "방문함", "방문하였", "먹었", "먹음",
		"먹고 왔", "들렀", "들름", "가봤", "가 봤", "가보았", "구경했", "묵었", "숙박했", "마셨", "산책했", "올라갔",
		"行きました", "行った", "行ってきました", "訪れ", "訪問し", "食べ", "寄りました", "寄った", "泊まり", "泊まった", "飲んだ")
)

// destination marks the destination of a journey: in English the name follows it, in
// Korean and Japanese it precedes it.
var (
	destinationAfter  = regexp.MustCompile(`(?i)\b(?:on (?:the|our|my) way to|en route to|heading to|headed to|bound for)\b`)
	destinationBefore = []string{"가는 길", "가던 길", "가는길", "가던길", "로 가는", "으로 가는", "에 가는", "へ行く途中", "に行く途中", "へ向かう途中"}
)

// clauseJoints cut a sentence into clauses; the joint stays with the clause before it.
var clauseJoints = regexp.MustCompile(`(?i)(?:[;；]|,?\s+but\s|,?\s+whereas\s|,?\s+while\s|,?\s+although\s|,?\s+though\s|,?\s+however,?\s|,\s+and\s|,\s+then\s|\s+instead\s|지만\s|는데\s|했고\s|갔고\s|었고\s|았고\s|[がけ]ど、?|けれど、?|が、)`)

// clauseAt returns the clause of sentence around the byte range [start, end), and where it
// starts and ends.
func clauseAt(sentence string, start, end int) (clause string, from, to int) {
	from, to = 0, len(sentence)
	for _, j := range clauseJoints.FindAllStringIndex(sentence, -1) {
		switch {
		case j[1] <= start:
			from = j[1]
		case j[0] >= end && to == len(sentence):
			to = j[1]
		}
	}
	return sentence[from:to], from, to
}

// mentionOf decides why sentence names name (found at byte offset at, or -1 when it was not
// found as written): from its own clause (see clauseIntent), unless that clause only tells
// of a plan the next clause undoes, or the next clause speaks of it without naming it (see
// nextClauseIntent).
func mentionOf(sentence, name string, at int) string {
	if sentence == "" {
		return MentionMentioned
	}
	if at < 0 {
		return clauseIntent(sentence, 0, len(sentence))
	}
	clause, from, to := clauseAt(sentence, at, at+len(name))
	own := clauseIntent(clause, at-from, at-from+len(name))
	contrast := contrastJoint.MatchString(clause)
	if contrast && own != MentionRecommended && own != MentionVisited && planCues.in(clause) {
		return MentionSkipped // "we had planned to go to X but…", "X도 가려고 했는데…"
	}
	if next := nextClauseIntent(sentence[to:]); next != "" && (contrast || own == MentionMentioned) {
		return next
	}
	return own
}

// mentionReach is how far, in bytes, either side of a name its mention and quote are looked
// for (see collector.add): a sentence longer than a paragraph is no sentence (a page without
// stops), and reading all of it for each of its names would take time growing with its
// length squared.
const mentionReach = 300

// nearName is the part of sentence within mentionReach of the name at [at, at+size) (or of
// its start when at is -1), cut at rune boundaries, and the name's offset in it.
func nearName(sentence string, at, size int) (string, int) {
	if len(sentence) <= 2*mentionReach+size {
		return sentence, at
	}
	from, to := max(at, 0)-mentionReach, max(at, 0)+size+mentionReach
	from, to = max(from, 0), min(to, len(sentence))
	for from > 0 && !utf8.RuneStart(sentence[from]) {
		from--
	}
	for to < len(sentence) && !utf8.RuneStart(sentence[to]) {
		to++
	}
	if at < 0 {
		return sentence[from:to], -1
	}
	return sentence[from:to], at - from
}

// clauseIntent decides why clause names the name at [start, end): the first kind of cue
// found, in the order of the list above, or a cue placed around the name (see placePassing).
func clauseIntent(clause string, start, end int) string {
	cleaned := skipExceptions.ReplaceAllString(clause, " ")
	switch {
	case skipCues.in(cleaned):
		return MentionSkipped
	case (passCues.in(clause) || placePassing(clause, start, end)) && !isDestination(clause, start, end):
		return MentionPassing
	case recommendCues.in(clause):
		return MentionRecommended
	case visitCues.in(clause):
		return MentionVisited
	}
	return MentionMentioned
}

// planCues tell of a plan; in a clause ending with a contrasting joint ("but", "지만", "けど")
// the plan fell through: "we had planned to go down to Yangdong but ran out of time".
var planCues = cues([]string{"planned to", "had planned", "was going to", "were going to", "meant to", "hoped to",
	"wanted to", "intended to", "was hoping to", "were hoping to"},
	"려고 했는데", "려고 했지만", "려고 했으나", "려다가", "려다 ", "계획이었는데", "계획이었지만", "예정이었는데", "예정이었지만",
	"고 싶었는데", "고 싶었지만", "予定だった", "つもりだった", "たかったけど", "たかったのですが")

// contrastJoint matches a clause that ends with a contrasting joint.
var contrastJoint = regexp.MustCompile(`(?i)(?:\bbut|\bwhereas|\balthough|\bthough|\bhowever,?|지만|는데|[がけ]ど、?|けれど、?|が、)\s*$`)

// Cues of a clause that speaks of the place of the clause before it without naming it: "Our
// train got in at Roma Termini, but we only passed through", "the Panthéon is a ten-minute
// walk east, but I would save it for another morning", "crowded, but worth it". In Korean, a
// clause with a cue and no topic or object of its own ("만장굴도 가려고 했는데 못 갔어요").
var (
	skipBack = regexp.MustCompile(`(?i)\b(?:skipped|skip|missed) (?:it|them)\b|\b(?:save|saved|saving) (?:it|them) for\b` +
		`|\bran out of time\s*(?:[,.;:!?–—]|$)|\bgave (?:it|them) a miss\b|\b(?:it|they) (?:was|were) (?:closed|shut)\b` +
		`|\b(?:didn['’]t|did not) (?:go|get) in\b|\b(?:not|isn['’]t|wasn['’]t) worth it\b`)
	passBack = regexp.MustCompile(`(?i)\b(?:passed|passing|went|drove|walked|rode) (?:through|by|past)(?:\s+(?:it|them|there))?\s*(?:[–—,.;:!?()]|$)` +
		`|\bused (?:it|them) (?:only )?(?:to|for) (?:arrive|arriving|leave|leaving|change|changing|transfer|transferring|connect|connections)\b` +
		`|\bchanged (?:trains|buses|lines|planes) there\b|\bsaw (?:it|them) (?:only )?(?:from|through) (?:the|a) (?:bus |train |car )?window\b`)
	recommendBack = regexp.MustCompile(`(?i)\b(?:worth it|worth the (?:wait|queue|trip|visit|hype|money|price|climb)|worth a visit|recommend it|loved it)\b`)
	// hangulTopic is a Korean word with a topic or object particle: the clause names its own
	// subject.
	hangulTopic = regexp.MustCompile(`[가-힣](?:은|는|을|를|도)(?:\s|$)`)
)

// nextClauseIntent is the intent of the clause at the start of rest (the sentence after the
// name's clause) when it speaks of the place before it without naming it, else "".
func nextClauseIntent(rest string) string {
	if rest == "" {
		return ""
	}
	next := rest
	if j := clauseJoints.FindStringIndex(rest); j != nil {
		next = rest[:j[1]]
	}
	switch {
	case skipBack.MatchString(next):
		return MentionSkipped
	case passBack.MatchString(next):
		return MentionPassing
	case recommendBack.MatchString(next):
		return MentionRecommended
	}
	if countIn(next, unicode.Hangul) == 0 || hangulTopic.MatchString(next) {
		return ""
	}
	switch cleaned := skipExceptions.ReplaceAllString(next, " "); {
	case skipCues.in(cleaned):
		return MentionSkipped
	case passCues.in(next):
		return MentionPassing
	case recommendCues.in(next):
		return MentionRecommended
	}
	return ""
}

// Cues placed around a name that make it a way through or a landmark: the name right after
// "past" in a clause that moves ("the bus went south past Circus Maximus"), a side named as a
// direction ("the cable car from the Myeongdong side", "명동 쪽"), an arrival left straight
// away ("부산역 도착 → 본전돼지국밥") or reached by plane ("비행기로 제주국제공항 도착"), where a ride starts ("cable car from Myeongdong",
// "성산항에서 배를 타고 우도로", "京都駅からバスに乗って", "제주공항에서 렌터카를 빌렸고"), or, in Japanese and Korean, a landmark
// that places the place named after it ("代々木公園のすぐ近く、Fuglen Tokyoへ", "경복궁 근처의 카페").
// ("A hostel near King's Cross" is where the writer stayed: English "near" is no cue.)
var (
	pastBefore    = regexp.MustCompile(`(?i)\bpast (?:the )?$`)
	motion        = regexp.MustCompile(`(?i)\b(?:bus|buses|train|tram|taxi|car|ferry|boat|drove|drive|walked|walk|rode|ride|cycled|ran|went|took|runs|goes|headed|strolled)\b`)
	sideAfter     = regexp.MustCompile(`(?i)^\s+side\b|^\s?쪽|^側`)
	arrivalAfter  = regexp.MustCompile(`^\s*(?:에\s*)?(?:도착|到着|arrival)\S*\s*(?:→|->|⇒)`)
	rideBefore    = regexp.MustCompile(`(?i)\b(?:ferry|boat|bus|coach|train|tram|shuttle|taxi|cable car|gondola|metro|subway|ktx|shinkansen)(?: ride)? (?:back )?from (?:the )?$`)
	rideAfter     = regexp.MustCompile(`^\s*(?:에서|から)\s*(?:\S+\s*){0,2}?(?:배|여객선|페리|유람선|버스|셔틀|기차|열차|KTX|지하철|택시|케이블카|비행기|船|フェリー|バス|電車|列車|新幹線|タクシー|ロープウェイ|ケーブルカー|렌터카|렌트카|レンタカー)(?:를|을|に|を)?\s*(?:타|탔|乗|빌|借)`)
	flightBefore  = regexp.MustCompile(`(?:비행기|항공편|飛行機|フライト)\s*(?:로|で)?\s*$`)
	arrivedAfter  = regexp.MustCompile(`^\s*(?:에|に)?\s*(?:도착|到着)`)
	rentalBefore  = regexp.MustCompile(`(?:렌터카|렌트카|レンタカー)\S{0,2}\s*$`)
	pickUpAfter   = regexp.MustCompile(`^\s*(?:에서|で)\s*(?:빌|借)`)
	landmarkAfter = regexp.MustCompile(`^の(?:すぐ)?(?:近く|そば|隣|向かい)(?:、|の|にある)|^\s*(?:바로\s*)?(?:근처|옆)(?:의|에 있는)\s`)
)

// placePassing says whether the name at [start, end) of clause is placed as a way through or a
// landmark (see pastBefore and the rest).
func placePassing(clause string, start, end int) bool {
	before, after := clause[:start], clause[end:]
	return pastBefore.MatchString(before) && motion.MatchString(clause) || sideAfter.MatchString(after) ||
		arrivalAfter.MatchString(after) || rideBefore.MatchString(before) || rideAfter.MatchString(after) ||
		rentalBefore.MatchString(before) && pickUpAfter.MatchString(after) ||
		flightBefore.MatchString(before) && arrivedAfter.MatchString(after) || landmarkAfter.MatchString(after)
}

// isDestination says whether the name at [start, end) of clause is where a journey the
// clause tells of was going.
func isDestination(clause string, start, end int) bool {
	if m := destinationAfter.FindStringIndex(clause); m != nil && m[1] <= start {
		return true
	}
	after := clause[end:]
	for _, marker := range destinationBefore {
		if i := strings.Index(after, marker); i >= 0 && utf8.RuneCountInString(after[:i]) <= 3 {
			return true // "경복궁 가는 길에", "경복궁으로 가는"
		}
	}
	return false
}

// headingIntent is SKIPPED or PASSING for a heading that is one phrase with a skip or pass
// cue and no other ("What we skipped", "Places we'd skip", "Just passing through", "건너뛴 곳",
// "通り過ぎただけ"), else "": a heading of several parts ("What we did, and what we skipped")
// or with a positive cue speaks of more than what it skips.
func headingIntent(text string) string {
	text = strings.TrimSpace(text)
	if text == "" || headingParts.MatchString(strings.TrimRight(text, "?!.:：？！。")) {
		return ""
	}
	cleaned := skipExceptions.ReplaceAllString(text, " ")
	switch {
	case recommendCues.in(text) || visitCues.in(text) && !skipCues.in(cleaned):
		return ""
	case skipCues.in(cleaned):
		return MentionSkipped
	case passCues.in(text):
		return MentionPassing
	}
	return ""
}

// headingParts separate the parts of a heading.
var headingParts = regexp.MustCompile(`[:：,，、;；|｜/()（）–—·•!?！？]|\s-\s|\s(?:and|or|vs)\s|그리고|및`)

// sentences cuts text into sentences: after ".", "!", "?", "。", "！", "？" followed by a space
// or the end (not after an abbreviation such as "St."), and at line breaks.
func sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		start := 0
		rs := []rune(line)
		pos := 0
		for i, r := range rs {
			size := utf8.RuneLen(r)
			pos += size
			if !strings.ContainsRune(".!?。！？", r) {
				continue
			}
			wide := r == '。' || r == '！' || r == '？'
			if !wide && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
				continue
			}
			if r == '.' {
				word := line[strings.LastIndexAny(line[:pos-size], " ")+1 : pos]
				if abbreviations[strings.ToLower(word)] {
					continue
				}
			}
			if s := strings.TrimSpace(line[start:pos]); s != "" {
				out = append(out, s)
			}
			start = pos
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// quoteOf shortens a sentence to at most maxQuoteRunes characters around the name at byte
// offset at (-1 when unknown), cutting at word boundaries and marking cuts with "…".
func quoteOf(sentence string, at, size int) string {
	s := strings.Join(strings.Fields(sentence), " ")
	if utf8.RuneCountInString(s) <= maxQuoteRunes {
		return s
	}
	if at < 0 || at > len(sentence) {
		return truncate(s, maxQuoteRunes)
	}
	// Centre a window on the name, in the sentence as written.
	rs := []rune(sentence)
	center := utf8.RuneCountInString(sentence[:at]) + utf8.RuneCountInString(sentence[at:min(at+size, len(sentence))])/2
	from := max(0, center-(maxQuoteRunes-2)/2)
	to := min(len(rs), from+maxQuoteRunes-2)
	from = max(0, to-(maxQuoteRunes-2))
	window := string(rs[from:to])
	if from > 0 {
		if i := strings.IndexByte(window, ' '); i >= 0 && i < len(window)/3 {
			window = window[i+1:]
		}
	}
	if to < len(rs) {
		if i := strings.LastIndexByte(window, ' '); i > 2*len(window)/3 {
			window = window[:i]
		}
	}
	window = strings.Join(strings.Fields(window), " ")
	if from > 0 {
		window = "…" + window
	}
	if to < len(rs) {
		window = strings.TrimRight(window, " ,.;:") + "…"
	}
	return window
}

// addressLine matches text that reads as a postal address rather than prose: a label
// ("Address:", "주소:", "住所"), a line labelled with the area ("Area: 3rd arrondissement · Le
// Marais", "지역:", "エリア："; a nearest station is a place of its own), a house number starting a line or after a comma next to a
// street word ("185 Changgyeonggung-ro", "12 Rue de Rivoli", "350 Fifth Avenue"), a
// romanised or Korean road with its number ("Sejong-daero 172", "창경궁로 185"), a Japanese
// block number ("2-3-1 Asakusa"), a postal code, or a Korean 시/구/로 sequence.
var addressLine = regexp.MustCompile(`(?i)(?:^|\s|\()(?:address|addr|adresse|indirizzo|dirección|주소|도로명|지번|住所|所在地)\s*[:：]` +
	`|^[^\pL\pN]*(?:area|district|neighbou?rhood|arrondissement|quartier|지역|동네|エリア|地区)\s*[:：]` +
	`|(?:^|,\s*)\d{1,5}(?:-\d+)?,?\s+(?:rue|avenue|av\.|boulevard|bd|blvd|calle|quai|via)\s` +
	`|(?:^|,\s*)\d{1,5}(?:-\d+)?\s+(?:[\pL'.-]+\s){1,3}(?:street|st\.|road|rd\.|avenue|ave\.?|boulevard|blvd\.?|lane|drive)(?:\W|$)` +
	`|\b\pL+-(?:ro|gil|daero)\s*\d+|[가-힣]+(?:로|길|대로)\s*\d+` +
	`|(?:^|\s)\d{1,3}-\d{1,3}-\d{1,3}(?:\s|,|$)|〒\s?\d{3}-\d{4}|\b\d{5}\s+(?:paris|roma|rome|madrid|barcelona|berlin)\b` +
	`|[가-힣]+(?:시|도)\s+[가-힣]+(?:구|군)\s+[가-힣]+(?:로|길|동|읍|면)`)

// addressStart is the byte offset where a postal address starts in s, or -1.
func addressStart(s string) int {
	if m := addressLine.FindStringIndex(s); m != nil {
		return m[0]
	}
	return -1
}
