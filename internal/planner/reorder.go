package planner

// Runs are the stretches of a day's blocks (n of them, in time order) whose blocks may trade
// places: maximal sequences of consecutive blocks that are all movable, each as the blocks'
// indices. A block that is not movable (a reservation, free time, a block still being decided)
// stays where it is and ends a run, so a reordered run never reaches into it. Runs of one
// block have nothing to trade and are left out.
func Runs(n int, movable func(i int) bool) [][]int {
	var out [][]int
	var run []int
	for i := 0; i <= n; i++ {
		if i < n && movable(i) {
			run = append(run, i)
			continue
		}
		if len(run) > 1 {
			out = append(out, run)
		}
		run = nil
	}
	return out
}

// Reorder lays a run's blocks (in time order, as Runs gives them) out again visiting them in
// order (positions in run): the first starts where the run started, each keeps its length,
// and the gaps between consecutive blocks stay as they were, so the run ends where it ended
// and nothing outside it moves. The answer is each block's new slot, by position in run.
func Reorder(run []TimeBlock, order []int) []Slot {
	out := make([]Slot, len(run))
	if len(run) == 0 {
		return out
	}
	at := run[0].Start
	for i, pos := range order {
		b := run[pos]
		out[pos] = Slot{Day: b.Day.Day, Start: at, End: at + b.End - b.Start}
		if i+1 < len(order) {
			at = out[pos].End + run[i+1].Start - run[i].End
		}
	}
	return out
}
