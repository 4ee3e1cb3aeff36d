package planner

import "time"

// MemoMaxLength is the longest memo of a block or candidate, in characters.
const MemoMaxLength = 300

// BlockType is the type of a time block.
type BlockType string

// Block types: a PLACE block holds place candidates, a FREE block holds one place-less entry.
const (
	BlockPlace BlockType = "PLACE"
	BlockFree  BlockType = "FREE"
)

// BlockStatus is the derived state of a time block (see TimeBlock.Status).
type BlockStatus string

// Block statuses.
const (
	StatusFixed   BlockStatus = "FIXED"   // two or more candidates, one confirmed
	StatusPending BlockStatus = "PENDING" // two or more candidates, none confirmed
	StatusDirect  BlockStatus = "DIRECT"  // one candidate (selected), or transiently none
	StatusNothing BlockStatus = "NOTHING" // a FREE block: nothing to select
)

// OpinionType is a member's opinion of a candidate.
type OpinionType string

// Opinion types.
const (
	OpinionPositive OpinionType = "POSITIVE"
	OpinionNeutral  OpinionType = "NEUTRAL"
	OpinionNegative OpinionType = "NEGATIVE"
)

// Slot is where a time block lies: a day of the plan and the half-open interval
// [Start, End) of it.
type Slot struct {
	Day        int
	Start, End TimeOfDay
}

// Validate records the slot's invalid fields: day 1–30, start before end (compared only when
// neither time was already recorded as bad).
func (s Slot) Validate(v *Validation) {
	CheckDay(v, "day", s.Day)
	if !v.Has("start_time") && !v.Has("end_time") {
		v.Check(s.Start < s.End, "start_time", "must be earlier than end_time")
	}
}

// NewBlock is a block to add from a collection linked to the plan (PLACE) or a free-time
// block (FREE).
type NewBlock struct {
	Type              BlockType
	CollectionPlaceID string // PLACE only
	Slot
	Memo string
}

// Validate records the block's invalid fields, by their JSON names.
func (b NewBlock) Validate(v *Validation) {
	switch b.Type {
	case BlockPlace:
		v.Check(b.CollectionPlaceID != "", "collection_place_id", "is required for a PLACE block")
	case BlockFree:
		v.Check(b.CollectionPlaceID == "", "collection_place_id", "must be absent for a FREE block")
	default:
		v.Add("type", "must be PLACE or FREE")
	}
	b.Slot.Validate(v)
	checkOptional(v, "memo", b.Memo, MemoMaxLength)
}

// ManualPlace is a place a member types in rather than picks from a provider.
type ManualPlace struct {
	Name, Address, URL string
}

// BlockChange edits a block: each non-nil field is set. Start and End go together; a new
// day or time moves the whole time block.
type BlockChange struct {
	Day        *int
	Start, End *TimeOfDay
	Memo       *string
	FixedTime  *bool // the time block's "fixed time" mark
}

// MyOpinion is the caller's own opinion of a candidate.
type MyOpinion struct {
	ID   string
	Type OpinionType
}

// OpinionSummary tallies the opinions of a candidate.
type OpinionSummary struct {
	Total, Positive, Neutral, Negative int
	Mine                               *MyOpinion // nil when the caller has none
}

// Candidate is one proposal of a time block: a place, or a FREE block's place-less entry. The
// API calls it a "block" (block_id).
type Candidate struct {
	ID                string
	Memo              string
	Place             *Place // nil for a FREE block's entry
	CollectionPlaceID string // the collection place it came from, "" if none (any more)
	Selected          bool
	AddedBy           Member
	Opinions          OpinionSummary
}

// TimeBlock is an interval of a plan day holding candidates in creation order.
type TimeBlock struct {
	ID         string
	Type       BlockType
	Day        DayInfo
	Start, End TimeOfDay
	Candidates []Candidate
	// Version counts the changes to the block, its candidates and its selection.
	Version int
	// FixedTime marks a reservation: optimising the day leaves the block where it is.
	FixedTime bool
}

// Deletion is a deleted time block that can be restored for a while: its id (for
// POST /plans/{p}/deleted-blocks/{id}/restore) and the block as it was.
type Deletion struct {
	ID    string
	Block *TimeBlock
}

// Selected is the confirmed candidate, or nil.
func (b *TimeBlock) Selected() *Candidate {
	for i := range b.Candidates {
		if b.Candidates[i].Selected {
			return &b.Candidates[i]
		}
	}
	return nil
}

// Confirmed is where the block will be: the selected candidate, or a DIRECT block's only
// candidate; nil for free time and for blocks still undecided between candidates.
func (b *TimeBlock) Confirmed() *Candidate {
	if b.Type != BlockPlace {
		return nil
	}
	if c := b.Selected(); c != nil {
		return c
	}
	if len(b.Candidates) == 1 {
		return &b.Candidates[0]
	}
	return nil
}

// Status derives the block's status from its type and candidates (docs/API.md §Time blocks): FREE is
// NOTHING; a PLACE block with at most one candidate is DIRECT; with two or more it is FIXED
// when one is selected, else PENDING.
func (b *TimeBlock) Status() BlockStatus {
	switch {
	case b.Type == BlockFree:
		return StatusNothing
	case len(b.Candidates) <= 1:
		return StatusDirect
	case b.Selected() != nil:
		return StatusFixed
	}
	return StatusPending
}

// Opinion is a plan member's opinion of a candidate.
type Opinion struct {
	ID                   string
	Type                 OpinionType
	Comment              string
	TagIDs               []string
	AddedBy              Member
	Version              int
	CreatedAt, UpdatedAt time.Time
}

// SocialMedia is the web page, video or post a place was extracted from.
type SocialMedia struct {
	ID, MediaType, URL, AuthorName, Title, Summary string
}

// BlockDetail is one candidate with its time block, the opinions on it and the post its place
// came from (nil if none).
type BlockDetail struct {
	TimeBlockID string
	Type        BlockType
	Day         DayInfo
	Start, End  TimeOfDay
	Version     int  // the time block's
	FixedTime   bool // the time block's
	Block       Candidate
	Opinions    []Opinion
	SocialMedia *SocialMedia
	// MovedFrom is where the update that answered this detail moved the block from (nil when
	// it did not move it), so that the move can be undone.
	MovedFrom *Slot
}

// ExpenseItem is a line of an expense; Cost is in minor units of the expense's currency.
type ExpenseItem struct {
	ID   string
	Name string
	Cost int64
}

// CandidateExpense is a candidate with its expense (place candidates have one; a FREE block's
// entry has none: ExpenseID "").
type CandidateExpense struct {
	Candidate
	ExpenseID string
	Items     []ExpenseItem
}

// CandidateList is a time block's candidates with their expenses (costs in minor units of
// Currency, the plan's), for comparing them.
type CandidateList struct {
	TimeBlockID string
	PlanTitle   string
	Currency    string
	Day         DayInfo
	Start, End  TimeOfDay
	Version     int // the time block's
	Candidates  []CandidateExpense
	// Opinions are every opinion on the candidates, by candidate id, oldest first; only the
	// discussion (the candidate picker) loads them.
	Opinions map[string][]Opinion
}

// OpinionInput is what a member says about a candidate.
type OpinionInput struct {
	Type    OpinionType
	Comment string
	TagIDs  []string
}
