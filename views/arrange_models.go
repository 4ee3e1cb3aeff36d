package views

// MoveConflictView is a refused move (409 TIME_BLOCK_OVERLAP or TIME_BLOCK_EXACT_DUPLICATE):
// the sentence saying where, and — when the day has room for the block's length — the same
// request again (URL, Values as JSON form values, against Version) at the next free start.
type MoveConflictView struct {
	Title, Detail, Code string
	URL                 string
	Values              string
	Version             int
	Next                string // "13:00"
	NextLabel           string // the new span in the page's words: "13:00–14:00"
}

// moveButtonPlace puts a card's "Move to…" in the grid's card: in its bottom right corner, or
// on a one-line card left of its "⋯" menu.
func moveButtonPlace(b BlockView) string {
	if b.Compact() {
		return "lg:right-8 lg:top-1/2 lg:h-5 lg:w-5 lg:-translate-y-1/2"
	}
	return "lg:bottom-1 lg:right-1 lg:h-6 lg:w-6"
}
