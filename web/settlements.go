package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/money"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// settlementRecordJSON is a payment recorded between members (docs/API.md §Money), its amount in
// the plan's currency.
type settlementRecordJSON struct {
	SettlementID string       `json:"settlement_id"`
	From         addedByJSON  `json:"from"`
	To           addedByJSON  `json:"to"`
	Amount       money.Amount `json:"amount"`
	CreatedAt    string       `json:"created_at"`
	CreatedBy    addedByJSON  `json:"created_by"`
}

func toSettlementRecordJSON(s *planner.Settlement) settlementRecordJSON {
	return settlementRecordJSON{SettlementID: s.ID, From: toAddedByJSON(s.From), To: toAddedByJSON(s.To),
		Amount: money.Amount{Minor: s.Amount, Currency: money.Stored(s.Currency)}, CreatedAt: instant(s.CreatedAt),
		CreatedBy: toAddedByJSON(s.CreatedBy)}
}

// settlementRequest is a payment to record: JSON, or the budget page's form.
type settlementRequest struct {
	From   *string     `json:"from_plan_member_id" form:"from_plan_member_id"`
	To     *string     `json:"to_plan_member_id" form:"to_plan_member_id"`
	Amount amountField `json:"amount" form:"amount"`
}

// recordSettlement records that one member paid another ("Mark as paid" on a suggested
// transfer, or any payment between them): 201 with the record, or for the budget page's form
// back to the page.
func (s *Server) recordSettlement(c echo.Context) error {
	var in settlementRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	from, to := strings.TrimSpace(deref(in.From)), strings.TrimSpace(deref(in.To))
	v.Check(from != "", "from_plan_member_id", "is required")
	v.Check(to != "", "to_plan_member_id", "is required")
	switch a := in.Amount; {
	case !a.Set:
		v.Add("amount", "is required")
	case errors.Is(a.Err, money.ErrRange):
		v.Add("amount", "is too large")
	case a.Err != nil:
		v.Add("amount", "must be an amount above 0, such as 12.50")
	}
	if err := v.Err(); err != nil {
		return err
	}
	rec, err := s.store.RecordSettlement(c.Request().Context(), caller(c).UserID, c.Param("planId"), from, to, in.Amount.Value)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, paths.Plan(c.Param("planId"))+"/settlements/"+rec.ID)
	return respondChange(c, http.StatusCreated, toSettlementRecordJSON(rec), nil, budgetPagePath(c))
}

// listSettlements answers a page of the plan's recorded payments, newest first.
func (s *Server) listSettlements(c echo.Context) error {
	var v planner.Validation
	page := pageParams(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	list, hasNext, err := s.store.Settlements(c.Request().Context(), caller(c).UserID, c.Param("planId"), page)
	if err != nil {
		return err
	}
	out := make([]settlementRecordJSON, len(list))
	for i := range list {
		out[i] = toSettlementRecordJSON(&list[i])
	}
	return respond(c, http.StatusOK, newPage(out, hasNext, page), nil, nil)
}

// deleteSettlement deletes a recorded payment: 204, or for the budget page back to the page.
func (s *Server) deleteSettlement(c echo.Context) error {
	if err := s.store.DeleteSettlement(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("settlementId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, budgetPagePath(c))
}
