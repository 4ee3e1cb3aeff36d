package planner

import (
	"cmp"
	"slices"
	"time"
)

// Payment is an expense that counts in settling up: its amount in minor units of the plan's
// currency (converted once, docs/API.md §Money), who paid it — Payers, weighted by what each
// paid in the expense's own currency — and how it is shared.
type Payment struct {
	Amount int64
	Payers []Part
	Split  Split
}

// Balance is what a member paid for the group's expenses, their share of them, what they sent
// and received in recorded payments between members, and where that leaves them (positive:
// they are owed money): Balance = Paid − Share + Sent − Received.
type Balance struct {
	MemberID string
	Paid     int64
	Share    int64
	Sent     int64
	Received int64
	Balance  int64
}

// Ledger is what settling up a plan starts from: the payments that count, the payments
// recorded between members, the members they may name (the active ones and anyone a payment
// names, in join order), the active members' ids (whom a split among everyone shares
// with), and the plan's currency.
type Ledger struct {
	Members  []Member
	Active   []string
	Payments []Payment
	Recorded []Transfer
	Currency string
}

// BudgetOverview is what a plan's budget page shows beside a day's expenses: the budget, the
// costs that count (Counted, for the breakdowns), what settling up starts from, and the newest
// payments recorded between members (MoreRecorded: there are older ones); Me is the viewer's
// plan member id ("" for a guest).
type BudgetOverview struct {
	Me           string
	Budget       Budget
	Counted      []Cost
	Ledger       Ledger
	Recent       []Settlement
	MoreRecorded bool
}

// Transfer is a payment between members: From pays To the Amount (a suggested one, or one
// recorded as made).
type Transfer struct {
	From, To string
	Amount   int64
}

// Settlement is a payment a member recorded as made from one member of the plan to another
// (docs/API.md §Money): Amount in minor units of the plan's Currency. From, To and CreatedBy may
// be members who have left since.
type Settlement struct {
	ID        string
	From, To  Member
	Amount    int64
	Currency  string
	CreatedBy Member
	CreatedAt time.Time
}

// Settle divides each payment among its payers and its sharers (Allocate, in member id order,
// so the same data always settles the same way: the amounts sum to the payment exactly), counts
// the recorded payments, and returns every member's balance (they sum to zero) and at most
// members−1 transfers that bring all balances to zero: the largest debtor pays the largest
// creditor, and so on. members are those an EQUAL split among everyone shares with (the active
// members); anyone else a payment names is counted too.
func Settle(members []string, payments []Payment, recorded []Transfer) ([]Balance, []Transfer) {
	ids := slices.Clone(members)
	for _, p := range payments {
		ids = append(ids, PartIDs(p.Payers)...)
		ids = append(ids, p.Split.Members...)
		ids = append(ids, PartIDs(p.Split.Parts)...)
	}
	for _, t := range recorded {
		ids = append(ids, t.From, t.To)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	everyone := slices.Clone(members)
	slices.Sort(everyone)
	everyone = slices.Compact(everyone)
	index := make(map[string]int, len(ids))
	out := make([]Balance, len(ids))
	for i, id := range ids {
		index[id], out[i] = i, Balance{MemberID: id}
	}
	for _, p := range payments {
		if p.Amount <= 0 || len(p.Payers) == 0 {
			continue
		}
		allocate(p.Amount, p.Payers, func(id string, a int64) { out[index[id]].Paid += a })
		p.Split.allocate(p.Amount, everyone, func(id string, a int64) { out[index[id]].Share += a })
	}
	for _, t := range recorded {
		out[index[t.From]].Sent += t.Amount
		out[index[t.To]].Received += t.Amount
	}
	for i := range out {
		out[i].Balance = out[i].Paid - out[i].Share + out[i].Sent - out[i].Received
	}
	return out, transfers(out)
}

// allocate divides amount among parts by their weights, in member id order, handing each
// part's to add.
func allocate(amount int64, parts []Part, add func(id string, a int64)) {
	sorted := slices.Clone(parts)
	slices.SortFunc(sorted, func(a, b Part) int { return cmp.Compare(a.MemberID, b.MemberID) })
	weights := make([]int64, len(sorted))
	for i, p := range sorted {
		weights[i] = p.weight()
	}
	for i, a := range Allocate(amount, weights) {
		add(sorted[i].MemberID, a)
	}
}

// allocate divides amount among the split's sharers: by its parts' amounts or shares (EXACT,
// SHARES), else equally among its members, or everyone when it names nobody.
func (s Split) allocate(amount int64, everyone []string, add func(id string, a int64)) {
	if (s.Mode == SplitExact || s.Mode == SplitShares) && len(s.Parts) > 0 {
		allocate(amount, s.Parts, add)
		return
	}
	members := s.Members
	if len(members) == 0 {
		members = everyone
	}
	parts := make([]Part, len(members))
	for i, id := range members {
		parts[i] = Part{MemberID: id, Shares: 1}
	}
	allocate(amount, parts, add)
}

func transfers(balances []Balance) []Transfer {
	type side struct {
		id     string
		amount int64
	}
	var owed, owing []side
	for _, b := range balances {
		switch {
		case b.Balance > 0:
			owed = append(owed, side{b.MemberID, b.Balance})
		case b.Balance < 0:
			owing = append(owing, side{b.MemberID, -b.Balance})
		}
	}
	largestFirst := func(a, b side) int { return cmp.Or(cmp.Compare(b.amount, a.amount), cmp.Compare(a.id, b.id)) }
	slices.SortFunc(owed, largestFirst)
	slices.SortFunc(owing, largestFirst)
	var out []Transfer
	for i, j := 0, 0; i < len(owing) && j < len(owed); {
		amount := min(owing[i].amount, owed[j].amount)
		out = append(out, Transfer{From: owing[i].id, To: owed[j].id, Amount: amount})
		owing[i].amount -= amount
		owed[j].amount -= amount
		if owing[i].amount == 0 {
			i++
		}
		if owed[j].amount == 0 {
			j++
		}
	}
	return out
}
