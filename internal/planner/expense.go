package planner

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"

	"tripplan/internal/money"
)

// ExpenseKind tells a place candidate's own expense from an additional one.
type ExpenseKind string

// Expense kinds.
const (
	ExpenseBlock      ExpenseKind = "BLOCK"
	ExpenseAdditional ExpenseKind = "ADDITIONAL"
)

// Terms are what an expense is in and who pays and shares it (docs/API.md §Money).
type Terms struct {
	// Currency is the currency of its costs: the plan's, or another with Rate.
	Currency string
	// Rate is units of the plan's currency per unit of Currency; zero when Currency is the
	// plan's.
	Rate decimal.Decimal
	// PaidBy is the one member who paid all of it, "" when Payers do (or nobody is named).
	PaidBy string
	// Payers are several members who paid parts of it, in minor units of Currency.
	Payers []Part
	Split  Split
}

// Foreign reports whether the costs are in another currency than the plan's.
func (t Terms) Foreign() bool { return !t.Rate.IsZero() }

// PayerParts are who paid, weighted by what each paid: PaidBy as the whole, else Payers.
func (t Terms) PayerParts() []Part {
	if t.PaidBy != "" {
		return []Part{{MemberID: t.PaidBy, Amount: 1}}
	}
	return t.Payers
}

// Convert is total, in minor units of the terms' currency, in minor units of the plan's
// currency: converted once, half up (money.Convert); false beyond money.Max.
func (t Terms) Convert(total int64, plan string) (int64, bool) {
	if !t.Foreign() {
		return total, true
	}
	return money.Convert(total, t.Rate, money.Stored(t.Currency), money.Stored(plan))
}

// Expense is a set of costs: a place candidate's (Block set) or an additional one placed on a
// day, with costs in minor units of its terms' currency and PlanCurrency the plan's.
type Expense struct {
	ID           string
	Kind         ExpenseKind
	Block        *ExpenseOf
	Items        []ExpenseItem
	Terms        Terms
	PlanCurrency string
	Version      int
}

// Total is the sum of the items, in minor units of the expense's currency.
func (e Expense) Total() int64 {
	var t int64
	for _, it := range e.Items {
		t += it.Cost
	}
	return t
}

// Converted is the total in minor units of the plan's currency.
func (e Expense) Converted() int64 {
	v, _ := e.Terms.Convert(e.Total(), e.PlanCurrency)
	return v
}

// ExpenseOf is the candidate a BLOCK expense belongs to.
type ExpenseOf struct {
	CandidateID string
	Name        string
	Place       Place
}

// ExpenseGroup is one line of a day's expenses: an additional expense, or a time block with
// its candidates' expenses and the selected one's.
type ExpenseGroup struct {
	Kind        ExpenseKind
	TimeBlockID string
	Status      BlockStatus
	Candidates  []Expense // BLOCK: one per place candidate
	Selected    *Expense  // ADDITIONAL: the expense; BLOCK: the selected candidate's, or nil
}

// NewExpense is an additional expense: right after an expense (AfterExpenseID) or at the
// start of a day.
type NewExpense struct {
	AfterExpenseID string
	Day            int
	Items          []NewItem
	Terms          NewTerms
}

// Cost is an expense as a plan's budget counts it: where it is, its total in its own currency
// and, once counted, in the plan's.
type Cost struct {
	ExpenseID   string
	Kind        ExpenseKind
	Day         int
	TimeBlockID string // BLOCK: the candidate's time block
	CandidateID string
	Selected    bool
	Category    string // the candidate's place's level-1 category; "" for additional expenses
	Total       int64  // minor units of Terms.Currency
	Terms       Terms
	Converted   int64 // minor units of the plan's currency
}

// Counted keeps the costs that count in a plan's total cost, each converted once to the plan's
// currency: every additional expense and, for each time block, its selected candidate's, or
// with none selected the costliest candidate's in the plan's currency (the worst case; ties go
// to the lowest candidate id). costs lists each candidate of a block at most once.
func Counted(costs []Cost, plan string) []Cost {
	out := make([]Cost, 0, len(costs))
	best := map[string]int{} // time block → index in out
	for _, c := range costs {
		c.Converted, _ = c.Terms.Convert(c.Total, plan)
		if c.Kind == ExpenseAdditional {
			out = append(out, c)
			continue
		}
		i, seen := best[c.TimeBlockID]
		switch {
		case !seen:
			best[c.TimeBlockID] = len(out)
			out = append(out, c)
		case betterCount(c, out[i]):
			out[i] = c
		}
	}
	return out
}

// betterCount reports whether candidate a's cost counts for its block rather than b's.
func betterCount(a, b Cost) bool {
	if a.Selected != b.Selected {
		return a.Selected
	}
	return cmp.Or(cmp.Compare(b.Converted, a.Converted), cmp.Compare(a.CandidateID, b.CandidateID)) < 0
}

// TotalCost is the sum of counted costs in the plan's currency.
func TotalCost(counted []Cost) int64 {
	var t int64
	for _, c := range counted {
		t += c.Converted
	}
	return t
}

// Payments are the counted costs that settling up shares: the decided ones (additional
// expenses and selected candidates') that name who paid.
func Payments(counted []Cost) []Payment {
	var out []Payment
	for _, c := range counted {
		if (c.Kind == ExpenseAdditional || c.Selected) && len(c.Terms.PayerParts()) > 0 {
			out = append(out, Payment{Amount: c.Converted, Payers: c.Terms.PayerParts(), Split: c.Terms.Split})
		}
	}
	return out
}

// Breakdown splits counted costs by day (every day of days, in order, zero when nothing) and
// by level-1 category ("" for additional expenses; only those with costs, the largest first).
func Breakdown(counted []Cost, days int) (byDay, byCategory []CostLine) {
	byDay = make([]CostLine, days)
	for i := range byDay {
		byDay[i].Day = i + 1
	}
	cats := map[string]int64{}
	for _, c := range counted {
		if c.Day >= 1 && c.Day <= days {
			byDay[c.Day-1].Total += c.Converted
		}
		cats[c.Category] += c.Converted
	}
	for cat, total := range cats {
		if total > 0 {
			byCategory = append(byCategory, CostLine{Category: cat, Total: total})
		}
	}
	slices.SortFunc(byCategory, func(a, b CostLine) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Category, b.Category))
	})
	return byDay, byCategory
}

// CostLine is a part of a plan's total cost: a day's or a category's (level-1 id; "" for
// additional expenses).
type CostLine struct {
	Day      int
	Category string
	Total    int64
}
