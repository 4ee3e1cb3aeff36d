package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestSettleByHand(t *testing.T) {
	// Ana paid 30,000 for three; Ben paid 10,001 for Ben and Cid.
	balances, moves := Settle([]string{"ana", "ben", "cid"}, []Payment{
		{Amount: 30000, PaidBy: "ana"},
		{Amount: 10001, PaidBy: "ben", SplitAmong: []string{"cid", "ben"}},
	})
	want := []Balance{{"ana", 30000, 10000, 20000}, {"ben", 10001, 15001, -5000}, {"cid", 0, 15000, -15000}}
	if fmt.Sprint(balances) != fmt.Sprint(want) {
		t.Fatalf("balances %v, want %v", balances, want)
	}
	if fmt.Sprint(moves) != fmt.Sprint([]Transfer{{"cid", "ana", 15000}, {"ben", "ana", 5000}}) {
		t.Fatalf("transfers %v", moves)
	}
}

// TestSettleProperties: on random plans, balances sum to zero, the transfers settle everyone,
// there are at most members−1 of them, all positive, and the same data settles the same way.
func TestSettleProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for run := range 2000 {
		n := 1 + r.IntN(8)
		members := make([]string, n)
		for i := range members {
			members[i] = fmt.Sprintf("m%d", r.IntN(100))
		}
		var payments []Payment
		for range r.IntN(12) {
			p := Payment{Amount: int64(r.IntN(100000)), PaidBy: members[r.IntN(n)]}
			for _, m := range members {
				if r.IntN(3) == 0 {
					p.SplitAmong = append(p.SplitAmong, m)
				}
			}
			payments = append(payments, p)
		}
		balances, moves := Settle(members, payments)
		var sum int64
		left := map[string]int64{}
		for _, b := range balances {
			sum += b.Balance
			left[b.MemberID] = b.Balance
			if b.Balance != b.Paid-b.Share {
				t.Fatalf("run %d: %+v", run, b)
			}
		}
		if sum != 0 {
			t.Fatalf("run %d: balances sum to %d", run, sum)
		}
		if len(moves) > max(len(balances)-1, 0) {
			t.Fatalf("run %d: %d transfers for %d members", run, len(moves), len(balances))
		}
		for _, m := range moves {
			if m.Amount <= 0 || m.From == m.To {
				t.Fatalf("run %d: transfer %+v", run, m)
			}
			left[m.From] += m.Amount
			left[m.To] -= m.Amount
		}
		for id, v := range left {
			if v != 0 {
				t.Fatalf("run %d: %s still at %d after the transfers", run, id, v)
			}
		}
		again, movesAgain := Settle(members, payments)
		if fmt.Sprint(again, movesAgain) != fmt.Sprint(balances, moves) {
			t.Fatalf("run %d: not deterministic", run)
		}
	}
}
