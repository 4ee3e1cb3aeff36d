package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/places"
	"tripplan/internal/planner"
	"tripplan/views"
)

// This file turns collections and their places into the views' models, and serves the
// collection pages that have no JSON form.

func toMemberView(m planner.Member) views.MemberView {
	return views.MemberView{ID: m.ID, Nickname: m.Nickname, Picture: m.Picture, Owner: m.Role == planner.RoleOwner}
}

func toMemberViews(ms []planner.Member) []views.MemberView {
	out := make([]views.MemberView, len(ms))
	for i, m := range ms {
		out[i] = toMemberView(m)
	}
	return out
}

// taxonomy is the taxonomy named in the request's language (docs/API.md §Languages). In a JSON
// answer the first category name reads the language, as any other word does.
func (s *Server) taxonomy(ctx context.Context) *places.Taxonomy {
	return s.taxonomies[i18n.From(ctx).Lang()]
}

// categories places a place in the taxonomy, named in the request's language; ids never
// change with it.
func (s *Server) categories(ctx context.Context, p planner.Place) places.Categories {
	return s.taxonomy(ctx).Categories(p.CategoryLevel3, places.Category{ID: p.PrimaryType, Name: p.PrimaryTypeName})
}

// placeNames are a place's name for the request's reader and the other name shown under it
// (places.DisplayName: 경복궁 over Gyeongbokgung Palace in Korean, the other way in English).
func placeNames(ctx context.Context, p planner.Place) (name, subtitle string) {
	return places.DisplayName(string(i18n.From(ctx).Lang()), p)
}

// shownName is a place's name for the request's reader, where no other name fits under it.
func shownName(ctx context.Context, p planner.Place) string {
	name, _ := placeNames(ctx, p)
	return name
}

func (s *Server) toPlaceCard(ctx context.Context, cp *planner.CollectionPlace) views.PlaceCard {
	cat := s.categories(ctx, cp.Place)
	card := views.PlaceCard{
		CollectionID: cp.CollectionID, ID: cp.ID, Address: cp.Place.Address,
		Category: cat.Level2.Name, CategoryKind: cat.Level1.ID, Memo: cp.Memo, Version: cp.Version,
		AddedBy: toMemberView(cp.AddedBy), Picked: toMemberViews(cp.Picked), Passed: toMemberViews(cp.Passed),
		MyPreference: string(cp.MyPreference),
	}
	card.Name, card.Subtitle = placeNames(ctx, cp.Place)
	if len(cp.Place.Photos) > 0 {
		card.Photo = cp.Place.Photos[0]
	}
	return card
}

func (s *Server) toSearchResult(ctx context.Context, p planner.Place) views.SearchResult {
	cat := s.categories(ctx, p)
	r := views.SearchResult{PlaceID: p.ID, Address: p.Address, Category: cat.Level2.Name, CategoryKind: cat.Level1.ID}
	r.Name, r.Subtitle = placeNames(ctx, p)
	if len(p.Photos) > 0 {
		r.Photo = p.Photos[0]
	}
	return r
}

func toCollectionCard(c planner.CollectionSummary) views.CollectionCard {
	return views.CollectionCard{ID: c.ID, Title: c.Title, Thumbnail: c.Thumbnail, PlaceCount: c.PlaceCount, MemberCount: c.MemberCount}
}

// placeListView is a page of place cards with the sort and filter that produced it.
// Cards shown to a guest are read-only.
func (s *Server) placeListView(c echo.Context, collectionID string, list []planner.CollectionPlace, hasNext bool, page planner.Page, sort string, filter planner.PlaceFilter) views.PlaceListView {
	v := views.PlaceListView{CollectionID: collectionID, Sort: sort, AddedBy: filter.AddedBy, Category: filter.Category, Picked: string(filter.Picked),
		Page: page.Number, HasNext: hasNext, Places: make([]views.PlaceCard, len(list))}
	for i := range list {
		v.Places[i] = s.toPlaceCard(c.Request().Context(), &list[i])
		v.Places[i].ReadOnly = caller(c).Guest
	}
	return v
}

// collectionsNextHref is the partial with the page after p of the collections list.
func collectionsNextHref(c echo.Context, p planner.Page) string {
	q := url.Values{"page": {strconv.Itoa(p.Number + 1)}, "size": {strconv.Itoa(p.Size)}}
	if sort := queryParam(c, "sort", "sortType"); sort != "" {
		q.Set("sort", sort)
	}
	return "/collections?" + q.Encode()
}

// collectionView gathers the collection page: members and the first page of places, sorted and
// filtered as the query asks (so the page also works without JavaScript).
func (s *Server) collectionView(c echo.Context, col *planner.CollectionSummary) (views.CollectionView, error) {
	ctx, userID := c.Request().Context(), caller(c).UserID
	members, err := s.store.CollectionMembers(ctx, userID, col.ID)
	if err != nil {
		return views.CollectionView{}, err
	}
	places, pins, err := s.collectionPlacesView(c, col.ID)
	if err != nil {
		return views.CollectionView{}, err
	}
	categories := s.taxonomy(ctx).TopLevel()
	options := make([]views.CategoryOption, len(categories))
	for i, cat := range categories {
		options[i] = views.CategoryOption{ID: cat.ID, Name: cat.Name}
	}
	var job *views.JobView
	if !caller(c).Guest {
		j, err := s.store.LatestExtractionJob(ctx, userID, col.ID)
		switch {
		case err == nil:
			jv := s.jobView(c, j)
			job = &jv
		case planner.ErrorCode(err) != planner.CodeJobNotFound:
			return views.CollectionView{}, err
		}
	}
	return views.CollectionView{
		Job: job,
		ID:  col.ID, Title: col.Title, PlaceCount: col.PlaceCount, MemberCount: col.MemberCount, Version: col.Version,
		Members: toMemberViews(members.Members), IsOwner: members.Me != nil && members.Me.Role == planner.RoleOwner,
		Guest:  caller(c).Guest,
		Places: places, Categories: options, Map: pins,
	}, nil
}

// collectionPlacesView is the first page of the collection page's place list and the map of
// every place its filters select, sorted and filtered as its query asks (unknown values fall
// back to the defaults: a mistyped shared link still shows the collection).
func (s *Server) collectionPlacesView(c echo.Context, collectionID string) (views.PlaceListView, views.CollectionMapView, error) {
	ctx, userID := c.Request().Context(), caller(c).UserID
	sorted := sortName(c, "LATEST")
	sort, ok := collectionPlaceSorts[sorted]
	if !ok {
		sorted, sort = "LATEST", collectionPlaceSorts["LATEST"]
	}
	filter := planner.PlaceFilter{AddedBy: c.QueryParam("added_by"), Category: c.QueryParam("category"), Picked: planner.PickedBy(c.QueryParam("picked"))}
	if !planner.ValidID(filter.AddedBy) {
		filter.AddedBy = ""
	}
	if !places.IsTopLevel(filter.Category) {
		filter.Category = ""
	}
	if filter.Picked != planner.PickedByMe && filter.Picked != planner.PickedByAnyone || filter.Picked == planner.PickedByMe && caller(c).Guest {
		filter.Picked = ""
	}
	page := planner.Page{Size: planner.DefaultPageSize}
	list, hasNext, err := s.store.CollectionPlaces(ctx, userID, collectionID, page, sort, filter)
	if err != nil {
		return views.PlaceListView{}, views.CollectionMapView{}, err
	}
	pinned, total, err := s.store.CollectionMap(ctx, userID, collectionID, sort, filter, planner.MapPinsMax)
	if err != nil {
		return views.PlaceListView{}, views.CollectionMapView{}, err
	}
	lv := s.placeListView(c, collectionID, list, hasNext, page, sorted, filter)
	mv := views.CollectionMapView{Total: total, Filter: lv.Query(), Pins: make([]views.MapPin, 0, len(pinned)),
		TileURL: s.cfg.MapTileURL, Attribution: s.cfg.MapTileAttribution}
	if mv.TileURL == "none" {
		mv.TileURL = ""
	}
	for i := range pinned {
		lat, errLat := strconv.ParseFloat(pinned[i].Place.Latitude, 64)
		lng, errLng := strconv.ParseFloat(pinned[i].Place.Longitude, 64)
		if errLat == nil && errLng == nil {
			mv.Pins = append(mv.Pins, views.MapPinFor(s.toPlaceCard(ctx, &pinned[i]), lat, lng))
		}
	}
	return lv, mv, nil
}

// placeDetailView gathers a collection place's page.
func (s *Server) placeDetailView(c echo.Context, cp *planner.CollectionPlace) (views.PlaceDetailView, error) {
	col, err := s.store.Collection(c.Request().Context(), caller(c).UserID, cp.CollectionID)
	if err != nil {
		return views.PlaceDetailView{}, err
	}
	v := views.PlaceDetailView{
		Card: s.toPlaceCard(c.Request().Context(), cp), CollectionTitle: col.Title, Photos: cp.Place.Photos, MapsURI: cp.Place.MapsURI,
		Map: views.MapView{Latitude: cp.Place.Latitude, Longitude: cp.Place.Longitude, Label: shownName(c.Request().Context(), cp.Place),
			TileURL: s.cfg.MapTileURL, Attribution: s.cfg.MapTileAttribution},
	}
	v.Card.ReadOnly = caller(c).Guest
	if v.Map.TileURL == "none" {
		v.Map.TileURL = ""
	}
	return v, nil
}

// newCollectionPage is the form that creates a collection.
func (s *Server) newCollectionPage(c echo.Context) error {
	return render(c, http.StatusOK, views.NewCollection(s.pageFor(c, i18n.T(c.Request().Context(), "collection.new")), views.NewCollectionView{}))
}
