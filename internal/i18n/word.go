package i18n

import "unicode/utf8"

// Word is a value put into a message, with the Korean particles that follow it chosen by its
// last syllable: whether it ends in a final consonant (받침). After a word that does not end
// in Hangul or a digit both forms are written, as Korean software does: "Café을(를)".
type Word string

// String is the word itself.
func (w Word) String() string { return string(w) }

// Eul is the word with its object particle: 을 after a final consonant, else 를.
func (w Word) Eul() string { return w.with("을", "를") }

// I is the word with its subject particle: 이 or 가.
func (w Word) I() string { return w.with("이", "가") }

// Eun is the word with its topic particle: 은 or 는.
func (w Word) Eun() string { return w.with("은", "는") }

// Gwa is the word with "and/with": 과 or 와.
func (w Word) Gwa() string { return w.with("과", "와") }

// Euro is the word with "to/as": 으로 after a final consonant other than ㄹ, else 로.
func (w Word) Euro() string {
	switch final(string(w)) {
	case batchim:
		return string(w) + "으로"
	case none, rieul:
		return string(w) + "로"
	}
	return string(w) + "(으)로"
}

func (w Word) with(after, otherwise string) string {
	switch final(string(w)) {
	case batchim, rieul:
		return string(w) + after
	case none:
		return string(w) + otherwise
	}
	return string(w) + after + "(" + otherwise + ")"
}

type ending int

const (
	unknown ending = iota
	none           // a vowel
	batchim        // a final consonant other than ㄹ
	rieul          // the final consonant ㄹ
)

// final is how s ends: by the last Hangul syllable's final consonant, or a digit as it is
// read in Sino-Korean (영 일 이 삼 사 오 육 칠 팔 구), ignoring closing punctuation.
func final(s string) ending {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
		switch {
		case r >= 0xAC00 && r <= 0xD7A3:
			switch (r - 0xAC00) % 28 {
			case 0:
				return none
			case 8:
				return rieul
			}
			return batchim
		case r >= '0' && r <= '9':
			return [...]ending{batchim, rieul, none, batchim, none, none, batchim, rieul, rieul, none}[r-'0']
		case r == ')' || r == '"' || r == '\'' || r == '”' || r == '’' || r == ' ' || r == '.':
			continue
		}
		return unknown
	}
	return unknown
}
