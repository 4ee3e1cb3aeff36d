package places

import (
	"context"
	"log/slog"

	"tripplan/internal/planner"
)

// Provider finds places at a remote service (Google Places, Nominatim). Its results have no
// ids until stored.
type Provider interface {
	Search(ctx context.Context, query string) ([]planner.Place, error)
}

// Store searches the stored places (the built-in catalog and places met before) and stores
// provider places, giving them ids.
type Store interface {
	SearchPlaces(ctx context.Context, query, near string) ([]planner.Place, error)
	SavePlaces(ctx context.Context, places []planner.Place) ([]planner.Place, error)
}

// Finder is the one place search: the remote provider when one is configured, its results
// stored so they get ids; the stored places (the built-in catalog) when there is none or it
// fails.
type Finder struct {
	Remote Provider // nil: stored places only
	Store  Store
	Log    *slog.Logger
}

// Search answers at most planner.SearchLimit places for the query, best first.
func (f *Finder) Search(ctx context.Context, query string) ([]planner.Place, error) {
	return f.SearchNear(ctx, query, "")
}

// SearchNear is Search with the places of the city near (a plan's destination; "" for none)
// ranked first among the stored places. The remote provider is asked the query as it is.
func (f *Finder) SearchNear(ctx context.Context, query, near string) ([]planner.Place, error) {
	if f.Remote != nil {
		found, err := f.Remote.Search(ctx, query)
		if err == nil {
			if len(found) > planner.SearchLimit {
				found = found[:planner.SearchLimit]
			}
			return f.Store.SavePlaces(ctx, found)
		}
		if ctx.Err() != nil {
			return nil, err
		}
		if f.Log != nil {
			f.Log.WarnContext(ctx, "place provider failed; searching the built-in catalog", "err", err)
		}
	}
	return f.Store.SearchPlaces(ctx, query, near)
}
