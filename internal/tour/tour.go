// Package tour orders the stops of a day so that the travel between them is short: the
// travelling salesman's problem on an open path, with optional fixed ends.
//
// A day between two reservations is such a path: it leaves from the earlier fixed stop (or
// from wherever the day starts: no cost), visits every movable stop once and arrives at the
// later fixed stop (or nowhere: no cost). Costs are whatever the caller measures (the day
// route's travel seconds) and need not be symmetric.
//
// Up to ExactLimit movable stops the answer is exact (Held–Karp dynamic programming over
// subsets, O(2ⁿ·n²): 12 stops take about 600,000 steps). Beyond that it is a heuristic: the
// given order and nearest-neighbour paths from up to Starts first stops, each improved by 2-opt
// (reverse a stretch) and Or-opt (move one stop elsewhere) until neither helps, and the best
// of them kept: never worse than the order it was given. It is meant for a day's stops;
// callers refuse more than MaxStops.
package tour

import "math"

// The sizes Order works with.
const (
	ExactLimit = 12 // the most movable stops Order solves exactly
	Starts     = 8  // nearest-neighbour starts the heuristic improves, besides the given order
	MaxStops   = 60 // the most stops a caller should ask Order to place (a full day is far fewer)
)

// Cost is the travel cost from stop i to stop j (Cost[i][j]); Cost[i][i] is not used.
type Cost [][]int

// None marks a path without a fixed start or end.
const None = -1

// Order is the visiting order of the stops in movable (indices into c) that makes the path
// from → movable… → to cheapest, and that path's cost (the legs from `from` and to `to`
// included; None for either end means the path starts or ends freely). Ties keep the given
// order. An empty movable list costs c[from][to] when both ends are fixed.
func Order(c Cost, from int, movable []int, to int) ([]int, int) {
	if len(movable) == 0 {
		if from != None && to != None {
			return nil, c[from][to]
		}
		return nil, 0
	}
	if len(movable) <= ExactLimit {
		return exact(c, from, movable, to)
	}
	return heuristic(c, from, movable, to)
}

// PathCost is the cost of visiting order from `from` to `to` (None for a free end).
func PathCost(c Cost, from int, order []int, to int) int {
	total := 0
	prev := from
	for _, s := range order {
		if prev != None {
			total += c[prev][s]
		}
		prev = s
	}
	if prev != None && to != None {
		total += c[prev][to]
	}
	return total
}

// exact is Held–Karp: best[mask][j] is the cheapest way to visit the stops in mask ending at
// stop j (positions in movable).
func exact(c Cost, from int, movable []int, to int) ([]int, int) {
	n := len(movable)
	full := 1<<n - 1
	best := make([][]int, full+1)
	prev := make([][]int8, full+1)
	for m := range best {
		best[m] = make([]int, n)
		prev[m] = make([]int8, n)
		for j := range best[m] {
			best[m][j] = math.MaxInt
		}
	}
	for j, s := range movable {
		best[1<<j][j] = 0
		if from != None {
			best[1<<j][j] = c[from][s]
		}
		prev[1<<j][j] = -1
	}
	for mask := 1; mask <= full; mask++ {
		for j := 0; j < n; j++ {
			here := best[mask][j]
			if mask&(1<<j) == 0 || here == math.MaxInt {
				continue
			}
			for k := 0; k < n; k++ {
				if mask&(1<<k) != 0 {
					continue
				}
				next := mask | 1<<k
				if cost := here + c[movable[j]][movable[k]]; cost < best[next][k] {
					best[next][k], prev[next][k] = cost, int8(j)
				}
			}
		}
	}
	end, total := 0, math.MaxInt
	for j, s := range movable {
		cost := best[full][j]
		if to != None {
			cost += c[s][to]
		}
		if cost < total {
			end, total = j, cost
		}
	}
	order := make([]int, n)
	for mask, j, i := full, end, n-1; i >= 0; i-- {
		order[i] = movable[j]
		j, mask = int(prev[mask][j]), mask&^(1<<j)
	}
	return order, total
}

// heuristic tries the given order and nearest-neighbour paths from Starts first stops spread
// over the list, each improved until 2-opt and Or-opt find nothing better, and keeps the
// cheapest.
func heuristic(c Cost, from int, movable []int, to int) ([]int, int) {
	best := improve(c, from, append([]int(nil), movable...), to)
	bestCost := PathCost(c, from, best, to)
	for k := range min(Starts, len(movable)) {
		order := improve(c, from, nearest(c, movable, k*len(movable)/min(Starts, len(movable))), to)
		if cost := PathCost(c, from, order, to); cost < bestCost {
			best, bestCost = order, cost
		}
	}
	return best, bestCost
}

// nearest is the path that starts at movable[first] and always goes on to the closest stop
// not yet visited.
func nearest(c Cost, movable []int, first int) []int {
	left := append([]int(nil), movable...)
	order := []int{left[first]}
	left = append(left[:first], left[first+1:]...)
	for len(left) > 0 {
		at, pick := order[len(order)-1], 0
		for i, s := range left {
			if c[at][s] < c[at][left[pick]] {
				pick = i
			}
		}
		order = append(order, left[pick])
		left = append(left[:pick], left[pick+1:]...)
	}
	return order
}

// improve applies the first improving 2-opt reversal or Or-opt move until none is left. Costs
// may be asymmetric, so every candidate is priced as a whole path.
func improve(c Cost, from int, order []int, to int) []int {
	cost := PathCost(c, from, order, to)
	for improved := true; improved; {
		improved = false
		for i := 0; i < len(order)-1 && !improved; i++ {
			for j := i + 1; j < len(order) && !improved; j++ {
				reverse(order[i : j+1])
				if next := PathCost(c, from, order, to); next < cost {
					cost, improved = next, true
				} else {
					reverse(order[i : j+1])
				}
			}
		}
		for i := 0; i < len(order) && !improved; i++ {
			for j := 0; j < len(order) && !improved; j++ {
				if i == j {
					continue
				}
				moved := move(order, i, j)
				if next := PathCost(c, from, moved, to); next < cost {
					order, cost, improved = moved, next, true
				}
			}
		}
	}
	return order
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// move is order with the stop at i taken out and put in at position j.
func move(order []int, i, j int) []int {
	out := make([]int, 0, len(order))
	out = append(out, order[:i]...)
	out = append(out, order[i+1:]...)
	out = append(out[:j], append([]int{order[i]}, out[j:]...)...)
	return out
}
