package planner

// ExpenseSheet is what a plan's expenses.csv lists (docs/API.md §Money): the expenses that count
// in its total cost (Counted), in the order of the days' expenses, and the members they name.
type ExpenseSheet struct {
	Title    string
	Currency string // the plan's
	// Nicknames are every member's, those who left too (an expense may still name them), by
	// plan member id.
	Nicknames map[string]string
	// Active are the active members' ids, oldest first: whom an EQUAL split among everyone
	// shares with.
	Active []string
	Rows   []SheetExpense
}

// SheetExpense is an expense that counts in the total cost, where it is: Start and End are its
// time block's for a candidate's expense (Expense.Block), unset for an additional one.
type SheetExpense struct {
	Day        int
	Start, End TimeOfDay
	Expense    Expense
	Converted  int64 // its total in minor units of the plan's currency, as Counted converts it
}

// Lines are the expense's items' parts of Converted, in order: divided by their costs
// (Allocate), so they sum to Converted exactly.
func (s SheetExpense) Lines() []int64 {
	costs := make([]int64, len(s.Expense.Items))
	for i, it := range s.Expense.Items {
		costs[i] = it.Cost
	}
	return Allocate(s.Converted, costs)
}
