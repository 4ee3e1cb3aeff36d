package planner

import "strings"

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

// CheckSharers checks split_among, the members who share an expense equally
// (API-additions §5, safety): no empty id and no member listed twice. Each entry must also be
// an active member of the plan, so the list holds at most the plan's member count; the store
// learns that count in the same query that checks the ids and asks SharersFit.
func CheckSharers(v *Validation, ids []string) {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		switch {
		case strings.TrimSpace(id) == "":
			v.Add("split_among", "must not hold empty ids")
			return
		case seen[id]:
			v.Add("split_among", "must not list a member twice")
			return
		}
		seen[id] = true
	}
}

// SharersFit is INVALID_REQUEST on split_among when n sharers are more than the plan's
// members, else nil.
func SharersFit(n, members int) error {
	if n <= members {
		return nil
	}
	var v Validation
	v.Addf("split_among", "must list at most the plan's members (%d)", members)
	return v.Err()
}
