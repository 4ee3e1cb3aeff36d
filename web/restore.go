package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/shopspring/decimal"

	"tripplan/internal/i18n"
	"tripplan/internal/money"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/views"
)

// restoreBodyLimit caps a restore's whole request: the backup's own limit is checked on the
// file or body (PAYLOAD_TOO_LARGE), this leaves room for the multipart envelope.
var restoreBodyLimit = middleware.BodyLimit("5184KiB")

// restoreTooLarge is a backup over planner.RestoreMaxBytes.
func restoreTooLarge() error {
	e := planner.Errorf(planner.CodePayloadTooLarge, "The backup is larger than 5 MB.")
	e.Fields = []planner.FieldError{{Field: "file", Reason: "must be at most 5 MB"}}
	return e
}

// restoreRequest is a plan's backup (planExportJSON) as read back: its lists are kept raw, so
// that each entry is decoded on its own and a type error names its place in the document
// (days[3].blocks[1].start_time).
type restoreRequest struct {
	Format        string            `json:"format"`
	Version       int               `json:"version"`
	Plan          json.RawMessage   `json:"plan"`
	Members       []json.RawMessage `json:"members"`
	FormerMembers []json.RawMessage `json:"former_members"`
	Collections   []json.RawMessage `json:"collections"`
	Budget        json.RawMessage   `json:"budget"`
	Places        []json.RawMessage `json:"places"`
	Days          []json.RawMessage `json:"days"`
	Expenses      []json.RawMessage `json:"expenses"`
}

type restoreDayJSON struct {
	Day    lenientInt        `json:"day"`
	Blocks []json.RawMessage `json:"blocks"`
}

type restoreBlockJSON struct {
	TimeBlockID string                       `json:"time_block_id"`
	Type        string                       `json:"type"`
	StartTime   *string                      `json:"start_time"`
	EndTime     *string                      `json:"end_time"`
	FixedTime   bool                         `json:"fixed_time"`
	Candidates  []json.RawMessage            `json:"candidates"`
	Opinions    map[string][]json.RawMessage `json:"opinions"`
}

type restoreOpinionJSON struct {
	opinionRequest
	AddedBy string `json:"added_by"`
}

type restoreBudgetJSON struct {
	Type          string      `json:"type"`
	TotalBudget   amountField `json:"total_budget"`
	TravelerCount lenientInt  `json:"traveler_count"`
}

type restoreExpenseJSON struct {
	Items []itemRequest `json:"items"`
	termsRequest
	Block *struct {
		BlockID string `json:"block_id"`
	} `json:"block"`
	Day              lenientInt `json:"day"`
	AfterTimeBlockID *string    `json:"after_time_block_id"`
}

// restorePlan makes a new plan of the caller's from a backup (GET /plans/{p}/export.json),
// sent as the body (application/json) or as the multipart part "file": 201 with the plan, as
// creating one answers; the page goes to it.
func (s *Server) restorePlan(c echo.Context) error {
	var in restoreRequest
	mt, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	switch mt {
	case echo.MIMEMultipartForm:
		_, data, err := uploadedFile(c, planner.RestoreMaxBytes, restoreTooLarge)
		if err == nil {
			err = decodeJSON(bytes.NewReader(data), &in)
		}
		if err != nil {
			return s.restoreFormError(c, err)
		}
	case echo.MIMEApplicationJSON:
		c.Request().Body = http.MaxBytesReader(c.Response(), c.Request().Body, planner.RestoreMaxBytes)
		if err := c.Bind(&in); err != nil {
			var pe *planner.Error
			if errors.As(err, &pe) && pe.Code == planner.CodePayloadTooLarge {
				return restoreTooLarge()
			}
			return err
		}
	default:
		e := planner.Errorf(planner.CodeUnsupportedMediaType, "Send the backup as application/json, or as multipart/form-data in a part named file.")
		e.Fields = []planner.FieldError{{Field: "file", Reason: "is required"}}
		return e
	}
	ctx := c.Request().Context()
	r, err := readRestore(ctx, &in)
	if err != nil {
		return s.restoreFormError(c, err)
	}
	p, err := s.store.RestorePlan(ctx, caller(c).UserID, r)
	if err != nil {
		return s.restoreFormError(c, err)
	}
	c.Response().Header().Set(echo.HeaderLocation, paths.Plan(p.ID))
	return respondChange(c, http.StatusCreated, toPlanJSON(p), nil, paths.Plan(p.ID))
}

// readRestore checks a backup into a planner.Restore: its format and version first (a file
// that is not a Tripplan plan says so and nothing else), then the caps of its lists, then every
// entry, each error naming its JSON path.
func readRestore(ctx context.Context, in *restoreRequest) (*planner.Restore, error) {
	var v planner.Validation
	v.Check(in.Format == "tripplan.plan", "format", "must be tripplan.plan: a plan saved with Export → JSON backup")
	v.Checkf(in.Version == exportFormatVersion, "version", "must be %d", exportFormatVersion)
	if err := v.Err(); err != nil {
		return nil, err
	}
	v.Checkf(len(in.Days) >= 1 && len(in.Days) <= planner.MaxPlanDays, "days", "must list 1 to %d days", planner.MaxPlanDays)
	v.Checkf(len(in.Places) <= planner.RestorePlacesMax, "places", "must list at most %d entries", planner.RestorePlacesMax)
	v.Checkf(len(in.Expenses) <= planner.RestoreExpensesMax, "expenses", "must list at most %d entries", planner.RestoreExpensesMax)
	v.Checkf(len(in.Members)+len(in.FormerMembers) <= planner.RestoreMembersMax, "members", "must list at most %d entries", planner.RestoreMembersMax)
	v.Checkf(len(in.Collections) <= planner.LinkCollectionsMax, "collections", "must list at most %d entries", planner.LinkCollectionsMax)
	if err := v.Err(); err != nil {
		return nil, err
	}
	l := i18n.From(ctx)
	out := &planner.Restore{Members: map[string]string{}, Words: map[planner.OpinionType]string{
		planner.OpinionPositive: l.T("restore.note_positive"), planner.OpinionNeutral: l.T("restore.note_neutral"),
		planner.OpinionNegative: l.T("restore.note_negative")}}

	// The plan's fields as creating a plan checks them, named under "plan".
	var plan planRequest
	days := 0
	if decodeAt(&v, "plan", in.Plan, &plan) {
		var pv planner.Validation
		pv.Check(plan.Currency != nil, "currency", "is required")
		p, err := plan.input()
		var pe *planner.Error
		if errors.As(err, &pe) && pe.Code == planner.CodeInvalidDateRange {
			pv.Addf("end_date", "must be on or after start_date, at most %d days on", planner.MaxPlanDays-1)
		} else {
			pv.Nest("", err)
		}
		if pv.Err() == nil {
			days, _ = p.Days()
		}
		v.Nest("plan", pv.Err())
		p.TimeZone = cmp.Or(p.TimeZone, "UTC")
		out.Plan = p
	}
	currency := out.Plan.Currency

	for list, entries := range map[string][]json.RawMessage{"members": in.Members, "former_members": in.FormerMembers} {
		for i, raw := range entries {
			path := fmt.Sprintf("%s[%d]", list, i)
			var m planMemberJSON
			if decodeAt(&v, path, raw, &m) {
				v.Check(m.PlanMemberID != "", path+".plan_member_id", "is required")
				out.Members[m.PlanMemberID] = m.Nickname
			}
		}
	}
	for i, raw := range in.Collections {
		var pc struct {
			ID string `json:"collection_id"`
		}
		if decodeAt(&v, fmt.Sprintf("collections[%d]", i), raw, &pc) && pc.ID != "" {
			out.Collections = append(out.Collections, pc.ID)
		}
	}
	readRestoreBudget(&v, in.Budget, currency, out)
	places := readRestorePlaces(&v, in.Places, out)
	candidates, blocks := readRestoreDays(&v, in.Days, days, places, out)
	// The expenses name candidates and blocks: only read once those are right.
	if err := v.Err(); err != nil {
		return nil, err
	}
	readRestoreExpenses(&v, in.Expenses, days, currency, candidates, blocks, out)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// readRestoreBudget reads the backup's budget: its type, total and traveller count.
func readRestoreBudget(v *planner.Validation, raw json.RawMessage, currency string, out *planner.Restore) {
	var b restoreBudgetJSON
	out.Budget.Mode = planner.BudgetInitial
	if !decodeAt(v, "budget", raw, &b) {
		return
	}
	// Its fields as the budget's write checks them, named under "budget".
	var bv planner.Validation
	switch mode := planner.BudgetMode(b.Type); mode {
	case planner.BudgetInitial, planner.BudgetBudget, planner.BudgetExpense:
		out.Budget.Mode = mode
	case "":
	default:
		bv.Add("type", "must be INITIAL, BUDGET or EXPENSE")
	}
	if total := b.TotalBudget.read(&bv, "total_budget", false, false); b.TotalBudget.Set && !bv.Has("total_budget") && currency != "" {
		minor := planner.MinorUnits(&bv, "total_budget", false, total, money.Stored(currency))
		out.Budget.TotalBudget = &minor
	}
	if n := b.TravelerCount.read(&bv, "traveler_count", false); b.TravelerCount.Set && !b.TravelerCount.Bad {
		bv.Check(n >= 1 && n <= travelersMax, "traveler_count", "must be from 1 to 1000")
		out.Budget.TravelerCount = n
	}
	v.Nest("budget", bv.Err())
}

// readRestorePlaces reads the places, answering the keys listed.
func readRestorePlaces(v *planner.Validation, list []json.RawMessage, out *planner.Restore) map[string]bool {
	keys := map[string]bool{}
	for i, raw := range list {
		path := fmt.Sprintf("places[%d]", i)
		var p placeJSON
		if !decodeAt(v, path, raw, &p) {
			continue
		}
		v.Check(p.PlaceID != "" && !keys[p.PlaceID], path+".place_id", "must be an id, each once")
		keys[p.PlaceID] = true
		name := strings.Join(strings.Fields(p.Name), " ")
		v.Checkf(planner.ValidText(name, 1, planner.CustomPlaceNameMax), path+".name", "must be 1–%d characters", planner.CustomPlaceNameMax)
		rp := planner.RestorePlace{Key: p.PlaceID, Name: name, Address: cut(strings.Join(strings.Fields(p.Address), " "), planner.ImportAddressMax)}
		if validWebURL(p.ProviderMapsURI, 2048) {
			rp.MapsURI = p.ProviderMapsURI
		}
		if p.Point != nil {
			lat, err1 := strconv.ParseFloat(p.Point.Latitude, 64)
			lng, err2 := strconv.ParseFloat(p.Point.Longitude, 64)
			if err1 == nil && err2 == nil && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 {
				rp.Latitude, rp.Longitude = strconv.FormatFloat(lat, 'f', 6, 64), strconv.FormatFloat(lng, 'f', 6, 64)
			} else {
				v.Add(path+".point", "must be a latitude and a longitude in degrees")
			}
		}
		out.Places = append(out.Places, rp)
	}
	return keys
}

// cut is s in at most n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// readRestoreDays reads the days' time blocks with their candidates and opinions, in the order
// of the days and of their times; it answers the place candidates' keys and each block's
// index in out.Blocks by its key.
func readRestoreDays(v *planner.Validation, list []json.RawMessage, days int, places map[string]bool, out *planner.Restore) (map[string]bool, map[string]int) {
	candidates, blocks := map[string]bool{}, map[string]int{}
	seenDay := map[int]bool{}
	type at struct {
		path  string
		block planner.RestoreBlock
		key   string
	}
	var all []at
	for i, raw := range list {
		path := fmt.Sprintf("days[%d]", i)
		var d restoreDayJSON
		if !decodeAt(v, path, raw, &d) {
			continue
		}
		day := d.Day.read(v, path+".day", true)
		if !v.Has(path+".day") && days > 0 {
			v.Checkf(day >= 1 && day <= days && !seenDay[day], path+".day", "must be a day of the plan, 1 to %d, each once", days)
		}
		seenDay[day] = true
		v.Checkf(len(d.Blocks) <= planner.RestoreBlocksPerDayMax, path+".blocks", "must list at most %d entries", planner.RestoreBlocksPerDayMax)
		if v.Has(path+".blocks") || v.Has(path+".day") {
			continue
		}
		var ofDay []at
		for j, raw := range d.Blocks {
			bp := fmt.Sprintf("%s.blocks[%d]", path, j)
			var b restoreBlockJSON
			if !decodeAt(v, bp, raw, &b) {
				continue
			}
			rb, ok := readRestoreBlock(v, bp, &b, day, places, candidates, out.Members)
			if !ok {
				continue
			}
			v.Check(b.TimeBlockID != "" && blocks[b.TimeBlockID] == 0, bp+".time_block_id", "must be an id, each once")
			blocks[b.TimeBlockID] = -1
			ofDay = append(ofDay, at{bp, rb, b.TimeBlockID})
		}
		slices.SortStableFunc(ofDay, func(a, b at) int { return cmp.Compare(a.block.Start, b.block.Start) })
		for k := 1; k < len(ofDay); k++ {
			v.Checkf(ofDay[k].block.Start >= ofDay[k-1].block.End, ofDay[k].path+".start_time", "overlaps %s", ofDay[k-1].path)
		}
		all = append(all, ofDay...)
	}
	slices.SortStableFunc(all, func(a, b at) int { return cmp.Compare(a.block.Day, b.block.Day) })
	for _, b := range all {
		blocks[b.key] = len(out.Blocks)
		out.Blocks = append(out.Blocks, b.block)
	}
	return candidates, blocks
}

// readRestoreBlock reads one time block (at path) of a day: its type and times, its
// candidates (each place once, at most one selected, a free block's one entry without a
// place) and their opinions (by candidate).
func readRestoreBlock(v *planner.Validation, path string, b *restoreBlockJSON, day int, places, candidates map[string]bool, members map[string]string) (planner.RestoreBlock, bool) {
	rb := planner.RestoreBlock{Day: day, Type: planner.BlockType(b.Type), FixedTime: b.FixedTime}
	v.Check(rb.Type == planner.BlockPlace || rb.Type == planner.BlockFree, path+".type", "must be PLACE or FREE")
	rb.Start, rb.End = timeField(v, path+".start_time", b.StartTime), timeField(v, path+".end_time", b.EndTime)
	if !v.Has(path+".start_time") && !v.Has(path+".end_time") {
		v.Check(rb.Start < rb.End, path+".start_time", "must be earlier than end_time")
	}
	v.Checkf(len(b.Candidates) <= planner.RestoreCandidatesPerBlockMax, path+".candidates", "must list at most %d entries", planner.RestoreCandidatesPerBlockMax)
	if rb.Type == planner.BlockFree {
		v.Check(len(b.Candidates) == 1, path+".candidates", "a FREE block has exactly one entry")
	}
	if v.Has(path+".candidates") || v.Has(path+".type") {
		return rb, false
	}
	inBlock, selected := map[string]bool{}, 0
	for k, raw := range b.Candidates {
		cp := fmt.Sprintf("%s.candidates[%d]", path, k)
		var c exportCandidateJSON
		if !decodeAt(v, cp, raw, &c) {
			continue
		}
		_, seen := inBlock[c.BlockID]
		_, elsewhere := candidates[c.BlockID]
		v.Check(c.BlockID != "" && !elsewhere && !seen, cp+".block_id", "must be an id, each once")
		inBlock[c.BlockID] = true
		v.Checkf(planner.ValidText(c.Memo, 0, planner.MemoMaxLength), cp+".memo", "must be at most %d characters", planner.MemoMaxLength)
		_, known := members[c.AddedBy]
		v.Check(known, cp+".added_by", "must be a plan_member_id of members or former_members")
		rc := planner.RestoreCandidate{Key: c.BlockID, Memo: c.Memo, Selected: c.Selected, AddedBy: c.AddedBy}
		switch {
		case rb.Type == planner.BlockFree:
			v.Check(c.PlaceID == nil, cp+".place_id", "must be null in a FREE block")
			v.Check(!c.Selected, cp+".selected", "must be false in a FREE block")
		case c.PlaceID == nil || !places[*c.PlaceID]:
			v.Add(cp+".place_id", "must be a place_id of places")
		case inBlock["place:"+*c.PlaceID]:
			v.Add(cp+".place_id", "names a place the block has already")
		default:
			rc.PlaceKey = *c.PlaceID
			inBlock["place:"+rc.PlaceKey] = true
		}
		if c.Selected {
			selected++
			v.Check(selected == 1, cp+".selected", "only one candidate of a block can be selected")
		}
		rb.Candidates = append(rb.Candidates, rc)
	}
	for key, list := range b.Opinions {
		op := path + ".opinions." + key
		v.Checkf(len(list) <= planner.RestoreOpinionsPerCandidateMax, op, "must list at most %d entries", planner.RestoreOpinionsPerCandidateMax)
		i := slices.IndexFunc(rb.Candidates, func(c planner.RestoreCandidate) bool { return c.Key == key })
		v.Check(i >= 0 || len(list) == 0, op, "must be a block_id of the block's candidates")
		if v.Has(op) {
			continue
		}
		for k, raw := range list {
			p := fmt.Sprintf("%s[%d]", op, k)
			var o restoreOpinionJSON
			if !decodeAt(v, p, raw, &o) {
				continue
			}
			in, err := o.input()
			v.Nest(p, err)
			_, known := members[o.AddedBy]
			v.Check(known, p+".added_by", "must be a plan_member_id of members or former_members")
			rb.Candidates[i].Opinions = append(rb.Candidates[i].Opinions, planner.RestoreOpinion{Type: in.Type, Comment: in.Comment, TagIDs: in.TagIDs, AddedBy: o.AddedBy})
		}
	}
	for _, c := range rb.Candidates {
		candidates[c.Key] = c.PlaceKey != ""
	}
	return rb, true
}

// readRestoreExpenses reads the expenses: a place candidate's (block.block_id, once each) or an
// additional one on a day (absent: the first) after a time block of that day (absent: at its
// start); items and terms as an expense's write takes them, priced in the plan's currency, the
// members they name among the backup's.
func readRestoreExpenses(v *planner.Validation, list []json.RawMessage, days int, currency string, candidates map[string]bool, blocks map[string]int, out *planner.Restore) {
	owned := map[string]bool{}
	for i, raw := range list {
		path := fmt.Sprintf("expenses[%d]", i)
		var e restoreExpenseJSON
		if !decodeAt(v, path, raw, &e) {
			continue
		}
		re := planner.RestoreExpense{AfterBlock: -1}
		if e.Block != nil {
			re.Kind, re.CandidateKey = planner.ExpenseBlock, e.Block.BlockID
			v.Check(candidates[re.CandidateKey] && !owned[re.CandidateKey], path+".block.block_id", "must be a block_id of a place candidate, each once")
			owned[re.CandidateKey] = true
		} else {
			re.Kind, re.Day = planner.ExpenseAdditional, 1
			if e.Day.Set {
				re.Day = e.Day.read(v, path+".day", true)
				v.Checkf(v.Has(path+".day") || re.Day >= 1 && re.Day <= max(days, 1), path+".day", "must be a day of the plan, 1 to %d", days)
			}
			if e.AfterTimeBlockID != nil {
				j, ok := blocks[*e.AfterTimeBlockID]
				if ok && j >= 0 && out.Blocks[j].Day == re.Day {
					re.AfterBlock = j
				} else {
					v.Add(path+".after_time_block_id", "must be a time_block_id of the expense's day")
				}
			}
		}
		// The backup writes paid_by with payers, and split with split_among, for readers of
		// either: an expense's write takes one of each.
		if e.PaidBy != nil && *e.PaidBy != "" {
			e.Payers = nil
		}
		if e.Split != nil {
			e.SplitAmong = nil
		}
		var sub planner.Validation
		items := readItems(&sub, e.Items)
		terms := e.termsRequest.read(&sub)
		if err := sub.Err(); err != nil || currency == "" {
			v.Nest(path, err)
			continue
		}
		cur, rate := cmp.Or(terms.Currency, currency), decimal.Zero
		if cur != currency {
			if terms.Rate == nil {
				v.Add(path+".exchange_rate", "is required for a currency other than the plan's")
				continue
			}
			rate = *terms.Rate
		}
		priced, err := planner.PriceItems(items, cur)
		if v.Nest(path, err); err != nil {
			continue
		}
		re.Items = priced
		t, err := planner.PriceTerms(terms, re.Total(), cur, rate)
		if v.Nest(path, err); err != nil {
			continue
		}
		for _, id := range t.Named() {
			if _, ok := out.Members[id]; !ok {
				v.Add(path+".payers", "must name plan_member_ids of members or former_members")
			}
		}
		re.Terms = t
		out.Expenses = append(out.Expenses, re)
	}
}

// decodeAt decodes one part of a backup (at path); a type error names its JSON path from the
// document's root. A part that is absent or null leaves into as it is.
func decodeAt(v *planner.Validation, path string, raw json.RawMessage, into any) bool {
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	err := json.Unmarshal(raw, into)
	if err == nil {
		return true
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		jsonKind(v, path+"."+jsonPath(reflect.TypeOf(into), te.Field), te.Type.Kind().String())
	} else {
		v.Add(path, "must be a JSON object")
	}
	return false
}

// restoreFormError answers a backup that could not be restored: the error as it is to JSON
// clients; to the page the restore form again with why, in words, next to the file field (htmx
// swaps the form; a plain post gets the plans page with it, 400).
func (s *Server) restoreFormError(c echo.Context, err error) error {
	var pe *planner.Error
	if !errors.As(err, &pe) || negotiate(c.Request()) == asJSON {
		return err
	}
	ctx := c.Request().Context()
	var msg string
	switch {
	case pe.Code == planner.CodePayloadTooLarge:
		msg = i18n.T(ctx, "restore.too_large")
	case pe.Code == planner.CodeUnsupportedMediaType || len(pe.Fields) > 0 && pe.Fields[0].Field == "file":
		msg = i18n.T(ctx, "restore.choose_file")
	case pe.Code != planner.CodeInvalidRequest:
		return err
	case len(pe.Fields) == 0 || pe.Fields[0].Field == "format" || pe.Fields[0].Field == "version":
		msg = i18n.T(ctx, "restore.not_a_backup")
	default:
		f := said(ctx, pe).Fields[0]
		msg = i18n.T(ctx, "restore.invalid", "Where", f.Field, "Reason", f.Reason)
	}
	if wantsPartial(c) {
		c.Response().Header().Set("HX-Retarget", "#restore-form")
		c.Response().Header().Set("HX-Reswap", "outerHTML")
		return render(c, http.StatusBadRequest, views.RestoreForm(msg))
	}
	page := planner.Page{Number: 1, Size: planner.DefaultPageSize}
	list, hasNext, lerr := s.store.Plans(ctx, caller(c).UserID, page)
	if lerr != nil {
		return lerr
	}
	return render(c, http.StatusBadRequest, s.lazyPage(c, "plan.list_title", func(p views.Page) templ.Component {
		v := plansView(ctx, list, hasNext, page)
		v.RestoreError = msg
		return views.Plans(p, v)
	}))
}
