package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/views"
)

// budgetPage is a plan's budget page: totals, breakdowns, the day's expenses and settle-up.
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
	b, err := s.store.Budget(ctx, userID, planID)
	if err != nil {
		return err
	}
	byDay, byCategory, err := s.store.CostBreakdown(ctx, userID, planID)
	if err != nil {
		return err
	}
	groups, err := s.store.DayExpenses(ctx, userID, planID, day)
	if err != nil {
		return err
	}
	members, payments, currency, err := s.store.SettlementData(ctx, userID, planID)
	if err != nil {
		return err
	}
	v := views.BudgetView{PlanID: p.ID, PlanTitle: p.Title, Currency: currency, Mode: string(b.Mode), TotalBudget: b.TotalBudget,
		TotalCost: b.TotalCost, Remaining: b.Remaining(), PerPerson: b.CostPerPerson(), Travelers: b.TravelerCount,
		Day: day, Tabs: dayTabs(c.Request().Context(), p, day), Members: toMemberViews(members), ReadOnly: caller(c).Guest, Version: b.Version}

	labels, values := []string{}, []int64{}
	for _, l := range byDay {
		labels, values = append(labels, "Day "+strconv.Itoa(l.Day)), append(values, l.Total)
	}
	v.ByDay = views.Bars(labels, values)
	labels, values = labels[:0:0], values[:0:0]
	for _, l := range byCategory {
		name := "Extras"
		if l.Category != "" {
			if name = s.taxonomy.Name(l.Category); name == "" {
				name = "Other"
			}
		}
		labels, values = append(labels, name), append(values, l.Total)
	}
	v.ByCategory = views.Bars(labels, values)

	for i := range groups {
		v.Expenses = append(v.Expenses, expenseLine(&groups[i]))
	}

	ids := make([]string, len(members))
	byID := map[string]planner.Member{}
	for i, m := range members {
		ids[i], byID[m.ID] = m.ID, m
	}
	balances, moves := planner.Settle(ids, payments)
	for _, m := range members {
		for _, bal := range balances {
			if bal.MemberID == m.ID {
				v.Balances = append(v.Balances, views.BalanceView{Member: toMemberView(m), Paid: bal.Paid, Share: bal.Share, Balance: bal.Balance})
			}
		}
	}
	for _, t := range moves {
		v.Transfers = append(v.Transfers, views.TransferView{From: toMemberView(byID[t.From]), To: toMemberView(byID[t.To]), Amount: t.Amount})
	}
	return render(c, http.StatusOK, views.Budget(s.pageFor(c, "Budget · "+p.Title), v))
}

// expenseLine is how a day's expense group reads on the budget page.
func expenseLine(g *planner.ExpenseGroup) views.ExpenseLine {
	if g.Kind == planner.ExpenseAdditional {
		l := lineOf(g.Selected)
		l.Additional, l.Title = true, "Extra"
		if len(g.Selected.Items) > 0 {
			l.Title = g.Selected.Items[0].Name
		}
		return l
	}
	if g.Selected != nil {
		l := lineOf(g.Selected)
		l.Title, l.Status = g.Selected.Block.Name, string(g.Status)
		return l
	}
	l := views.ExpenseLine{Title: "Free time", Status: string(g.Status)}
	if len(g.Candidates) > 0 {
		var top int64
		for _, e := range g.Candidates {
			top = max(top, e.Total())
		}
		l.Title, l.Total = plural(len(g.Candidates), "candidate"), top
		l.Note = "No candidate is confirmed yet: the budget counts the priciest. Confirm one on the plan to edit its costs."
	}
	return l
}

func lineOf(e *planner.Expense) views.ExpenseLine {
	l := views.ExpenseLine{ID: e.ID, Total: e.Total(), PaidBy: e.PaidBy, SplitAmong: e.SplitAmong, Version: e.Version}
	for _, it := range e.Items {
		l.Items = append(l.Items, views.ItemView{ID: it.ID, Name: it.Name, Cost: it.Cost})
	}
	return l
}

// plural counts: "2 candidates".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}
