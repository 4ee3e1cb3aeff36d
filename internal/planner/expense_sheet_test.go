package planner

import (
	"slices"
	"testing"
)

// TestSheetLinesSumToTheConvertedTotal: an expense's lines divide its converted total by their
// costs, the units left over to the largest remainders, and sum to it exactly.
func TestSheetLinesSumToTheConvertedTotal(t *testing.T) {
	items := func(costs ...int64) []ExpenseItem {
		out := make([]ExpenseItem, len(costs))
		for i, c := range costs {
			out[i].Cost = c
		}
		return out
	}
	for _, c := range []struct {
		converted int64
		costs     []int64
		want      []int64
	}{
		// ¥3000 + ¥450 at 9.05 = ₩31222.5 → 31223: 27150.43… and 4072.56…, the unit to the tea.
		{31223, []int64{3000, 450}, []int64{27150, 4073}},
		// $12.50 + $7.25 at 1385.27 = ₩27359.08… → 27359: 17315.82… and 10043.17….
		{27359, []int64{1250, 725}, []int64{17316, 10043}},
		// ₩100 over three equal items: 33.33… each, the unit to the first.
		{100, []int64{5, 5, 5}, []int64{34, 33, 33}},
		{0, []int64{0, 0}, []int64{0, 0}},
		{0, nil, []int64{}},
	} {
		got := SheetExpense{Expense: Expense{Items: items(c.costs...)}, Converted: c.converted}.Lines()
		if !slices.Equal(got, c.want) {
			t.Errorf("%d over %v: %v, want %v", c.converted, c.costs, got, c.want)
		}
	}
}
