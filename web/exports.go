package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"

	"tripplan/internal/export"
	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/internal/route"
	"tripplan/internal/timezone"
	"tripplan/views"
)

// feedRefresh is how often calendar apps are asked to fetch a subscribed feed again.
const feedRefresh = time.Hour

// planZone is the plan's time zone (UTC should the stored name be unknown to this build).
func planZone(p *planner.Plan) *time.Location {
	if loc, err := timezone.Load(p.TimeZone); err == nil {
		return loc
	}
	return time.UTC
}

// at is the instant a time of day on a plan day is, in the plan's zone.
func at(d planner.DayInfo, t planner.TimeOfDay, loc *time.Location) time.Time {
	y, m, day := d.Date.Date()
	left := time.Duration(t)
	h, mi, s := left/time.Hour, left%time.Hour/time.Minute, left%time.Minute/time.Second
	return time.Date(y, m, day, int(h), int(mi), int(s), 0, loc)
}

// dayLink is the plan page at a day, as an absolute URL.
func (s *Server) dayLink(planID string, day int) string {
	return strings.TrimSuffix(s.cfg.BaseURL, "/") + paths.Plan(planID) + "?day=" + strconv.Itoa(day)
}

// calendar is the plan's confirmed place blocks as calendar events, their words in ctx's
// language.
func (s *Server) calendar(ctx context.Context, x *planner.PlanExport, refresh time.Duration) export.Calendar {
	loc := planZone(&x.Plan)
	host := "tripplan"
	if u, err := url.Parse(s.cfg.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	cal := export.Calendar{Name: x.Plan.Title, Location: loc, ProdID: "-//Tripplan//Plan export//EN",
		Stamp: time.Now().UTC(), Refresh: refresh}
	for i := range x.Blocks {
		b := &x.Blocks[i]
		c := b.Confirmed()
		if c == nil || c.Place == nil {
			continue
		}
		p := c.Place
		ev := export.Event{UID: b.ID + "@" + host, Start: at(b.Day, b.Start, loc), End: at(b.Day, b.End, loc),
			Summary: shownName(ctx, *p), Location: strings.TrimSuffix(p.Name+", "+p.Address, ", "),
			Description: strings.TrimSpace(c.Memo + "\n\n" + x.Plan.Title + " · " + views.DayName(ctx, b.Day.Day)),
			URL:         s.dayLink(x.Plan.ID, b.Day.Day)}
		if pt := pointOf(p); pt != nil {
			ev.Lat, ev.Lon = &pt.Lat, &pt.Lon
		}
		cal.Events = append(cal.Events, ev)
	}
	return cal
}

// gpx is the plan's confirmed places as waypoints (each place once) and each day as a route
// through them in time order.
func (s *Server) gpx(ctx context.Context, x *planner.PlanExport) export.GPX {
	loc := planZone(&x.Plan)
	g := export.GPX{Name: x.Plan.Title, Desc: planDates(ctx, &x.Plan), Creator: "Tripplan", Time: time.Now().UTC()}
	seen := map[string]bool{}
	routes := map[int]*export.Route{}
	for i := range x.Blocks {
		b := &x.Blocks[i]
		c := b.Confirmed()
		if c == nil || c.Place == nil {
			continue
		}
		pt := pointOf(c.Place)
		if pt == nil {
			continue
		}
		p := c.Place
		if !seen[p.ID] {
			seen[p.ID] = true
			g.Waypoints = append(g.Waypoints, export.Waypoint{Lat: pt.Lat, Lon: pt.Lon, Name: shownName(ctx, *p),
				Desc: strings.TrimSpace(p.Address + "\n" + c.Memo), Type: cmp.Or(s.categories(ctx, *p).Level3.Name, s.categories(ctx, *p).Level1.Name), Link: p.MapsURI})
		}
		r := routes[b.Day.Day]
		if r == nil {
			g.Routes = append(g.Routes, export.Route{Name: views.DayName(ctx, b.Day.Day) + " · " + i18n.From(ctx).Date(b.Day.Date), Number: b.Day.Day})
			r = &g.Routes[len(g.Routes)-1]
			routes[b.Day.Day] = r
		}
		start := at(b.Day, b.Start, loc).UTC()
		r.Points = append(r.Points, export.Waypoint{Lat: pt.Lat, Lon: pt.Lon, Name: b.Start.HHMM() + " " + shownName(ctx, *p), Time: &start})
	}
	return g
}

// attachment answers a file to save, named after the plan: a name with letters beyond ASCII
// goes in filename* (RFC 6266, UTF-8), after an ASCII filename for clients that read only
// that.
func attachment(c echo.Context, title, ext, contentType string, body []byte) error {
	name := fileName(title) + "." + ext
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": name})
	if ascii := asciiFileName(title) + "." + ext; ascii != name {
		disposition = mime.FormatMediaType("attachment", map[string]string{"filename": ascii}) + "; " +
			strings.TrimPrefix(disposition, "attachment; ")
	}
	c.Response().Header().Set("Content-Disposition", disposition)
	c.Response().Header().Set("Cache-Control", "private, no-cache")
	return c.Blob(http.StatusOK, contentType, body)
}

// fileName is a title fit for a file name: letters and digits of any script kept, runs of
// anything else a single hyphen; "plan" when nothing is left.
func fileName(title string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range title {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			hyphen = false
		} else if !hyphen && b.Len() > 0 {
			b.WriteByte('-')
			hyphen = true
		}
	}
	if out := strings.TrimSuffix(b.String(), "-"); out != "" {
		return out
	}
	return "plan"
}

// asciiFileName is fileName of the title's ASCII letters and digits only.
func asciiFileName(title string) string {
	return fileName(strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII {
			return ' '
		}
		return r
	}, title))
}

// exportICS answers the plan's confirmed blocks as an iCalendar file.
func (s *Server) exportICS(c echo.Context) error {
	x, err := s.store.PlanSchedule(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	return s.writeICS(c, x, 0)
}

func (s *Server) writeICS(c echo.Context, x *planner.PlanExport, refresh time.Duration) error {
	var buf bytes.Buffer
	if err := export.WriteICS(&buf, s.calendar(c.Request().Context(), x, refresh)); err != nil {
		return err
	}
	return attachment(c, x.Plan.Title, "ics", "text/calendar; charset=utf-8", buf.Bytes())
}

// exportGPX answers the plan's places and days as GPX 1.1.
func (s *Server) exportGPX(c echo.Context) error {
	x, err := s.store.PlanSchedule(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := export.WriteGPX(&buf, s.gpx(c.Request().Context(), x)); err != nil {
		return err
	}
	return attachment(c, x.Plan.Title, "gpx", "application/gpx+xml", buf.Bytes())
}

// exportDayJSON is a day of the backup with its time blocks.
type exportDayJSON struct {
	dayInfoJSON
	Blocks []exportBlockJSON `json:"blocks"`
}

// exportBlockJSON is a time block of the backup: the TimeBlock fields, its candidates naming
// their places by id (the places are listed once, in planExportJSON.Places), and each
// candidate's opinions by its block id. What the API derives from the candidates — the
// selected block, the count, the opinion summaries — is left out.
type exportBlockJSON struct {
	TimeBlockID string                         `json:"time_block_id"`
	Type        string                         `json:"type"`
	BlockStatus string                         `json:"block_status"`
	StartTime   string                         `json:"start_time"`
	EndTime     string                         `json:"end_time"`
	FixedTime   bool                           `json:"fixed_time"`
	Version     int                            `json:"version"`
	Candidates  []exportCandidateJSON          `json:"candidates"`
	Opinions    map[string][]exportOpinionJSON `json:"opinions"`
}

// exportCandidateJSON is a candidate of the backup; place_id is null for free time, added_by
// the plan_member_id of a member in members or former_members.
type exportCandidateJSON struct {
	BlockID  string  `json:"block_id"`
	Memo     string  `json:"memo"`
	PlaceID  *string `json:"place_id"`
	Selected bool    `json:"selected"`
	AddedBy  string  `json:"added_by"`
}

// exportOpinionJSON is an Opinion of the backup, added_by the plan_member_id of a member in
// members or former_members.
type exportOpinionJSON struct {
	opinionJSON
	AddedBy string `json:"added_by"`
}

// exportFormatVersion is the backup's format version: 2 lists each place once, in places,
// and each member once, in members and former_members, where version 1 repeated them in every
// candidate, opinion and expense.
const exportFormatVersion = 2

// planExportJSON is the whole plan, for a backup.
type planExportJSON struct {
	Format     string           `json:"format"`
	Version    int              `json:"version"`
	ExportedAt string           `json:"exported_at"`
	Plan       planJSON         `json:"plan"`
	Members    []planMemberJSON `json:"members"`
	// FormerMembers are the members who left, named by the candidates and opinions they added.
	FormerMembers []planMemberJSON     `json:"former_members"`
	Collections   []planCollectionJSON `json:"collections"`
	Budget        budgetJSON           `json:"budget"`
	Places        []placeJSON          `json:"places"`
	Days          []exportDayJSON      `json:"days"`
	Expenses      []exportExpenseJSON  `json:"expenses"`
}

// exportExpenseJSON is an Expense of the backup: its block names the candidate by id only
// (the candidate names its place); an additional expense says where it is, its day and the
// time block it follows (null at the day's start), both null for a candidate's.
type exportExpenseJSON struct {
	expenseJSON
	Block            *exportExpenseBlockJSON `json:"block"`
	Day              *int                    `json:"day"`
	AfterTimeBlockID *string                 `json:"after_time_block_id"`
}

type exportExpenseBlockJSON struct {
	BlockID string `json:"block_id"`
}

func (s *Server) toPlanExportJSON(ctx context.Context, x *planner.PlanExport) planExportJSON {
	out := planExportJSON{Format: "tripplan.plan", Version: exportFormatVersion, ExportedAt: time.Now().UTC().Format(time.RFC3339),
		Plan: toPlanJSON(&x.Plan), Members: make([]planMemberJSON, len(x.Members)), FormerMembers: []planMemberJSON{}, Collections: toPlanCollectionsJSON(x.Collections),
		Budget: toBudgetJSON(&x.Budget), Places: []placeJSON{}, Days: make([]exportDayJSON, len(x.Days)), Expenses: make([]exportExpenseJSON, len(x.Expenses))}
	listedMember := map[string]bool{}
	for i, m := range x.Members {
		out.Members[i] = toPlanMemberJSON(m)
		listedMember[m.ID] = true
	}
	member := func(m planner.Member) string { // its id, the member listed once
		if !listedMember[m.ID] {
			listedMember[m.ID] = true
			out.FormerMembers = append(out.FormerMembers, toPlanMemberJSON(m))
		}
		return m.ID
	}
	day := map[int]*exportDayJSON{}
	for i, d := range x.Days {
		out.Days[i] = exportDayJSON{dayInfoJSON: toDayInfoJSON(d), Blocks: []exportBlockJSON{}}
		day[d.Day] = &out.Days[i]
	}
	listed := map[string]bool{}
	for i := range x.Blocks {
		b := &x.Blocks[i]
		eb := exportBlockJSON{TimeBlockID: b.ID, Type: string(b.Type), BlockStatus: string(b.Status()), StartTime: b.Start.String(),
			EndTime: b.End.String(), FixedTime: b.FixedTime, Version: b.Version, Candidates: make([]exportCandidateJSON, len(b.Candidates)), Opinions: map[string][]exportOpinionJSON{}}
		for j := range b.Candidates {
			c := &b.Candidates[j]
			ec := exportCandidateJSON{BlockID: c.ID, Memo: c.Memo, Selected: c.Selected, AddedBy: member(c.AddedBy)}
			if p := c.Place; p != nil {
				ec.PlaceID = &p.ID
				if !listed[p.ID] {
					listed[p.ID] = true
					out.Places = append(out.Places, s.toPlaceJSON(ctx, *p))
				}
			}
			eb.Candidates[j] = ec
			ops := make([]exportOpinionJSON, len(x.Opinions[c.ID]))
			for k, o := range x.Opinions[c.ID] {
				ops[k] = exportOpinionJSON{opinionJSON: toOpinionJSON(o), AddedBy: member(o.AddedBy)}
			}
			eb.Opinions[c.ID] = ops
		}
		if d := day[b.Day.Day]; d != nil {
			d.Blocks = append(d.Blocks, eb)
		}
	}
	for i := range x.Expenses {
		e := &x.Expenses[i]
		out.Expenses[i] = exportExpenseJSON{expenseJSON: s.toExpenseJSON(ctx, e)}
		if e.Block != nil {
			out.Expenses[i].Block = &exportExpenseBlockJSON{BlockID: e.Block.CandidateID}
		}
		if at, ok := x.Placed[e.ID]; ok {
			out.Expenses[i].Day = &at.Day
			if at.AfterTimeBlockID != "" {
				out.Expenses[i].AfterTimeBlockID = &at.AfterTimeBlockID
			}
		}
	}
	return out
}

// exportJSON answers the whole plan as one JSON document, to keep as a backup.
func (s *Server) exportJSON(c echo.Context) error {
	x, err := s.store.PlanExport(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	body, err := json.Marshal(s.toPlanExportJSON(c.Request().Context(), x))
	if err != nil {
		return err
	}
	return attachment(c, x.Plan.Title, "json", "application/json", body)
}

// calendarFeedJSON is a member's calendar feed of a plan.
type calendarFeedJSON struct {
	Active    bool    `json:"active"`
	URL       *string `json:"url"`        // only when made: the token is shown once
	WebcalURL *string `json:"webcal_url"` // the same for calendar apps that open webcal: links
}

// feedURLs are the feed's https and webcal addresses.
func (s *Server) feedURLs(token string) (string, string) {
	u := strings.TrimSuffix(s.cfg.BaseURL, "/") + "/calendar/" + token + ".ics"
	webcal := "webcal://" + strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	return u, webcal
}

// createCalendarFeed makes (or replaces) the caller's secret calendar feed of the plan.
func (s *Server) createCalendarFeed(c echo.Context) error {
	token, err := s.store.CreateCalendarFeed(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	u, webcal := s.feedURLs(token)
	out := calendarFeedJSON{Active: true, URL: &u, WebcalURL: &webcal}
	return respondChange(c, http.StatusCreated, out, views.CalendarFeed(c.Param("planId"), u, webcal, true), paths.Plan(c.Param("planId")))
}

// calendarFeed says whether the caller has a calendar feed of the plan.
func (s *Server) calendarFeed(c echo.Context) error {
	has, err := s.store.HasCalendarFeed(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, calendarFeedJSON{Active: has}, nil, views.CalendarFeed(c.Param("planId"), "", "", has))
}

// deleteCalendarFeed turns the caller's calendar feed off; its address stops working.
func (s *Server) deleteCalendarFeed(c echo.Context) error {
	if err := s.store.DeleteCalendarFeed(c.Request().Context(), caller(c).UserID, c.Param("planId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, views.CalendarFeed(c.Param("planId"), "", "", false), paths.Plan(c.Param("planId")))
}

// feed serves a calendar feed to whoever holds its secret address (calendar apps have no
// session): the plan as its member sees it, refreshed hourly.
//
// Its language: the feed's member's language setting, else the calendar app's
// Accept-Language, else English: the request's rule (docs/API.md §Languages) with the member whose
// secret address it is as the user, since a calendar app has no session and no cookie, and
// most send no Accept-Language. The member, not the plan's owner: the feed is theirs, made
// for their own calendar.
func (s *Server) feed(c echo.Context) error {
	ctx := c.Request().Context()
	token := strings.TrimSuffix(c.Param("token"), ".ics")
	userID, planID, err := s.store.CalendarFeed(ctx, token)
	if err != nil {
		return err
	}
	x, err := s.store.PlanSchedule(ctx, userID, planID)
	if err != nil {
		return err
	}
	var setting string
	if u, err := s.store.User(ctx, userID); err == nil && u.Language != nil {
		setting = *u.Language
	}
	c.Set(languageKey, i18n.Choose(setting, "", c.Request().Header.Get("Accept-Language")))
	c.SetRequest(c.Request().WithContext(i18n.With(ctx, i18n.For(s.answerLanguage(c)))))
	return s.writeICS(c, x, feedRefresh)
}

// printPage is the plan laid out for paper, day by day.
func (s *Server) printPage(c echo.Context) error {
	ctx := c.Request().Context()
	x, err := s.store.PlanSchedule(ctx, caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	v := views.PrintView{ID: x.Plan.ID, Title: x.Plan.Title, Dates: planDates(ctx, &x.Plan), TimeZone: x.Plan.TimeZone}
	byDay := map[int][]planner.TimeBlock{}
	for _, b := range x.Blocks {
		byDay[b.Day.Day] = append(byDay[b.Day.Day], b)
	}
	for _, d := range x.Days {
		blocks := byDay[d.Day]
		r, err := s.planRoute(ctx, blocks)
		if err != nil {
			return err
		}
		arriving := map[string]travelLeg{}
		for _, l := range r.Legs {
			arriving[l.To.Block.ID] = l
		}
		pd := views.PrintDay{Label: views.DayName(ctx, d.Day) + " · " + views.DayDate(ctx, d.Date)}
		for i := range blocks {
			b := &blocks[i]
			bv := toBlockView(ctx, b)
			pb := views.PrintBlock{Time: views.TimeSpan(ctx, bv.Start, bv.End), Title: bv.Title, Status: bv.Status, Memo: bv.Memo}
			if c := b.Confirmed(); c != nil && c.Place != nil {
				pb.Address = c.Place.Address
			} else if b.Type == planner.BlockPlace {
				for _, c := range b.Candidates {
					if c.Place != nil {
						pb.Candidates = append(pb.Candidates, shownName(ctx, *c.Place))
					}
				}
				pb.Title = i18n.T(ctx, "plan.to_decide")
			}
			if l, ok := arriving[b.ID]; ok && l.Leg != nil {
				pb.Travel, pb.Warning = arrival(ctx, l), l.Warning == route.NotEnough
			}

			pd.Blocks = append(pd.Blocks, pb)
		}
		v.Days = append(v.Days, pd)
	}
	return render(c, http.StatusOK, views.PlanPrint(s.pageFor(c, x.Plan.Title), v))
}
