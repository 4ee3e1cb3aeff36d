package planner

// The lists a request body may hold, each capped by what it means, decided here and nowhere
// else. The store checks and writes a list in a fixed number of statements whatever its length
// (never one per entry), so with these caps one request's work stays bounded.
const (
	// CandidatesPerAddMax bounds the places proposed to one time block by one request: a
	// block holds a handful of alternatives to compare, not a catalogue.
	CandidatesPerAddMax = 20
	// LinkCollectionsMax bounds the collections linked to a plan at once: the page of the
	// caller's collections the plan page offers.
	LinkCollectionsMax = MaxPageSize
	// ExtractionPicksMax bounds the places chosen at once from an extraction job's result.
	ExtractionPicksMax = MaxPageSize
	// ExpenseItemsMax bounds the items of one expense.
	ExpenseItemsMax = 50
	// OpinionTagsMax bounds the reasons given with one opinion.
	OpinionTagsMax = 10
)

// CheckSharers checks a list of member ids given as field (split_among, or an EQUAL split's
// members) as CheckParts checks parts (docs/API.md §Money, safety): no empty id and no member
// listed twice. Each entry must also be an active member of the plan, so a list holds at most
// the plan's member count; the store learns that count in the same query that checks the ids
// and asks SharersFit.
func CheckSharers(v *Validation, field string, ids []string) {
	parts := make([]Part, len(ids))
	for i, id := range ids {
		parts[i].MemberID = id
	}
	CheckParts(v, field, parts)
}

// SharersFit records field as bad when its list of n members is longer than the plan's
// members.
func SharersFit(v *Validation, field string, n, members int) {
	v.Checkf(n <= members, field, "must list at most the plan's members (%d)", members)
}
