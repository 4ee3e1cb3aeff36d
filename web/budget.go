package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/money"
	"tripplan/internal/planner"
)

// budgetJSON is the Budget resource, with the plan's currency; amounts in its major units.
type budgetJSON struct {
	BudgetID        string        `json:"budget_id"`
	Type            string        `json:"type"`
	TotalBudget     *money.Amount `json:"total_budget"`
	TotalCost       money.Amount  `json:"total_cost"`
	RemainingBudget money.Amount  `json:"remaining_budget"`
	CostPerPerson   money.Amount  `json:"cost_per_person"`
	TravelerCount   int           `json:"traveler_count"`
	Currency        string        `json:"currency"`
	Version         int           `json:"version"`
}

func toBudgetJSON(b *planner.Budget) budgetJSON {
	c := money.Stored(b.Currency)
	out := budgetJSON{BudgetID: b.ID, Type: string(b.Mode), TotalCost: money.Amount{Minor: b.TotalCost, Currency: c},
		RemainingBudget: money.Amount{Minor: b.Remaining(), Currency: c}, CostPerPerson: money.Amount{Minor: b.CostPerPerson(), Currency: c},
		TravelerCount: b.TravelerCount, Currency: b.Currency, Version: b.Version}
	if b.TotalBudget != nil {
		out.TotalBudget = &money.Amount{Minor: *b.TotalBudget, Currency: c}
	}
	return out
}

// getBudget answers the plan's budget.
func (s *Server) getBudget(c echo.Context) error {
	b, err := s.store.Budget(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toBudgetJSON(b), nil, nil)
}

type budgetRequest struct {
	Type          string      `json:"type" form:"type"`
	TotalBudget   amountField `json:"total_budget" form:"total_budget"`
	TravelerCount lenientInt  `json:"traveler_count" form:"traveler_count"`
	Currency      *string     `json:"currency" form:"currency"`
}

// travelersMax bounds a budget's traveller count.
const travelersMax = 1000

// updateBudget sets the mode and, when given, the total, traveller count and currency.
func (s *Server) updateBudget(c echo.Context) error {
	var in budgetRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	ch := planner.BudgetChange{Mode: planner.BudgetMode(in.Type)}
	var v planner.Validation
	v.Check(ch.Mode == planner.BudgetBudget || ch.Mode == planner.BudgetExpense, "type", "must be BUDGET or EXPENSE")
	if total := in.TotalBudget.read(&v, "total_budget", false, false); in.TotalBudget.Set {
		ch.TotalBudget = &total
	}
	if n := in.TravelerCount.read(&v, "traveler_count", false); in.TravelerCount.Set && !in.TravelerCount.Bad {
		v.Check(n >= 1 && n <= travelersMax, "traveler_count", "must be from 1 to 1000")
		ch.TravelerCount = &n
	}
	if in.Currency != nil {
		ch.Currency = readCurrency(&v, *in.Currency)
	}
	if err := v.Err(); err != nil {
		return err
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	b, err := s.store.UpdateBudget(c.Request().Context(), caller(c).UserID, c.Param("planId"), ch, expect)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, toBudgetJSON(b), nil, budgetPagePath(c))
}

type settlementMemberJSON struct {
	addedByJSON
	Paid    money.Amount `json:"paid"`
	Share   money.Amount `json:"share"`
	Balance money.Amount `json:"balance"`
}

type transferJSON struct {
	From   addedByJSON  `json:"from"`
	To     addedByJSON  `json:"to"`
	Amount money.Amount `json:"amount"`
}

type settlementJSON struct {
	Currency  string                 `json:"currency"`
	Members   []settlementMemberJSON `json:"members"`
	Transfers []transferJSON         `json:"transfers"`
}

// settlement answers who paid what, each member's share and balance, and the transfers that
// settle everyone (planner.Settle).
func (s *Server) settlement(c echo.Context) error {
	members, active, payments, currency, err := s.store.SettlementData(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	byID := make(map[string]planner.Member, len(members.Members))
	for _, m := range members.Members {
		byID[m.ID] = m
	}
	balances, moves := planner.Settle(active, payments, nil)
	cur := money.Stored(currency)
	out := settlementJSON{Currency: currency, Members: make([]settlementMemberJSON, 0, len(members.Members)), Transfers: make([]transferJSON, len(moves))}
	for _, m := range members.Members { // in join order
		for _, b := range balances {
			if b.MemberID == m.ID {
				out.Members = append(out.Members, settlementMemberJSON{addedByJSON: toAddedByJSON(m),
					Paid: money.Amount{Minor: b.Paid, Currency: cur}, Share: money.Amount{Minor: b.Share, Currency: cur}, Balance: money.Amount{Minor: b.Balance, Currency: cur}})
			}
		}
	}
	for i, t := range moves {
		out.Transfers[i] = transferJSON{From: toAddedByJSON(byID[t.From]), To: toAddedByJSON(byID[t.To]), Amount: money.Amount{Minor: t.Amount, Currency: cur}}
	}
	return respond(c, http.StatusOK, out, nil, nil)
}

// readCurrency reads a plan's currency: an ISO 4217 code (money.Lookup), in any case.
func readCurrency(v *planner.Validation, code string) *string {
	cur := strings.ToUpper(strings.TrimSpace(code))
	_, err := money.Lookup(cur)
	v.Check(err == nil, "currency", "must be an ISO 4217 code such as KRW or EUR")
	return &cur
}
