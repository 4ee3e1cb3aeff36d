package planner

import (
	"strconv"
	"unicode"
)

// DefaultNickname is a new user's nickname when the provider gives nothing usable.
const DefaultNickname = "Traveler"

// NicknameFrom makes a valid nickname from what a provider calls a person: the first
// candidate that keeps at least NicknameMin letters and digits once everything else is
// removed, cut to NicknameMax characters ("Mina Kim" → "MinaKim"); DefaultNickname when no
// candidate does.
func NicknameFrom(candidates ...string) string {
	for _, c := range candidates {
		var kept []rune
		for _, r := range c {
			if len(kept) == NicknameMax {
				break
			}
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				kept = append(kept, r)
			}
		}
		if len(kept) >= NicknameMin {
			return string(kept)
		}
	}
	return DefaultNickname
}

// NumberedNickname is a valid nickname with n appended, cut so that it stays valid:
// ("Mina", 2) → "Mina2", ("Wanderlust", 12) → "Wanderlu12".
func NumberedNickname(nickname string, n int) string {
	digits := strconv.Itoa(n)
	r := []rune(nickname)
	return string(r[:min(len(r), NicknameMax-len(digits))]) + digits
}
