package planner

import "time"

// PlanSummary is a plan as listed: on the home page and in GET /plans.
type PlanSummary struct {
	ID          string    `db:"id"`
	Title       string    `db:"title"`
	StartDate   time.Time `db:"start_date"`
	EndDate     time.Time `db:"end_date"`
	MemberCount int       `db:"member_count"`
}

// PlanRef names a plan.
type PlanRef struct {
	ID    string `db:"id"`
	Title string `db:"title"`
}

// CollectionSummary is a collection as listed: on the home page and in GET /collections.
type CollectionSummary struct {
	ID          string `db:"id"`
	Title       string `db:"title"`
	Thumbnail   string `db:"thumbnail"`
	PlaceCount  int    `db:"place_count"`
	MemberCount int    `db:"member_count"`
	Version     int    `db:"version"`
}

// Role is a member's role in a plan or collection.
type Role string

// Membership roles.
const (
	RoleOwner  Role = "OWNER"
	RoleMember Role = "MEMBER"
)
