package views

import (
	"context"
	"strconv"
	"strings"

	amounts "tripplan/internal/money" // the views name money() the localized text
	"tripplan/internal/paths"
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
	Members           []MemberView  // the active members and anyone an expense names, in join order
	Sharers           int           // how many an equal split among everyone shares with: the active members
	Me                string        // the viewer's plan member id; "" for a guest
	Balances          []BalanceView // the viewer's first
	Transfers         []TransferView
	Payments          []PaymentView // payments recorded between members, the newest first
	Version           int           // the budget's, sent back with its form
	ReadOnly          bool
}

// Bar is one bar of a chart: its label, value, and length in percent of the longest; Href is
// where its label links ("" for none).
type Bar struct {
	Label string
	Value int64
	Width int // 0–100
	Href  string
}

// ExpenseLine is one expense of the day on the budget page: an additional expense, or a time
// block's (its selected candidate's, else only shown).
type ExpenseLine struct {
	ID         string // the expense to edit; "" when the block has no chosen candidate yet
	Title      string
	Additional bool
	Status     string // a block's status
	Items      []ItemView
	Total      int64 // in the plan's currency
	// Currency is the expense's own currency when it is not the plan's ("" when it is), with
	// its total in it (OwnTotal, minor units) and the rate: units of the plan's per unit of it.
	Currency string
	OwnTotal int64
	Rate     string
	PaidBy   string   // the one payer's plan member id; "" when nobody, or several (Payers)
	Payers   []string // several payers' plan member ids
	// SplitMode is EQUAL (among SplitAmong, empty: everyone), EXACT (Parts: amounts in minor
	// units of the expense's currency) or SHARES (Parts: shares).
	SplitMode  string
	SplitAmong []string
	Parts      map[string]int64
	Note       string
	Version    int // the expense's, sent back with its form
}

// ItemView is one item of an expense: its cost in minor units of the expense's currency.
type ItemView struct {
	ID, Name string
	Cost     int64
}

// BalanceView is a member's position in the settlement: what they paid for the group, their
// share, what they sent and received in recorded payments, and the balance (positive: owed).
type BalanceView struct {
	Member                               MemberView
	Me                                   bool // the viewer
	Paid, Share, Sent, Received, Balance int64
}

// TransferView is one settling payment.
type TransferView struct {
	From, To MemberView
	Amount   int64
}

// PaymentView is a payment recorded between members (a settlement), which Undo deletes.
type PaymentView struct {
	ID       string
	From, To MemberView
	Amount   int64
	When     string // when it was recorded, in the page's language
}

// Foreign reports whether the expense is in another currency than the plan's.
func (e ExpenseLine) Foreign() bool { return e.Currency != "" }

// ItemCurrency is the currency the expense's costs are in.
func (e ExpenseLine) ItemCurrency(plan string) string {
	if e.Foreign() {
		return e.Currency
	}
	return plan
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

// budgetDayHref is the budget page showing the day's expenses.
func budgetDayHref(planID string, day int) string {
	return paths.Budget(planID) + "?day=" + strconv.Itoa(day)
}

func expenseHref(planID, id string) string { return paths.Plan(planID) + "/expenses/" + id }

// memberName is the nickname of the plan member with the id.
func (v BudgetView) memberName(ctx context.Context, id string) string {
	for _, m := range v.Members {
		if m.ID == id {
			return m.Nickname
		}
	}
	return t(ctx, "budget.former_member")
}

// payerText says who paid an expense: "Ana paid", "You paid", "Ana and Ben paid", "Ana and 2
// others paid", or that nobody is named yet.
func (v BudgetView) payerText(ctx context.Context, e ExpenseLine) string {
	switch {
	case e.PaidBy != "" && e.PaidBy == v.Me:
		return t(ctx, "budget.you_paid")
	case e.PaidBy != "":
		return t(ctx, "budget.someone_paid", "Name", v.memberName(ctx, e.PaidBy))
	case len(e.Payers) == 1:
		return t(ctx, "budget.someone_paid", "Name", v.memberName(ctx, e.Payers[0]))
	case len(e.Payers) == 2:
		return t(ctx, "budget.two_paid", "First", v.memberName(ctx, e.Payers[0]), "Second", v.memberName(ctx, e.Payers[1]))
	case len(e.Payers) > 2:
		return t(ctx, "budget.many_paid", "First", v.memberName(ctx, e.Payers[0]), "Count", len(e.Payers)-1)
	}
	return t(ctx, "budget.nobody_paid")
}

// splitText says how an expense is shared: "split equally among 3", "for Ana only", "split
// equally among 2: Ana, Ben", "split by exact amounts", "split by shares".
func (v BudgetView) splitText(ctx context.Context, e ExpenseLine) string {
	switch e.SplitMode {
	case "EXACT":
		return t(ctx, "budget.split_exact")
	case "SHARES":
		return t(ctx, "budget.split_shares")
	}
	among := e.SplitAmong
	if len(among) == 0 {
		return t(ctx, "budget.split_everyone", "Count", max(v.Sharers, 1))
	}
	if len(among) == 1 {
		return t(ctx, "budget.split_one", "Name", v.memberName(ctx, among[0]))
	}
	names := make([]string, len(among))
	for i, id := range among {
		names[i] = v.memberName(ctx, id)
	}
	return t(ctx, "budget.split_some", "Count", len(among), "Names", strings.Join(names, ", "))
}

// ticked reports whether the member's box is ticked in the form's equal split: all of them
// unless the expense is split equally among some.
func (e ExpenseLine) ticked(id string) bool {
	return e.splitMode() != "EQUAL" || len(e.SplitAmong) == 0 || contains(e.SplitAmong, id)
}

// splitMode is the split mode its form starts with: EQUAL unless the expense has another.
func (e ExpenseLine) splitMode() string {
	if e.SplitMode == "EXACT" || e.SplitMode == "SHARES" {
		return e.SplitMode
	}
	return "EQUAL"
}

// exactValue is a member's amount in the form's EXACT split, as its field holds it: the
// expense's, "" when it has none.
func (e ExpenseLine) exactValue(id, currency string) string {
	p, ok := e.Parts[id]
	if !ok || e.SplitMode != "EXACT" {
		return ""
	}
	return amountValue(p, currency)
}

// payer is who the expense's form names as its payer: its own, else the viewer for a new
// expense (id "").
func (v BudgetView) payer(e ExpenseLine) string {
	if e.ID == "" {
		return v.Me
	}
	return e.PaidBy
}

// formID makes the ids of an expense form's fields unique on the page: "new" for the add form.
func formID(e ExpenseLine, name string) string {
	id := e.ID
	if id == "" {
		id = "new"
	}
	return "expense-" + id + "-" + name
}

// sharesValue is a member's shares in the form: the expense's for a SHARES split (0 for a member
// it leaves out), else 1 each, so choosing SHARES starts from an equal split.
func sharesValue(e ExpenseLine, id string) string {
	if e.SplitMode != "SHARES" {
		return "1"
	}
	return strconv.FormatInt(e.Parts[id], 10)
}

// balanceText says where the settlement leaves a member: "owes ₩5,000", "is owed ₩5,000",
// "even" ("You owe ₩5,000", … for the viewer).
func balanceText(ctx context.Context, b BalanceView, currency string) string {
	owe, owed, even := "budget.member_owes", "budget.member_owed", "budget.member_even"
	if b.Me {
		owe, owed, even = "budget.you_owe", "budget.you_are_owed", "budget.you_are_even"
	}
	switch {
	case b.Balance < 0:
		return t(ctx, owe, "Amount", money(ctx, -b.Balance, currency))
	case b.Balance > 0:
		return t(ctx, owed, "Amount", money(ctx, b.Balance, currency))
	}
	return t(ctx, even)
}

// currencyChoices are the currencies the expense forms suggest: the plan's, then those
// travellers use most.
func currencyChoices(plan string) []string {
	out := []string{plan}
	for _, c := range []string{"KRW", "JPY", "USD", "EUR", "CNY", "TWD", "HKD", "THB", "VND", "SGD", "PHP", "GBP", "AUD", "CAD"} {
		if c != plan {
			out = append(out, c)
		}
	}
	return out
}

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

// textY is the middle of bar i, where its amount is written.
func textY(i int) string { return strconv.Itoa(i*28 + 14) }

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
