package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/money"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// candidateJSON is a candidate, which docs/API.md §Time blocks calls a block.
type candidateJSON struct {
	BlockID        string             `json:"block_id"`
	Memo           string             `json:"memo"`
	Place          *placeJSON         `json:"place"`
	Selected       bool               `json:"selected"`
	AddedBy        addedByJSON        `json:"added_by"`
	OpinionSummary opinionSummaryJSON `json:"opinion_summary"`
}

type opinionSummaryJSON struct {
	TotalCount   int              `json:"total_count"`
	Distribution distributionJSON `json:"distribution"`
	My           *myOpinionJSON   `json:"my"`
}

type distributionJSON struct {
	Positive int `json:"positive"`
	Neutral  int `json:"neutral"`
	Negative int `json:"negative"`
}

type myOpinionJSON struct {
	OpinionID string `json:"opinion_id"`
	Type      string `json:"type"`
}

// timeBlockJSON is the time block of docs/API.md §Time blocks.
type timeBlockJSON struct {
	TimeBlockID    string          `json:"time_block_id"`
	Type           string          `json:"type"`
	BlockStatus    string          `json:"block_status"`
	StartTime      string          `json:"start_time"`
	EndTime        string          `json:"end_time"`
	CandidateCount int             `json:"candidate_count"`
	Candidates     []candidateJSON `json:"candidates"`
	SelectedBlock  *candidateJSON  `json:"selected_block"`
	// Version counts the changes to the block: its day and times, its candidates (added,
	// removed, their memos) and its selection.
	Version int `json:"version"`
	// FixedTime marks a reservation, which optimising the day leaves where it is.
	FixedTime bool `json:"fixed_time"`
}

func (s *Server) toCandidateJSON(ctx context.Context, c *planner.Candidate) candidateJSON {
	out := candidateJSON{BlockID: c.ID, Memo: c.Memo, Selected: c.Selected, AddedBy: toAddedByJSON(c.AddedBy),
		OpinionSummary: opinionSummaryJSON{TotalCount: c.Opinions.Total,
			Distribution: distributionJSON{Positive: c.Opinions.Positive, Neutral: c.Opinions.Neutral, Negative: c.Opinions.Negative}}}
	if c.Place != nil {
		p := s.toPlaceJSON(ctx, *c.Place)
		out.Place = &p
	}
	if my := c.Opinions.Mine; my != nil {
		out.OpinionSummary.My = &myOpinionJSON{OpinionID: my.ID, Type: string(my.Type)}
	}
	return out
}

func (s *Server) toTimeBlockJSON(ctx context.Context, b *planner.TimeBlock) timeBlockJSON {
	out := timeBlockJSON{TimeBlockID: b.ID, Type: string(b.Type), BlockStatus: string(b.Status()),
		StartTime: b.Start.String(), EndTime: b.End.String(), CandidateCount: len(b.Candidates),
		Candidates: make([]candidateJSON, len(b.Candidates)), Version: b.Version, FixedTime: b.FixedTime}
	for i := range b.Candidates {
		out.Candidates[i] = s.toCandidateJSON(ctx, &b.Candidates[i])
		if b.Candidates[i].Selected {
			sel := out.Candidates[i]
			out.SelectedBlock = &sel
		}
	}
	return out
}

// SlotRequest is where a new block goes, or where a block moves (updateBlockRequest). It is
// exported only so that the form binder can fill it when embedded (it skips unexported
// embedded structs).
type SlotRequest struct {
	Day       lenientInt `json:"day" form:"day"`
	StartTime *string    `json:"start_time" form:"start_time"`
	EndTime   *string    `json:"end_time" form:"end_time"`
	Memo      *string    `json:"memo" form:"memo"`
}

// read reads the day, the two times and the memo, recording fields that cannot be read.
func (in SlotRequest) read(v *planner.Validation) (planner.Slot, string) {
	slot := planner.Slot{Day: in.Day.read(v, "day", true), Start: timeField(v, "start_time", in.StartTime), End: timeField(v, "end_time", in.EndTime)}
	return slot, strings.TrimSpace(deref(in.Memo))
}

// slot reads the slot and memo and validates them.
func (in SlotRequest) slot(v *planner.Validation) (planner.Slot, string) {
	slot, memo := in.read(v)
	slot.Validate(v)
	return slot, planner.CheckOptionalText(v, "memo", memo, planner.MemoMaxLength)
}

// blockTarget reads where a block is moved or copied to, each part optional: a day, and a start
// and an end time given together (absent tells a time left out). Given times are checked as
// a slot's.
func blockTarget(v *planner.Validation, day lenientInt, start, end *string, absent func(*string) bool) (*int, *planner.TimeOfDay, *planner.TimeOfDay) {
	var d *int
	if n := day.readDay(v, "day", false); day.Set && !day.Bad {
		d = &n
	}
	switch {
	case absent(start) != absent(end):
		v.Add("start_time", "start_time and end_time must be given together")
	case !absent(start):
		slot := planner.Slot{Day: 1, Start: timeField(v, "start_time", start), End: timeField(v, "end_time", end)}
		slot.Validate(v)
		return d, &slot.Start, &slot.End
	}
	return d, nil, nil
}

type addBlockRequest struct {
	Type              string  `json:"type" form:"type"`
	CollectionPlaceID *string `json:"collection_place_id" form:"collection_place_id"`
	SlotRequest
}

// addBlock adds a PLACE block from a linked collection or a FREE block (docs/API.md §Time blocks).
func (s *Server) addBlock(c echo.Context) error {
	var in addBlockRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	nb := planner.NewBlock{Type: planner.BlockType(in.Type), CollectionPlaceID: strings.TrimSpace(deref(in.CollectionPlaceID))}
	v.Check(in.Type != "", "type", "is required")
	nb.Slot, nb.Memo = in.read(&v)
	nb.Validate(&v)
	if err := v.Err(); err != nil {
		return err
	}
	tb, err := s.store.AddBlock(c.Request().Context(), caller(c).UserID, c.Param("planId"), nb)
	if err != nil {
		return s.blockConflictPartial(c, err, nb.CollectionPlaceID, nb.Day)
	}
	return s.blockAdded(c, tb, 0)
}

type addBlockByPlaceRequest struct {
	PlaceID string `json:"place_id" form:"place_id"`
	// Collect puts the place into the plan's own collection too (created and linked on first
	// use), as the plan page does.
	Collect bool `json:"collect" form:"collect"`
	SlotRequest
}

// addBlockByPlace adds a PLACE block for a place found by search.
func (s *Server) addBlockByPlace(c echo.Context) error {
	var in addBlockByPlaceRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	placeID := strings.TrimSpace(in.PlaceID)
	v.Check(placeID != "", "place_id", "is required")
	slot, memo := in.slot(&v)
	if err := v.Err(); err != nil {
		return err
	}
	add := s.store.AddBlockByPlace
	if in.Collect {
		add = s.store.AddBlockFromSearch
	}
	tb, err := add(c.Request().Context(), caller(c).UserID, c.Param("planId"), placeID, slot, memo)
	if err != nil {
		return err
	}
	return s.blockAdded(c, tb, 0)
}

type manualPlaceRequest struct {
	Name    string `json:"name" form:"name"`
	Address string `json:"address" form:"address"`
	URL     string `json:"url" form:"url"`
}

type addManualBlockRequest struct {
	ManualPlace *manualPlaceRequest `json:"manual_place"`
	SlotRequest
}

// Manual place limits, in characters.
const (
	manualNameMax    = 100
	manualAddressMax = 200
	manualURLMax     = 2000
)

// addManualBlock adds a PLACE block for a place the member types in.
func (s *Server) addManualBlock(c echo.Context) error {
	var in addManualBlockRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	if in.ManualPlace == nil && c.Request().Header.Get(echo.HeaderContentType) == echo.MIMEApplicationForm {
		in.ManualPlace = &manualPlaceRequest{Name: c.FormValue("manual_place.name"), Address: c.FormValue("manual_place.address"), URL: c.FormValue("manual_place.url")}
	}
	var v planner.Validation
	var place planner.ManualPlace
	if in.ManualPlace == nil {
		v.Add("manual_place", "is required")
	} else {
		place = planner.ManualPlace{Name: planner.CheckText(&v, "manual_place.name", in.ManualPlace.Name, manualNameMax),
			Address: planner.CheckText(&v, "manual_place.address", in.ManualPlace.Address, manualAddressMax), URL: strings.TrimSpace(in.ManualPlace.URL)}
		v.Check(place.URL == "" || validWebURL(place.URL, manualURLMax), "manual_place.url", "must be an http(s) URL")
	}
	slot, memo := in.slot(&v)
	if err := v.Err(); err != nil {
		return err
	}
	tb, err := s.store.AddManualBlock(c.Request().Context(), caller(c).UserID, c.Param("planId"), place, slot, memo)
	if err != nil {
		return err
	}
	return s.blockAdded(c, tb, 0)
}

// blockAdded answers a new time block or a time block with new candidates (it had before
// of them): JSON, or for the plan page the day's updated grid, saying what was added.
func (s *Server) blockAdded(c echo.Context, tb *planner.TimeBlock, before int) error {
	partial, err := s.dayPartialAfterAdd(c, tb, func() string { return addedAnnouncement(c.Request().Context(), tb, before) })
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, s.toTimeBlockJSON(c.Request().Context(), tb), partial, paths.Plan(c.Param("planId")))
}

// dayBlocksJSON is a page of a day's time blocks with the day.
type dayBlocksJSON struct {
	DayInfo  dayInfoJSON     `json:"day_info"`
	Contents []timeBlockJSON `json:"contents"`
	HasNext  bool            `json:"has_next"`
	Page     int             `json:"page"`
	Size     int             `json:"size"`
}

// dayBlocks lists one day's time blocks by start and end time, one page.
func (s *Server) dayBlocks(c echo.Context) error {
	var v planner.Validation
	page := pageParams(c, &v)
	var day lenientInt
	if q := c.QueryParam("day"); q != "" {
		day.UnmarshalParam(q)
	}
	day.readDay(&v, "day", true)
	if err := v.Err(); err != nil {
		return err
	}
	listing, err := s.store.DayBlocks(c.Request().Context(), caller(c).UserID, c.Param("planId"), day.Value, page)
	if err != nil {
		return err
	}
	data := func() any {
		out := dayBlocksJSON{DayInfo: toDayInfoJSON(listing.Info), Contents: make([]timeBlockJSON, len(listing.Blocks)),
			HasNext: listing.HasNext, Page: page.Number, Size: page.Size}
		for i := range listing.Blocks {
			out.Contents[i] = s.toTimeBlockJSON(c.Request().Context(), &listing.Blocks[i])
		}
		return out
	}
	if listing.Answers != nil && s.keepable(c) {
		return s.keptJSON(c, listing.Answers, data)
	}
	partial, err := s.dayPartial(c, listing.Info, listing.Blocks)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, data(), nil, partial)
}

// opinionJSON is the Opinion resource.
type opinionJSON struct {
	OpinionID string      `json:"opinion_id"`
	Type      string      `json:"type"`
	Comment   string      `json:"comment"`
	TagIDs    []string    `json:"tag_ids"`
	AddedBy   addedByJSON `json:"added_by"`
	Version   int         `json:"version"`
	CreatedAt string      `json:"created_at"`
	UpdatedAt string      `json:"updated_at"`
}

func toOpinionJSON(o planner.Opinion) opinionJSON {
	out := opinionJSON{OpinionID: o.ID, Type: string(o.Type), Comment: o.Comment, TagIDs: o.TagIDs, AddedBy: toAddedByJSON(o.AddedBy),
		Version: o.Version, CreatedAt: instant(o.CreatedAt), UpdatedAt: instant(o.UpdatedAt)}
	if out.TagIDs == nil {
		out.TagIDs = []string{}
	}
	return out
}

// blockDetailJSON is one candidate with its time block and the opinions on it.
type blockDetailJSON struct {
	TimeBlockID string           `json:"time_block_id"`
	Type        string           `json:"type"`
	DayInfo     dayInfoJSON      `json:"day_info"`
	StartTime   string           `json:"start_time"`
	EndTime     string           `json:"end_time"`
	Block       candidateJSON    `json:"block"`
	Opinions    []opinionJSON    `json:"opinions"`
	SocialMedia *socialMediaJSON `json:"social_media"`
	Version     int              `json:"version"`    // the time block's
	FixedTime   bool             `json:"fixed_time"` // the time block's
}

func (s *Server) toBlockDetailJSON(ctx context.Context, d *planner.BlockDetail) blockDetailJSON {
	out := blockDetailJSON{TimeBlockID: d.TimeBlockID, Type: string(d.Type), DayInfo: toDayInfoJSON(d.Day),
		StartTime: d.Start.String(), EndTime: d.End.String(), Block: s.toCandidateJSON(ctx, &d.Block), Opinions: make([]opinionJSON, len(d.Opinions)),
		Version: d.Version, FixedTime: d.FixedTime}
	for i, o := range d.Opinions {
		out.Opinions[i] = toOpinionJSON(o)
	}
	if sm := d.SocialMedia; sm != nil {
		out.SocialMedia = &socialMediaJSON{SocialMediaID: sm.ID, MediaType: sm.MediaType, URL: sm.URL, AuthorName: sm.AuthorName, Title: sm.Title, Summary: sm.Summary}
	}
	return out
}

// blockDetail answers one candidate (by its id) with its time block and opinions.
func (s *Server) blockDetail(c echo.Context) error {
	d, err := s.store.BlockDetail(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, s.toBlockDetailJSON(c.Request().Context(), d), nil, nil)
}

// updateBlockRequest is a new slot and memo, each part optional, and the fixed-time mark.
type updateBlockRequest struct {
	SlotRequest
	// FixedTime sets the time block's "fixed time" mark. The edit dialog sends its checkbox
	// ("true") before a hidden "false", and the form binder takes the first value.
	FixedTime *bool `json:"fixed_time" form:"fixed_time"`
}

// updateBlock changes a candidate's memo, its time block's fixed_time mark and/or moves the
// whole time block to another day or time (overlap-checked). For the plan page (htmx), ?day= is the day it shows (else the
// block's), a move is announced with an Undo toast, and ?undo=1 marks the move as that undo.
func (s *Server) updateBlock(c echo.Context) error {
	var in updateBlockRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	var ch planner.BlockChange
	ch.Day, ch.Start, ch.End = blockTarget(&v, in.Day, in.StartTime, in.EndTime, func(s *string) bool { return s == nil })
	if in.Memo != nil {
		memo := planner.CheckOptionalText(&v, "memo", *in.Memo, planner.MemoMaxLength)
		ch.Memo = &memo
	}
	ch.FixedTime = in.FixedTime
	if err := v.Err(); err != nil {
		return err
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	d, err := s.store.UpdateBlock(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"), ch, expect)
	if err != nil {
		return s.moveConflictPartial(c, err, ch, expect)
	}
	partial, err := s.dayPartialAfterUpdate(c, d)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, s.toBlockDetailJSON(c.Request().Context(), d), partial, paths.Plan(c.Param("planId")))
}

// deleteTimeBlock deletes a time block with its candidates, opinions and expenses.
// deleteTimeBlock deletes a time block. For ten minutes it can be put back: the answer's Link
// header (rel="restore") names where to POST, and the plan page shows an Undo toast.
func (s *Server) deleteTimeBlock(c echo.Context) error {
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	planID := c.Param("planId")
	d, err := s.store.DeleteTimeBlock(c.Request().Context(), caller(c).UserID, planID, c.Param("blockId"), expect)
	if err != nil {
		return err
	}
	restore := restoreHref(planID, d.ID)
	c.Response().Header().Set("Link", "<"+restore+`>; rel="restore"`)
	var day lenientInt
	day.UnmarshalParam(c.QueryParam("day"))
	if !wantsPartial(c) || day.Bad || day.Value < 1 {
		return s.timeBlockChanged(c, http.StatusNoContent, nil)
	}
	p, err := s.dayPartialAfterDelete(c, day.Value, d.Block, restore)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, p)
}

// restoreHref is where a deleted time block is put back.
func restoreHref(planID, deletionID string) string {
	return paths.Plan(planID) + "/deleted-blocks/" + url.PathEscape(deletionID) + "/restore"
}

// restoreTimeBlock puts a deleted time block back as it was (200 with the block, as adding one
// answers); for the plan page, the day with it, announced.
func (s *Server) restoreTimeBlock(c echo.Context) error {
	planID := c.Param("planId")
	tb, err := s.store.RestoreTimeBlock(c.Request().Context(), caller(c).UserID, planID, c.Param("deletionId"))
	if err != nil {
		return err
	}
	partial, err := s.dayPartialAfterRestore(c, tb)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, s.toTimeBlockJSON(c.Request().Context(), tb), partial, paths.Plan(planID))
}

// timeBlockChanged answers a change to a time block: JSON data, or for the plan page the
// day's updated grid (the day shown is carried in ?day=).
func (s *Server) timeBlockChanged(c echo.Context, status int, data any) error {
	partial := templ.Component(templ.NopComponent)
	if wantsPartial(c) {
		var day lenientInt
		day.UnmarshalParam(c.QueryParam("day"))
		if !day.Bad && day.Value >= 1 {
			p, err := s.dayPartialAfterChange(c, day.Value)
			if err != nil {
				return err
			}
			partial = p
		}
	}
	return respondChange(c, status, data, partial, paths.Plan(c.Param("planId")))
}

type addCandidatesRequest struct {
	CollectionPlaceIDs []string `json:"collection_place_ids" form:"collection_place_ids"`
	PlaceIDs           []string `json:"place_ids" form:"place_ids"`
	// Collect puts the one place of place_ids into the plan's own collection too.
	Collect bool `json:"collect" form:"collect"`
}

// addCandidates adds candidates to a PLACE time block, from collection places or places.
func (s *Server) addCandidates(c echo.Context) error {
	var in addCandidatesRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	switch {
	case len(in.CollectionPlaceIDs) > 0 && len(in.PlaceIDs) > 0:
		v.Add("collection_place_ids", "give collection_place_ids or place_ids, not both")
	case len(in.CollectionPlaceIDs) == 0 && len(in.PlaceIDs) == 0:
		v.Add("collection_place_ids", "give a non-empty collection_place_ids or place_ids")
	}
	for _, f := range []struct {
		name string
		ids  []string
	}{{"collection_place_ids", in.CollectionPlaceIDs}, {"place_ids", in.PlaceIDs}} {
		v.Checkf(len(f.ids) <= planner.CandidatesPerAddMax, f.name, "must list at most %d ids", planner.CandidatesPerAddMax)
		for _, id := range f.ids {
			v.Check(strings.TrimSpace(id) != "", f.name, "must not hold empty ids")
		}
	}
	if in.Collect {
		v.Check(len(in.PlaceIDs) == 1, "place_ids", "must hold exactly one id with collect")
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx, userID, planID, timeBlockID := c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId")
	before := 0
	if wantsPartial(c) { // the plan page says which candidate the new one is
		l, err := s.store.Candidates(ctx, userID, planID, timeBlockID)
		if err != nil {
			return err
		}
		before = len(l.Candidates)
	}
	var tb *planner.TimeBlock
	var err error
	if in.Collect {
		tb, err = s.store.AddCandidateFromSearch(ctx, userID, planID, timeBlockID, strings.TrimSpace(in.PlaceIDs[0]))
	} else {
		tb, err = s.store.AddCandidates(ctx, userID, planID, timeBlockID, in.CollectionPlaceIDs, in.PlaceIDs)
	}
	if err != nil {
		return err
	}
	return s.blockAdded(c, tb, before)
}

type selectionRequest struct {
	BlockID string `json:"block_id" form:"block_id"`
}

// changeSelection confirms another candidate of the time block (docs/API.md §Time blocks).
func (s *Server) changeSelection(c echo.Context) error {
	var in selectionRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	v.Check(strings.TrimSpace(in.BlockID) != "", "block_id", "is required")
	if err := v.Err(); err != nil {
		return err
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	tb, err := s.store.ChangeSelection(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"), strings.TrimSpace(in.BlockID), expect)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	partial, err := s.dayPartialAfterAdd(c, tb, func() string {
		name := i18n.T(ctx, "plan.the_candidate")
		if sel := tb.Selected(); sel != nil && sel.Place != nil {
			name = shownName(ctx, *sel.Place)
		}
		return blockSentence(ctx, "plan.confirmed_announcement", tb, name)
	})
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, s.toTimeBlockJSON(ctx, tb), partial, paths.Plan(c.Param("planId")))
}

// candidateWithExpensesJSON is a candidate with its expense items.
type candidateWithExpensesJSON struct {
	candidateJSON
	ExpenseItems []expenseItemJSON `json:"expense_items"`
}

type expenseItemJSON struct {
	ExpenseItemID string       `json:"expense_item_id"`
	Name          string       `json:"name"`
	Cost          money.Amount `json:"cost"`
}

// toExpenseItemsJSON writes an expense's items, their costs in major units of its currency.
func toExpenseItemsJSON(items []planner.ExpenseItem, currency string) []expenseItemJSON {
	c := money.Stored(currency)
	out := make([]expenseItemJSON, len(items))
	for i, it := range items {
		out[i] = expenseItemJSON{ExpenseItemID: it.ID, Name: it.Name, Cost: money.Amount{Minor: it.Cost, Currency: c}}
	}
	return out
}

type candidateListJSON struct {
	TimeBlockID    string                      `json:"time_block_id"`
	Title          string                      `json:"title"`
	DayInfo        dayInfoJSON                 `json:"day_info"`
	StartTime      string                      `json:"start_time"`
	EndTime        string                      `json:"end_time"`
	CandidateCount int                         `json:"candidate_count"`
	Candidates     []candidateWithExpensesJSON `json:"candidates"`
	Version        int                         `json:"version"` // the time block's
}

// candidates lists a time block's candidates with their expense items, for comparing them;
// the plan page's candidate picker (the partial) shows the discussion of each too.
func (s *Server) candidates(c echo.Context) error {
	load := s.store.Candidates
	if wantsPartial(c) {
		load = s.store.Discussion
	}
	l, err := load(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"))
	if err != nil {
		return err
	}
	out := candidateListJSON{TimeBlockID: l.TimeBlockID, Title: l.PlanTitle, DayInfo: toDayInfoJSON(l.Day),
		StartTime: l.Start.String(), EndTime: l.End.String(), CandidateCount: len(l.Candidates),
		Candidates: make([]candidateWithExpensesJSON, len(l.Candidates)), Version: l.Version}
	for i := range l.Candidates {
		ce := &l.Candidates[i]
		out.Candidates[i] = candidateWithExpensesJSON{candidateJSON: s.toCandidateJSON(c.Request().Context(), &ce.Candidate), ExpenseItems: toExpenseItemsJSON(ce.Items, l.Currency)}
	}
	return respond(c, http.StatusOK, out, nil, s.candidatePickerPartial(c, l))
}

// deleteCandidate removes a candidate; the last one left becomes selected, and a time block
// left with none is deleted.
func (s *Server) deleteCandidate(c echo.Context) error {
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteCandidate(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("blockId"), c.Param("candidateId"), expect); err != nil {
		return err
	}
	return s.timeBlockChanged(c, http.StatusNoContent, nil)
}
