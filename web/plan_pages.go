package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/views"
)

// This file turns plans and their blocks into the views' models, and serves the plan pages
// that have no JSON form.

// planDayPageSize is how many time blocks the plan page shows for a day: all of them (a day
// has 96 quarter hours, so this is never reached in practice).
const planDayPageSize = planner.MaxPageSize

func planDates(ctx context.Context, p *planner.Plan) string {
	return views.PlanDates(ctx, p.StartDate, p.EndDate)
}

func toPlanCard(ctx context.Context, p *planner.Plan) views.PlanCard {
	return views.PlanCard{ID: p.ID, Title: p.Title, Dates: planDates(ctx, p), MemberCount: p.MemberCount}
}

func plansView(ctx context.Context, list []planner.Plan, hasNext bool, page planner.Page) views.PlansView {
	v := views.PlansView{Plans: make([]views.PlanCard, len(list))}
	for i := range list {
		v.Plans[i] = toPlanCard(ctx, &list[i])
	}
	if hasNext {
		v.NextHref = "/plans?page=" + strconv.Itoa(page.Number+1) + "&size=" + strconv.Itoa(page.Size)
	}
	return v
}

func (s *Server) plansPage(c echo.Context, list []planner.Plan, hasNext bool, page planner.Page) templ.Component {
	return s.lazyPage(c, "plan.list_title", func(p views.Page) templ.Component {
		return views.Plans(p, plansView(c.Request().Context(), list, hasNext, page))
	})
}

// planCardsPartial is the list's cards, whose words are worked out only when rendered (so a
// JSON answer of the same handler needs no language).
func planCardsPartial(list []planner.Plan, hasNext bool, page planner.Page) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return views.PlanCards(plansView(ctx, list, hasNext, page)).Render(ctx, w)
	})
}

// dayTabs are the plan's days, the current one marked.
func dayTabs(ctx context.Context, p *planner.Plan, current int) []views.DayTab {
	n := p.DurationDays()
	tabs := make([]views.DayTab, n)
	for i := range n {
		date := p.StartDate.AddDate(0, 0, i)
		tabs[i] = views.DayTab{Day: i + 1, Label: views.TabDate(ctx, date), Current: i+1 == current}
	}
	return tabs
}

func minutes(t planner.TimeOfDay) int { return int(time.Duration(t) / time.Minute) }

// blockTitle names a time block for people: "Free time", the confirmed place, else its
// candidates' places ("A or B").
func blockTitle(ctx context.Context, free bool, candidates []planner.Candidate) string {
	if free {
		return i18n.T(ctx, "plan.free_time")
	}
	names := make([]string, 0, len(candidates))
	for _, c := range candidates {
		if c.Place == nil {
			continue
		}
		if c.Selected {
			return shownName(ctx, *c.Place)
		}
		names = append(names, shownName(ctx, *c.Place))
	}
	return strings.Join(names, i18n.T(ctx, "plan.or"))
}

func toBlockView(ctx context.Context, b *planner.TimeBlock) views.BlockView {
	v := views.BlockView{ID: b.ID, Free: b.Type == planner.BlockFree, Status: string(b.Status()), Version: b.Version, FixedTime: b.FixedTime,
		Start: b.Start.HHMM(), End: b.End.HHMM(), StartMin: minutes(b.Start), EndMin: minutes(b.End), CandidateCount: len(b.Candidates)}
	if len(b.Candidates) > 0 {
		v.EditID, v.Memo = b.Candidates[0].ID, b.Candidates[0].Memo
	}
	sel := b.Selected()
	v.Title = blockTitle(ctx, v.Free, b.Candidates)
	// A block named by one place shows the place's other name beside the title.
	if sel != nil && sel.Place != nil {
		_, v.Subtitle = placeNames(ctx, *sel.Place)
	} else if len(b.Candidates) == 1 && b.Candidates[0].Place != nil {
		_, v.Subtitle = placeNames(ctx, *b.Candidates[0].Place)
	}
	if sel != nil && sel.Place != nil { // the dialog edits the memo it shows
		v.EditID, v.Memo = sel.ID, sel.Memo
	}
	for _, c := range b.Candidates {
		if sel == nil || c.ID == sel.ID {
			v.Positive += c.Opinions.Positive
			v.Negative += c.Opinions.Negative
		}
	}
	return v
}

// dayView is the day grid with its route.
func (s *Server) dayView(ctx context.Context, p *planner.Plan, info planner.DayInfo, blocks []planner.TimeBlock) (views.DayView, error) {
	v := views.DayView{PlanID: p.ID, Day: info.Day, Date: views.DayDate(ctx, info.Date), Tabs: dayTabs(ctx, p, info.Day),
		Blocks: make([]views.BlockView, len(blocks))}
	for i := range blocks {
		v.Blocks[i] = toBlockView(ctx, &blocks[i])
	}
	r, err := s.planRoute(ctx, blocks)
	if err != nil {
		return v, err
	}
	v.Route = s.toRouteView(ctx, r, blocks, v.Blocks)
	centreOnDestination(&v.Route, p)
	return v, nil
}

// centreOnDestination shows the plan's destination on a day's map while it has no places.
func centreOnDestination(r *views.DayRouteView, p *planner.Plan) {
	if len(r.Stops)+len(r.Pending) == 0 && p.Destination != nil {
		r.Centre = &views.MapStop{Name: p.Destination.Name, Lat: p.Destination.Lat, Lon: p.Destination.Lng}
	}
}

// dayPartial is the day grid for htmx requests (nil otherwise, so JSON clients do not pay for
// loading the plan).
func (s *Server) dayPartial(c echo.Context, info planner.DayInfo, blocks []planner.TimeBlock) (templ.Component, error) {
	if !wantsPartial(c) {
		return nil, nil
	}
	p, err := s.store.Plan(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return nil, err
	}
	v, err := s.dayView(c.Request().Context(), p, info, blocks)
	if err != nil {
		return nil, err
	}
	v.ReadOnly = caller(c).Guest
	return views.Day(v), nil
}

// dayPartialAfterChange is the day grid after a block change, for htmx requests.
func (s *Server) dayPartialAfterChange(c echo.Context, day int) (templ.Component, error) {
	if !wantsPartial(c) {
		return nil, nil
	}
	ctx, userID, planID := c.Request().Context(), caller(c).UserID, c.Param("planId")
	listing, err := s.store.DayBlocks(ctx, userID, planID, day, planner.Page{Size: planDayPageSize})
	info, blocks := listing.Info, listing.Blocks
	if err != nil {
		return nil, err
	}
	return s.dayPartial(c, info, blocks)
}

// dayPartialAfterAdd is the day grid after the viewer added to the time block tb, for htmx
// requests: the block marked to be scrolled into view, and what the live region says.
func (s *Server) dayPartialAfterAdd(c echo.Context, tb *planner.TimeBlock, announce func() string) (templ.Component, error) {
	if !wantsPartial(c) {
		return nil, nil
	}
	ctx, userID := c.Request().Context(), caller(c).UserID
	p, err := s.store.Plan(ctx, userID, c.Param("planId"))
	if err != nil {
		return nil, err
	}
	listing, err := s.store.DayBlocks(ctx, userID, p.ID, tb.Day.Day, planner.Page{Size: planDayPageSize})
	info, blocks := listing.Info, listing.Blocks
	if err != nil {
		return nil, err
	}
	v, err := s.dayView(ctx, p, info, blocks)
	if err != nil {
		return nil, err
	}
	v.AddedID = tb.ID
	return views.DayChanged(v, announce()), nil
}

// dayPartialAfterDelete is the day shown (day) after the viewer deleted the time block tb,
// with the toast that offers to put it back (restore, the deletion's URL).
func (s *Server) dayPartialAfterDelete(c echo.Context, day int, tb *planner.TimeBlock, restore string) (templ.Component, error) {
	p, err := s.dayPartialAfterChange(c, day)
	if err != nil {
		return nil, err
	}
	ctx := c.Request().Context()
	b := toBlockView(ctx, tb)
	return views.WithUndo(p, views.UndoView{Text: blockSentence(ctx, "plan.deleted", tb, b.Title), URL: restore + "?day=" + strconv.Itoa(day)}), nil
}

// blockSentence is a message (id) about a time block's place (name) on its day and time:
// "Deleted Gwangjang Market, day 1, 12:00–13:00".
func blockSentence(ctx context.Context, id string, tb *planner.TimeBlock, name string, pairs ...any) string {
	return i18n.T(ctx, id, append([]any{"Name", i18n.Word(name), "Day", tb.Day.Day, "Time", views.TimeSpan(ctx, tb.Start.HHMM(), tb.End.HHMM())}, pairs...)...)
}

// dayPartialAfterRestore is the day of the restored time block tb, announced, with the Undo
// toast gone (nil for requests that are not htmx).
func (s *Server) dayPartialAfterRestore(c echo.Context, tb *planner.TimeBlock) (templ.Component, error) {
	ctx := c.Request().Context()
	p, err := s.dayPartialAfterAdd(c, tb, func() string { return blockSentence(ctx, "plan.restored", tb, toBlockView(ctx, tb).Title) })
	if p == nil || err != nil {
		return nil, err
	}
	return views.Undone(p), nil
}

// blockPlaceName is the name of a time block's candidate i ("free time" for a FREE block).
func blockPlaceName(ctx context.Context, tb *planner.TimeBlock, i int) string {
	if i < 0 || i >= len(tb.Candidates) || tb.Candidates[i].Place == nil {
		return i18n.T(ctx, "plan.free_time_lower")
	}
	return shownName(ctx, *tb.Candidates[i].Place)
}

// addedAnnouncement says what an add did: "Added Gwangjang Market, day 1, 14:00–15:00", or
// for candidates "Added N Seoul Tower as a 3rd candidate, day 1, 14:00–15:00".
func addedAnnouncement(ctx context.Context, tb *planner.TimeBlock, before int) string {
	n := len(tb.Candidates)
	switch {
	case before == 0:
		return blockSentence(ctx, "plan.added", tb, blockPlaceName(ctx, tb, 0))
	case n-before == 1:
		return blockSentence(ctx, "plan.added_candidate", tb, blockPlaceName(ctx, tb, n-1), "Ordinal", ordinal(n), "N", n)
	case n > before:
		return blockSentence(ctx, "plan.added_candidates", tb, "", "N", n-before)
	}
	return blockSentence(ctx, "plan.already_candidate", tb, "")
}

// ordinal is 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st … (the English messages' ordinals).
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// placeChoicesMax is how many places "Add here" offers from the plan's collections.
const placeChoicesMax = 20

// placeChoices answers what "Add here" and "Add a candidate" offer for ?query=: the places of
// the plan's linked collections whose name holds the query (all of them, up to
// placeChoicesMax, for an empty query), then places found by search that are not among them,
// those of ?near= (the plan's destination, which the page sends) first.
func (s *Server) placeChoices(c echo.Context) error {
	q, near, err := searchParams(c)
	if err != nil {
		return err
	}
	ctx, userID, planID := c.Request().Context(), caller(c).UserID, c.Param("planId")
	linked, err := s.store.PlanCollections(ctx, userID, planID)
	if err != nil {
		return err
	}
	out := views.PlaceChoicesView{Query: q, HasCollections: len(linked) > 0}
	seen := map[string]bool{}
	fromPlan, err := s.store.PlanPlaces(ctx, userID, planID, q, placeChoicesMax)
	if err != nil {
		return err
	}
	for _, cp := range fromPlan {
		seen[cp.Place.ID] = true
		out.FromPlan = append(out.FromPlan, s.placeChoice(ctx, cp.Place, cp.ID))
	}
	if q != "" {
		found, err := s.finder.SearchNear(ctx, q, near)
		if err != nil {
			return err
		}
		for _, p := range found {
			if !seen[p.ID] {
				seen[p.ID] = true
				out.FromSearch = append(out.FromSearch, s.placeChoice(ctx, p, ""))
			}
		}
	}
	return render(c, http.StatusOK, views.PlaceChoices(out))
}

func (s *Server) placeChoice(ctx context.Context, p planner.Place, collectionPlaceID string) views.PlaceChoice {
	cat := s.categories(ctx, p)
	ch := views.PlaceChoice{CollectionPlaceID: collectionPlaceID, PlaceID: p.ID, Detail: cat.Level2.Name, CategoryKind: cat.Level1.ID}
	ch.Name, ch.Subtitle = placeNames(ctx, p)
	if p.Address != "" {
		ch.Detail += " · " + p.Address
	}
	if len(p.Photos) > 0 {
		ch.Photo = p.Photos[0]
	}
	return ch
}

func (s *Server) toCandidateView(ctx context.Context, c *planner.Candidate) views.CandidateView {
	v := views.CandidateView{ID: c.ID, Memo: c.Memo, Selected: c.Selected, AddedBy: toMemberView(c.AddedBy),
		Positive: c.Opinions.Positive, Neutral: c.Opinions.Neutral, Negative: c.Opinions.Negative}
	if my := c.Opinions.Mine; my != nil {
		v.MyOpinionID, v.MyOpinion = my.ID, string(my.Type)
	}
	if c.Place != nil {
		cat := s.categories(ctx, *c.Place)
		v.Address, v.Category, v.CategoryKind = c.Place.Address, cat.Level2.Name, cat.Level1.ID
		v.Name, v.Subtitle = placeNames(ctx, *c.Place)
		if len(c.Place.Photos) > 0 {
			v.Photo = c.Place.Photos[0]
		}
	}
	return v
}

func (s *Server) candidatePickerPartial(c echo.Context, l *planner.CandidateList) templ.Component {
	ctx := c.Request().Context()
	v := views.CandidatePickerView{PlanID: c.Param("planId"), TimeBlockID: l.TimeBlockID, Day: l.Day.Day,
		When:       views.DayName(ctx, l.Day.Day) + " · " + views.TimeSpan(ctx, l.Start.HHMM(), l.End.HHMM()),
		Candidates: make([]views.CandidateView, len(l.Candidates)), ReadOnly: caller(c).Guest, Version: l.Version}
	now := time.Now()
	for i := range l.Candidates {
		cand := &l.Candidates[i].Candidate
		cv := s.toCandidateView(ctx, cand)
		cv.ReadOnly = caller(c).Guest
		var mine *planner.Opinion
		for _, o := range l.Opinions[cand.ID] {
			ov := s.toOpinionView(ctx, o, now)
			if my := cand.Opinions.Mine; my != nil && my.ID == o.ID {
				ov.Mine, mine = true, &o
			}
			cv.Opinions = append(cv.Opinions, ov)
		}
		if mine != nil {
			cv.MyComment, cv.MyTagIDs = mine.Comment, mine.TagIDs
		}
		cv.Reasons = s.reasonChoices(ctx, cand, cv.MyTagIDs)
		v.Candidates[i] = cv
	}
	return views.CandidatePicker(v)
}

// reasonChoices are the reasons the opinion form offers for a candidate: the catalogue's for
// its place's category, then the ids of the viewer's own opinion the catalogue does not know;
// in the page's language.
func (s *Server) reasonChoices(ctx context.Context, c *planner.Candidate, mine []string) []views.ReasonView {
	var out []views.ReasonView
	lang := string(i18n.From(ctx).Lang())
	if c.Place != nil {
		tags, _ := s.opinionTags.For(s.categories(ctx, *c.Place).Level3.ID)
		for _, t := range tags {
			out = append(out, views.ReasonView{ID: t.ID, Label: t.Label(lang), Type: string(t.Type)})
		}
	}
	for _, id := range mine {
		if !slices.ContainsFunc(out, func(r views.ReasonView) bool { return r.ID == id }) {
			out = append(out, s.reasonView(ctx, id))
		}
	}
	return out
}

// reasonView is a tag id in words of the page's language: the catalogue's label, or the id
// as it was given.
func (s *Server) reasonView(ctx context.Context, id string) views.ReasonView {
	if t, ok := s.opinionTags.Lookup(id); ok {
		return views.ReasonView{ID: id, Label: t.Label(string(i18n.From(ctx).Lang())), Type: string(t.Type)}
	}
	return views.ReasonView{ID: id, Label: id}
}

func (s *Server) toOpinionView(ctx context.Context, o planner.Opinion, now time.Time) views.OpinionView {
	l, at := i18n.From(ctx), o.UpdatedAt.UTC()
	v := views.OpinionView{ID: o.ID, Type: string(o.Type), Author: toMemberView(o.AddedBy), Comment: o.Comment,
		Ago: l.Ago(o.UpdatedAt, now), At: at.Format(time.RFC3339), AtTitle: l.DateYear(at) + " " + l.Clock(at.Format("15:04")) + " UTC",
		Edited: o.UpdatedAt.Sub(o.CreatedAt) >= time.Second}
	for _, id := range o.TagIDs {
		v.Tags = append(v.Tags, s.reasonView(ctx, id))
	}
	return v
}

// pickerAfterOpinion is the candidate picker of the candidate's time block after an opinion
// changed, for htmx requests (nil otherwise).
func (s *Server) pickerAfterOpinion(c echo.Context) (templ.Component, error) {
	if !wantsPartial(c) {
		return nil, nil
	}
	ctx, userID, planID := c.Request().Context(), caller(c).UserID, c.Param("planId")
	d, err := s.store.BlockDetail(ctx, userID, planID, c.Param("blockId"))
	if err != nil {
		return nil, err
	}
	l, err := s.store.Discussion(ctx, userID, planID, d.TimeBlockID)
	if err != nil {
		return nil, err
	}
	return s.candidatePickerPartial(c, l), nil
}

func (s *Server) planPlacesView(ctx context.Context, planID, collectionID string, list []planner.CollectionPlace, hasNext bool, page planner.Page) views.PlanPlacesView {
	v := views.PlanPlacesView{PlanID: planID, CollectionID: collectionID, Page: page.Number, HasNext: hasNext,
		Places: make([]views.PlaceCard, len(list))}
	for i := range list {
		v.Places[i] = s.toPlaceCard(ctx, &list[i])
	}
	return v
}

func (s *Server) planPlacesPartial(ctx context.Context, planID, collectionID string, list []planner.CollectionPlace, hasNext bool, page planner.Page) templ.Component {
	return views.PlanPlaces(s.planPlacesView(ctx, planID, collectionID, list, hasNext, page))
}

func (s *Server) planDateConfirmPartial(planID string, in planRequest, u *planner.PlanUpdate, expect planner.IfMatch) templ.Component {
	v := views.DateChangeView{Form: planFormView(planID, &in), Type: string(u.Type)}
	v.Form.Version = int(expect) // the confirmation applies the change to the plan the form was opened on
	for _, d := range u.AffectedDays {
		v.AffectedDays = append(v.AffectedDays, views.AffectedDayView{Day: d.Day, Blocks: d.BlockCount})
	}
	return views.DateChangeConfirm(v)
}

// panelPageSize is how many places the side panel loads at a time.
const panelPageSize = 20

// planPage gathers the plan page: members, the day asked for (?day=, default 1), the linked
// collections with the first one's places, and the viewer's collections that can be linked.
func (s *Server) planPage(c echo.Context, p *planner.Plan) (templ.Component, error) {
	v, err := s.planHeaderView(c, p)
	if err != nil {
		return nil, err
	}
	if v.Day, err = s.planDayView(c, p); err != nil {
		return nil, err
	}
	if !v.Guest { // linked collections are for members only
		if err := s.loadPlacesPanel(c, &v, ""); err != nil {
			return nil, err
		}
	}
	return views.Plan(s.pageFor(c, p.Title), v), nil
}

// planHeaderView is what the plan page's header shows: the plan and its members.
func (s *Server) planHeaderView(c echo.Context, p *planner.Plan) (views.PlanView, error) {
	members, err := s.store.PlanMembers(c.Request().Context(), caller(c).UserID, p.ID)
	if err != nil {
		return views.PlanView{}, err
	}
	v := views.PlanView{ID: p.ID, Title: p.Title, Dates: planDates(c.Request().Context(), p), TimeZone: p.TimeZone, Members: toMemberViews(members.Members),
		IsOwner: members.Me != nil && members.Me.Role == planner.RoleOwner, Guest: caller(c).Guest}
	if p.Destination != nil {
		v.Destination = p.Destination.Name
	}
	return v, nil
}

// planHeader answers the plan page's header, which reloads itself when the plan or its
// members change.
func (s *Server) planHeader(c echo.Context) error {
	p, err := s.store.Plan(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	v, err := s.planHeaderView(c, p)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PlanHeader(v))
}

// loadPlacesPanel fills the places panel of v: the linked collections, the places of the one
// chosen (the first when chosen is "" or no longer linked) and the viewer's collections that
// can still be linked.
func (s *Server) loadPlacesPanel(c echo.Context, v *views.PlanView, chosen string) error {
	ctx, userID := c.Request().Context(), caller(c).UserID
	linked, err := s.store.PlanCollections(ctx, userID, v.ID)
	if err != nil {
		return err
	}
	mine, _, err := s.store.Collections(ctx, userID, planner.Page{Size: planner.MaxPageSize}, false)
	if err != nil {
		return err
	}
	isLinked := map[string]bool{}
	for _, pc := range linked {
		v.Collections = append(v.Collections, views.CollectionOption{ID: pc.CollectionID, Title: pc.Title})
		isLinked[pc.CollectionID] = true
	}
	for _, col := range mine {
		if !isLinked[col.ID] {
			v.Linkable = append(v.Linkable, views.CollectionOption{ID: col.ID, Title: col.Title})
		}
	}
	if len(linked) == 0 {
		return nil
	}
	if !isLinked[chosen] {
		chosen = linked[0].CollectionID
	}
	page := planner.Page{Size: panelPageSize}
	places, hasNext, err := s.store.PlanCollectionPlaces(ctx, userID, v.ID, chosen, page, collectionPlaceSorts["LATEST"], planner.PlaceFilter{})
	if err != nil {
		return err
	}
	v.Panel = s.planPlacesView(ctx, v.ID, chosen, places, hasNext, page)
	return nil
}

// planDayView is the day of the plan page: the one asked for (?day=, default 1), read-only
// for guests.
func (s *Server) planDayView(c echo.Context, p *planner.Plan) (views.DayView, error) {
	ctx := c.Request().Context()
	day, err := strconv.Atoi(c.QueryParam("day"))
	if err != nil || day < 1 || day > p.DurationDays() {
		day = 1
	}
	listing, err := s.store.DayBlocks(ctx, caller(c).UserID, p.ID, day, planner.Page{Size: planDayPageSize})
	info, blocks := listing.Info, listing.Blocks
	if err != nil {
		return views.DayView{}, err
	}
	v, err := s.dayView(ctx, p, info, blocks)
	v.ReadOnly = caller(c).Guest
	return v, err
}

// planPanel answers the places panel with the places of the linked collection chosen in its
// menu (?collection=; the first linked one when it is not linked). The menu takes only the
// list from it; the panel's live reload takes all of it.
func (s *Server) planPanel(c echo.Context) error {
	v := views.PlanView{ID: c.Param("planId")}
	if err := s.loadPlacesPanel(c, &v, c.QueryParam("collection")); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PlacesPanel(v))
}

// newPlanPage is the form that creates a plan: from today, three days by default.
func (s *Server) newPlanPage(c echo.Context) error {
	today := time.Now()
	v := views.PlanFormView{StartDate: today.Format(dateLayout), EndDate: today.AddDate(0, 0, 2).Format(dateLayout), Cities: cityOptions()}
	return render(c, http.StatusOK, views.PlanForm(s.pageFor(c, i18n.T(c.Request().Context(), "plan.new")), v))
}

// editPlanPage is the form that edits a plan's title and dates.
func (s *Server) editPlanPage(c echo.Context) error {
	p, err := s.store.PlanToChange(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	v := views.PlanFormView{ID: p.ID, Title: p.Title, StartDate: p.StartDate.Format(dateLayout), EndDate: p.EndDate.Format(dateLayout),
		Cities: cityOptions(), Version: p.Version}
	if p.Destination != nil {
		v.Destination, v.CurrentDestination = p.Destination.Name, p.Destination.Name
	}
	if p.TimeZoneSource == "MEMBER" {
		v.TimeZone = p.TimeZone
	} else if p.TimeZoneSource != "DEFAULT" {
		v.CurrentZone = p.TimeZone
	}
	return render(c, http.StatusOK, views.PlanForm(s.pageFor(c, i18n.T(c.Request().Context(), "plan.edit_page_title", "Title", p.Title)), v))
}

// blockConflictPartial offers, for an htmx add that hit an exactly equal time block, to add
// the place as a candidate of that block instead. Other errors are nil: the error handler
// answers them.
func (s *Server) blockConflictPartial(c echo.Context, err error, collectionPlaceID string, day int) error {
	var pe *planner.Error
	if !wantsPartial(c) || !errors.As(err, &pe) || pe.Code != planner.CodeTimeBlockExactDuplicate {
		return err
	}
	timeBlockID, _ := pe.Extra["time_block_id"].(string)
	v := views.ErrorView{Status: httpStatus(pe.Code), Title: i18n.T(c.Request().Context(), "plan.time_taken"), Detail: said(c.Request().Context(), pe).Detail, Code: string(pe.Code)}

	if where := s.overlapSentence(c, pe); where != "" {
		v.Detail = where
	}
	return render(c, httpStatus(pe.Code), views.BlockConflict(v, c.Param("planId"), timeBlockID, collectionPlaceID, day))
}
