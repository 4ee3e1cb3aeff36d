package planner

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Provider is a social login provider.
type Provider string

// Providers that dev login accepts (docs/API.md §Authentication); social login adds more in the accounts issue.
const (
	ProviderGoogle Provider = "GOOGLE"
	ProviderKakao  Provider = "KAKAO"
	ProviderNaver  Provider = "NAVER"
	ProviderApple  Provider = "APPLE"
	ProviderOIDC   Provider = "OIDC"
)

// DevLoginProviders are the providers POST /dev/auth/login accepts.
var DevLoginProviders = []Provider{ProviderGoogle, ProviderKakao, ProviderNaver}

// User is a person with an account.
type User struct {
	ID              string     `db:"id"`
	Provider        Provider   `db:"provider"`
	ProviderID      string     `db:"provider_id"`
	Nickname        string     `db:"nickname"`
	Picture         string     `db:"picture"`
	Email           string     `db:"email"`
	Language        *string    `db:"language"` // "ko" or "en"; nil follows the browser
	TermsAcceptedAt *time.Time `db:"terms_accepted_at"`
	WithdrawnAt     *time.Time `db:"withdrawn_at"`
	CreatedAt       time.Time  `db:"created_at"`
}

// ProfileChange is what PUT /users/me changes: the nickname when not nil, the language when
// SetLanguage (to nil: follow the browser).
type ProfileChange struct {
	Nickname    *string
	SetLanguage bool
	Language    *string
}

// TermsAccepted reports whether the user has accepted the terms of service.
func (u *User) TermsAccepted() bool { return u.TermsAcceptedAt != nil }

// MaskEmail hides most of an address the way the contract shows it: the local part keeps two
// characters and a fixed "***" (so its length is not revealed), the domain keeps its first
// character with one "*" per hidden character and its last label: "test@gmail.com" →
// "te***@g****.com".
func MaskEmail(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at <= 0 {
		return ""
	}
	local, domain := []rune(email[:at]), email[at+1:]
	host, tld := domain, ""
	if dot := strings.LastIndexByte(domain, '.'); dot > 0 {
		host, tld = domain[:dot], domain[dot:]
	}
	h := []rune(host)
	if len(h) == 0 {
		return string(local[:min(2, len(local))]) + "***@" + tld
	}
	return string(local[:min(2, len(local))]) + "***@" + string(h[:1]) + strings.Repeat("*", len(h)-1) + tld
}

// NicknameMin and NicknameMax bound a nickname's length in characters.
const (
	NicknameMin = 2
	NicknameMax = 10
)

// ValidNickname reports whether s is 2–10 characters of letters (any script) and digits.
func ValidNickname(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < NicknameMin || n > NicknameMax {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
