package planner

import (
	gonanoid "github.com/matoous/go-nanoid/v2"
)

// IDLength is the length of every public identifier.
const IDLength = 21

// NewID returns a fresh, URL-safe, 21-character random identifier (A-Za-z0-9_-).
func NewID() string {
	id, err := gonanoid.New(IDLength)
	if err != nil {
		// crypto/rand never fails on supported platforms (Go 1.24+ crashes the program instead).
		panic(err)
	}
	return id
}

// ValidID reports whether s has the shape of a public identifier. Ids of the wrong shape are
// simply "not found", so callers use this to answer 404 without asking the database.
func ValidID(s string) bool {
	if len(s) != IDLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
