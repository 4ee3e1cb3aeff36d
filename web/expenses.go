package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/money"
	"tripplan/internal/paths"
	"tripplan/internal/places"
	"tripplan/internal/planner"
)

// expenseJSON is the Expense resource, with its currency, rate, payers and split (beyond the
// v1 contract: docs/API.md §Money; older clients ignore them). Items' costs and payers' and exact
// amounts are in the expense's currency; converted_total is its total in the plan's.
type expenseJSON struct {
	ExpenseID      string            `json:"expense_id"`
	Block          *expenseBlockJSON `json:"block"`
	Items          []expenseItemJSON `json:"items"`
	Currency       string            `json:"currency"`
	ExchangeRate   json.Number       `json:"exchange_rate"`
	Total          money.Amount      `json:"total"`
	ConvertedTotal money.Amount      `json:"converted_total"`
	PaidBy         *string           `json:"paid_by"`
	Payers         []partJSON        `json:"payers"`
	SplitAmong     []string          `json:"split_among"`
	Split          splitJSON         `json:"split"`
	Version        int               `json:"version"`
}

// partJSON is a payer's or a split's part: an amount, or shares.
type partJSON struct {
	PlanMemberID string        `json:"plan_member_id"`
	Amount       *money.Amount `json:"amount,omitempty"`
	Shares       *int64        `json:"shares,omitempty"`
}

// splitJSON is how an expense is shared: EQUAL among members (empty: everyone), or EXACT
// amounts, or SHARES.
type splitJSON struct {
	Mode    string     `json:"mode"`
	Members []string   `json:"members,omitempty"`
	Amounts []partJSON `json:"amounts,omitempty"`
	Shares  []partJSON `json:"shares,omitempty"`
}

type expenseBlockJSON struct {
	BlockID  string            `json:"block_id"`
	Name     string            `json:"name"`
	Category places.Categories `json:"category"`
}

func (s *Server) toExpenseJSON(ctx context.Context, e *planner.Expense) expenseJSON {
	t := e.Terms
	c := money.Stored(t.Currency)
	out := expenseJSON{ExpenseID: e.ID, Items: toExpenseItemsJSON(e.Items, t.Currency), Currency: t.Currency, ExchangeRate: "1",
		Total: money.Amount{Minor: e.Total(), Currency: c}, ConvertedTotal: money.Amount{Minor: e.Converted(), Currency: money.Stored(e.PlanCurrency)},
		Payers: []partJSON{}, SplitAmong: []string{}, Split: splitJSON{Mode: string(t.Split.Mode)}, Version: e.Version}
	if t.Foreign() {
		out.ExchangeRate = json.Number(t.Rate.String())
	}
	if t.PaidBy != "" {
		out.PaidBy = &t.PaidBy
		out.Payers = []partJSON{{PlanMemberID: t.PaidBy, Amount: &out.Total}}
	}
	for _, p := range t.Payers {
		out.Payers = append(out.Payers, partJSON{PlanMemberID: p.MemberID, Amount: &money.Amount{Minor: p.Amount, Currency: c}})
	}
	switch t.Split.Mode {
	case planner.SplitEqual:
		out.SplitAmong = append(out.SplitAmong, t.Split.Members...)
		out.Split.Members = out.SplitAmong
	case planner.SplitExact:
		for _, p := range t.Split.Parts {
			out.Split.Amounts = append(out.Split.Amounts, partJSON{PlanMemberID: p.MemberID, Amount: &money.Amount{Minor: p.Amount, Currency: c}})
		}
	case planner.SplitShares:
		for _, p := range t.Split.Parts {
			out.Split.Shares = append(out.Split.Shares, partJSON{PlanMemberID: p.MemberID, Shares: &p.Shares})
		}
	}
	if e.Block != nil {
		out.Block = &expenseBlockJSON{BlockID: e.Block.CandidateID, Name: e.Block.Name, Category: s.categories(ctx, e.Block.Place)}
	}
	return out
}

// expenseGroupJSON is one line of a day's expenses (docs/API.md §Money, "Expense groups").
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
		// expenses of those not selected (docs/API.md §Money), the selected one is selected.
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
		v.Check(planner.ValidText(name, 1, 100), "items", "each item needs a name of 1–100 characters")
		out[i] = planner.NewItem{ID: strings.TrimSpace(it.ExpenseItemID), Name: name, Cost: it.Cost.read(v, "items", true, true)}
	}
	return out
}

// termsRequest is an expense's currency, rate, payers and split as a client sends them
// (docs/API.md §Money): paid_by or payers; split, or v1's split_among (EQUAL among them).
type termsRequest struct {
	Currency     *string       `json:"currency"`
	ExchangeRate rateField     `json:"exchange_rate"`
	PaidBy       *string       `json:"paid_by"`
	Payers       []partRequest `json:"payers"`
	SplitAmong   []string      `json:"split_among"`
	Split        *splitRequest `json:"split"`
}

type partRequest struct {
	PlanMemberID string      `json:"plan_member_id"`
	Amount       amountField `json:"amount"`
	Shares       lenientInt  `json:"shares"`
}

type splitRequest struct {
	Mode    string        `json:"mode"`
	Members []string      `json:"members"`
	Amounts []partRequest `json:"amounts"`
	Shares  []partRequest `json:"shares"`
}

// read checks the terms' shape (planner.CheckTerms checks repeats; the store caps each list at
// the plan's member count and checks the members, sums and the currency's decimals).
func (in termsRequest) read(v *planner.Validation) planner.NewTerms {
	t := planner.NewTerms{PaidBy: strings.TrimSpace(deref(in.PaidBy)), Split: planner.NewSplit{Mode: planner.SplitEqual, Members: in.SplitAmong, Field: "split_among"}}
	if in.Currency != nil && strings.TrimSpace(*in.Currency) != "" {
		t.Currency = *readCurrency(v, *in.Currency)
	}
	t.Rate = in.ExchangeRate.read(v, "exchange_rate")
	parts := func(field string, in []partRequest, shares bool) []planner.NewPart {
		out := make([]planner.NewPart, len(in))
		for i, p := range in {
			out[i].MemberID = strings.TrimSpace(p.PlanMemberID)
			if shares {
				out[i].Shares = int64(p.Shares.read(v, field, true))
			} else {
				out[i].Amount = p.Amount.read(v, field, true, true)
			}
		}
		return out
	}
	t.Payers = parts("payers", in.Payers, false)
	if in.Split != nil {
		v.Check(in.SplitAmong == nil, "split", "give split or split_among, not both")
		t.Split = planner.NewSplit{Mode: planner.SplitMode(strings.ToUpper(strings.TrimSpace(in.Split.Mode))), Members: in.Split.Members, Field: "split"}
		switch t.Split.Mode {
		case planner.SplitExact:
			t.Split.Parts = parts("split", in.Split.Amounts, false)
		case planner.SplitShares:
			t.Split.Parts = parts("split", in.Split.Shares, true)
		}
	}
	if !v.Has("payers") && !v.Has(t.Split.Field) {
		planner.CheckTerms(v, t)
	}
	return t
}

type newExpenseRequest struct {
	PrevExpenseID *string       `json:"prev_expense_id"`
	Day           lenientInt    `json:"day"`
	Items         []itemRequest `json:"items"`
	termsRequest
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
		in.Items, in.termsRequest = formItems(f), formTerms(f)
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
	ne := planner.NewExpense{AfterExpenseID: strings.TrimSpace(deref(in.PrevExpenseID))}
	switch {
	case ne.AfterExpenseID != "" && in.Day.Set:
		v.Add("prev_expense_id", "give prev_expense_id or day, not both")
	case ne.AfterExpenseID == "":
		ne.Day = in.Day.readDay(&v, "day", true)
	}
	ne.Items = readItems(&v, in.Items)
	ne.Terms = in.termsRequest.read(&v)
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.rateFor(c, &ne.Terms, ""); err != nil {
		return err
	}
	e, err := s.store.AddExpense(c.Request().Context(), caller(c).UserID, c.Param("planId"), ne)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, paths.Plan(c.Param("planId"))+"/expenses/"+e.ID)
	return respondChange(c, http.StatusCreated, expenseAddedJSON{Type: string(planner.ExpenseAdditional), Selected: s.toExpenseJSON(c.Request().Context(), e)}, nil, budgetPagePath(c))
}

// dayExpenses lists a day's expenses grouped as docs/API.md §Money says.
func (s *Server) dayExpenses(c echo.Context) error {
	var v planner.Validation
	var day lenientInt
	if q := c.QueryParam("day"); q != "" {
		day.UnmarshalParam(q)
	}
	day.readDay(&v, "day", true)
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
// an object {items, currency, exchange_rate, paid_by or payers, split or split_among} that also
// sets its terms.
func (s *Server) setExpense(c echo.Context) error {
	var items []itemRequest
	var terms *termsRequest
	var raw json.RawMessage
	if isForm(c) {
		if err := c.Request().ParseForm(); err != nil {
			return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
		}
		t := formTerms(c.Request().PostForm)
		items, terms = formItems(c.Request().PostForm), &t
	} else if err := c.Bind(&raw); err != nil {
		return err
	} else if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && trimmed[0] == '{' {
		var obj struct {
			Items []itemRequest `json:"items"`
			termsRequest
		}
		if err := decodeJSON(bytes.NewReader(trimmed), &obj); err != nil {
			return err
		}
		items, terms = obj.Items, &obj.termsRequest
	} else if err := decodeJSON(bytes.NewReader(trimmed), &items); err != nil {
		return err
	}
	var v planner.Validation
	list := readItems(&v, items)
	var nt *planner.NewTerms
	if terms != nil {
		t := terms.read(&v)
		nt = &t
	}
	if err := v.Err(); err != nil {
		return err
	}
	if nt != nil {
		if err := s.rateFor(c, nt, c.Param("expenseId")); err != nil {
			return err
		}
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	e, err := s.store.SetExpense(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("expenseId"), list, nt, expect)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, s.toExpenseJSON(c.Request().Context(), e), nil, budgetPagePath(c))
}

// rateFor asks the rates source for the rate of an expense (expenseID; "" for a new one) whose
// terms name a currency but no rate, when it is neither the plan's nor the expense's now (which
// keeps its rate): one more query on that path only. Without a source, or when it has no rate,
// the terms stay without one and the store answers EXCHANGE_RATE_REQUIRED.
func (s *Server) rateFor(c echo.Context, t *planner.NewTerms, expenseID string) error {
	if t.Currency == "" || t.Rate != nil || s.rates == nil {
		return nil
	}
	ctx := c.Request().Context()
	plan, now, err := s.store.ExpenseCurrency(ctx, caller(c).UserID, c.Param("planId"), expenseID)
	if err != nil || t.Currency == plan || t.Currency == now {
		return err
	}
	if rate, err := s.rates.Rate(ctx, t.Currency, plan); err == nil {
		t.Rate = &rate
	} else {
		s.log.InfoContext(ctx, "no exchange rate", "from", t.Currency, "to", plan, "err", err)
	}
	return nil
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
func budgetPagePath(c echo.Context) string { return paths.Plan(c.Param("planId")) + "/budget" }

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

// formTerms reads an expense's terms from the budget page's expense form: currency,
// exchange_rate, paid_by, and split_among (EQUAL) or split_mode with one amount or shares field
// per member (split_amount_<id>, split_shares_<id>).
func formTerms(f url.Values) termsRequest {
	paid := f.Get("paid_by")
	t := termsRequest{PaidBy: &paid, SplitAmong: f["split_among"]}
	if cur := f.Get("currency"); cur != "" {
		t.Currency = &cur
	}
	if r := strings.TrimSpace(f.Get("exchange_rate")); r != "" {
		t.ExchangeRate.UnmarshalParam(r)
	}
	mode := strings.ToUpper(f.Get("split_mode"))
	if mode != string(planner.SplitExact) && mode != string(planner.SplitShares) {
		return t
	}
	t.Split, t.SplitAmong = &splitRequest{Mode: mode}, nil
	for _, id := range f["split_member"] {
		var p partRequest
		p.PlanMemberID = id
		if mode == string(planner.SplitExact) {
			if s := strings.TrimSpace(f.Get("split_amount_" + id)); s != "" {
				p.Amount.UnmarshalParam(s)
				t.Split.Amounts = append(t.Split.Amounts, p)
			}
		} else if s := strings.TrimSpace(f.Get("split_shares_" + id)); s != "" && s != "0" {
			p.Shares.UnmarshalParam(s)
			t.Split.Shares = append(t.Split.Shares, p)
		}
	}
	return t
}
