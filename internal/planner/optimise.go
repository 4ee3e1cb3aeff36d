package planner

// ArrangementMax is the most blocks one arrangement of a day may name.
const ArrangementMax = 100

// Arranged is a time block's new time on its day, made against the version it was read at
// (POST …/days/{d}/arrangement: optimising a day, or undoing that).
type Arranged struct {
	TimeBlockID string
	Version     int
	Start, End  TimeOfDay
}
