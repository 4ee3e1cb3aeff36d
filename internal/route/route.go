// Package route answers how to travel between consecutive places of a plan day: for points in
// visiting order, one Leg per consecutive pair, with distance and duration by walking, transit
// and driving.
//
// Two Routers exist. Estimator works offline from the great-circle distance; OSRM asks OSRM
// servers for real road and footpath routes and falls back to Estimator when they fail.
//
// # Offline estimates
//
// Estimator takes the great-circle distance (haversine on a sphere of radius EarthRadiusM),
// multiplies it by the mode's detour factor, travels that at the mode's speed and adds the
// mode's fixed overhead. Distances are rounded to whole metres, durations to whole seconds.
//
//	mode     detour  speed      overhead  why
//	walk     ×1.3    4.8 km/h   none      footpaths cut corners streets cannot; an unhurried adult pace
//	transit  ×1.4    22 km/h    8 min     lines follow streets and the speed averages in stops; walking to the stop and waiting
//	drive    ×1.4    28 km/h    5 min     the street grid at a city average with lights and traffic; reaching the car and parking
//
// The same numbers are the constants WalkDetour, WalkSpeedKMH, WalkOverheadS and their
// Transit and Drive counterparts.
//
// Points less than half a metre apart (StraightM 0) have nowhere to go: every mode's distance
// and duration is 0, overheads included.
package route

import (
	"context"
	"fmt"
	"math"
)

// EarthRadiusM is the mean radius of the Earth in metres (IUGG), the sphere great-circle
// distances are measured on.
const EarthRadiusM = 6_371_008.8

// MaxWalkM is the longest walk, in metres, that Fastest still offers: 5 km, about an hour on
// foot. Longer legs are shown with their walking numbers but never as the quickest way.
const MaxWalkM = 5_000

// Point is a place's position in decimal degrees.
type Point struct{ Lat, Lon float64 }

// Mode is a way to travel.
type Mode string

// The ways to travel.
const (
	Walk    Mode = "walk"
	Transit Mode = "transit"
	Drive   Mode = "drive"
)

// Modes lists every Mode in display order; each Leg has a Measure for all of them.
var Modes = []Mode{Walk, Transit, Drive}

// Measure is one mode's distance (metres) and duration (seconds) for a leg.
type Measure struct {
	DistanceM, DurationS int
}

// Leg is the travel between two consecutive points.
type Leg struct {
	StraightM int              // great-circle distance, metres
	By        map[Mode]Measure // every mode in Modes
}

// Fastest is the quickest sensible mode of the leg and its duration. Walking counts only when
// its distance is at most MaxWalkM; transit and drive always count. Ties go to the mode listed
// first in Modes, so a zero-length leg is a walk of 0 s. A Leg without measures (the zero
// value) gives "" and 0.
func (l Leg) Fastest() (Mode, int) {
	var best Mode
	bestS := 0
	for _, m := range Modes {
		measure, ok := l.By[m]
		if !ok || (m == Walk && measure.DistanceM > MaxWalkM) {
			continue
		}
		if best == "" || measure.DurationS < bestS {
			best, bestS = m, measure.DurationS
		}
	}
	return best, bestS
}

// Source says where a Router's numbers came from.
type Source string

// The sources of numbers.
const (
	SourceEstimate Source = "ESTIMATE" // Estimator's offline arithmetic
	SourceOSRM     Source = "OSRM"     // OSRM servers' routes
)

// Router answers the legs between consecutive points (Legs: len(points)-1 legs, none for fewer
// than 2 points) and between every pair of them (Matrix). The error is for points that are not
// positions (see Estimator.Legs).
type Router interface {
	Legs(ctx context.Context, points []Point) ([]Leg, Source, error)
	Matrix(ctx context.Context, points []Point) (Matrix, Source, error)
}

// checkPoints returns an error naming the first point that is not a position on Earth: a
// latitude outside ±90, a longitude outside ±180, or either not a finite number.
func checkPoints(points []Point) error {
	for i, p := range points {
		if !(p.Lat >= -90 && p.Lat <= 90 && p.Lon >= -180 && p.Lon <= 180) {
			return fmt.Errorf("route: point %d (%v, %v) is not a position", i, p.Lat, p.Lon)
		}
	}
	return nil
}

// greatCircleM is the haversine distance between a and b in metres.
func greatCircleM(a, b Point) float64 {
	lat1, lat2 := radians(a.Lat), radians(b.Lat)
	dLat, dLon := lat2-lat1, radians(b.Lon-a.Lon)
	h := math.Pow(math.Sin(dLat/2), 2) + math.Cos(lat1)*math.Cos(lat2)*math.Pow(math.Sin(dLon/2), 2)
	return 2 * EarthRadiusM * math.Asin(math.Sqrt(math.Min(1, h)))
}

func radians(deg float64) float64 { return deg * math.Pi / 180 }
