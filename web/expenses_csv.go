package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/money"
	"tripplan/internal/planner"
)

// exportExpensesCSV answers every expense line that counts in the plan's total cost as a
// spreadsheet (docs/API.md §Money): RFC 4180 with CRLF, UTF-8 after a byte-order mark so that
// spreadsheet programs read Korean right, a header row in the reader's language.
func (s *Server) exportExpensesCSV(c echo.Context) error {
	ctx := c.Request().Context()
	sh, err := s.store.ExpenseSheet(ctx, caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString("\uFEFF")
	w := csv.NewWriter(&buf)
	w.UseCRLF = true
	for _, r := range expenseRecords(ctx, sh) {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return attachment(c, sh.Title+" "+i18n.T(ctx, "csv.file"), "csv", "text/csv; charset=utf-8", buf.Bytes())
}

// expenseRecords are the sheet's rows, the header first: one per item of each expense that
// counts. Amounts are plain numbers in major units (money.Format), the item's part of the
// expense's converted total (SheetExpense.Lines) in the plan's currency; text the members
// wrote is kept from reading as a formula (cell).
func expenseRecords(ctx context.Context, sh *planner.ExpenseSheet) [][]string {
	plan := money.Stored(sh.Currency)
	out := [][]string{{i18n.T(ctx, "csv.day"), i18n.T(ctx, "csv.time_block"), i18n.T(ctx, "csv.name"), i18n.T(ctx, "csv.amount"),
		i18n.T(ctx, "csv.currency"), i18n.T(ctx, "csv.rate"), i18n.T(ctx, "csv.converted", "Currency", sh.Currency),
		i18n.T(ctx, "csv.paid_by"), i18n.T(ctx, "csv.split")}}
	for _, r := range sh.Rows {
		e := r.Expense
		cur := money.Stored(e.Terms.Currency)
		where := i18n.T(ctx, "csv.extra")
		if e.Block != nil {
			where = r.Start.HHMM() + "–" + r.End.HHMM()
			if e.Block.Place.ID != "" {
				where += " " + shownName(ctx, e.Block.Place)
			}
		}
		rate := "1"
		if e.Terms.Foreign() {
			rate = e.Terms.Rate.String()
		}
		paid, split := payersText(sh, e.Terms, cur), splitText(ctx, sh, e.Terms.Split, cur)
		for i, part := range r.Lines() {
			it := e.Items[i]
			out = append(out, []string{strconv.Itoa(r.Day), cell(where), cell(it.Name), money.Format(it.Cost, cur), cur.Code(), rate,
				money.Format(part, plan), cell(paid), cell(split)})
		}
	}
	return out
}

// payersText is who paid: the one payer's nickname, or each payer's with the amount they paid
// ("Ana 60.00; Ben 40.00").
func payersText(sh *planner.ExpenseSheet, t planner.Terms, cur money.Currency) string {
	if t.PaidBy != "" {
		return sh.Nicknames[t.PaidBy]
	}
	parts := make([]string, len(t.Payers))
	for i, p := range t.Payers {
		parts[i] = sh.Nicknames[p.MemberID] + " " + money.Format(p.Amount, cur)
	}
	return strings.Join(parts, "; ")
}

// splitText is how the expense is shared: "equal: Ana, Ben" (everyone active when it names
// nobody), "exact: Ana 10.00; Cid 70.00" or "shares: Ana 1; Cid 2", the mode's word in ctx's
// language.
func splitText(ctx context.Context, sh *planner.ExpenseSheet, sp planner.Split, cur money.Currency) string {
	var parts []string
	switch sp.Mode {
	case planner.SplitExact, planner.SplitShares:
		for _, p := range sp.Parts {
			n := strconv.FormatInt(p.Shares, 10)
			if sp.Mode == planner.SplitExact {
				n = money.Format(p.Amount, cur)
			}
			parts = append(parts, sh.Nicknames[p.MemberID]+" "+n)
		}
		word := map[planner.SplitMode]string{planner.SplitExact: "csv.exact", planner.SplitShares: "csv.shares"}[sp.Mode]
		return i18n.T(ctx, word) + ": " + strings.Join(parts, "; ")
	default:
		members := sp.Members
		if len(members) == 0 {
			members = sh.Active
		}
		for _, id := range members {
			parts = append(parts, sh.Nicknames[id])
		}
		return i18n.T(ctx, "csv.equal") + ": " + strings.Join(parts, ", ")
	}
}

// cell keeps text a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a
// carriage return) as text, behind an apostrophe (OWASP's advice on CSV injection).
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
