package route

import "math"

// Timing is how a leg fits the gap between the end of one block and the start of the next.
type Timing string

// The timings of a leg. A plan's times are rough, so a few minutes short is only Tight; a
// warning that sits on every pair of back-to-back blocks would be noise nobody reads.
const (
	Fits      Timing = ""                // the gap is long enough, or the places are a short walk apart
	Tight     Timing = "TIGHT"           // the quickest way is longer than the gap, by at most the tolerance
	NotEnough Timing = "NOT_ENOUGH_TIME" // the quickest way is longer than the gap by more than the tolerance
)

// The tolerance and the short walk of Fit.
const (
	// ToleranceS is the least a leg may overrun its gap and still count as Tight: 10 minutes,
	// so blocks put back to back a walk of ten minutes apart get a hint, not an alarm.
	ToleranceS = 10 * 60
	// ToleranceShare is the share of the quickest way's duration a longer leg may overrun:
	// 20 %, so a 90-minute ride may be 18 minutes over its gap.
	ToleranceShare = 0.2
	// ShortWalkM is the walking distance under which a leg always Fits: 300 m, a few minutes
	// on foot, which people fold into the blocks themselves.
	ShortWalkM = 300
)

// Fit judges the leg against gapS, the seconds between the blocks (negative never happens: the
// blocks of a day do not overlap). A leg without measures (a place without coordinates) Fits.
func (l Leg) Fit(gapS int) Timing {
	walk, ok := l.By[Walk]
	if !ok || walk.DistanceM < ShortWalkM {
		return Fits
	}
	_, fastestS := l.Fastest()
	over := fastestS - gapS
	switch {
	case over <= 0:
		return Fits
	case over <= max(ToleranceS, int(math.Round(ToleranceShare*float64(fastestS)))):
		return Tight
	}
	return NotEnough
}
