package route

import (
	"context"
	"math"
)

// The offline estimate's numbers per mode, as tabled in the package documentation: the detour
// factor (route length ÷ great-circle distance), the average speed in km/h and the fixed
// overhead in seconds added to every leg that goes somewhere.
const (
	WalkDetour    = 1.3 // footpaths and crossings cut corners that streets cannot
	WalkSpeedKMH  = 4.8 // an unhurried adult pace, 1.333 m/s
	WalkOverheadS = 0   // a walk starts at the door

	TransitDetour    = 1.4 // lines follow the streets
	TransitSpeedKMH  = 22  // a city average of bus and metro, stops included
	TransitOverheadS = 480 // 8 min: walking to the stop and waiting

	DriveDetour    = 1.4 // the street grid and one-way streets
	DriveSpeedKMH  = 28  // a city average with lights and traffic
	DriveOverheadS = 300 // 5 min: getting to the car and parking it
)

// estimate is how Estimator treats one mode.
type estimate struct {
	detour    float64
	speedMS   float64 // metres a second
	overheadS int
}

var estimates = map[Mode]estimate{
	Walk:    {WalkDetour, WalkSpeedKMH / 3.6, WalkOverheadS},
	Transit: {TransitDetour, TransitSpeedKMH / 3.6, TransitOverheadS},
	Drive:   {DriveDetour, DriveSpeedKMH / 3.6, DriveOverheadS},
}

// Estimator is the offline Router: great-circle distance × detour factor, at a mode's speed,
// plus a fixed overhead (see the package documentation). Its Source is always SourceEstimate.
type Estimator struct{}

// Legs estimates the legs between consecutive points. It fails only when a point is not a
// position: a latitude outside ±90, a longitude outside ±180, or a number that is not finite.
func (Estimator) Legs(_ context.Context, points []Point) ([]Leg, Source, error) {
	if err := checkPoints(points); err != nil {
		return nil, SourceEstimate, err
	}
	if len(points) < 2 {
		return nil, SourceEstimate, nil
	}
	legs := make([]Leg, len(points)-1)
	for i := range legs {
		straight := greatCircleM(points[i], points[i+1])
		legs[i] = Leg{StraightM: int(math.Round(straight)), By: make(map[Mode]Measure, len(Modes))}
		for _, m := range Modes {
			legs[i].By[m] = estimateMode(m, straight)
		}
	}
	return legs, SourceEstimate, nil
}

// estimateMode is mode m's Measure for a leg whose great-circle distance is straightM metres;
// all zero when the distance rounds to 0 m.
func estimateMode(m Mode, straightM float64) Measure {
	if math.Round(straightM) == 0 {
		return Measure{}
	}
	e := estimates[m]
	distance := straightM * e.detour
	return Measure{
		DistanceM: int(math.Round(distance)),
		DurationS: int(math.Round(distance/e.speedMS)) + e.overheadS,
	}
}
