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
	ID          string    `db:"id"` // the row's id: not a secret, unlike the code
	Code        string    `db:"code"`
	Type        ShareType `db:"type"`
	ReferenceID string    `db:"reference_id"`
	ExpiresAt   time.Time `db:"expires_at"`
}

// Invitation is a link still valid, as members see it in the list of a plan's or collection's
// links: who made it (their membership there) and when it stops working.
type Invitation struct {
	Code      string    `db:"code"`
	CreatedBy Member    `db:"created_by"`
	CreatedAt time.Time `db:"created_at"`
	ExpiresAt time.Time `db:"expires_at"`
}

// RoleGuest is the role of a guest holding a share link: read-only, never stored.
const RoleGuest Role = "GUEST"

const guestPrefix = "guest:"

// Guest is who a guest viewer id stands for: the holder of one share link (LinkID, the link's
// row id) to one plan or collection.
type Guest struct {
	Type        ShareType
	ReferenceID string
	LinkID      string
}

// GuestViewer is the viewer id of a guest holding the share link l. Store reads accept it where
// they take a user id, and let it read that resource only, while the link itself still works
// (the store checks the link on every read); store writes refuse it. It cannot be mistaken for
// a user id (those never hold a colon), and it holds the link's row id, never its secret code.
func GuestViewer(l *ShareLink) string {
	return guestPrefix + string(l.Type) + ":" + l.ReferenceID + ":" + l.ID
}

// ParseGuestViewer reads a GuestViewer id.
func ParseGuestViewer(viewer string) (Guest, bool) {
	rest, ok := strings.CutPrefix(viewer, guestPrefix)
	if !ok {
		return Guest{}, false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return Guest{}, false
	}
	return Guest{Type: ShareType(parts[0]), ReferenceID: parts[1], LinkID: parts[2]}, true
}

// IsGuestViewer reports whether the viewer id is a guest's (well formed or not).
func IsGuestViewer(viewer string) bool { return strings.HasPrefix(viewer, guestPrefix) }
