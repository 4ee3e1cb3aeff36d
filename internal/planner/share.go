package planner

import "time"

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
