package planner

import "time"

// ActivityKind is what someone did to a plan or a collection: the kind of an entry of its
// history (docs/API.md §Activity) and the event type of the notifications it causes.
type ActivityKind string

// Activity kinds. The plan's: blocks, candidates, opinions, expenses, members, the plan itself.
const (
	ActBlockAdded         ActivityKind = "BLOCK_ADDED"
	ActBlockMoved         ActivityKind = "BLOCK_MOVED"
	ActBlockRemoved       ActivityKind = "BLOCK_REMOVED"
	ActBlockRestored      ActivityKind = "BLOCK_RESTORED"
	ActCandidateAdded     ActivityKind = "CANDIDATE_ADDED"
	ActCandidateRemoved   ActivityKind = "CANDIDATE_REMOVED"
	ActCandidateConfirmed ActivityKind = "CANDIDATE_CONFIRMED"
	ActOpinionAdded       ActivityKind = "OPINION_ADDED"
	ActOpinionChanged     ActivityKind = "OPINION_CHANGED"
	ActOpinionRemoved     ActivityKind = "OPINION_REMOVED"
	ActExpenseAdded       ActivityKind = "EXPENSE_ADDED"
	ActExpenseChanged     ActivityKind = "EXPENSE_CHANGED"
	ActExpenseRemoved     ActivityKind = "EXPENSE_REMOVED"
	ActPlanRenamed        ActivityKind = "PLAN_RENAMED"
	ActPlanDatesChanged   ActivityKind = "PLAN_DATES_CHANGED"
	// Two days' blocks swapped (Details.Day and FromDay).
	ActDaysSwapped ActivityKind = "DAYS_SWAPPED"
	// A day's blocks given new times at once: optimising the day, or its undo (Details.Day).
	ActDayOptimised ActivityKind = "DAY_OPTIMISED"
	// A plan made from a backup (POST /plans/imports; Details.Title: the backup's title).
	ActPlanRestored ActivityKind = "PLAN_RESTORED"
	// A payment between members recorded as made, or such a record deleted (settling up).
	ActSettlementRecorded ActivityKind = "SETTLEMENT_RECORDED"
	ActSettlementDeleted  ActivityKind = "SETTLEMENT_DELETED"
)

// Activity kinds of plans and collections alike: membership.
const (
	ActMemberJoined  ActivityKind = "MEMBER_JOINED"
	ActMemberLeft    ActivityKind = "MEMBER_LEFT"
	ActMemberRemoved ActivityKind = "MEMBER_REMOVED"
	ActOwnerChanged  ActivityKind = "OWNER_CHANGED"
)

// Activity kinds of a collection: its places.
const (
	ActPlaceAdded   ActivityKind = "PLACE_ADDED"
	ActPlaceRemoved ActivityKind = "PLACE_REMOVED"
)

// Kinds that only notify (they are no part of the history): a pick or pass on a place someone
// added, and the end of an extraction job.
const (
	ActPreferenceAdded     ActivityKind = "PREFERENCE_ADDED"
	ActPreferenceRemoved   ActivityKind = "PREFERENCE_REMOVED"
	ActExtractionCompleted ActivityKind = "EXTRACTION_COMPLETED"
	ActExtractionFailed    ActivityKind = "EXTRACTION_FAILED"
)

// TargetType is the kind of thing an activity is about.
type TargetType string

// Target types (docs/API.md §Activity).
const (
	TargetPlan            TargetType = "PLAN"
	TargetTimeBlock       TargetType = "TIME_BLOCK"
	TargetCandidate       TargetType = "CANDIDATE"
	TargetOpinion         TargetType = "OPINION"
	TargetExpense         TargetType = "EXPENSE"
	TargetMember          TargetType = "MEMBER"
	TargetCollectionPlace TargetType = "COLLECTION_PLACE"
	TargetSettlement      TargetType = "SETTLEMENT"
)

// Details are the facts that the sentences about an activity or a notification need, as they
// were when it happened, so that the history of something since changed or deleted still
// reads right. They hold names and numbers, never wording: views render the sentences. Which
// fields are set depends on the kind.
type Details struct {
	// Places names a time block: its confirmed place, or its candidates while it is undecided;
	// none for free time.
	Places []string `json:"places,omitempty"`
	// Place is the place of a candidate, an opinion, a collection place or a candidate's costs.
	Place string `json:"place,omitempty"`
	// Names are the other names (Place.Names) of the places named above, by name, so that a
	// reader sees each in their language (places.DisplayName); none for places without, and in
	// facts kept before they were.
	Names map[string][]string `json:"names,omitempty"`
	// Day, Start and End are the time block's slot (times "HH:MM"); a move also has where it was.
	Day       int    `json:"day,omitempty"`
	Start     string `json:"start,omitempty"`
	End       string `json:"end,omitempty"`
	FromDay   int    `json:"from_day,omitempty"`
	FromStart string `json:"from_start,omitempty"`
	FromEnd   string `json:"from_end,omitempty"`
	// Opinion is an opinion's type ("" once taken back); Preference the PICK or PASS given or
	// taken back.
	Opinion    OpinionType `json:"opinion,omitempty"`
	Preference Preference  `json:"preference,omitempty"`
	// Expense is an additional expense's first line, Lines how many it has, Amount its total in
	// Currency (a candidate's costs have Place instead of Expense); a recorded payment has
	// Amount and Currency too.
	Expense  string `json:"expense,omitempty"`
	Lines    int    `json:"lines,omitempty"`
	Amount   *int64 `json:"amount,omitempty"`
	Currency string `json:"currency,omitempty"`
	// Member is the nickname of the member who joined, left, was removed or made owner.
	Member string `json:"member,omitempty"`
	// Payer and Payee are the nicknames of the members a recorded payment went from and to.
	Payer string `json:"payer,omitempty"`
	Payee string `json:"payee,omitempty"`
	// Title is the plan's new title and FromTitle its old one; StartDate and EndDate its new
	// dates (YYYY-MM-DD).
	Title     string `json:"title,omitempty"`
	FromTitle string `json:"from_title,omitempty"`
	StartDate string `json:"start_date,omitempty"`
	EndDate   string `json:"end_date,omitempty"`
	// Actor and In, in notifications: the acting user's nickname and the plan's or collection's
	// title when it happened.
	Actor string `json:"actor,omitempty"`
	In    string `json:"in,omitempty"`
}

// Activity is one entry of a plan's or a collection's history: who did what to which thing.
type Activity struct {
	ID        string
	Kind      ActivityKind
	Actor     *Member // nil when nobody (or a member no longer known) did it
	Target    Target
	Details   Details
	CreatedAt time.Time
}

// Target is what an activity is about.
type Target struct {
	Type TargetType
	ID   string
}

// BlockDetails are the facts that name a time block: its slot and its confirmed place (or its
// candidates while undecided; none for free time).
func BlockDetails(b *TimeBlock) Details {
	d := Details{Day: b.Day.Day, Start: b.Start.HHMM(), End: b.End.HHMM(), Places: []string{}}
	if c := b.Confirmed(); c != nil && c.Place != nil {
		d.Places = append(d.Places, d.name(c.Place))
		return d
	}
	for _, c := range b.Candidates {
		if c.Place != nil {
			d.Places = append(d.Places, d.name(c.Place))
		}
	}
	return d
}

// CandidateDetails are the facts that name a candidate of a time block: its place and the
// block's slot.
func CandidateDetails(b *TimeBlock, candidateID string) Details {
	d := Details{Day: b.Day.Day, Start: b.Start.HHMM(), End: b.End.HHMM()}
	for _, c := range b.Candidates {
		if c.ID == candidateID && c.Place != nil {
			d.Place = d.name(c.Place)
		}
	}
	return d
}

// name is p's name, its other names noted in d.Names.
func (d *Details) name(p *Place) string {
	for n, others := range NamesOf(p.Name, p.Names) {
		if d.Names == nil {
			d.Names = map[string][]string{}
		}
		d.Names[n] = others
	}
	return p.Name
}

// NamesOf are the other names of the place named name, as Details.Names holds them (nil for
// none).
func NamesOf(name string, others []string) map[string][]string {
	if name == "" || len(others) == 0 {
		return nil
	}
	return map[string][]string{name: others}
}
