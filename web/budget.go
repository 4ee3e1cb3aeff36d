package web

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
)

// budgetJSON is the Budget resource, with the plan's currency.
type budgetJSON struct {
	BudgetID        string `json:"budget_id"`
	Type            string `json:"type"`
	TotalBudget     *int64 `json:"total_budget"`
	TotalCost       int64  `json:"total_cost"`
	RemainingBudget int64  `json:"remaining_budget"`
	CostPerPerson   int64  `json:"cost_per_person"`
	TravelerCount   int    `json:"traveler_count"`
	Currency        string `json:"currency"`
	Version         int    `json:"version"`
}

func toBudgetJSON(b *planner.Budget) budgetJSON {
	return budgetJSON{BudgetID: b.ID, Type: string(b.Mode), TotalBudget: b.TotalBudget, TotalCost: b.TotalCost,
		RemainingBudget: b.Remaining(), CostPerPerson: b.CostPerPerson(), TravelerCount: b.TravelerCount, Currency: b.Currency,
		Version: b.Version}
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
	Type          string     `json:"type" form:"type"`
	TotalBudget   lenientInt `json:"total_budget" form:"total_budget"`
	TravelerCount lenientInt `json:"traveler_count" form:"traveler_count"`
	Currency      *string    `json:"currency" form:"currency"`
}

// currencyCode is an ISO 4217 code's shape.
var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// Budget limits: amounts stay far from int64's edge so sums never overflow.
const (
	amountMax    = 1_000_000_000_000
	travelersMax = 1000
)

// updateBudget sets the mode and, when given, the total, traveller count and currency.
func (s *Server) updateBudget(c echo.Context) error {
	var in budgetRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	ch := planner.BudgetChange{Mode: planner.BudgetMode(in.Type)}
	var v planner.Validation
	v.Check(ch.Mode == planner.BudgetBudget || ch.Mode == planner.BudgetExpense, "type", "must be BUDGET or EXPENSE")
	if total := in.TotalBudget.read(&v, "total_budget", false); in.TotalBudget.Set && !in.TotalBudget.Bad {
		v.Check(total >= 0 && total <= amountMax, "total_budget", "must be a whole amount from 0")
		t := int64(total)
		ch.TotalBudget = &t
	}
	if n := in.TravelerCount.read(&v, "traveler_count", false); in.TravelerCount.Set && !in.TravelerCount.Bad {
		v.Check(n >= 1 && n <= travelersMax, "traveler_count", "must be from 1 to 1000")
		ch.TravelerCount = &n
	}
	if in.Currency != nil {
		cur := strings.ToUpper(strings.TrimSpace(*in.Currency))
		v.Check(currencyCode.MatchString(cur), "currency", "must be an ISO 4217 code such as KRW or EUR")
		ch.Currency = &cur
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
	Paid    int64 `json:"paid"`
	Share   int64 `json:"share"`
	Balance int64 `json:"balance"`
}

type transferJSON struct {
	From   addedByJSON `json:"from"`
	To     addedByJSON `json:"to"`
	Amount int64       `json:"amount"`
}

type settlementJSON struct {
	Currency  string                 `json:"currency"`
	Members   []settlementMemberJSON `json:"members"`
	Transfers []transferJSON         `json:"transfers"`
}

// settlement answers who paid what, each member's share and balance, and the transfers that
// settle everyone (planner.Settle).
func (s *Server) settlement(c echo.Context) error {
	members, payments, currency, err := s.store.SettlementData(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	byID := make(map[string]planner.Member, len(members))
	ids := make([]string, len(members))
	for i, m := range members {
		byID[m.ID], ids[i] = m, m.ID
	}
	balances, moves := planner.Settle(ids, payments)
	out := settlementJSON{Currency: currency, Members: make([]settlementMemberJSON, 0, len(members)), Transfers: make([]transferJSON, len(moves))}
	for _, m := range members { // in join order
		for _, b := range balances {
			if b.MemberID == m.ID {
				out.Members = append(out.Members, settlementMemberJSON{addedByJSON: toAddedByJSON(m), Paid: b.Paid, Share: b.Share, Balance: b.Balance})
			}
		}
	}
	for i, t := range moves {
		out.Transfers[i] = transferJSON{From: toAddedByJSON(byID[t.From]), To: toAddedByJSON(byID[t.To]), Amount: t.Amount}
	}
	return respond(c, http.StatusOK, out, nil, nil)
}
