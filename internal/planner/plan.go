package planner

import (
	"strings"
	"time"

	"tripplan/internal/money"
)

// MaxPlanDays is the most days a plan may have.
const MaxPlanDays = 30

// Destination is where a trip goes: a city by name and a point in it (WGS84 degrees). It
// centres the plan's map, ranks the city's places first in searches from the plan, and gives
// the plan its time zone unless a member chose one.
type Destination struct {
	Name     string
	Lat, Lng float64
}

// DestinationNameMax bounds a destination's name, in characters.
const DestinationNameMax = 100

// Plan is a trip plan: a title and 1–30 consecutive days, with its counts and a thumbnail
// (the first photo of its blocks' places, else of its linked collections' places).
type Plan struct {
	ID              string       `db:"id"`
	Title           string       `db:"title"`
	Thumbnail       string       `db:"thumbnail"`
	StartDate       time.Time    `db:"start_date"`
	EndDate         time.Time    `db:"end_date"`
	TimeZone        string       `db:"time_zone"`        // IANA name; block times of day are local to it
	TimeZoneSource  string       `db:"time_zone_source"` // DEFAULT (UTC, nobody chose), PLACE (the first place's), DESTINATION, MEMBER
	Currency        string       `db:"currency"`         // ISO 4217 code its amounts are in
	Destination     *Destination `db:"-"`                // nil when none was chosen
	MemberCount     int          `db:"member_count"`
	CollectionCount int          `db:"collection_count"`
	Version         int          `db:"version"`
}

// DurationDays is the number of days of the plan.
func (p Plan) DurationDays() int { return daysBetween(p.StartDate, p.EndDate) + 1 }

// PlanInput is what creating or editing a plan takes; only the calendar date of StartDate
// and EndDate counts.
type PlanInput struct {
	Title              string
	StartDate, EndDate time.Time
	TimeZone           string // a valid IANA name, or "" to keep it (a new plan's follows its destination, else its first place)
	// Currency is an ISO 4217 code, or "" to keep it (a new plan's is KRW). A change keeps
	// the plan's amounts as numbers of major units (the store's rescaleAmounts).
	Currency string
	// Destination is where the trip goes, nil for none; when editing, KeepDestination leaves
	// the stored one as it is (a client that does not send one).
	Destination     *Destination
	KeepDestination bool
}

// Days is the number of days from StartDate to EndDate, both included, or INVALID_DATE_RANGE
// when the end is before the start or the plan would last more than MaxPlanDays.
func (in PlanInput) Days() (int, error) {
	n := daysBetween(in.StartDate, in.EndDate) + 1
	if n < 1 || n > MaxPlanDays {
		return 0, Errorf(CodeInvalidDateRange, "The end date must not be before the start date, and a plan lasts at most %d days.", MaxPlanDays)
	}
	return n, nil
}

// daysBetween counts calendar days from a to b (negative when b is earlier).
func daysBetween(a, b time.Time) int {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	from := time.Date(ay, am, ad, 0, 0, 0, 0, time.UTC)
	to := time.Date(by, bm, bd, 0, 0, 0, 0, time.UTC)
	return int(to.Sub(from) / (24 * time.Hour))
}

// DateChange is what a change of a plan's dates does to its days.
type DateChange string

// Date changes: the same number of days (the dates move), more days, fewer days.
const (
	DateChangeStay     DateChange = "STAY"
	DateChangeIncrease DateChange = "INCREASE"
	DateChangeDecrease DateChange = "DECREASE"
)

// CompareDays tells what going from oldDays to newDays days is.
func CompareDays(oldDays, newDays int) DateChange {
	switch {
	case newDays > oldDays:
		return DateChangeIncrease
	case newDays < oldDays:
		return DateChangeDecrease
	}
	return DateChangeStay
}

// AffectedDay is a day a date change removes, with the number of time blocks on it.
type AffectedDay struct {
	Day        int `db:"day"`
	BlockCount int `db:"block_count"`
}

// PlanUpdate is the answer to editing a plan (the confirmation protocol of PUT /plans/{p}).
// A change of dates is applied only when confirmed; otherwise nothing changes and the update
// says what would happen.
type PlanUpdate struct {
	// RequiresConfirmation is true when the dates change and the change was not confirmed.
	RequiresConfirmation bool
	// Type is "" when the dates do not change.
	Type DateChange
	// Plan is the plan as changed, nil when nothing was applied.
	Plan *Plan
	// AffectedDays are the days the date change deletes (or would delete) with their block
	// counts: empty unless Type is DECREASE, nil when the dates do not change.
	AffectedDays []AffectedDay
}

// DayInfo is a day of a plan: its number (1-based) and date.
type DayInfo struct {
	Day  int       `db:"day"`
	Date time.Time `db:"date"`
}

// DayOfWeek is the day's weekday in capitals, as the API writes it: MONDAY … SUNDAY.
func (d DayInfo) DayOfWeek() string { return strings.ToUpper(d.Date.Weekday().String()) }

// MemberGroup is the members of a plan or collection and the caller among them.
type MemberGroup struct {
	Me      *Member // nil when the caller is not a member
	Members []Member
}

// Mark makes the member with the given id the group's Me (none when no member has it).
func (g *MemberGroup) Mark(memberID string) {
	g.Me = nil
	for i := range g.Members {
		if memberID != "" && g.Members[i].ID == memberID {
			g.Me = &g.Members[i]
		}
	}
}

// PlanCollection is a collection linked to a plan, with the plan member who linked it.
type PlanCollection struct {
	CollectionID string
	Title        string
	AddedBy      Member
}

// BudgetMode is how a plan's budget is shown: against a set total (BUDGET) or as the costs
// so far (EXPENSE); INITIAL until a total is set.
type BudgetMode string

// Budget modes.
const (
	BudgetInitial BudgetMode = "INITIAL"
	BudgetBudget  BudgetMode = "BUDGET"
	BudgetExpense BudgetMode = "EXPENSE"
)

// Budget is a plan's budget with its computed totals (docs/API.md §Money, "Budget maths").
type Budget struct {
	ID            string
	Mode          BudgetMode
	TotalBudget   *int64 // nil until set; amounts in minor units of Currency
	TotalCost     int64
	TravelerCount int // the set count, else the member count
	Currency      string
	Version       int // counts the changes to type, total budget and traveler count
}

// Remaining is the total budget (or 0) minus the costs.
func (b Budget) Remaining() int64 {
	var total int64
	if b.TotalBudget != nil {
		total = *b.TotalBudget
	}
	return total - b.TotalCost
}

// CostPerPerson divides the budget (BUDGET mode) or the costs by the travellers, rounded half up.
func (b Budget) CostPerPerson() int64 {
	amount := b.TotalCost
	if b.Mode == BudgetBudget && b.TotalBudget != nil {
		amount = *b.TotalBudget
	}
	n := int64(max(b.TravelerCount, 1))
	return (2*amount + n) / (2 * n)
}

// BudgetChange sets the mode and, when not nil, the total (in major units of the currency the
// plan has after the change: the store reads it with MinorUnits), traveller count and currency
// (an ISO 4217 code).
type BudgetChange struct {
	Mode          BudgetMode
	TotalBudget   *money.Decimal
	TravelerCount *int
	Currency      *string
}

// Presence is who has a plan open right now: its members, each once however many windows
// they have open, the caller among them, and how many guests are looking.
type Presence struct {
	MemberGroup
	Guests int
}

// PlanExport is everything in a plan, for its exports (calendar, GPX, JSON backup).
type PlanExport struct {
	Plan        Plan
	Days        []DayInfo
	Blocks      []TimeBlock          // every day's, by day and time
	Opinions    map[string][]Opinion // by candidate id, oldest first
	Members     []Member             // active ones, the owner first
	Collections []PlanCollection
	Budget      Budget
	Expenses    []Expense
	// Placed is where each additional expense is, by its id.
	Placed map[string]Placement
}

// Placement is where an additional expense is: its day and the time block it follows ("" for
// the day's start).
type Placement struct {
	Day              int
	AfterTimeBlockID string
}
