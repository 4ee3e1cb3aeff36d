package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"tripplan/internal/places"
	"tripplan/internal/planner"
)

// expenseJSON is the Expense resource, with who paid and who shares (beyond the contract:
// optional, older clients ignore them).
type expenseJSON struct {
	ExpenseID  string            `json:"expense_id"`
	Block      *expenseBlockJSON `json:"block"`
	Items      []expenseItemJSON `json:"items"`
	PaidBy     *string           `json:"paid_by"`
	SplitAmong []string          `json:"split_among"`
	Version    int               `json:"version"`
}

type expenseBlockJSON struct {
	BlockID  string            `json:"block_id"`
	Name     string            `json:"name"`
	Category places.Categories `json:"category"`
}

func (s *Server) toExpenseJSON(ctx context.Context, e *planner.Expense) expenseJSON {
	out := expenseJSON{ExpenseID: e.ID, Items: toExpenseItemsJSON(e.Items, e.Currency), SplitAmong: e.SplitAmong, Version: e.Version}
	if e.PaidBy != "" {
		out.PaidBy = &e.PaidBy
	}
	if out.SplitAmong == nil {
		out.SplitAmong = []string{}
	}
	if e.Block != nil {
		out.Block = &expenseBlockJSON{BlockID: e.Block.CandidateID, Name: e.Block.Name, Category: s.categories(ctx, e.Block.Place)}
	}
	return out
}

// expenseGroupJSON is one line of a day's expenses (API.md "ExpenseGroup").
type expenseGroupJSON struct {
	TimeBlockID    string         `json:"time_block_id,omitempty"`
	Type           string         `json:"type"`
	BlockStatus    string         `json:"block_status,omitempty"`
	CandidateCount *int           `json:"candidate_count,omitempty"`
	Candidates     *[]expenseJSON `json:"candidates,omitempty"` // BLOCK groups only (then never null): the unselected
	Selected       *expenseJSON   `json:"selected"`
}

func (s *Server) toExpenseGroupJSON(ctx context.Context, g *planner.ExpenseGroup) expenseGroupJSON {
	out := expenseGroupJSON{Type: string(g.Kind)}
	if g.Selected != nil {
		e := s.toExpenseJSON(ctx, g.Selected)
		out.Selected = &e
	}
	if g.Kind == planner.ExpenseBlock {
		// candidate_count counts all the block's place candidates; candidates lists the
		// expenses of those not selected (API-additions §3), the selected one is selected.
		n := len(g.Candidates)
		out.TimeBlockID, out.BlockStatus, out.CandidateCount = g.TimeBlockID, string(g.Status), &n
		list := make([]expenseJSON, 0, n)
		for i := range g.Candidates {
			if g.Selected == nil || g.Candidates[i].ID != g.Selected.ID {
				list = append(list, s.toExpenseJSON(ctx, &g.Candidates[i]))
			}
		}
		out.Candidates = &list
	}
	return out
}

type itemRequest struct {
	ExpenseItemID string      `json:"expense_item_id"`
	Name          string      `json:"name"`
	Cost          amountField `json:"cost"`
}

// readItems validates an item list: each a 1–100 character name and a cost from 0 (its
// decimals are checked against the plan's currency by the store: planner.PriceItems).
func readItems(v *planner.Validation, in []itemRequest) []planner.NewItem {
	v.Checkf(len(in) <= planner.ExpenseItemsMax, "items", "must list at most %d items", planner.ExpenseItemsMax)
	out := make([]planner.NewItem, len(in))
	for i, it := range in {
		name := strings.TrimSpace(it.Name)
		n := utf8.RuneCountInString(name)
		v.Check(n >= 1 && n <= 100 && !strings.ContainsRune(name, 0), "items", "each item needs a name of 1–100 characters")
		out[i] = planner.NewItem{ID: strings.TrimSpace(it.ExpenseItemID), Name: name, Cost: it.Cost.read(v, "items", true, true)}
	}
	return out
}

type payersRequest struct {
	PaidBy     *string  `json:"paid_by"`
	SplitAmong []string `json:"split_among"`
}

type newExpenseRequest struct {
	PrevExpenseID *string       `json:"prev_expense_id"`
	Day           lenientInt    `json:"day"`
	Items         []itemRequest `json:"items"`
	payersRequest
}

// expenseAddedJSON answers a new additional expense.
type expenseAddedJSON struct {
	Type     string      `json:"type"`
	Selected expenseJSON `json:"selected"`
}

// addExpense places an additional expense right after an expense or at the start of a day.
func (s *Server) addExpense(c echo.Context) error {
	var in newExpenseRequest
	if isForm(c) { // the budget page's form: repeated name and cost fields
		if err := c.Request().ParseForm(); err != nil {
			return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
		}
		f := c.Request().PostForm
		in.Items, in.payersRequest = formItems(f), formPayers(f)
		if prev := f.Get("prev_expense_id"); prev != "" {
			in.PrevExpenseID = &prev
		}
		if d := f.Get("day"); d != "" {
			in.Day.UnmarshalParam(d)
		}
	} else if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	ne := planner.NewExpense{AfterExpenseID: strings.TrimSpace(deref(in.PrevExpenseID)), PaidBy: strings.TrimSpace(deref(in.PaidBy)), SplitAmong: in.SplitAmong}
	switch {
	case ne.AfterExpenseID != "" && in.Day.Set:
		v.Add("prev_expense_id", "give prev_expense_id or day, not both")
	case ne.AfterExpenseID == "":
		if ne.Day = in.Day.read(&v, "day", true); !v.Has("day") {
			v.Check(planner.ValidDay(ne.Day), "day", "must be between 1 and 30")
		}
	}
	ne.Items = readItems(&v, in.Items)
	planner.CheckSharers(&v, ne.SplitAmong)
	if err := v.Err(); err != nil {
		return err
	}
	e, err := s.store.AddExpense(c.Request().Context(), caller(c).UserID, c.Param("planId"), ne)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, planPath(c.Param("planId"))+"/expenses/"+e.ID)
	return respondChange(c, http.StatusCreated, expenseAddedJSON{Type: string(planner.ExpenseAdditional), Selected: s.toExpenseJSON(c.Request().Context(), e)}, nil, budgetPagePath(c))
}

// dayExpenses lists a day's expenses grouped as API.md says.
func (s *Server) dayExpenses(c echo.Context) error {
	var v planner.Validation
	var day lenientInt
	if q := c.QueryParam("day"); q != "" {
		day.UnmarshalParam(q)
	}
	if day.read(&v, "day", true); !v.Has("day") {
		v.Check(planner.ValidDay(day.Value), "day", "must be between 1 and 30")
	}
	if err := v.Err(); err != nil {
		return err
	}
	groups, err := s.store.DayExpenses(c.Request().Context(), caller(c).UserID, c.Param("planId"), day.Value)
	if err != nil {
		return err
	}
	out := make([]expenseGroupJSON, len(groups))
	for i := range groups {
		out[i] = s.toExpenseGroupJSON(c.Request().Context(), &groups[i])
	}
	return respond(c, http.StatusOK, out, nil, nil)
}

// setExpense replaces an expense's items: the body is the bare item array of the contract, or
// an object {items, paid_by, split_among} that also says who paid and who shares.
func (s *Server) setExpense(c echo.Context) error {
	var items []itemRequest
	var payers *payersRequest
	var raw json.RawMessage
	if isForm(c) {
		if err := c.Request().ParseForm(); err != nil {
			return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
		}
		p := formPayers(c.Request().PostForm)
		items, payers = formItems(c.Request().PostForm), &p
	} else if err := c.Bind(&raw); err != nil {
		return err
	} else if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && trimmed[0] == '{' {
		var obj struct {
			Items []itemRequest `json:"items"`
			payersRequest
		}
		if err := decodeJSON(bytes.NewReader(trimmed), &obj); err != nil {
			return err
		}
		items, payers = obj.Items, &obj.payersRequest
	} else if err := decodeJSON(bytes.NewReader(trimmed), &items); err != nil {
		return err
	}
	var v planner.Validation
	list := readItems(&v, items)
	if payers != nil {
		planner.CheckSharers(&v, payers.SplitAmong)
	}
	if err := v.Err(); err != nil {
		return err
	}
	var paid *planner.Expense
	if payers != nil {
		paid = &planner.Expense{PaidBy: strings.TrimSpace(deref(payers.PaidBy)), SplitAmong: payers.SplitAmong}
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	e, err := s.store.SetExpense(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("expenseId"), list, paid, expect)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, s.toExpenseJSON(c.Request().Context(), e), nil, budgetPagePath(c))
}

// deleteExpense removes an additional expense, or empties a candidate's.
func (s *Server) deleteExpense(c echo.Context) error {
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteExpense(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("expenseId"), expect); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, budgetPagePath(c))
}

// budgetPagePath is the plan's budget page.
func budgetPagePath(c echo.Context) string { return planPath(c.Param("planId")) + "/budget" }

// isForm reports whether the body is a form (the budget page) rather than JSON.
func isForm(c echo.Context) bool {
	return strings.HasPrefix(c.Request().Header.Get(echo.HeaderContentType), echo.MIMEApplicationForm)
}

// formItems reads the item rows of the budget page's expense form: repeated expense_item_id,
// name and cost fields, one per row; rows left blank are skipped.
func formItems(f url.Values) []itemRequest {
	ids, names, costs := f["expense_item_id"], f["name"], f["cost"]
	var out []itemRequest
	for i := range names {
		var it itemRequest
		it.Name = names[i]
		if i < len(ids) {
			it.ExpenseItemID = ids[i]
		}
		if i < len(costs) {
			it.Cost.UnmarshalParam(costs[i])
		}
		if strings.TrimSpace(it.Name) == "" && (i >= len(costs) || strings.TrimSpace(costs[i]) == "") {
			continue
		}
		out = append(out, it)
	}
	return out
}

// formPayers reads who paid and who shares from the budget page's expense form.
func formPayers(f url.Values) payersRequest {
	paid := f.Get("paid_by")
	return payersRequest{PaidBy: &paid, SplitAmong: f["split_among"]}
}
