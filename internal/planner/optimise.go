package planner

// ArrangementMax is the most blocks one arrangement of a day may name, and the most
// additional expenses it may put back.
const ArrangementMax = 100

// Arranged is a time block's new time on its day, made against the version it was read at
// (POST …/days/{d}/arrangement: optimising a day, or undoing that).
type Arranged struct {
	TimeBlockID string
	Version     int
	Start, End  TimeOfDay
}

// Arrangement is what POST …/days/{d}/arrangement changes: blocks of one day at new times
// and, for an undo, where additional expenses of the day go back to.
type Arrangement struct {
	Blocks   []Arranged
	Expenses []ExpensePlace
}

// ExpensePlace puts an additional expense of a day after one of the day's time blocks, or at
// the day's start (AfterTimeBlockID "").
type ExpensePlace struct {
	ExpenseID        string
	AfterTimeBlockID string
}
