package web

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"tripplan/internal/gapfill"
	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/internal/route"
	"tripplan/views"
)

// Filling the gaps (issue 25): GET …/days/{d}/gaps answers the day's free time of an hour or
// more (gapfill.Find) with the places of the plan's linked collections that fit it best
// (gapfill.Rank); a suggestion is added by the ordinary POST …/blocks, at the gap's start.
// The plan page asks for one gap (?start=) when its "Fill this gap" opens.

// gapSuggestionJSON is a place offered for a gap.
type gapSuggestionJSON struct {
	CollectionPlaceID string    `json:"collection_place_id"`
	Place             placeJSON `json:"place"`
	// AddedTravelS is the travel the place adds to the day, in seconds (null when the gap has
	// no located stop on either side).
	AddedTravelS *int `json:"added_travel_s"`
}

// gapJSON is a gap of a day with its suggestions.
type gapJSON struct {
	StartTime           string              `json:"start_time"`
	EndTime             string              `json:"end_time"`
	BlockEndTime        string              `json:"block_end_time"`
	PreviousTimeBlockID *string             `json:"previous_time_block_id"`
	NextTimeBlockID     *string             `json:"next_time_block_id"`
	Suggestions         []gapSuggestionJSON `json:"suggestions"`
}

// dayGapsJSON is GET …/days/{d}/gaps.
type dayGapsJSON struct {
	DayInfo dayInfoJSON `json:"day_info"`
	Gaps    []gapJSON   `json:"gaps"`
}

// filledGap is a gap with its suggestions, as the handler works them out.
type filledGap struct {
	gapfill.Gap
	Places []planner.CollectionPlace
	Ranked []gapfill.Ranked
}

// dayGaps finds the gaps of a day's blocks (only the one starting at start when start is not
// nil) and ranks the candidates for each.
func dayGaps(ctx context.Context, blocks []planner.TimeBlock, candidates []planner.CollectionPlace, start *planner.TimeOfDay) []filledGap {
	points := make([]*route.Point, len(candidates))
	for i := range candidates {
		points[i] = pointOf(&candidates[i].Place)
	}
	stop := func(b *planner.TimeBlock) *route.Point {
		if b == nil {
			return nil
		}
		return pointOf(b.Confirmed().Place)
	}
	out := []filledGap{}
	for _, g := range gapfill.Find(blocks) {
		if start != nil && g.Start != *start {
			continue
		}
		out = append(out, filledGap{Gap: g, Places: candidates,
			Ranked: gapfill.Rank(ctx, stop(g.Prev), stop(g.Next), points, gapfill.Suggestions)})
	}
	return out
}

// dayGapsHandler answers a day's gaps with their suggestions (members: the suggestions are
// the linked collections' places): JSON, or for the plan page the "Fill this gap" dialog's
// body for the gap at ?start=.
func (s *Server) dayGapsHandler(c echo.Context) error {
	var v planner.Validation
	day := pathDay(c, &v)
	var start *planner.TimeOfDay
	if q := c.QueryParam("start"); q != "" {
		t := timeField(&v, "start", &q)
		start = &t
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx, userID, planID := c.Request().Context(), caller(c).UserID, c.Param("planId")
	candidates, err := s.store.GapPlaces(ctx, userID, planID, gapfill.Candidates) // members only: first
	if err != nil {
		return err
	}
	listing, err := s.store.DayBlocks(ctx, userID, planID, day, planner.Page{Size: planDayPageSize})
	if err != nil {
		return err
	}
	gaps := dayGaps(ctx, listing.Blocks, candidates, start)
	out := dayGapsJSON{DayInfo: toDayInfoJSON(listing.Info), Gaps: make([]gapJSON, len(gaps))}
	for i, g := range gaps {
		j := gapJSON{StartTime: g.Start.String(), EndTime: g.End.String(), BlockEndTime: g.BlockEnd().String(),
			Suggestions: make([]gapSuggestionJSON, len(g.Ranked))}
		if g.Prev != nil {
			j.PreviousTimeBlockID = &g.Prev.ID
		}
		if g.Next != nil {
			j.NextTimeBlockID = &g.Next.ID
		}
		for k, r := range g.Ranked {
			cp := &g.Places[r.Index]
			j.Suggestions[k] = gapSuggestionJSON{CollectionPlaceID: cp.ID, Place: s.toPlaceJSON(ctx, cp.Place)}
			if r.Measured {
				j.Suggestions[k].AddedTravelS = &r.AddedS
			}
		}
		out.Gaps[i] = j
	}
	if negotiate(c.Request()) == asJSON {
		return respond(c, http.StatusOK, out, nil, nil)
	}
	pv := views.GapFillView{Gone: len(gaps) == 0} // the gap was filled since the page showed it
	if len(gaps) > 0 {
		if pv, err = s.gapFillView(ctx, planID, day, gaps[0]); err != nil {
			return err
		}
	}
	return respond(c, http.StatusOK, out, nil, views.GapFill(pv))
}

// gapFillView is the dialog's body for one gap: each suggestion adds a block at the gap's
// start through POST …/blocks.
func (s *Server) gapFillView(ctx context.Context, planID string, day int, g filledGap) (views.GapFillView, error) {
	span := views.TimeSpan(ctx, g.Start.HHMM(), g.End.HHMM())
	block := views.TimeSpan(ctx, g.Start.HHMM(), g.BlockEnd().HHMM())
	out := views.GapFillView{Span: span, Free: views.FreeLabel(ctx, minutes(g.End)-minutes(g.Start)), URL: paths.Plan(planID) + "/blocks",
		Block: block, OneEnd: g.Prev == nil || g.Next == nil}
	for _, r := range g.Ranked {
		cp := &g.Places[r.Index]
		vals, err := json.Marshal(map[string]any{"type": planner.BlockPlace, "collection_place_id": cp.ID, "day": day,
			"start_time": g.Start.String(), "end_time": g.BlockEnd().String()})
		if err != nil {
			return out, err
		}
		cat := s.categories(ctx, cp.Place)
		sg := views.GapSuggestion{Category: cat.Level2.Name, CategoryKind: cat.Level1.ID, Values: string(vals)}
		sg.Name, sg.Subtitle = placeNames(ctx, cp.Place)
		if len(cp.Place.Photos) > 0 {
			sg.Photo = cp.Place.Photos[0]
		}
		if r.Measured {
			sg.Travel = i18n.T(ctx, "gaps.added_travel", "Duration", duration(ctx, r.AddedS))
			if out.OneEnd {
				sg.Travel = i18n.T(ctx, "gaps.away", "Duration", duration(ctx, r.AddedS))
			}
		}
		out.Suggestions = append(out.Suggestions, sg)
	}
	return out, nil
}
