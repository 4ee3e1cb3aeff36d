package views

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"tripplan/internal/gapfill"
	"tripplan/internal/i18n"
	"tripplan/internal/paths"
)

// PlansView is the list of the viewer's plans.
type PlansView struct {
	Plans    []PlanCard
	NextHref string // the next page's partial, "" on the last page
	// RestoreError is why the backup last sent could not be restored, in words ("" for none).
	RestoreError string
}

// NewPlanPath is the "new plan" form page.
const NewPlanPath = "/plans/new"

// PlanFormView is the form that creates (ID "") or edits a plan.
type PlanFormView struct {
	ID                 string
	Title              string
	StartDate, EndDate string // YYYY-MM-DD
	TimeZone           string // IANA name; "" for a new plan (it takes its destination's or first place's)
	Destination        string // the city's name, "" for none
	KeepDestination    bool   // the request sent none: the date confirmation leaves it out too
	CurrentDestination string // editing: the plan's destination as shown, sent back to keep it
	CurrentZone        string // the plan's zone when no member chose it (then TimeZone is "")
	Cities             []CityOption
	Errors             FieldErrors // by form field name: title, start_date, end_date, time_zone, destination
	Version            int         // editing: the plan's version the form was opened on
}

// CommonTimeZones are offered as suggestions in the plan form (any IANA name is accepted).
var CommonTimeZones = []string{
	"Asia/Seoul", "Asia/Tokyo", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Bangkok",
	"Asia/Ho_Chi_Minh", "Asia/Singapore", "Asia/Kolkata", "Asia/Dubai", "Europe/London", "Europe/Paris",
	"Europe/Madrid", "Europe/Rome", "Europe/Berlin", "Europe/Amsterdam", "Europe/Istanbul",
	"America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Toronto",
	"America/Mexico_City", "America/Sao_Paulo", "Pacific/Honolulu", "Pacific/Guam", "Australia/Sydney",
	"Pacific/Auckland", "UTC",
}

// DateChangeView asks to confirm a change of a plan's dates (the partial of an unconfirmed
// PUT /plans/{p}).
type DateChangeView struct {
	Form         PlanFormView
	Type         string // INCREASE | DECREASE | STAY
	AffectedDays []AffectedDayView
}

// AffectedDayView is a day a date change would delete, with its number of blocks.
type AffectedDayView struct {
	Day    int
	Blocks int
}

// PlanView is the plan page: the day grid, the linked collections' places to drag in, and
// the plan's members.
type PlanView struct {
	ID, Title string
	Dates     string // formatted
	TimeZone  string // IANA name
	// Destination is the plan's city ("" for none): the near= of place searches made from the
	// plan (GET /places/search?query=…&near=…), which ranks its places first.
	Destination string
	Members     []MemberView
	IsOwner     bool
	Guest       bool // a read-only view for a guest holding an invite link
	Day         DayView
	// Collections are the linked collections; Panel shows the places of one of them.
	Collections []CollectionOption
	Panel       PlanPlacesView
	// Linkable are the viewer's collections not linked yet.
	Linkable []CollectionOption
}

// PresenceView is the plan page's "who's here" strip: the others who have the plan open
// (each member once) and how many other guests are looking.
type PresenceView struct {
	Others []MemberView
	Guests int
}

// Sentence says who is here: "Ben is here", "Ben and Cho are here", "Ben, Cho and 2 guests
// are here", "A guest is looking"; "Ben 님, Cho 님과 게스트 2명이 함께 보고 있어요".
func (v PresenceView) Sentence(ctx context.Context) string {
	l := i18n.From(ctx)
	names := make([]string, 0, len(v.Others)+1)
	for _, m := range v.Others {
		names = append(names, l.T("plan.presence_member", "Name", m.Nickname))
	}
	switch {
	case v.Guests == 1 && len(names) == 0:
		return l.T("plan.presence_a_guest_looking")
	case v.Guests == 1:
		names = append(names, l.T("plan.presence_a_guest"))
	case v.Guests > 1:
		names = append(names, l.T("plan.presence_guests", "Count", v.Guests))
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		if v.Guests > 1 {
			return l.T("plan.presence_looking", "Who", i18n.Word(names[0]))
		}
		return l.T("plan.presence_here", "Who", i18n.Word(names[0]))
	}
	return l.T("plan.presence_here_many", "Rest", i18n.Word(strings.Join(names[:len(names)-1], ", ")), "Last", i18n.Word(names[len(names)-1]))
}

// CollectionOption is a collection to choose in a menu.
type CollectionOption struct {
	ID, Title string
}

// DayView is one day of a plan: the day tabs and the time grid with its blocks (the partial
// of GET /plans/{p}/blocks?day=N and of every block change on the plan page).
type DayView struct {
	PlanID   string
	Day      int
	Date     string // "Monday 12 March"
	Tabs     []DayTab
	Blocks   []BlockView
	ReadOnly bool // shown to a guest: no buttons that change it
	Route    DayRouteView
	AddedID  string // the time block the viewer just added to (scrolled into view)
}

// DayRouteView is a day's route beside its grid (the partial of GET /plans/{p}/days/{d}/route):
// a map of the confirmed places, numbered in time order and joined by a line, with the
// undecided blocks' candidates in a lighter style; the legs between the places with a warning
// where the time between two blocks is too short; links that open the day in Google Maps.
type DayRouteView struct {
	Stops     []MapStop // confirmed places with coordinates, in time order
	Pending   []MapStop // candidates of blocks not decided yet
	Legs      []LegView
	MapsURLs  []string
	Estimated bool // the numbers are offline estimates, not a routing server's
	// TileURL and Attribution are the map's background ("" or "none": no tiles).
	TileURL, Attribution string
	// Centre is the plan's destination, which the map shows while the day has no places; nil
	// when it has places or the plan has no destination.
	Centre *MapStop
}

// MapStop is a point on the day map.
type MapStop struct {
	N    int     `json:"n,omitempty"` // its number in the day (confirmed places)
	Name string  `json:"name"`
	Time string  `json:"time"` // "10:00–12:00"
	Lat  float64 `json:"lat"`
	Lon  float64 `json:"lon"`
	// TimeBlockID is the block the point belongs to: map.js links the pin and the block's
	// card (li[data-time-block-id]) both ways; "" for the plan's destination.
	TimeBlockID string `json:"time_block_id,omitempty"`
}

// LegView is the travel from one confirmed place to the next.
type LegView struct {
	From, To  string
	Known     bool   // both places have coordinates
	Distance  string // "3.1 km"
	Walk      string // "41 min"
	Transit   string
	Drive     string
	Fastest   string // "16 min by transit"
	Gap       string // "30 min"
	NotEnough bool   // the quickest way takes longer than the gap by more than the tolerance
	Tight     bool   // the quickest way takes a little longer than the gap (route.Tight)
}

// StopsJSON and PendingJSON are the map's points for static/js/map.js.
func (r DayRouteView) StopsJSON() string { return pointsJSON(r.Stops) }

// PendingJSON: see StopsJSON.
func (r DayRouteView) PendingJSON() string { return pointsJSON(r.Pending) }

// CentreJSON is the plan's destination for the day map while the day has no places, "" without.
func (r DayRouteView) CentreJSON() string {
	if r.Centre == nil {
		return ""
	}
	return pointsJSON([]MapStop{*r.Centre})
}

// routeMapLabel names the day's map for screen readers: its places, or the destination it
// shows while the day has none. map.js copies it onto the map kept across swaps.
func routeMapLabel(ctx context.Context, r DayRouteView) string {
	if len(r.Stops)+len(r.Pending) == 0 && r.Centre != nil {
		return t(ctx, "plan.map_of", "Name", r.Centre.Name)
	}
	return t(ctx, "plan.day_map")
}

// pointsJSON is the points as JSON; "[]" should one not marshal (a non-finite coordinate).
func pointsJSON(points []MapStop) string {
	b, err := json.Marshal(points)
	if err != nil || points == nil {
		return "[]"
	}
	return string(b)
}

// DayTab is one day in the tab bar.
type DayTab struct {
	Day     int
	Label   string // "Mon 12"
	Current bool
}

// BlockView is a time block as its card in the grid shows it.
type BlockView struct {
	ID                 string // the time block id
	EditID             string // a candidate id (the API edits a time block through one)
	Free               bool
	Status             string // FIXED | PENDING | DIRECT | NOTHING
	Start, End         string // "09:00"
	StartMin, EndMin   int    // minutes since midnight
	Title              string
	Subtitle           string // the other name of the one place the title names, or ""
	Memo               string
	CandidateCount     int
	Positive, Negative int // opinions of the selected candidate (or of all, when none is)
	// TravelWarning says, on a block reached too late from the previous place, why; when
	// TravelTight, it is only a few minutes short and shown as a quiet hint.
	TravelWarning string
	TravelTight   bool
	Version       int  // the time block's, sent back with edits
	FixedTime     bool // a reservation: optimising the day leaves it where it is
}

// CandidateView is one candidate in the picker.
type CandidateView struct {
	ID           string
	Name         string
	Subtitle     string // the place's other name, as on PlaceCard
	Address      string
	Category     string
	CategoryKind string
	Photo        string
	Memo         string
	Selected     bool
	AddedBy      MemberView
	Positive     int
	Neutral      int
	Negative     int
	MyOpinionID  string // "" when the viewer has given none
	MyOpinion    string // POSITIVE | NEUTRAL | NEGATIVE
	MyComment    string
	MyTagIDs     []string
	ReadOnly     bool
	// Opinions are everyone's opinions of it, oldest first.
	Opinions []OpinionView
	// Reasons are the canned reasons offered for its category, then the ids of the viewer's
	// own opinion that the catalogue does not know (kept as given).
	Reasons []ReasonView
}

// OpinionView is one member's opinion of a candidate, as the picker lists it.
type OpinionView struct {
	ID      string
	Type    string // POSITIVE | NEUTRAL | NEGATIVE
	Author  MemberView
	Mine    bool
	Tags    []ReasonView // as words; an id the catalogue does not know as it was given
	Comment string
	Ago     string // "5 minutes ago", "5분 전"
	At      string // RFC 3339, for <time datetime>
	AtTitle string // "25 Nov 2026, 14:05 UTC"; plan.js shows it in the viewer's time zone
	Edited  bool
}

// ReasonView is a canned reason: its id, its label and the kind of opinion it goes with
// ("" for an id the catalogue does not know).
type ReasonView struct {
	ID, Label, Type string
}

// opinionChoices are the kinds of opinion, in order, with the icon each is drawn with and the
// message of its name.
var opinionChoices = []struct{ Type, Icon, Label string }{
	{"POSITIVE", "thumb-up", "plan.opinion_positive"}, {"NEUTRAL", "face-neutral", "plan.opinion_neutral"},
	{"NEGATIVE", "thumb-down", "plan.opinion_negative"},
}

// reasonGroups are the reason chips of the opinion form, by kind: good, worth knowing, not so
// good, and the viewer's own ids the catalogue does not know.
func reasonGroups(ctx context.Context, rs []ReasonView) []struct {
	Title   string
	Reasons []ReasonView
} {
	groups := []struct {
		Title   string
		Reasons []ReasonView
	}{{Title: t(ctx, "plan.reasons_good")}, {Title: t(ctx, "plan.reasons_worth_knowing")}, {Title: t(ctx, "plan.reasons_not_so_good")},
		{Title: t(ctx, "plan.reasons_own")}}
	for _, r := range rs {
		i := map[string]int{"POSITIVE": 0, "NEUTRAL": 1, "NEGATIVE": 2}[r.Type]
		if r.Type == "" {
			i = 3
		}
		groups[i].Reasons = append(groups[i].Reasons, r)
	}
	return groups
}

func opinionIcon(t string) string {
	for _, o := range opinionChoices {
		if o.Type == t {
			return o.Icon
		}
	}
	return "face-neutral"
}

func opinionLabel(ctx context.Context, kind string) string {
	for _, o := range opinionChoices {
		if o.Type == kind {
			return t(ctx, o.Label)
		}
	}
	return kind
}

// opinionTone colours an opinion's icon and its reasons by kind.
func opinionTone(t string) string {
	switch t {
	case "POSITIVE":
		return "text-emerald-700"
	case "NEGATIVE":
		return "text-rose-700"
	}
	return "text-amber-700"
}

func reasonChipClass(t string) string {
	switch t {
	case "POSITIVE":
		return "bg-emerald-50 text-emerald-800 ring-emerald-200"
	case "NEUTRAL":
		return "bg-amber-50 text-amber-900 ring-amber-200"
	case "NEGATIVE":
		return "bg-rose-50 text-rose-800 ring-rose-200"
	}
	return "bg-slate-100 text-slate-700 ring-slate-200"
}

func hasTag(ids []string, id string) bool { return slices.Contains(ids, id) }

func opinionsHref(planID, candidateID string) string {
	return blocksHref(planID) + "/" + url.PathEscape(candidateID) + "/opinions"
}

// CandidatePickerView is the candidate picker of one time block (the partial of GET
// /plans/{p}/blocks/{tb}/candidates): its candidates side by side with the discussion of each.
type CandidatePickerView struct {
	PlanID      string
	TimeBlockID string
	Day         int
	When        string // "Day 2 · 12:00–13:00"
	Candidates  []CandidateView
	ReadOnly    bool // a guest: no "Add a candidate", no opinion, confirming or removing
	Version     int  // the time block's, sent back with a confirmation or a removal
}

// pickerCols is how many candidates sit side by side from md up (data-cols; the dialog
// widens with it): all of them up to three.
func pickerCols(v CandidatePickerView) string { return strconv.Itoa(min(len(v.Candidates), 3)) }

// cardID is the id of a candidate's card in the picker; its parts' ids add a suffix.
func cardID(c CandidateView, part string) string {
	if part == "" {
		return "pc-" + c.ID
	}
	return "pc-" + c.ID + "-" + part
}

// PlanPlacesView is a page of a linked collection's places in the plan page's side panel.
type PlanPlacesView struct {
	PlanID       string
	CollectionID string
	Places       []PlaceCard
	Page         int
	HasNext      bool
}

// --- helpers for the plan templates ---

func dayPartialHref(planID string, day int) string {
	return paths.Plan(planID) + "/blocks?size=100&day=" + strconv.Itoa(day)
}

func blocksHref(planID string) string { return paths.Plan(planID) + "/blocks" }

func timeBlockHref(planID, id string, day int) string {
	return blocksHref(planID) + "/" + url.PathEscape(id) + "?day=" + strconv.Itoa(day)
}

func candidatesHref(planID, timeBlockID string) string {
	return blocksHref(planID) + "/" + url.PathEscape(timeBlockID) + "/candidates"
}

func candidateHref(planID, timeBlockID, candidateID string, day int) string {
	return candidatesHref(planID, timeBlockID) + "/" + url.PathEscape(candidateID) + "?day=" + strconv.Itoa(day)
}

func planPlacesHref(planID, collectionID string, page int) string {
	return paths.Plan(planID) + "/collections/" + url.PathEscape(collectionID) + "/places?page=" + strconv.Itoa(page)
}

// rowStart and rowEnd place a block in the quarter-hour grid (row 1 is 00:00–00:15).
func rowStart(min int) string { return "row-start-" + strconv.Itoa(min/15+1) }

func rowEnd(startMin, endMin int) string {
	end := (endMin + 14) / 15
	if end <= startMin/15 {
		end = startMin/15 + 1
	}
	return "row-end-" + strconv.Itoa(end+1)
}

func hourRow(h int) string { return "row-start-" + strconv.Itoa(h*4+1) }

func quarterRow(q int) string { return "row-start-" + strconv.Itoa(q+1) }

func clockLabel(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// The plan pages' times of day: English pages show them 24-hour, "14:00", as they always
// have; Korean ones as Korean clocks read, "오후 2:00" (views' clock).
func timeOfDay(ctx context.Context, hhmm string) string {
	if i18n.From(ctx).Lang() == i18n.Korean {
		return clock(ctx, hhmm)
	}
	return hhmm
}

// TimeSpan is a block's time: "14:00–15:30"; in Korean "오후 2:00–3:30", the half of the day
// said once when both ends are in it.
func TimeSpan(ctx context.Context, start, end string) string {
	s, e := timeOfDay(ctx, start), timeOfDay(ctx, end)
	if half, _, ok := strings.Cut(s, " "); ok && i18n.From(ctx).Lang() == i18n.Korean {
		e = strings.TrimPrefix(e, half+" ")
	}
	return s + "–" + e
}

// hourLabel is an hour on the day grid's rail: "14:00"; in Korean "오후 2시".
func hourLabel(ctx context.Context, h int) string {
	if i18n.From(ctx).Lang() != i18n.Korean {
		return clockLabel(h * 60)
	}
	id := "plan.hour_am"
	if h >= 12 {
		id = "plan.hour_pm"
	}
	if h%12 == 0 {
		return t(ctx, id, "Hour", 12)
	}
	return t(ctx, id, "Hour", h%12)
}

// DayName is a plan's day for people: "Day 2", "2일차".
func DayName(ctx context.Context, day int) string { return t(ctx, "plan.day", "Day", day) }

// PlanDates are a plan's dates: "Apr 1 – Apr 3, 2026"; "2026년 4월 1일 – 4월 3일".
func PlanDates(ctx context.Context, start, end time.Time) string {
	if i18n.From(ctx).Lang() != i18n.Korean {
		return start.Format("Jan 2") + " – " + end.Format("Jan 2, 2006")
	}
	to := end.Format("1월 2일")
	if end.Year() != start.Year() {
		to = end.Format("2006년 1월 2일")
	}
	return start.Format("2006년 1월 2일") + " – " + to
}

// DayDate is a day's date as its heading shows it: "Friday 27 November"; "11월 27일 (금)".
func DayDate(ctx context.Context, d time.Time) string {
	if i18n.From(ctx).Lang() == i18n.Korean {
		return date(ctx, d)
	}
	return d.Format("Monday 2 January")
}

// TabDate is a day's date on its tab: "Fri 27"; "11월 27일 (금)".
func TabDate(ctx context.Context, d time.Time) string {
	if i18n.From(ctx).Lang() == i18n.Korean {
		return date(ctx, d)
	}
	return d.Format("Mon 2")
}

// Duration is a number of minutes for people: "45 min", "2 h", "1 h 30 min"; "1시간 30분".
func Duration(ctx context.Context, minutes int) string {
	h, m := minutes/60, minutes%60
	switch {
	case h == 0:
		return t(ctx, "plan.minutes", "Minutes", m)
	case m == 0:
		return t(ctx, "plan.hours", "Hours", h)
	}
	return t(ctx, "plan.hours_minutes", "Hours", h, "Minutes", m)
}

func statusLabel(ctx context.Context, status string) string {
	switch status {
	case "FIXED":
		return t(ctx, "plan.status_fixed")
	case "PENDING":
		return t(ctx, "plan.status_pending")
	case "DIRECT":
		return t(ctx, "plan.status_direct")
	}
	return t(ctx, "plan.free_time")
}

func statusClass(status string) string {
	switch status {
	case "FIXED":
		return "bg-brand-100 text-brand-800"
	case "PENDING":
		return "bg-amber-100 text-amber-800"
	case "DIRECT":
		return "bg-sky-100 text-sky-800"
	}
	return "bg-slate-100 text-slate-700"
}

func blockClass(b BlockView) string {
	switch {
	case b.Free:
		return "border-slate-300 bg-slate-50"
	case b.Status == "PENDING":
		return "border-amber-300 bg-amber-50"
	}
	return "border-brand-300 bg-white"
}

func candidatesSelectionHref(planID, timeBlockID string, day int) string {
	return blocksHref(planID) + "/" + url.PathEscape(timeBlockID) + "/selection?day=" + strconv.Itoa(day)
}

func opinionVals(t string) string { return `{"type":"` + t + `"}` }

func opinionCount(c CandidateView, t string) int {
	switch t {
	case "POSITIVE":
		return c.Positive
	case "NEUTRAL":
		return c.Neutral
	}
	return c.Negative
}

// PrintView is the printable plan: day by day, each block's time, place, address and memo.
type PrintView struct {
	ID, Title, Dates, TimeZone string
	Days                       []PrintDay
}

// PrintDay is one day of the printable plan.
type PrintDay struct {
	Label  string // "Day 1 · Friday 27 November"
	Blocks []PrintBlock
}

// PrintBlock is a block on paper.
type PrintBlock struct {
	Time       string // "10:00–12:00"
	Title      string
	Status     string // FIXED | PENDING | DIRECT | NOTHING
	Address    string
	Memo       string
	Candidates []string // the places still being decided between (PENDING)
	Travel     string   // how to get here from the previous place, "" for the first
	Warning    bool     // not enough time to get here
}

// The day's timeline runs at least from dayFrom to dayUntil (minutes: the day's usual hours,
// gapfill's); earlier or later blocks widen it. Gaps shorter than minGap are not shown; those
// of fillGap or more offer places to fill them.
const (
	dayFrom  = int(time.Duration(gapfill.DayFrom) / time.Minute)
	dayUntil = int(time.Duration(gapfill.DayUntil) / time.Minute)
	minGap   = 15
	fillGap  = int(time.Duration(gapfill.MinLength) / time.Minute)
	// compactUnder is the length (minutes) under which a block shows as one line.
	compactUnder = 45
)

// DayItem is one entry of the day's timeline in time order: a block, or the free time
// between blocks (exactly one is set).
type DayItem struct {
	Block *BlockView
	Gap   *GapView
}

// GapView is free time between blocks, with an "Add" that opens "Add here" at its start.
type GapView struct {
	StartMin, EndMin int
	Label            string // "2 h free"
}

// Fill says the gap is long enough to be offered places ("Fill this gap").
func (g GapView) Fill() bool { return g.EndMin-g.StartMin >= fillGap }

// Timeline is the day's blocks in time order with the gaps between them: the vertical
// timeline on phones, and on wider screens the gaps' "Add" buttons in the grid.
func (v DayView) Timeline(ctx context.Context) []DayItem {
	from, until := dayFrom, dayUntil
	if n := len(v.Blocks); n > 0 {
		from, until = min(from, v.Blocks[0].StartMin), max(until, v.Blocks[n-1].EndMin)
	}
	out := make([]DayItem, 0, 2*len(v.Blocks)+1)
	at := from
	gap := func(end int) {
		if end-at >= minGap {
			out = append(out, DayItem{Gap: &GapView{StartMin: at, EndMin: end, Label: FreeLabel(ctx, end-at)}})
		}
	}
	for i := range v.Blocks {
		b := &v.Blocks[i]
		gap(b.StartMin)
		out = append(out, DayItem{Block: b})
		at = max(at, b.EndMin)
	}
	gap(until)
	return out
}

// FreeLabel says how long a gap is: "45 min free", "2 h free", "1 h 30 min free".
func FreeLabel(ctx context.Context, minutes int) string {
	return t(ctx, "plan.free", "Duration", Duration(ctx, minutes))
}

// FirstFreeHour is where "+" opens "Add here": the first whole hour from 09:00 whose hour is
// free, else the first such hour before 09:00, else the first free quarter hour of the day,
// else 09:00 (a full day: the dialog reports the overlap).
func (v DayView) FirstFreeHour() int {
	free := func(start, length int) bool {
		for _, b := range v.Blocks {
			if b.StartMin < start+length && start < b.EndMin {
				return false
			}
		}
		return true
	}
	for _, h := range append(hoursFrom(9, 23), hoursFrom(0, 8)...) {
		if free(h*60, 60) {
			return h * 60
		}
	}
	for q := 0; q < 24*60; q += 15 {
		if free(q, 15) {
			return q
		}
	}
	return dayFrom
}

func hoursFrom(first, last int) []int {
	out := make([]int, 0, last-first+1)
	for h := first; h <= last; h++ {
		out = append(out, h)
	}
	return out
}

// Compact says the block is too short for the full card: one line (time and name), its
// actions in a "⋯" menu.
func (b BlockView) Compact() bool { return b.EndMin-b.StartMin < compactUnder }

// PlaceChoicesView is what "Add here" and "Add a candidate" offer for a query (the partial
// of GET /plans/{p}/place-choices): places of the plan's linked collections, then places
// found by search.
type PlaceChoicesView struct {
	Query          string
	FromPlan       []PlaceChoice
	FromSearch     []PlaceChoice
	HasCollections bool
}

// PlaceChoice is one place to pick: from a linked collection (CollectionPlaceID set) or from
// search (only PlaceID).
type PlaceChoice struct {
	CollectionPlaceID, PlaceID string
	Name, Subtitle, Detail     string // Subtitle: the place's other name, as on PlaceCard
	Photo, CategoryKind        string
}

// Classes of a block card's icon buttons and of its "⋯" menu's items: 44 px touch targets
// on phones, compact in the grid.
const (
	blockButton = "inline-flex h-11 w-11 cursor-pointer items-center justify-center rounded text-slate-600 lg:h-7 lg:w-7"
	menuButton  = "inline-flex h-11 w-11 cursor-pointer items-center justify-center rounded text-slate-600 lg:h-6 lg:w-7"
	menuItem    = "flex min-h-11 items-center gap-2 rounded-lg px-3 py-2 text-left text-slate-800 hover:bg-slate-50 lg:min-h-0"
)

// UndoView is the toast after a deletion or a move: what was done, and how to undo it.
type UndoView struct {
	Text string // "Deleted Gwangjang Market, day 1, 12:00–13:00"
	URL  string
	// Values, when not "", are the form values (a JSON object) Undo sends (hx-vals): a POST,
	// or with a Version a PATCH against it (a move put back).
	Values  string
	Version int
	// Announced: the live region says Text already, so the toast is not one more.
	Announced bool
}

// travelWarning is the data-warning of a block's travel line: TIGHT or NOT_ENOUGH_TIME, the
// codes of the day route's legs.
func travelWarning(b BlockView) string {
	if b.TravelTight {
		return "TIGHT"
	}
	return "NOT_ENOUGH_TIME"
}

// travelIcon is the icon of a block's travel line: a clock for a tight one, an alert otherwise.
func travelIcon(b BlockView) string {
	if b.TravelTight {
		return "clock"
	}
	return "alert"
}
