package planner

// ExpenseKind tells a place candidate's own expense from an additional one.
type ExpenseKind string

// Expense kinds.
const (
	ExpenseBlock      ExpenseKind = "BLOCK"
	ExpenseAdditional ExpenseKind = "ADDITIONAL"
)

// Expense is a set of costs: a place candidate's (Block set) or an additional one placed on a
// day, with costs in minor units of Currency (the plan's). PaidBy and SplitAmong (plan member
// ids; empty = everyone) say who paid and who shares.
type Expense struct {
	ID         string
	Kind       ExpenseKind
	Block      *ExpenseOf
	Items      []ExpenseItem
	Currency   string
	PaidBy     string
	SplitAmong []string
	Version    int
}

// Total is the sum of the items.
func (e Expense) Total() int64 {
	var t int64
	for _, it := range e.Items {
		t += it.Cost
	}
	return t
}

// ExpenseOf is the candidate a BLOCK expense belongs to.
type ExpenseOf struct {
	CandidateID string
	Name        string
	Place       Place
}

// ExpenseGroup is one line of a day's expenses: an additional expense, or a time block with
// its candidates' expenses and the selected one's.
type ExpenseGroup struct {
	Kind        ExpenseKind
	TimeBlockID string
	Status      BlockStatus
	Candidates  []Expense // BLOCK: one per place candidate
	Selected    *Expense  // ADDITIONAL: the expense; BLOCK: the selected candidate's, or nil
}

// NewExpense is an additional expense: right after an expense (AfterExpenseID) or at the
// start of a day.
type NewExpense struct {
	AfterExpenseID string
	Day            int
	Items          []NewItem
	PaidBy         string
	SplitAmong     []string
}

// CostLine is a part of a plan's total cost: a day's or a category's (level-1 id; "" for
// additional expenses).
type CostLine struct {
	Day      int    `db:"day"`
	Category string `db:"category"`
	Total    int64  `db:"total"`
}
