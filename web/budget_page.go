package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/views"
)

// recentPayments is how many recorded payments the budget page lists, the newest first.
const recentPayments = 20

// budgetPage is a plan's budget page: totals, breakdowns, the day's expenses and settle-up.
// Three store reads: the plan, the day's expenses, and the rest in one (BudgetOverview).
func (s *Server) budgetPage(c echo.Context) error {
	ctx, userID, planID := c.Request().Context(), caller(c).UserID, c.Param("planId")
	p, err := s.store.Plan(ctx, userID, planID)
	if err != nil {
		return err
	}
	day, err := strconv.Atoi(c.QueryParam("day"))
	if err != nil || day < 1 || day > p.DurationDays() {
		day = 1
	}
	groups, err := s.store.DayExpenses(ctx, userID, planID, day)
	if err != nil {
		return err
	}
	o, err := s.store.BudgetOverview(ctx, userID, planID, recentPayments)
	if err != nil {
		return err
	}
	b, l := o.Budget, o.Ledger
	v := views.BudgetView{PlanID: p.ID, PlanTitle: p.Title, Currency: l.Currency, Mode: string(b.Mode), TotalBudget: b.TotalBudget,
		TotalCost: b.TotalCost, Remaining: b.Remaining(), PerPerson: b.CostPerPerson(), Travelers: b.TravelerCount,
		Day: day, Tabs: dayTabs(ctx, p, day), Members: toMemberViews(l.Members), Sharers: len(l.Active), Me: o.Me,
		ReadOnly: caller(c).Guest, Version: b.Version}

	byDay, byCategory := planner.Breakdown(o.Counted, p.DurationDays())
	labels, values := []string{}, []int64{}
	for _, line := range byDay {
		labels, values = append(labels, i18n.T(ctx, "budget.day", "Day", line.Day)), append(values, line.Total)
	}
	v.ByDay = views.Bars(labels, values)
	for i, line := range byDay { // each day's bar links to its expenses
		v.ByDay[i].Href = paths.Plan(planID) + "/budget?day=" + strconv.Itoa(line.Day)
	}
	labels, values = labels[:0:0], values[:0:0]
	for _, line := range byCategory {
		name := i18n.T(ctx, "budget.extras")
		if line.Category != "" {
			if name = s.taxonomy(ctx).Name(line.Category); name == "" {
				name = i18n.T(ctx, "budget.other")
			}
		}
		labels, values = append(labels, name), append(values, line.Total)
	}
	v.ByCategory = views.Bars(labels, values)

	for i := range groups {
		v.Expenses = append(v.Expenses, expenseLine(ctx, &groups[i]))
	}

	byID := map[string]planner.Member{}
	for _, m := range l.Members {
		byID[m.ID] = m
	}
	balances, moves := planner.Settle(l.Active, l.Payments, l.Recorded)
	for _, m := range l.Members { // the viewer first, then in join order
		for _, bal := range balances {
			if bal.MemberID == m.ID {
				bv := views.BalanceView{Member: toMemberView(m), Me: m.ID == v.Me, Paid: bal.Paid, Share: bal.Share, Sent: bal.Sent, Received: bal.Received, Balance: bal.Balance}
				if bv.Me {
					v.Balances = append([]views.BalanceView{bv}, v.Balances...)
				} else {
					v.Balances = append(v.Balances, bv)
				}
			}
		}
	}
	for _, t := range moves {
		v.Transfers = append(v.Transfers, views.TransferView{From: toMemberView(byID[t.From]), To: toMemberView(byID[t.To]), Amount: t.Amount})
	}
	loc, now := i18n.From(ctx), time.Now()
	for _, pm := range o.Recent {
		v.Payments = append(v.Payments, views.PaymentView{ID: pm.ID, From: toMemberView(pm.From), To: toMemberView(pm.To), Amount: pm.Amount,
			When: loc.Ago(pm.CreatedAt, now)})
	}
	return render(c, http.StatusOK, views.Budget(s.pageFor(c, i18n.T(ctx, "budget.page_title", "Plan", p.Title)), v))
}

// expenseLine is how a day's expense group reads on the budget page, in the page's language.
func expenseLine(ctx context.Context, g *planner.ExpenseGroup) views.ExpenseLine {
	if g.Kind == planner.ExpenseAdditional {
		l := lineOf(g.Selected)
		l.Additional, l.Title = true, i18n.T(ctx, "budget.extra")
		if len(g.Selected.Items) > 0 {
			l.Title = g.Selected.Items[0].Name
		}
		return l
	}
	if g.Selected != nil {
		l := lineOf(g.Selected)
		l.Title, l.Status = shownName(ctx, g.Selected.Block.Place), string(g.Status)
		return l
	}
	l := views.ExpenseLine{Title: i18n.T(ctx, "budget.free_time"), Status: string(g.Status)}
	if len(g.Candidates) > 0 {
		var top int64
		for _, e := range g.Candidates {
			top = max(top, e.Converted())
		}
		l.Title, l.Total = i18n.T(ctx, "budget.candidate_count", "Count", len(g.Candidates)), top
		l.Note = i18n.T(ctx, "budget.undecided_note")
	}
	return l
}

// lineOf is an expense as its line and form show it: its total in the plan's currency (and in
// its own with the rate when that is another), who paid and how it is split.
func lineOf(e *planner.Expense) views.ExpenseLine {
	t := e.Terms
	l := views.ExpenseLine{ID: e.ID, Total: e.Converted(), PaidBy: t.PaidBy, Payers: planner.PartIDs(t.Payers),
		SplitMode: string(t.Split.Mode), SplitAmong: t.Split.Members, Version: e.Version}
	if t.Foreign() {
		l.Currency, l.OwnTotal, l.Rate = t.Currency, e.Total(), t.Rate.String()
	}
	if len(t.Split.Parts) > 0 {
		l.Parts = make(map[string]int64, len(t.Split.Parts))
		for _, p := range t.Split.Parts {
			l.Parts[p.MemberID] = p.Amount + p.Shares // an EXACT part has an amount, a SHARES part shares
		}
	}
	for _, it := range e.Items {
		l.Items = append(l.Items, views.ItemView{ID: it.ID, Name: it.Name, Cost: it.Cost})
	}
	return l
}
