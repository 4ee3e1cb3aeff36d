package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/places"
	"tripplan/internal/planner"
	"tripplan/views"
)

// placeJSON is the Place resource of docs/API.md §Time blocks.
type placeJSON struct {
	PlaceID         string            `json:"place_id"`
	ProviderPlaceID string            `json:"provider_place_id"`
	Name            string            `json:"name"`
	Address         string            `json:"address"`
	Category        places.Categories `json:"category"`
	ProviderMapsURI string            `json:"provider_maps_uri"`
	Photos          []string          `json:"photos"`
	Point           *pointJSON        `json:"point"`
}

// pointJSON carries decimal degrees as strings, as docs/API.md §Time blocks says.
type pointJSON struct {
	Latitude  string `json:"latitude"`
	Longitude string `json:"longitude"`
}

func (s *Server) toPlaceJSON(ctx context.Context, p planner.Place) placeJSON {
	out := placeJSON{
		PlaceID: p.ID, ProviderPlaceID: p.ProviderPlaceID, Name: p.Name, Address: p.Address,
		Category:        s.categories(ctx, p),
		ProviderMapsURI: p.MapsURI, Photos: p.Photos,
	}
	if out.Photos == nil {
		out.Photos = []string{}
	}
	if p.Latitude != "" && p.Longitude != "" {
		out.Point = &pointJSON{Latitude: p.Latitude, Longitude: p.Longitude}
	}
	return out
}

// searchQueryMax bounds the search text, in characters.
const searchQueryMax = 50

// searchParams reads a place search's ?query= and ?near= (a city, a plan's destination, whose
// places rank first), trimmed and checked.
func searchParams(c echo.Context) (query, near string, err error) {
	query, near = strings.TrimSpace(c.QueryParam("query")), strings.TrimSpace(c.QueryParam("near"))
	var v planner.Validation
	v.Check(planner.ValidText(query, 0, searchQueryMax), "query", "must be at most 50 characters of text")
	v.Check(planner.ValidText(near, 0, planner.DestinationNameMax), "near", "must be at most 100 characters of text")
	return query, near, v.Err()
}

// searchPlaces answers up to ten places matching ?query=, best first; a blank query is [].
// ?near= names a city (a plan's destination) whose places rank first.
func (s *Server) searchPlaces(c echo.Context) error {
	q, near, err := searchParams(c)
	if err != nil {
		return err
	}
	out := []placeJSON{}
	view := views.SearchResultsView{Query: q}
	if id := c.QueryParam("collection_id"); planner.ValidID(id) {
		view.CollectionID = id
	}
	if q != "" {
		found, err := s.finder.SearchNear(c.Request().Context(), q, near)
		if err != nil {
			return err
		}
		for _, p := range found {
			out = append(out, s.toPlaceJSON(c.Request().Context(), p))
			view.Results = append(view.Results, s.toSearchResult(c.Request().Context(), p))
		}
	}
	return respond(c, http.StatusOK, out, s.lazyPage(c, "collection.search_places", func(p views.Page) templ.Component { return views.SearchPage(p, view) }), views.SearchResults(view))
}
