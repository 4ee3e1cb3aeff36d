package planner

// Page is a page request: 0-based number and size (docs/API.md §Conventions, paging).
type Page struct {
	Number, Size int
}

// Paging limits.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// Offset is the number of rows before the page.
func (p Page) Offset() int { return p.Number * p.Size }
