package views

import (
	"strconv"

	amounts "tripplan/internal/money" // the views name money() the localized text
)

// BudgetView is a plan's budget page.
type BudgetView struct {
	PlanID, PlanTitle string
	Currency          string
	Mode              string // INITIAL | BUDGET | EXPENSE
	TotalBudget       *int64
	TotalCost         int64
	Remaining         int64
	PerPerson         int64
	Travelers         int
	ByDay             []Bar
	ByCategory        []Bar
	Day               int
	Tabs              []DayTab
	Expenses          []ExpenseLine
	Members           []MemberView
	Balances          []BalanceView
	Transfers         []TransferView
	Version           int // the budget's, sent back with its form
	ReadOnly          bool
}

// Bar is one bar of a chart: its label, value, and length in percent of the longest.
type Bar struct {
	Label string
	Value int64
	Width int // 0–100
}

// ExpenseLine is one expense of the day on the budget page: an additional expense, or a time
// block's (its selected candidate's, else only shown).
type ExpenseLine struct {
	ID         string // the expense to edit; "" when the block has no chosen candidate yet
	Title      string
	Additional bool
	Status     string // a block's status
	Items      []ItemView
	Total      int64
	PaidBy     string   // plan member id
	SplitAmong []string // plan member ids; empty = everyone
	Note       string
	Version    int // the expense's, sent back with its form
}

// ItemView is one item of an expense.
type ItemView struct {
	ID, Name string
	Cost     int64
}

// BalanceView is a member's position in the settlement.
type BalanceView struct {
	Member               MemberView
	Paid, Share, Balance int64
}

// TransferView is one settling payment.
type TransferView struct {
	From, To MemberView
	Amount   int64
}

// Bars scales values to a chart's bars.
func Bars(labels []string, values []int64) []Bar {
	var top int64
	for _, v := range values {
		top = max(top, v)
	}
	out := make([]Bar, len(values))
	for i, v := range values {
		w := 0
		if top > 0 {
			w = int(v * 100 / top)
		}
		out[i] = Bar{Label: labels[i], Value: v, Width: w}
	}
	return out
}

func budgetHref(planID string) string { return planHref(planID) + "/budget" }

// budgetDayHref is the budget page showing the day's expenses.
func budgetDayHref(planID string, day int) string {
	return budgetHref(planID) + "?day=" + strconv.Itoa(day)
}

func expenseHref(planID, id string) string { return planHref(planID) + "/expenses/" + id }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// barY is the y of bar i in a chart of 28-pixel rows.
func barY(i int) string { return strconv.Itoa(i*28 + 4) }

func chartHeight(n int) string { return strconv.Itoa(max(n, 1)*28 + 4) }

func pct(w int) string { return strconv.Itoa(max(w, 1)) + "%" }

// budgetValue is the total budget as its form field holds it ("1500.00"), "" when not set.
func budgetValue(total *int64, currency string) string {
	if total == nil {
		return ""
	}
	return amountValue(*total, currency)
}

// amountValue is an amount in minor units as a form field holds it: major units with the
// currency's decimals ("12.50"), which the server reads back exactly.
func amountValue(amount int64, currency string) string {
	return amounts.Format(amount, amounts.Stored(currency))
}

// amountStep is the step of an amount field: the currency's minor unit ("0.01", or "1").
func amountStep(currency string) string {
	return amounts.Format(1, amounts.Stored(currency))
}
