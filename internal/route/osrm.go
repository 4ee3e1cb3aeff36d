package route

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	osrmTimeout   = 3 * time.Second // the longest one request may take
	osrmMaxBody   = 1 << 20         // bytes of a response read at most
	osrmMaxValue  = 1e9             // metres or seconds beyond which a leg is nonsense
	osrmCacheSize = 1000            // answers kept, one per profile and day's points
	osrmCacheTTL  = time.Hour       // how long an answer is reused
)

// OSRM is a Router backed by OSRM servers' HTTP route service. Each answer takes one request
// per server for all the points: profile "driving" against the drive server and "foot" against
// the walk server. An OSRM server routes one profile, hence one base URL each.
//
// Drive comes from the driving route. Transit, which OSRM does not route, is derived from it:
// the driving distance, travelled at TransitSpeedKMH, plus TransitOverheadS (nothing for a leg
// of 0 m). Walk comes from the walk server, or from the offline estimate when there is none;
// the answer's Source is still SourceOSRM then.
//
// Each request is given at most 3 s, and less when the caller's context ends sooner. When any
// request fails — network, a status other than 200, a code other than "Ok", malformed or
// oversized JSON, a number of legs other than len(points)-1, a negative distance or duration —
// the whole answer is Estimator's, with SourceEstimate and no error: sources are never mixed
// within one answer. Successful answers are cached in memory per server and points (1,000 of
// them, for an hour), so reloading a day's page does not ask again; failures are not cached.
//
// Safe for concurrent use.
type OSRM struct {
	driveURL, walkURL string
	client            *http.Client
	timeout           time.Duration
	cache             *cache
}

// NewOSRM returns a Router asking the OSRM server at driveURL for driving routes and the one at
// walkURL for walking routes; either may end with "/" or not. walkURL may be "": walking is
// then estimated offline. driveURL is required and NewOSRM panics without it: the caller builds
// an OSRM only when OSRM_URL is set and uses Estimator otherwise. A nil client means a plain
// http.Client (requests are still limited to 3 s each).
func NewOSRM(driveURL, walkURL string, client *http.Client) *OSRM {
	if driveURL == "" {
		panic("route: NewOSRM needs the driving server's URL")
	}
	if client == nil {
		client = &http.Client{}
	}
	return &OSRM{
		driveURL: strings.TrimRight(driveURL, "/"),
		walkURL:  strings.TrimRight(walkURL, "/"),
		client:   client,
		timeout:  osrmTimeout,
		cache:    newCache(osrmCacheSize, osrmCacheTTL),
	}
}

// Legs answers the legs between consecutive points from the OSRM servers, or from Estimator
// when one of them fails. It returns an error only for points that are not positions (as
// Estimator.Legs does). Fewer than 2 points make no request and give no legs, with SourceOSRM.
func (o *OSRM) Legs(ctx context.Context, points []Point) ([]Leg, Source, error) {
	if err := checkPoints(points); err != nil {
		return nil, SourceEstimate, err
	}
	if len(points) < 2 {
		return nil, SourceOSRM, nil
	}
	coords := osrmCoordinates(points)

	drive, walk, err := o.both(ctx, func(ctx context.Context, base, profile string) ([]Measure, error) {
		return o.route(ctx, base, profile, coords, len(points)-1)
	})
	if err != nil {
		return Estimator{}.Legs(ctx, points)
	}

	legs := make([]Leg, len(points)-1)
	for i := range legs {
		straight := greatCircleM(points[i], points[i+1])
		by := map[Mode]Measure{Drive: drive[i], Transit: transitByRoad(drive[i].DistanceM)}
		if walk != nil {
			by[Walk] = walk[i]
		} else {
			by[Walk] = estimateMode(Walk, straight)
		}
		legs[i] = Leg{StraightM: int(math.Round(straight)), By: by}
	}
	return legs, SourceOSRM, nil
}

// both asks the drive server and, alongside it, the walk server (when there is one: walk is
// then nil) with ask; if driving fails, walking is no longer needed and its request is
// cancelled. Either failing is the error.
func (o *OSRM) both(ctx context.Context, ask func(ctx context.Context, base, profile string) ([]Measure, error)) (drive, walk []Measure, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	walkDone := make(chan result, 1)
	if o.walkURL != "" {
		go func() {
			m, err := ask(ctx, o.walkURL, "foot")
			walkDone <- result{m, err}
		}()
	}
	if drive, err = ask(ctx, o.driveURL, "driving"); err != nil {
		return nil, nil, err
	}
	if o.walkURL != "" {
		w := <-walkDone
		if w.err != nil {
			return nil, nil, w.err
		}
		walk = w.measures
	}
	return drive, walk, nil
}

// result is one request's answer.
type result struct {
	measures []Measure
	err      error
}

// transitByRoad is the transit Measure of a leg whose driving distance is roadM metres.
func transitByRoad(roadM int) Measure {
	if roadM == 0 {
		return Measure{}
	}
	e := estimates[Transit]
	return Measure{DistanceM: roadM, DurationS: int(math.Round(float64(roadM)/e.speedMS)) + e.overheadS}
}

// osrmCoordinates is the points as OSRM's coordinates path segment: "lon,lat" pairs with 6
// decimals (about 0.1 m), separated by ";".
func osrmCoordinates(points []Point) string {
	var b strings.Builder
	for i, p := range points {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.FormatFloat(p.Lon, 'f', 6, 64))
		b.WriteByte(',')
		b.WriteString(strconv.FormatFloat(p.Lat, 'f', 6, 64))
	}
	return b.String()
}

// osrmResponse is the part of a route service response that Legs reads.
type osrmResponse struct {
	Code    string `json:"code"` // "Ok", or an error code such as "NoRoute"
	Message string `json:"message"`
	Routes  []struct {
		Legs []struct {
			Distance float64 `json:"distance"` // metres
			Duration float64 `json:"duration"` // seconds
		} `json:"legs"`
	} `json:"routes"`
}

// route asks the server at base for the profile's route through coords and returns its legs'
// measures, which must number legs; answers come from the cache when they can.
func (o *OSRM) route(ctx context.Context, base, profile, coords string, legs int) ([]Measure, error) {
	key := profile + " " + base + " " + coords
	if m, ok := o.cache.get(key); ok {
		return m, nil
	}
	var body osrmResponse
	if err := o.get(ctx, base+"/route/v1/"+profile+"/"+coords+"?overview=false&steps=false", &body); err != nil {
		return nil, fmt.Errorf("route: %s: %w", profile, err)
	}
	if body.Code != "Ok" {
		return nil, fmt.Errorf("route: %s: code %q: %s", profile, body.Code, body.Message)
	}
	if len(body.Routes) == 0 || len(body.Routes[0].Legs) != legs {
		return nil, fmt.Errorf("route: %s: want one route of %d legs", profile, legs)
	}
	measures := make([]Measure, legs)
	for i, l := range body.Routes[0].Legs {
		if !(l.Distance >= 0 && l.Distance <= osrmMaxValue && l.Duration >= 0 && l.Duration <= osrmMaxValue) {
			return nil, fmt.Errorf("route: %s: leg %d has distance %v and duration %v", profile, i, l.Distance, l.Duration)
		}
		measures[i] = Measure{DistanceM: int(math.Round(l.Distance)), DurationS: int(math.Round(l.Duration))}
	}
	o.cache.put(key, measures)
	return measures, nil
}

// get asks an OSRM server for url, within the request time limit, and decodes its JSON answer
// (read up to osrmMaxBody) into body; a status other than 200 is an error.
func (o *OSRM) get(ctx context.Context, url string, body any) error {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "Tripplan/1.0")
	resp, err := o.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP status %d", resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, osrmMaxBody)).Decode(body); err != nil {
		return fmt.Errorf("reading the response: %w", err)
	}
	return nil
}
