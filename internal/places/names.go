package places

import (
	"strings"
	"unicode"

	"tripplan/internal/planner"
)

// DisplayName is how a place is named to a reader of a language, and the other name shown
// under it ("" for none). A Korean reader ("ko") sees the place's Korean name when it has one,
// the English name under it; anyone else the English name, the local one under it (a place's
// other names list the local name first).
func DisplayName(lang string, p planner.Place) (name, subtitle string) {
	local := ""
	if len(p.Names) > 0 && p.Names[0] != p.Name {
		local = p.Names[0]
	}
	if lang != "ko" || hangul(p.Name) {
		return p.Name, local
	}
	for _, n := range p.Names {
		if hangul(n) {
			return n, p.Name
		}
	}
	return p.Name, local
}

// hangul says whether s is written in Korean script.
func hangul(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) >= 0
}
