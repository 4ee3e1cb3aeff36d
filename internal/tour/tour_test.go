package tour

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// grid is the cost matrix of n random points in a 10 km square, in rounded metres, with an
// asymmetric surcharge when asked (one-way streets).
func grid(r *rand.Rand, n int, asymmetric bool) Cost {
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = r.Float64()*10000, r.Float64()*10000
	}
	c := make(Cost, n)
	for i := range c {
		c[i] = make([]int, n)
		for j := range c[i] {
			c[i][j] = int(math.Round(math.Hypot(xs[i]-xs[j], ys[i]-ys[j])))
			if asymmetric && i < j {
				c[i][j] += r.IntN(2000)
			}
		}
	}
	return c
}

// brute is the cheapest path by trying every order.
func brute(c Cost, from int, movable []int, to int) int {
	best := math.MaxInt
	var try func(order, left []int)
	try = func(order, left []int) {
		if len(left) == 0 {
			best = min(best, PathCost(c, from, order, to))
			return
		}
		for i := range left {
			rest := append(append([]int(nil), left[:i]...), left[i+1:]...)
			try(append(order, left[i]), rest)
		}
	}
	try(nil, movable)
	return best
}

func isPermutation(t *testing.T, order, of []int) {
	t.Helper()
	a, b := slices.Clone(order), slices.Clone(of)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Fatalf("order %v is not a permutation of %v", order, of)
	}
}

// Exact orders match trying every order, with and without fixed ends, on symmetric and
// one-way costs, for 1 to 8 stops.
func TestExactMatchesEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 8; n++ {
		for _, asymmetric := range []bool{false, true} {
			for _, ends := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				c := grid(r, n+2, asymmetric)
				from, to := None, None
				if ends[0] {
					from = n
				}
				if ends[1] {
					to = n + 1
				}
				movable := make([]int, n)
				for i := range movable {
					movable[i] = i
				}
				order, cost := Order(c, from, movable, to)
				isPermutation(t, order, movable)
				if want := brute(c, from, movable, to); cost != want || PathCost(c, from, order, to) != cost {
					t.Fatalf("n=%d asym=%v ends=%v: cost %d (path %d), every order's best %d", n, asymmetric, ends, cost, PathCost(c, from, order, to), want)
				}
			}
		}
	}
}

// A zig-zag along a street is put in order: stops at 0, 4, 1, 3, 2 km → 0, 1, 2, 3, 4.
func TestOrderUnzigzags(t *testing.T) {
	at := []int{0, 4000, 1000, 3000, 2000}
	c := make(Cost, len(at))
	for i := range c {
		c[i] = make([]int, len(at))
		for j := range c[i] {
			c[i][j] = max(at[i]-at[j], at[j]-at[i])
		}
	}
	order, cost := Order(c, 0, []int{1, 2, 3, 4}, None)
	if !slices.Equal(order, []int{2, 4, 3, 1}) || cost != 4000 {
		t.Fatalf("order %v cost %d", order, cost)
	}
	// Ending at the far stop fixed: the same; starting there instead: reversed.
	if order, _ := Order(c, 1, []int{2, 3, 4}, 0); !slices.Equal(order, []int{3, 4, 2}) {
		t.Fatalf("reversed: %v", order)
	}
}

func TestEmptyAndSingle(t *testing.T) {
	c := Cost{{0, 5, 7}, {5, 0, 3}, {7, 3, 0}}
	if order, cost := Order(c, 0, nil, 2); order != nil || cost != 7 {
		t.Fatalf("nothing movable between fixed ends: %v %d", order, cost)
	}
	if order, cost := Order(c, None, nil, None); order != nil || cost != 0 {
		t.Fatalf("nothing at all: %v %d", order, cost)
	}
	if order, cost := Order(c, 0, []int{1}, 2); !slices.Equal(order, []int{1}) || cost != 8 {
		t.Fatalf("one stop: %v %d", order, cost)
	}
}

// Beyond ExactLimit the heuristic is never worse than the order given or than one
// nearest-neighbour path, and stays close to the exact answer where that can still be had.
func TestHeuristic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{ExactLimit + 1, 20, 40, MaxStops} {
		c := grid(r, n+1, n%2 == 0)
		movable := make([]int, n)
		for i := range movable {
			movable[i] = i
		}
		order, cost := Order(c, n, movable, None)
		isPermutation(t, order, movable)
		if given := PathCost(c, n, movable, None); cost > given {
			t.Errorf("n=%d: %d, worse than the given order's %d", n, cost, given)
		}
		if nn := PathCost(c, n, nearest(c, movable, 0), None); cost > nn {
			t.Errorf("n=%d: %d, worse than nearest neighbour's %d", n, cost, nn)
		}
		if PathCost(c, n, order, None) != cost {
			t.Errorf("n=%d: cost %d is not the order's", n, cost)
		}
	}
	// Against the exact answer on 12 stops (the heuristic run directly): within 5 %.
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 9))
		c := grid(r, ExactLimit+1, seed%2 == 0)
		movable := make([]int, ExactLimit)
		for i := range movable {
			movable[i] = i
		}
		_, want := exact(c, ExactLimit, movable, None)
		if _, got := heuristic(c, ExactLimit, movable, None); float64(got) > 1.05*float64(want) {
			t.Errorf("seed %d: heuristic %d, exact %d", seed, got, want)
		}
	}
}

func BenchmarkOrder(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{9, ExactLimit, 30, MaxStops} {
		c := grid(r, n, false)
		movable := make([]int, n)
		for i := range movable {
			movable[i] = i
		}
		b.Run(string(rune('0'+n/10))+string(rune('0'+n%10)), func(b *testing.B) {
			for b.Loop() {
				Order(c, None, movable, None)
			}
		})
	}
}
