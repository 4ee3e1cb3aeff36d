package planner

// TitleMax is the most characters (Unicode code points, so 한 counts as one) a plan's or a
// collection's title may have (docs/API.md §Limits: 1–50). The database checks the same bound
// (migration 00013) and the forms say it (maxlength, the counter).
const TitleMax = 50

// CheckTitle trims a plan's or collection's title and records field "title" when it is empty,
// longer than TitleMax characters or not text (CheckText). A longer title is refused, never cut.
func CheckTitle(v *Validation, title string) string {
	return CheckText(v, "title", title, TitleMax)
}
