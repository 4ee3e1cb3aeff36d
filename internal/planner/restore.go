package planner

import (
	"strings"
	"unicode/utf8"
)

// Limits of a plan backup restored as a new plan (POST /plans/imports). The days are the
// plan's own cap (MaxPlanDays); the rest bound each list by what a real plan holds.
const (
	RestoreMaxBytes = 5 << 20 // 5 MiB, about five times the 30-day plan of the export's benchmark
	// RestoreBlocksPerDayMax bounds a day's time blocks: one every quarter of an hour.
	RestoreBlocksPerDayMax = 96
	// RestoreCandidatesPerBlockMax bounds a time block's candidates (adding takes
	// CandidatesPerAddMax at a time; a block compares a handful of alternatives).
	RestoreCandidatesPerBlockMax = 50
	// RestoreOpinionsPerCandidateMax bounds a candidate's opinions, one per member.
	RestoreOpinionsPerCandidateMax = 100
	// RestoreExpensesMax bounds the expenses: every place candidate's and the additional ones.
	RestoreExpensesMax = 5000
	// RestorePlacesMax bounds the places listed once in the backup.
	RestorePlacesMax = 5000
	// RestoreMembersMax bounds the members and former members the backup names.
	RestoreMembersMax = 500
)

// Restore is a plan backup (GET /plans/{p}/export.json) read and checked, to become a new plan
// of the caller's. Everything refers to the backup's own ids ("keys"): the store makes new ids.
type Restore struct {
	Plan   PlanInput
	Budget RestoreBudget
	// Members are the nicknames of the backup's members and former members, by their id there.
	Members map[string]string
	// Places are the backup's places: one whose key is a catalogue or provider place here is
	// used as it is, any other becomes a custom place (provider MANUAL) from these fields.
	Places []RestorePlace
	// Blocks are every day's time blocks, by day and time, none overlapping.
	Blocks []RestoreBlock
	// Expenses are the expenses in the backup's order; their terms name members by key.
	Expenses []RestoreExpense
	// Collections are the linked collections' ids: those the caller is a member of are linked.
	Collections []string
	// Words say each opinion type in the caller's language, for the notes of opinions whose
	// authors do not come along (OpinionNote).
	Words map[OpinionType]string
}

// RestorePlace is a place of a backup.
type RestorePlace struct {
	Key, Name, Address, MapsURI string
	Latitude, Longitude         string // decimal degrees, both "" for none
}

// RestoreBlock is a time block of a backup with its candidates in their order.
type RestoreBlock struct {
	Day        int
	Type       BlockType
	Start, End TimeOfDay
	FixedTime  bool
	Candidates []RestoreCandidate
}

// RestoreCandidate is a candidate of a backup: Key is its block_id there, PlaceKey its
// place's key ("" for free time), AddedBy a member key.
type RestoreCandidate struct {
	Key, PlaceKey, Memo string
	Selected            bool
	AddedBy             string
	Opinions            []RestoreOpinion
}

// RestoreOpinion is an opinion of a backup, AddedBy a member key.
type RestoreOpinion struct {
	Type    OpinionType
	Comment string
	TagIDs  []string
	AddedBy string
}

// RestoreBudget is a backup's budget: its type, total (minor units of the plan's currency, nil
// when not set) and traveller count (0 when not set: the member count).
type RestoreBudget struct {
	Mode          BudgetMode
	TotalBudget   *int64
	TravelerCount int
}

// RestoreExpense is an expense of a backup: a candidate's (CandidateKey) or an additional one
// on Day after the time block AfterBlock (an index in Restore.Blocks, -1 for the day's start),
// with its items priced and its terms naming members by key.
type RestoreExpense struct {
	Kind         ExpenseKind
	CandidateKey string
	Day          int
	AfterBlock   int
	Items        []ExpenseItem
	Terms        Terms
}

// Total is the sum of the items, in minor units of the expense's currency.
func (e RestoreExpense) Total() int64 { return Expense{Items: e.Items}.Total() }

// PaidAndSharedBy is the terms with every member they name made one member, me: payers' and
// EXACT amounts summed into me's, SHARES one share of me's, an EQUAL split among some members
// among me alone. What is paid and shared, and every total, stays the same.
func (t Terms) PaidAndSharedBy(me string) Terms {
	out := t
	if out.PaidBy != "" {
		out.PaidBy = me
	}
	merge := func(parts []Part) []Part {
		if len(parts) == 0 {
			return parts
		}
		one := Part{MemberID: me}
		for _, p := range parts {
			one.Amount += p.Amount
			one.Shares = min(one.Shares+p.Shares, 1)
		}
		return []Part{one}
	}
	out.Payers = merge(t.Payers)
	out.Split.Parts = merge(t.Split.Parts)
	if len(t.Split.Members) > 0 {
		out.Split.Members = []string{me}
	}
	return out
}

// Nest records err's field errors under path (path.field; path "" keeps them as they are):
// the fields of a part of a document checked on its own. An error without fields marks path
// itself.
func (v *Validation) Nest(path string, err error) {
	if err == nil {
		return
	}
	e, ok := err.(*Error)
	if !ok || len(e.Fields) == 0 {
		v.Add(path, "is not valid")
		return
	}
	for _, f := range e.Fields {
		if path != "" {
			f.Field = path + "." + f.Field
		}
		v.add(f)
	}
}

// OpinionNote is an opinion whose author does not come along with a restored plan, as a line
// of its candidate's memo: `Ben: like — “great view”` (word says the type in the reader's
// language; no comment, no quotation).
func OpinionNote(nickname, word, comment string) string {
	note := nickname + ": " + word
	if c := strings.Join(strings.Fields(comment), " "); c != "" {
		note += " — “" + c + "”"
	}
	return note
}

// WithNotes is a memo with notes on lines after it, cut to MemoMaxLength characters (the last
// one an ellipsis) when they do not fit.
func WithNotes(memo string, notes []string) string {
	lines := append([]string{}, notes...)
	if memo != "" {
		lines = append([]string{memo}, lines...)
	}
	out := strings.Join(lines, "\n")
	if utf8.RuneCountInString(out) <= MemoMaxLength {
		return out
	}
	return string([]rune(out)[:MemoMaxLength-1]) + "…"
}
