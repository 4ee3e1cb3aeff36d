package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/paths"
	"tripplan/internal/places"
	"tripplan/internal/planner"
	"tripplan/internal/timezone"
	"tripplan/views"
)

// planJSON is the Plan resource.
type planJSON struct {
	PlanID          string  `json:"plan_id"`
	Title           string  `json:"title"`
	Thumbnail       *string `json:"thumbnail"`
	StartDate       string  `json:"start_date"`
	EndDate         string  `json:"end_date"`
	DurationDays    int     `json:"duration_days"`
	TimeZone        string  `json:"time_zone"`
	Currency        string  `json:"currency"`
	MemberCount     int     `json:"member_count"`
	CollectionCount int     `json:"collection_count"`
	// Destination is where the trip goes, null for none (added in issue 16; v1 clients ignore it).
	Destination *destinationJSON `json:"destination"`
	Version     int              `json:"version"`
}

// destinationJSON is a plan's destination: a city and a point in it.
type destinationJSON struct {
	Name string  `json:"name"`
	Lat  float64 `json:"lat"`
	Lng  float64 `json:"lng"`
}

// dateLayout is how dates travel: YYYY-MM-DD.
const dateLayout = "2006-01-02"

func toPlanJSON(p *planner.Plan) planJSON {
	out := planJSON{PlanID: p.ID, Title: p.Title, StartDate: p.StartDate.Format(dateLayout), EndDate: p.EndDate.Format(dateLayout),
		DurationDays: p.DurationDays(), TimeZone: p.TimeZone, Currency: p.Currency, MemberCount: p.MemberCount, CollectionCount: p.CollectionCount,
		Version: p.Version}
	if p.Thumbnail != "" {
		out.Thumbnail = &p.Thumbnail
	}
	if d := p.Destination; d != nil {
		out.Destination = &destinationJSON{Name: d.Name, Lat: d.Lat, Lng: d.Lng}
	}
	return out
}

// dayInfoJSON is the DayInfo resource.
type dayInfoJSON struct {
	Day       int    `json:"day"`
	Date      string `json:"date"`
	DayOfWeek string `json:"day_of_week"`
}

func toDayInfoJSON(d planner.DayInfo) dayInfoJSON {
	return dayInfoJSON{Day: d.Day, Date: d.Date.Format(dateLayout), DayOfWeek: d.DayOfWeek()}
}

// planRequest is the body of creating or editing a plan.
type planRequest struct {
	Title     string  `json:"title" form:"title"`
	StartDate string  `json:"start_date" form:"start_date"`
	EndDate   string  `json:"end_date" form:"end_date"`
	TimeZone  string  `json:"time_zone" form:"time_zone"` // optional IANA name
	Currency  *string `json:"currency" form:"currency"`   // optional ISO 4217 code
	Confirm   bool    `json:"confirm" form:"confirm"`
	// Destination is optional: absent keeps a plan's (none for a new plan), null clears it.
	Destination destinationField `json:"destination" form:"destination"`
	// DestinationCurrent is the edit form's record of the plan's destination when it was shown:
	// sent back unchanged, the destination is kept as it is (it may be a city an app set that
	// the form does not list).
	DestinationCurrent string `json:"-" form:"destination_current"`
}

// destinationField is the destination of a plan request: in JSON an object {name, lat, lng}
// or null, in a form the name of one of the built-in catalog's cities (blank for none).
type destinationField struct {
	Sent  bool             // the field was in the request
	Value *destinationJSON // JSON: nil for null
	City  string           // a form's city name
	Form  bool             // it came from a form
}

func (d *destinationField) UnmarshalJSON(b []byte) error {
	d.Sent = true
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &d.Value)
}

// UnmarshalParam reads the form field (Echo's BindUnmarshaler).
func (d *destinationField) UnmarshalParam(param string) error {
	d.Sent, d.Form, d.City = true, true, strings.TrimSpace(param)
	return nil
}

// destination checks the field into the plan input: a catalog city for forms (or the plan's
// current one, unchanged: current); a name of 1–100 characters and coordinates in range for
// JSON.
func (d *destinationField) destination(v *planner.Validation, out *planner.PlanInput, current string) {
	out.KeepDestination = !d.Sent || d.Form && d.City != "" && d.City == strings.TrimSpace(current)
	switch {
	case out.KeepDestination:
	case d.Form && d.City != "":
		city, ok := places.FindCity(d.City)
		if !ok {
			v.Add("destination", "must be one of the listed cities")
			return
		}
		out.Destination = &planner.Destination{Name: city.Name, Lat: city.Lat, Lng: city.Lng}
	case d.Value != nil:
		name := planner.CheckText(v, "destination.name", d.Value.Name, planner.DestinationNameMax)
		v.Check(d.Value.Lat >= -90 && d.Value.Lat <= 90, "destination.lat", "must be between -90 and 90")
		v.Check(d.Value.Lng >= -180 && d.Value.Lng <= 180, "destination.lng", "must be between -180 and 180")
		out.Destination = &planner.Destination{Name: name, Lat: d.Value.Lat, Lng: d.Value.Lng}
	}
}

// input validates the body: a 1–50 character title (planner.CheckTitle), two dates, an
// optional currency (ISO 4217) and an optional destination; the range itself (end not before start, at most 30 days) is
// INVALID_DATE_RANGE, checked after the fields.
func (in *planRequest) input() (planner.PlanInput, error) {
	var v planner.Validation
	out := planner.PlanInput{Title: planner.CheckTitle(&v, in.Title)}
	var err error
	if out.StartDate, err = time.Parse(dateLayout, strings.TrimSpace(in.StartDate)); err != nil {
		v.Add("start_date", "must be a date as YYYY-MM-DD")
	}
	if out.EndDate, err = time.Parse(dateLayout, strings.TrimSpace(in.EndDate)); err != nil {
		v.Add("end_date", "must be a date as YYYY-MM-DD")
	}
	if out.TimeZone = strings.TrimSpace(in.TimeZone); out.TimeZone != "" {
		if _, err := timezone.Load(out.TimeZone); err != nil {
			v.Add("time_zone", "must be an IANA time zone such as Asia/Seoul")
		}
	}
	if in.Currency != nil {
		out.Currency = *readCurrency(&v, *in.Currency)
	}
	in.Destination.destination(&v, &out, in.DestinationCurrent)
	if err := v.Err(); err != nil {
		return out, err
	}
	_, err = out.Days()
	return out, err
}

// createPlan creates a plan owned by the caller, with its days and budget.
func (s *Server) createPlan(c echo.Context) error {
	var in planRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	plan, err := in.input()
	if err != nil {
		return s.planFormError(c, err, &in, "")
	}
	p, err := s.store.CreatePlan(c.Request().Context(), caller(c).UserID, plan)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, paths.Plan(p.ID))
	return respondChange(c, http.StatusCreated, toPlanJSON(p), nil, paths.Plan(p.ID))
}

// listPlans lists the caller's plans, newest membership first.
func (s *Server) listPlans(c echo.Context) error {
	var v planner.Validation
	page := pageParams(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	list, hasNext, err := s.store.Plans(c.Request().Context(), caller(c).UserID, page)
	if err != nil {
		return err
	}
	out := make([]planJSON, len(list))
	for i := range list {
		out[i] = toPlanJSON(&list[i])
	}
	return respond(c, http.StatusOK, newPage(out, hasNext, page), s.plansPage(c, list, hasNext, page), planCardsPartial(list, hasNext, page))
}

// getPlan answers one plan; browsers get the plan page, and htmx its partial: the day grid of
// the day asked for (?day=), as the day tabs load it.
func (s *Server) getPlan(c echo.Context) error {
	p, err := s.store.Plan(c.Request().Context(), caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	switch negotiate(c.Request()) {
	case asJSON:
		return respond(c, http.StatusOK, toPlanJSON(p), nil, nil)
	case asPartial:
		day, err := s.planDayView(c, p)
		if err != nil {
			return err
		}
		return respond(c, http.StatusOK, toPlanJSON(p), nil, views.Day(day))
	}
	page, err := s.planPage(c, p)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toPlanJSON(p), page, nil)
}

// planUpdateJSON is the answer to editing a plan.
type planUpdateJSON struct {
	RequiresConfirmation bool              `json:"requires_confirmation"`
	UpdateType           *string           `json:"update_type"`
	Plan                 *planJSON         `json:"plan"`
	AffectedDays         []affectedDayJSON `json:"affected_days"`
}

type affectedDayJSON struct {
	Day           int `json:"day"`
	ScheduleCount int `json:"schedule_count"`
}

func toPlanUpdateJSON(u *planner.PlanUpdate) planUpdateJSON {
	out := planUpdateJSON{RequiresConfirmation: u.RequiresConfirmation}
	if u.Type != "" {
		t := string(u.Type)
		out.UpdateType = &t
	}
	if u.Plan != nil {
		p := toPlanJSON(u.Plan)
		out.Plan = &p
	}
	if u.AffectedDays != nil {
		out.AffectedDays = make([]affectedDayJSON, len(u.AffectedDays))
		for i, d := range u.AffectedDays {
			out.AffectedDays[i] = affectedDayJSON{Day: d.Day, ScheduleCount: d.BlockCount}
		}
	}
	return out
}

// updatePlan edits the title and dates; a change of dates is applied only with confirm: true,
// otherwise the answer says what it would do.
func (s *Server) updatePlan(c echo.Context) error {
	var in planRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	plan, err := in.input()
	if err != nil {
		return s.planFormError(c, err, &in, c.Param("planId"))
	}
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	u, err := s.store.UpdatePlan(c.Request().Context(), caller(c).UserID, c.Param("planId"), plan, in.Confirm, expect)
	if err != nil {
		return err
	}
	out := toPlanUpdateJSON(u)
	if u.RequiresConfirmation {
		return respondChange(c, http.StatusOK, out, s.planDateConfirmPartial(c.Param("planId"), in, u, expect), paths.Plan(c.Param("planId")))
	}
	return respondChange(c, http.StatusOK, out, nil, paths.Plan(c.Param("planId")))
}

// deletePlan deletes the plan; only its owner may.
func (s *Server) deletePlan(c echo.Context) error {
	expect, err := ifMatch(c)
	if err != nil {
		return err
	}
	if err := s.store.DeletePlan(c.Request().Context(), caller(c).UserID, c.Param("planId"), expect); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, "/plans")
}

// planMemberJSON is a plan member as shown beside what they did.
type planMemberJSON struct {
	PlanMemberID string `json:"plan_member_id"`
	Nickname     string `json:"nickname"`
	Picture      string `json:"picture"`
	Role         string `json:"role"`
}

func toPlanMemberJSON(m planner.Member) planMemberJSON {
	return planMemberJSON{PlanMemberID: m.ID, Nickname: m.Nickname, Picture: m.Picture, Role: string(m.Role)}
}

// planMembers lists the plan's members and which one is the caller.
func (s *Server) planMembers(c echo.Context) error {
	ctx, userID, id := c.Request().Context(), caller(c).UserID, c.Param("planId")
	g, err := s.store.PlanMembers(ctx, userID, id)
	if err != nil {
		return err
	}
	var partial templ.Component
	if wantsPartial(c) {
		if partial, err = s.membersDrawer(ctx, userID, planShares, id, g); err != nil {
			return err
		}
	}
	return respond(c, http.StatusOK, toMemberGroupJSON(c, g, toPlanMemberJSON), nil, partial)
}

type planOwnerRequest struct {
	PlanMemberID string `json:"plan_member_id" form:"plan_member_id"`
}

// changePlanOwner hands the plan to another member; only the owner may.
func (s *Server) changePlanOwner(c echo.Context) error {
	var in planOwnerRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	v.Check(strings.TrimSpace(in.PlanMemberID) != "", "plan_member_id", "is required")
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.ChangePlanOwner(c.Request().Context(), caller(c).UserID, c.Param("planId"), strings.TrimSpace(in.PlanMemberID)); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, paths.Plan(c.Param("planId")))
}

// leavePlan ends the caller's membership; the owner must hand the plan over first.
func (s *Server) leavePlan(c echo.Context) error {
	if err := s.store.LeavePlan(c.Request().Context(), caller(c).UserID, c.Param("planId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, "/plans")
}

// removePlanMember removes another member; only the owner may.
func (s *Server) removePlanMember(c echo.Context) error {
	if err := s.store.RemovePlanMember(c.Request().Context(), caller(c).UserID, c.Param("planId"), c.Param("planMemberId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, nil, paths.Plan(c.Param("planId")))
}
