package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// one is a single payer of the whole payment.
func one(id string) []Part { return []Part{{MemberID: id, Amount: 1}} }

func TestSettleByHand(t *testing.T) {
	// Ana paid 30,000 for three; Ben paid 10,001 for Ben and Cid.
	balances, moves := Settle([]string{"ana", "ben", "cid"}, []Payment{
		{Amount: 30000, Payers: one("ana")},
		{Amount: 10001, Payers: one("ben"), Split: Split{Mode: SplitEqual, Members: []string{"cid", "ben"}}},
	}, nil)
	want := []Balance{{"ana", 30000, 10000, 0, 0, 20000}, {"ben", 10001, 15001, 0, 0, -5000}, {"cid", 0, 15000, 0, 0, -15000}}
	if fmt.Sprint(balances) != fmt.Sprint(want) {
		t.Fatalf("balances %v, want %v", balances, want)
	}
	if fmt.Sprint(moves) != fmt.Sprint([]Transfer{{"cid", "ana", 15000}, {"ben", "ana", 5000}}) {
		t.Fatalf("transfers %v", moves)
	}
}

// TestSettleSplitsByHand: two payers and EXACT and SHARES splits, with a recorded payment.
func TestSettleSplitsByHand(t *testing.T) {
	balances, moves := Settle([]string{"ana", "ben", "cid"}, []Payment{
		// 100.00 paid 60.00 by Ana and 40.00 by Ben; Ana had 10.00 of it, Ben 20.00, Cid 70.00.
		{Amount: 10000, Payers: []Part{{MemberID: "ben", Amount: 4000}, {MemberID: "ana", Amount: 6000}},
			Split: Split{Mode: SplitExact, Parts: []Part{{MemberID: "ana", Amount: 1000}, {MemberID: "ben", Amount: 2000}, {MemberID: "cid", Amount: 7000}}}},
		// 10.00 paid by Cid, shared 1:2 by Ana and Cid: 3.33⅓ and 6.66⅔ → 3.33 and 6.67.
		{Amount: 1000, Payers: one("cid"), Split: Split{Mode: SplitShares, Parts: []Part{{MemberID: "cid", Shares: 2}, {MemberID: "ana", Shares: 1}}}},
	}, []Transfer{{From: "cid", To: "ana", Amount: 2000}})
	want := []Balance{
		{"ana", 6000, 1333, 0, 2000, 2667},
		{"ben", 4000, 2000, 0, 0, 2000},
		{"cid", 1000, 7667, 2000, 0, -4667},
	}
	if fmt.Sprint(balances) != fmt.Sprint(want) {
		t.Fatalf("balances %v, want %v", balances, want)
	}
	if fmt.Sprint(moves) != fmt.Sprint([]Transfer{{"cid", "ana", 2667}, {"cid", "ben", 2000}}) {
		t.Fatalf("transfers %v", moves)
	}
}

func TestAllocateByHand(t *testing.T) {
	for _, c := range []struct {
		total   int64
		weights []int64
		want    string
	}{
		{10, []int64{1, 1, 1}, "[4 3 3]"},
		{100, []int64{1, 2}, "[33 67]"},
		{7, []int64{0, 0}, "[4 3]"},
		{0, []int64{5, 5}, "[0 0]"},
		{1_000_000_000_000_000, []int64{999_999_999_999_999, 1}, "[999999999999999 1]"},
		{5, nil, "[]"},
	} {
		if got := fmt.Sprint(Allocate(c.total, c.weights)); got != c.want {
			t.Errorf("Allocate(%d, %v) = %s, want %s", c.total, c.weights, got, c.want)
		}
	}
}

// TestSettleProperties: on thousands of random plans — several payers, EQUAL, EXACT and
// SHARES splits, recorded payments — each payment is divided to the unit among its payers and
// its sharers, balances sum to zero, the transfers settle everyone in at most members−1
// payments, all positive, recording the suggested transfers as paid leaves nothing to settle,
// and the same data settles the same way.
func TestSettleProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(members []string) []Part {
		var out []Part
		for _, m := range members {
			if r.IntN(2) == 0 {
				out = append(out, Part{MemberID: m, Amount: int64(r.IntN(5000)), Shares: int64(r.IntN(4))})
			}
		}
		if len(out) == 0 {
			out = append(out, Part{MemberID: members[0], Amount: 1})
		}
		return out
	}
	for run := range 3000 {
		n := 1 + r.IntN(8)
		members := make([]string, n)
		for i := range members {
			members[i] = fmt.Sprintf("m%d", i)
		}
		var payments []Payment
		var total int64
		for range r.IntN(12) {
			p := Payment{Amount: int64(r.IntN(1_000_000)), Payers: pick(members)}
			switch r.IntN(3) {
			case 0:
				p.Split = Split{Mode: SplitEqual, Members: PartIDs(pick(members))}
				if r.IntN(3) == 0 {
					p.Split.Members = nil
				}
			case 1:
				p.Split = Split{Mode: SplitExact, Parts: pick(members)}
			case 2:
				p.Split = Split{Mode: SplitShares, Parts: pick(members)}
			}
			total += p.Amount
			payments = append(payments, p)
		}
		var recorded []Transfer
		for range r.IntN(3) {
			if n > 1 {
				recorded = append(recorded, Transfer{From: members[0], To: members[1+r.IntN(n-1)], Amount: int64(1 + r.IntN(5000))})
			}
		}
		balances, moves := Settle(members, payments, recorded)
		var sum, paid, share int64
		left := map[string]int64{}
		for _, b := range balances {
			sum += b.Balance
			paid += b.Paid
			share += b.Share
			left[b.MemberID] = b.Balance
			if b.Balance != b.Paid-b.Share+b.Sent-b.Received {
				t.Fatalf("run %d: %+v", run, b)
			}
		}
		if sum != 0 || paid != total || share != total {
			t.Fatalf("run %d: balances sum to %d; paid %d and shares %d of %d", run, sum, paid, share, total)
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
		settled, none := Settle(members, payments, append(recorded, moves...))
		for _, b := range settled {
			if b.Balance != 0 || len(none) != 0 {
				t.Fatalf("run %d: after paying the transfers %+v, %v remain", run, b, none)
			}
		}
		again, movesAgain := Settle(members, payments, recorded)
		if fmt.Sprint(again, movesAgain) != fmt.Sprint(balances, moves) {
			t.Fatalf("run %d: not deterministic", run)
		}
	}
}
