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
//     worth", "tourist trap", "was closed", "안 갔", "못 갔", "건너뛰", "비추", "가지 마", "패스했",
//     "行かなかった", "スキップ"), except "skip the line" and "avoid the crowds".
//  2. PASSING: transit ("passed through", "changed trains at", "transfer at", "took the bus
//     past", "on the way to", "layover", "환승", "지나갔", "을 지나", "경유", "거쳐", "乗り換え", "経由"),
//     except for the destination of a journey: what follows "on the way to" / "en route to"
//     in English, what precedes "가는 길" / "가던 길" in Korean and "へ行く途中" in Japanese.
//  3. RECOMMENDED: "must-see", "must visit", "recommend", "don't miss", "worth a visit",
//     "추천", "강추", "꼭 ", "가볼 만", "필수", "おすすめ", "必見", "ぜひ".
//  4. VISITED: the writer's own visit, in the past tense ("we visited", "went to", "had lunch
//     at", "stayed at", "갔", "다녀왔", "먹었", "들렀", "묵었", "行きました", "食べ"): travel posts
//     speak in the first person, so a past visit verb is taken as the writer's.
//
// Otherwise a name is MENTIONED. English cues match whole words, case aside; Korean and
// Japanese ones as text.

// mentionRank orders mentions when one name is found several times: a positive intent
// (RECOMMENDED, then VISITED) wins over everything; without one, SKIPPED and PASSING win
// over a neutral MENTIONED, SKIPPED first (see strongerMention).
var mentionRank = map[string]int{MentionRecommended: 5, MentionVisited: 4, MentionSkipped: 3, MentionPassing: 2, MentionMentioned: 1}

// strongerMention says whether a mention b should replace a (see mentionRank).
func strongerMention(a, b string) bool { return mentionRank[b] > mentionRank[a] }

// cueSet is one kind of cue: English phrases (whole words, lower case) and phrases of
// scripts written without spaces between words (matched as text).
type cueSet struct {
	latin *regexp.Regexp
	wide  []string
}

func cues(latin []string, wide ...string) cueSet {
	quoted := make([]string, len(latin))
	for i, p := range latin {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(p), "'", "['’]")
	}
	return cueSet{latin: regexp.MustCompile(`(?i)\b(?:` + strings.Join(quoted, "|") + `)\b`), wide: wide}
}

// in says whether text holds one of the cues.
func (c cueSet) in(text string) bool {
	if c.latin.MatchString(text) {
		return true
	}
	for _, w := range c.wide {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

var (
	skipCues = cues([]string{"skipped", "skip", "skipping", "didn't go", "did not go", "didn't visit", "did not visit",
		"never went", "never made it", "didn't make it", "did not make it", "didn't get to", "don't bother", "do not bother",
		"not bother", "avoid", "not worth", "wasn't worth", "isn't worth", "tourist trap", "closed when we got there",
		"was closed", "were closed", "was shut", "gave up on", "missed out on", "couldn't get in", "could not get in",
		"stay away from", "overrated", "ran out of time for"},
		"안 갔", "안갔", "못 갔", "못갔", "안 가", "건너뛰", "건너 뛰", "비추", "가지 마", "가지마", "패스했", "패스함", "패스하",
		"는 패스", "은 패스", "문 닫", "문닫", "휴무라", "안 들어", "못 들어", "별로였",
		"行かなかった", "行けなかった", "行かず", "スキップ", "パスし", "閉まって", "おすすめしない", "行く必要はない")
	// skipExceptions are phrases with a skip cue that do not skip the place.
	skipExceptions = regexp.MustCompile(`(?i)\b(?:skip(?:ped|ping)?[- ]the[- ](?:line|lines|queue|queues)|avoid(?:ed|ing)? the (?:crowds?|queues?|lines?|rush|heat|wait)|avoid (?:crowds|queues|lines)|to avoid)\b`)
	passCues       = cues([]string{"passed through", "passing through", "pass through", "passed by", "changed trains at",
		"change trains at", "changed trains in", "changed at", "change at", "transfer at", "transferred at", "transfer in",
		"transferred in", "took the bus past", "drove past", "drove through", "walked past", "went past", "went through",
		"on the way to", "on our way to", "on my way to", "en route to", "stopover in", "stopover at", "layover in",
		"layover at", "connecting flight"},
		"환승", "갈아탔", "갈아타", "지나갔", "지나가", "지나쳐", "지나친", "을 지나", "를 지나", "스쳐", "경유", "거쳐", "거쳤",
		"乗り換え", "乗換", "経由", "通過", "通り過ぎ", "素通り")
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

// clauseAt returns the clause of sentence around the byte range [start, end).
func clauseAt(sentence string, start, end int) (clause string, offset int) {
	from, to := 0, len(sentence)
	for _, j := range clauseJoints.FindAllStringIndex(sentence, -1) {
		switch {
		case j[1] <= start:
			from = j[1]
		case j[0] >= end && to == len(sentence):
			to = j[1]
		}
	}
	return sentence[from:to], from
}

// mentionOf decides why sentence names name (found at byte offset at, or -1 when it was not
// found as written).
func mentionOf(sentence, name string, at int) string {
	if sentence == "" {
		return MentionMentioned
	}
	clause, from := sentence, 0
	start, end := 0, len(sentence)
	if at >= 0 {
		start, end = at, at+len(name)
		clause, from = clauseAt(sentence, start, end)
		start, end = start-from, end-from
	}
	cleaned := skipExceptions.ReplaceAllString(clause, " ")
	switch {
	case skipCues.in(cleaned):
		return MentionSkipped
	case passCues.in(clause) && !isDestination(clause, start, end):
		return MentionPassing
	case recommendCues.in(clause):
		return MentionRecommended
	case visitCues.in(clause):
		return MentionVisited
	}
	return MentionMentioned
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
// ("Address:", "주소:", "住所"), a house number starting a line or after a comma next to a
// street word ("185 Changgyeonggung-ro", "12 Rue de Rivoli", "350 Fifth Avenue"), a
// romanised or Korean road with its number ("Sejong-daero 172", "창경궁로 185"), a Japanese
// block number ("2-3-1 Asakusa"), a postal code, or a Korean 시/구/로 sequence.
var addressLine = regexp.MustCompile(`(?i)(?:^|\s|\()(?:address|addr|adresse|indirizzo|dirección|주소|도로명|지번|住所|所在地)\s*[:：]` +
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
