package views

import (
	"context"
	"strings"
	"testing"

	"tripplan/internal/i18n"
)

// budgetWithPayments is a budget page with a recorded payment and a suggested one.
func budgetWithPayments(readOnly bool) BudgetView {
	ana, ben := MemberView{ID: "m-ana", Nickname: "Ana"}, MemberView{ID: "m-ben", Nickname: "Ben"}
	return BudgetView{PlanID: "p1", PlanTitle: "Seoul", Currency: "USD", Day: 1, Members: []MemberView{ana, ben}, Sharers: 2, Me: "m-ben", ReadOnly: readOnly,
		Balances: []BalanceView{
			{Member: ben, Me: true, Paid: 1000, Share: 2500, Sent: 500, Balance: -1000},
			{Member: ana, Paid: 2500, Share: 1000, Received: 500, Balance: 1000},
		},
		Transfers: []TransferView{{From: ben, To: ana, Amount: 1000}},
		Payments:  []PaymentView{{ID: "s1", From: ben, To: ana, Amount: 500, When: "Fri 27 Nov"}}}
}

// TestBudgetSettleUpShowsPaymentsAndTheirUndo: the recorded payments are listed with an Undo
// that deletes the settlement, and the viewer's row reads in the second person; a guest (read
// only) sees the figures without Mark as paid or Undo.
func TestBudgetSettleUpShowsPaymentsAndTheirUndo(t *testing.T) {
	p := parsed(t, render(t, settle(budgetWithPayments(false))))
	p.has(`[data-balance="m-ben"][data-me]`, `[data-payment="s1"]`,
		`[hx-delete="/plans/p1/settlements/s1"]`, `[aria-label="Undo: Ben paid Ana $5.00"]`,
		`input[type="hidden"][name="amount"][value="10.00"]`)
	p.says("You owe $10.00", "is owed $10.00", "Sent", "$5.00", "Received", "Payments made", "Ben paid Ana $5.00", "Fri 27 Nov")
	guest := parsed(t, render(t, settle(budgetWithPayments(true))))
	guest.says("Ben paid Ana $5.00", "You owe $10.00")
	guest.lacks("[hx-delete]", "[hx-post]", "[data-mark-paid]")
	none := budgetWithPayments(false)
	none.Payments = nil
	nonePage := parsed(t, render(t, settle(none)))
	nonePage.lacks("[data-payments]")
	nonePage.nowhere("Payments made")

	ko := i18n.With(context.Background(), i18n.For(i18n.Korean))
	var b strings.Builder
	if err := settle(budgetWithPayments(false)).Render(ko, &b); err != nil {
		t.Fatal(err)
	}
	parsed(t, b.String()).says("Ben 님이 Ana 님에게 US$5.00 보냈어요", "되돌리기", "US$10.00 보내야 해요", "송금 완료")
}

// TestBudgetChartWritesAmountsOnBars: a long bar has its amount inside, a short one after it,
// and each label (a link to its day when it has one) says its amount to a screen reader.
func TestBudgetChartWritesAmountsOnBars(t *testing.T) {
	bars := Bars([]string{"Day 1", "Day 2"}, []int64{20000, 5000})
	bars[0].Href = "/plans/p1/budget?day=1"
	p := parsed(t, render(t, chart("Spending per day", "per-day", bars, "KRW")))
	p.has(`rect[x="0"][y="4"][width="100%"]`, `rect[x="0"][y="32"][width="25%"]`, `text[x="25%"][dx="6"][y="42"]`)
	p.hasText(`text[text-anchor="end"][class="fill-white text-xs font-semibold"][data-bar-amount]`, "₩20,000")
	p.hasText(`text[data-bar-amount]`, "₩5,000")
	p.hasText(`a[href="/plans/p1/budget?day=1"]:has(span[class="sr-only"])`, "Day 1: ₩20,000")
	p.hasText(`:has(span[class="sr-only"])`, "Day 2: ₩5,000")
	p.hasText(`span[class="sr-only"]`, ": ₩20,000")
	p.hasText(`span[class="sr-only"]`, ": ₩5,000")
}
