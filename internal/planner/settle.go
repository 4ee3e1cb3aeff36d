package planner

import (
	"cmp"
	"slices"
)

// Payment is an expense someone paid: its amount, the plan member who paid, and the members
// who share it (empty: everyone).
type Payment struct {
	Amount     int64
	PaidBy     string
	SplitAmong []string
}

// Balance is what a member paid, their share of the costs, and the difference (positive:
// they are owed money).
type Balance struct {
	MemberID string
	Paid     int64
	Share    int64
	Balance  int64
}

// Transfer is one payment that settles up: From pays To the Amount.
type Transfer struct {
	From, To string
	Amount   int64
}

// Settle splits each payment among its sharers in whole units — the remainder goes one unit
// each to the first sharers in id order, so the same data always settles the same way — and
// returns every member's balance (they sum to zero) and at most len(members)−1 transfers
// that bring all balances to zero: the largest debtor pays the largest creditor, and so on.
// members are everyone the payments may name; sharers outside it are ignored.
func Settle(members []string, payments []Payment) ([]Balance, []Transfer) {
	ids := slices.Clone(members)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	index := make(map[string]int, len(ids))
	out := make([]Balance, len(ids))
	for i, id := range ids {
		index[id], out[i] = i, Balance{MemberID: id}
	}
	for _, p := range payments {
		payer, ok := index[p.PaidBy]
		if !ok || p.Amount <= 0 {
			continue
		}
		var sharers []int
		for _, id := range p.SplitAmong {
			if i, ok := index[id]; ok {
				sharers = append(sharers, i)
			}
		}
		if len(sharers) == 0 {
			for i := range ids {
				sharers = append(sharers, i)
			}
		}
		slices.Sort(sharers)
		sharers = slices.Compact(sharers)
		each, rest := p.Amount/int64(len(sharers)), p.Amount%int64(len(sharers))
		for k, i := range sharers {
			out[i].Share += each
			if int64(k) < rest {
				out[i].Share++
			}
		}
		out[payer].Paid += p.Amount
	}
	for i := range out {
		out[i].Balance = out[i].Paid - out[i].Share
	}
	return out, transfers(out)
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
