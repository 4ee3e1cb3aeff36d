package planner

import (
	"strings"
	"time"
)

// ShareType is what a share link opens.
type ShareType string

// Share link targets.
const (
	SharePlan       ShareType = "PLAN"
	ShareCollection ShareType = "COLLECTION"
)

// ShareLinkTTL is how long an invite link works.
const ShareLinkTTL = 7 * 24 * time.Hour

// ShareLink is an invite link to a plan or collection.
type ShareLink struct {
	Code        string    `db:"code"`
	Type        ShareType `db:"type"`
	ReferenceID string    `db:"reference_id"`
	ExpiresAt   time.Time `db:"expires_at"`
}

// RoleGuest is the role of a guest holding a share link: read-only, never stored.
const RoleGuest Role = "GUEST"

const guestPrefix = "guest:"

// GuestViewer is the viewer id of a guest holding a share link to one plan or collection.
// Store reads accept it where they take a user id, and let it read that resource only; it
// cannot be mistaken for a user id (those never hold a colon).
func GuestViewer(t ShareType, referenceID string) string {
	return guestPrefix + string(t) + ":" + referenceID
}

// ParseGuestViewer reads a GuestViewer id.
func ParseGuestViewer(viewer string) (ShareType, string, bool) {
	rest, ok := strings.CutPrefix(viewer, guestPrefix)
	if !ok {
		return "", "", false
	}
	t, id, ok := strings.Cut(rest, ":")
	return ShareType(t), id, ok
}
