package planner

// BlockCopy is where a copy of a time block goes (POST …/blocks/{tb}/copies). A nil Day is the
// block's own day; nil Start and End (they go together) are the first free time of the
// block's length on that day at or after the block's end on its own day (a duplicate, right
// after it), at or after its start on another day.
type BlockCopy struct {
	Day        *int
	Start, End *TimeOfDay
}

// DayBlocks is a day of a plan with all its time blocks.
type DayBlocks struct {
	Info   DayInfo
	Blocks []TimeBlock
}

// DaySwap is the result of swapping two days of a plan: both days, in the order asked, each
// with the time blocks it holds now.
type DaySwap struct {
	Days [2]DayBlocks
}
