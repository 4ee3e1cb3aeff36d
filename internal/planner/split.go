package planner

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
)

// SplitMode says how an expense is shared (docs/API.md §Money).
type SplitMode string

// Split modes: equally among chosen members, by exact amounts, or by shares.
const (
	SplitEqual  SplitMode = "EQUAL"
	SplitExact  SplitMode = "EXACT"
	SplitShares SplitMode = "SHARES"
)

// Part is one member's part of an expense: an amount in minor units of the expense's currency
// (a payer's, or an EXACT split's), or a number of shares (a SHARES split's).
type Part struct {
	MemberID string `json:"plan_member_id"`
	Amount   int64  `json:"amount,omitempty"`
	Shares   int64  `json:"shares,omitempty"`
}

// Split is who shares an expense: EQUAL among Members (none: every active member), EXACT by
// the Parts' amounts, or SHARES by the Parts' shares.
type Split struct {
	Mode    SplitMode
	Members []string
	Parts   []Part
}

// SharesMax bounds one member's shares of an expense.
const SharesMax = 1000

// weight is a part's weight in its split: its amount, or its shares.
func (p Part) weight() int64 { return p.Amount + p.Shares }

// Allocate divides total into len(weights) integers proportional to the weights that sum to
// total exactly: each gets the floor of its exact part, and the units left over go one each to
// the largest remainders, earlier entries first on ties (largest remainder method). With no
// positive weight every entry weighs the same. Weights and total are not negative.
func Allocate(total int64, weights []int64) []int64 {
	out := make([]int64, len(weights))
	if len(weights) == 0 {
		return out
	}
	var sum int64
	for _, w := range weights {
		sum += w
	}
	if sum == 0 {
		weights = slices.Repeat([]int64{1}, len(weights))
		sum = int64(len(weights))
	}
	type rest struct {
		i int
		r uint64
	}
	rests := make([]rest, len(weights))
	var given int64
	for i, w := range weights {
		// total × w / sum exactly, in 128 bits: w ≤ sum, so the quotient is at most total
		// and fits (Div64 needs hi < sum).
		hi, lo := bits.Mul64(uint64(total), uint64(w))
		q, r := bits.Div64(hi, lo, uint64(sum))
		out[i] = int64(q)
		given += out[i]
		rests[i] = rest{i, r}
	}
	slices.SortStableFunc(rests, func(a, b rest) int { return cmp.Compare(b.r, a.r) })
	for k := 0; given < total; k++ {
		out[rests[k].i]++
		given++
	}
	return out
}

// CheckParts checks a list of parts (payers, or an EXACT or SHARES split) given as field:
// no empty id, no member twice (docs/API.md §Money, safety), no negative amount, shares from 0
// to SharesMax. Whether the ids are members, and no more than the plan has, the store checks.
func CheckParts(v *Validation, field string, parts []Part) {
	seen := make(map[string]bool, len(parts))
	for _, p := range parts {
		switch {
		case strings.TrimSpace(p.MemberID) == "":
			v.Add(field, "must not hold empty ids")
			return
		case seen[p.MemberID]:
			v.Add(field, "must not list a member twice")
			return
		case p.Amount < 0:
			v.Add(field, "amounts must not be negative")
			return
		case p.Shares < 0 || p.Shares > SharesMax:
			v.Addf(field, "shares must be whole numbers from 0 to %d", SharesMax)
			return
		}
		seen[p.MemberID] = true
	}
}

// PartIDs are the member ids the parts name.
func PartIDs(parts []Part) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.MemberID
	}
	return out
}
