package web

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/internal/route"
	"tripplan/views"
)

// stop is a confirmed place of a day, in time order.
type stop struct {
	Block     *planner.TimeBlock
	Candidate *planner.Candidate
	Point     *route.Point // nil when the place has no coordinates (typed in by hand)
}

// travelLeg is the travel from one stop to the next.
type travelLeg struct {
	From, To stop
	Leg      *route.Leg // nil when either place has no coordinates
	GapS     int
	Fastest  route.Mode
	FastestS int
	Warning  route.Timing // how the quickest way fits the gap (route.Leg.Fit)
}

// dayRoute is a day's stops and the legs between them.
type dayRoute struct {
	Stops  []stop
	Legs   []travelLeg
	Source route.Source
}

// pointOf is the place's position, nil when unknown.
func pointOf(p *planner.Place) *route.Point {
	if p == nil {
		return nil
	}
	lat, err1 := strconv.ParseFloat(p.Latitude, 64)
	lon, err2 := strconv.ParseFloat(p.Longitude, 64)
	if err1 != nil || err2 != nil || math.IsNaN(lat) || math.IsNaN(lon) || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return nil
	}
	return &route.Point{Lat: lat, Lon: lon}
}

// stopsOf lists the day's confirmed places in time order (blocks come ordered by time).
func stopsOf(blocks []planner.TimeBlock) []stop {
	var out []stop
	for i := range blocks {
		if c := blocks[i].Confirmed(); c != nil && c.Place != nil {
			out = append(out, stop{Block: &blocks[i], Candidate: c, Point: pointOf(c.Place)})
		}
	}
	return out
}

// planRoute computes the legs between consecutive stops: each run of located stops is asked
// of the router in one call (usually the whole day), and every leg is checked against the gap
// between its blocks.
func (s *Server) planRoute(ctx context.Context, blocks []planner.TimeBlock) (dayRoute, error) {
	out := dayRoute{Stops: stopsOf(blocks), Source: route.SourceEstimate}
	if len(out.Stops) < 2 {
		return out, nil
	}
	legs := make([]*route.Leg, len(out.Stops)-1)
	sources := map[route.Source]bool{}
	for start := 0; start < len(out.Stops); {
		end := start
		for end < len(out.Stops) && out.Stops[end].Point != nil {
			end++
		}
		if end-start >= 2 {
			points := make([]route.Point, 0, end-start)
			for _, st := range out.Stops[start:end] {
				points = append(points, *st.Point)
			}
			got, source, err := s.router.Legs(ctx, points)
			if err != nil {
				return out, err
			}
			sources[source] = true
			for i := range got {
				legs[start+i] = &got[i]
			}
		}
		start = end + 1
	}
	if len(sources) == 1 && sources[route.SourceOSRM] {
		out.Source = route.SourceOSRM
	}
	for i, l := range legs {
		from, to := out.Stops[i], out.Stops[i+1]
		t := travelLeg{From: from, To: to, Leg: l, GapS: int(time.Duration(to.Block.Start-from.Block.End) / time.Second)}
		if l != nil {
			t.Fastest, t.FastestS = l.Fastest()
			t.Warning = l.Fit(t.GapS)
		}
		out.Legs = append(out.Legs, t)
	}
	return out, nil
}

// mapsWaypoints is how many places one Google Maps directions link takes: an origin, a
// destination and up to nine waypoints in a browser.
const mapsWaypoints = 11

// mapsURLs opens the day's stops in Google Maps as directions, in as many links as it takes
// (each link starts where the previous one ended); a single stop is a search for it.
func mapsURLs(stops []stop) []string {
	where := func(st stop) string {
		if st.Point != nil {
			return strconv.FormatFloat(st.Point.Lat, 'f', 6, 64) + "," + strconv.FormatFloat(st.Point.Lon, 'f', 6, 64)
		}
		return strings.TrimSpace(st.Candidate.Place.Name + " " + st.Candidate.Place.Address)
	}
	out := []string{}
	switch len(stops) {
	case 0:
		return out
	case 1:
		return append(out, "https://www.google.com/maps/search/?api=1&query="+url.QueryEscape(where(stops[0])))
	}
	for start := 0; start < len(stops)-1; start += mapsWaypoints - 1 {
		part := stops[start:min(start+mapsWaypoints, len(stops))]
		q := url.Values{"api": {"1"}, "origin": {where(part[0])}, "destination": {where(part[len(part)-1])}}
		if len(part) > 2 {
			mid := make([]string, 0, len(part)-2)
			for _, st := range part[1 : len(part)-1] {
				mid = append(mid, where(st))
			}
			q.Set("waypoints", strings.Join(mid, "|"))
		}
		out = append(out, "https://www.google.com/maps/dir/?"+q.Encode())
	}
	return out
}

// legJSON is one leg of the DayRoute resource.
type legJSON struct {
	FromBlockID     string             `json:"from_block_id"`
	ToBlockID       string             `json:"to_block_id"`
	FromTimeBlockID string             `json:"from_time_block_id"`
	ToTimeBlockID   string             `json:"to_time_block_id"`
	StraightM       *int               `json:"straight_m"`
	DistanceM       map[route.Mode]int `json:"distance_m"`
	DurationS       map[route.Mode]int `json:"duration_s"`
	FastestMode     *route.Mode        `json:"fastest_mode"`
	GapS            int                `json:"gap_s"`
	Warning         *string            `json:"warning"`
}

// dayRouteJSON is the DayRoute resource.
type dayRouteJSON struct {
	DayInfo  dayInfoJSON  `json:"day_info"`
	Source   route.Source `json:"source"`
	Legs     []legJSON    `json:"legs"`
	MapsURLs []string     `json:"maps_urls"`
}

func toDayRouteJSON(info planner.DayInfo, r dayRoute) dayRouteJSON {
	out := dayRouteJSON{DayInfo: toDayInfoJSON(info), Source: r.Source, Legs: make([]legJSON, len(r.Legs)), MapsURLs: mapsURLs(r.Stops)}
	for i, l := range r.Legs {
		j := legJSON{FromBlockID: l.From.Candidate.ID, ToBlockID: l.To.Candidate.ID,
			FromTimeBlockID: l.From.Block.ID, ToTimeBlockID: l.To.Block.ID, GapS: l.GapS}
		if l.Leg != nil {
			straight, fastest := l.Leg.StraightM, l.Fastest
			j.StraightM, j.FastestMode = &straight, &fastest
			j.DistanceM, j.DurationS = map[route.Mode]int{}, map[route.Mode]int{}
			for m, by := range l.Leg.By {
				j.DistanceM[m], j.DurationS[m] = by.DistanceM, by.DurationS
			}
		}
		if l.Warning != route.Fits {
			w := string(l.Warning)
			j.Warning = &w
		}
		out.Legs[i] = j
	}
	return out
}

// dayRouteHandler answers the travel between a day's consecutive confirmed places.
func (s *Server) dayRouteHandler(c echo.Context) error {
	var v planner.Validation
	day := pathDay(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	listing, err := s.store.DayBlocks(ctx, caller(c).UserID, c.Param("planId"), day, planner.Page{Size: planDayPageSize})
	info, blocks := listing.Info, listing.Blocks
	if err != nil {
		return err
	}
	r, err := s.planRoute(ctx, blocks)
	if err != nil {
		return err
	}
	if negotiate(c.Request()) == asJSON { // the route view's words are for pages
		return respond(c, http.StatusOK, toDayRouteJSON(info, r), nil, nil)
	}
	rv := s.toRouteView(ctx, r, blocks, nil)
	if wantsPartial(c) && len(rv.Stops)+len(rv.Pending) == 0 {
		p, err := s.store.Plan(ctx, caller(c).UserID, c.Param("planId"))
		if err != nil {
			return err
		}
		centreOnDestination(&rv, p)
	}
	return respond(c, http.StatusOK, toDayRouteJSON(info, r), nil, views.DayRoute(rv))
}

// tiles is the map background the pages use ("" for none).
func (s *Server) tiles() (url, attribution string) {
	if s.cfg.MapTileURL == "none" {
		return "", ""
	}
	return s.cfg.MapTileURL, s.cfg.MapTileAttribution
}

// toRouteView is the route beside the day grid; it also puts each warning on the card of
// the block that cannot be reached in time.
func (s *Server) toRouteView(ctx context.Context, r dayRoute, blocks []planner.TimeBlock, cards []views.BlockView) views.DayRouteView {
	v := views.DayRouteView{Estimated: r.Source != route.SourceOSRM, MapsURLs: mapsURLs(r.Stops)}
	v.TileURL, v.Attribution = s.tiles()
	for i, st := range r.Stops {
		if st.Point != nil {
			v.Stops = append(v.Stops, views.MapStop{N: i + 1, Name: shownName(ctx, *st.Candidate.Place),
				Time: views.TimeSpan(ctx, st.Block.Start.HHMM(), st.Block.End.HHMM()), Lat: st.Point.Lat, Lon: st.Point.Lon, TimeBlockID: st.Block.ID})
		}
	}
	for i := range blocks {
		b := &blocks[i]
		if b.Type != planner.BlockPlace || b.Confirmed() != nil {
			continue
		}
		for _, c := range b.Candidates {
			if p := pointOf(c.Place); p != nil {
				v.Pending = append(v.Pending, views.MapStop{Name: shownName(ctx, *c.Place),
					Time: views.TimeSpan(ctx, b.Start.HHMM(), b.End.HHMM()), Lat: p.Lat, Lon: p.Lon, TimeBlockID: b.ID})
			}
		}
	}
	card := map[string]*views.BlockView{}
	for i := range cards {
		card[cards[i].ID] = &cards[i]
	}
	for _, l := range r.Legs {
		lv := views.LegView{From: shownName(ctx, *l.From.Candidate.Place), To: shownName(ctx, *l.To.Candidate.Place), Known: l.Leg != nil,
			Gap: duration(ctx, l.GapS), NotEnough: l.Warning == route.NotEnough, Tight: l.Warning == route.Tight}
		if l.Leg != nil {
			lv.Distance = distance(l.Leg.By[route.Transit].DistanceM)
			lv.Walk, lv.Transit, lv.Drive = duration(ctx, l.Leg.By[route.Walk].DurationS), duration(ctx, l.Leg.By[route.Transit].DurationS),
				duration(ctx, l.Leg.By[route.Drive].DurationS)
			lv.Fastest = fastest(ctx, l)
		}
		if b := card[l.To.Block.ID]; b != nil && l.Warning != route.Fits {
			b.TravelWarning, b.TravelTight = arrival(ctx, l), l.Warning == route.Tight
		}
		v.Legs = append(v.Legs, lv)
	}
	return v
}

// fastest is a leg's quickest way in words: "16 min by transit".
func fastest(ctx context.Context, l travelLeg) string {
	return i18n.T(ctx, "plan.by_"+string(l.Fastest), "Duration", duration(ctx, l.FastestS))
}

// arrival is how a block is reached from the previous place: "16 min by transit from
// Gyeongbokgung Palace", with ", only 5 min between" when that is not enough time and
// ", 10 min between: tight" when it is a few minutes short.
func arrival(ctx context.Context, l travelLeg) string {
	id := map[route.Timing]string{route.Fits: "plan.travel_from", route.Tight: "plan.travel_tight", route.NotEnough: "plan.travel_too_short"}[l.Warning]
	return i18n.T(ctx, id, "Fastest", fastest(ctx, l), "From", shownName(ctx, *l.From.Candidate.Place), "Gap", duration(ctx, l.GapS))
}

// distance writes metres for people: "850 m", "3.1 km", "42 km".
func distance(m int) string {
	switch {
	case m < 1000:
		return strconv.Itoa(m) + " m"
	case m < 10000:
		return strconv.FormatFloat(float64(m)/1000, 'f', 1, 64) + " km"
	}
	return strconv.Itoa((m+500)/1000) + " km"
}

// duration writes seconds for people, rounded up to the minute: "0 min", "7 min", "1 h 5 min".
func duration(ctx context.Context, s int) string { return views.Duration(ctx, (s+59)/60) }
