package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"tripplan/internal/money"
)

// TestCountedByHand: per block the selected candidate counts, else the costliest in the plan's
// currency (a ¥3,000 lunch at 9.05 beats a ₩25,000 one); additional expenses all count.
func TestCountedByHand(t *testing.T) {
	yen := Terms{Currency: "JPY", Rate: decimal.RequireFromString("9.05")}
	costs := []Cost{
		{ExpenseID: "a", Kind: ExpenseBlock, Day: 1, TimeBlockID: "b1", CandidateID: "c1", Total: 25000, Terms: Terms{Currency: "KRW"}},
		{ExpenseID: "b", Kind: ExpenseBlock, Day: 1, TimeBlockID: "b1", CandidateID: "c2", Total: 3000, Terms: yen, Category: "FOOD"},
		{ExpenseID: "c", Kind: ExpenseBlock, Day: 2, TimeBlockID: "b2", CandidateID: "c3", Total: 90000, Terms: Terms{Currency: "KRW"}},
		{ExpenseID: "d", Kind: ExpenseBlock, Day: 2, TimeBlockID: "b2", CandidateID: "c4", Total: 100, Selected: true, Terms: yen, Category: "SIGHTS"},
		{ExpenseID: "e", Kind: ExpenseAdditional, Day: 2, Total: 1250, Terms: Terms{Currency: "USD", Rate: decimal.RequireFromString("1463.51805568")}},
	}
	counted := Counted(costs, "KRW")
	var got []string
	for _, c := range counted {
		got = append(got, fmt.Sprintf("%s:%d", c.ExpenseID, c.Converted))
	}
	if fmt.Sprint(got) != "[b:27150 d:905 e:18294]" || TotalCost(counted) != 46349 {
		t.Fatalf("counted %v, total %d", got, TotalCost(counted))
	}
	byDay, byCategory := Breakdown(counted, 3)
	if fmt.Sprint(byDay) != "[{1  27150} {2  19199} {3  0}]" || fmt.Sprint(byCategory) != "[{0 FOOD 27150} {0  18294} {0 SIGHTS 905}]" {
		t.Fatalf("by day %v, by category %v", byDay, byCategory)
	}
}

// TestMixedCurrencyProperties: over thousands of random plans with expenses in KRW, JPY, USD,
// EUR and KWD at random rates, with random payers and splits: the total cost is the counted
// expenses each converted once; the breakdowns add up to it; settling up conserves money to the
// minor unit (what was paid and what was shared both equal the payments' amounts), balances sum
// to zero, at most members−1 transfers settle everyone, and recorded payments reduce them.
func TestMixedCurrencyProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	codes := []string{"KRW", "JPY", "USD", "EUR", "KWD"}
	for run := range 2000 {
		plan := codes[r.IntN(len(codes))]
		n := 1 + r.IntN(6)
		members := make([]string, n)
		for i := range members {
			members[i] = fmt.Sprintf("m%d", i)
		}
		someone := func() []Part {
			var out []Part
			for _, m := range members {
				if r.IntN(2) == 0 {
					out = append(out, Part{MemberID: m, Amount: int64(r.IntN(10000)), Shares: int64(r.IntN(3))})
				}
			}
			return out
		}
		var costs []Cost
		for i := range r.IntN(20) {
			c := Cost{ExpenseID: fmt.Sprintf("e%02d", i), Kind: ExpenseAdditional, Day: 1 + r.IntN(3), Total: int64(r.IntN(5_000_000)),
				Terms: Terms{Currency: codes[r.IntN(len(codes))]}}
			if r.IntN(2) == 0 {
				c.Kind, c.TimeBlockID, c.CandidateID, c.Selected = ExpenseBlock, fmt.Sprintf("b%d", r.IntN(4)), fmt.Sprintf("c%02d", i), r.IntN(4) == 0
			}
			if c.Terms.Currency != plan {
				c.Terms.Rate = decimal.New(1+r.Int64N(1_000_000), -int32(r.IntN(8)))
			}
			switch r.IntN(3) {
			case 0:
				c.Terms.PaidBy = members[r.IntN(n)]
			case 1:
				c.Terms.Payers = someone()
			}
			switch r.IntN(3) {
			case 0:
				c.Terms.Split = Split{Mode: SplitEqual, Members: PartIDs(someone())}
			case 1:
				c.Terms.Split = Split{Mode: SplitExact, Parts: someone()}
			case 2:
				c.Terms.Split = Split{Mode: SplitShares, Parts: someone()}
			}
			costs = append(costs, c)
		}
		counted := Counted(costs, plan)
		var total int64
		blocks := map[string]bool{}
		for _, c := range counted {
			want := c.Total
			if c.Terms.Foreign() {
				want, _ = money.Convert(c.Total, c.Terms.Rate, money.MustLookup(c.Terms.Currency), money.MustLookup(plan))
			}
			if c.Converted != want {
				t.Fatalf("run %d: %s converted to %d, want %d", run, c.ExpenseID, c.Converted, want)
			}
			if c.Kind == ExpenseBlock {
				if blocks[c.TimeBlockID] {
					t.Fatalf("run %d: block %s counted twice", run, c.TimeBlockID)
				}
				blocks[c.TimeBlockID] = true
			}
			total += c.Converted
		}
		if TotalCost(counted) != total {
			t.Fatalf("run %d: total %d, want %d", run, TotalCost(counted), total)
		}
		byDay, byCategory := Breakdown(counted, 3)
		var days, cats int64
		for _, l := range byDay {
			days += l.Total
		}
		for _, l := range byCategory {
			cats += l.Total
		}
		if days != total || cats != total {
			t.Fatalf("run %d: by day %d, by category %d, total %d", run, days, cats, total)
		}
		payments := Payments(counted)
		var paidOut int64
		for _, p := range payments {
			paidOut += p.Amount
		}
		balances, moves := Settle(members, payments, nil)
		var sum, paid, share int64
		for _, b := range balances {
			sum, paid, share = sum+b.Balance, paid+b.Paid, share+b.Share
		}
		if sum != 0 || paid != paidOut || share != paidOut {
			t.Fatalf("run %d: balances sum %d; paid %d, shared %d of %d", run, sum, paid, share, paidOut)
		}
		if len(moves) > max(len(balances)-1, 0) {
			t.Fatalf("run %d: %d transfers among %d", run, len(moves), len(balances))
		}
		if len(moves) > 0 {
			// Paying the first suggested transfer leaves one fewer, or a smaller one.
			_, after := Settle(members, payments, moves[:1])
			var before, left int64
			for _, m := range moves {
				before += m.Amount
			}
			for _, m := range after {
				left += m.Amount
			}
			if left != before-moves[0].Amount || len(after) >= len(moves)+1 {
				t.Fatalf("run %d: after paying %v, %v remain of %v", run, moves[0], after, moves)
			}
		}
	}
}
