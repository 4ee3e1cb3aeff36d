package web

import (
	"context"
	"errors"
	"net/http"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/places"
	"tripplan/internal/planner"
	"tripplan/views"
)

// cityOptions are the destinations the plan form offers: the built-in catalog's cities.
func cityOptions() []views.CityOption {
	all, err := places.Cities()
	if err != nil {
		return nil // the catalog is checked at start-up; the field still takes a typed name
	}
	out := make([]views.CityOption, len(all))
	for i, c := range all {
		out[i] = views.CityOption{Name: c.Name, Country: c.Country, Names: c.Names}
	}
	return out
}

// planFormView is the plan form refilled with what was sent, as typed.
func planFormView(id string, in *planRequest) views.PlanFormView {
	v := views.PlanFormView{ID: id, Title: in.Title, StartDate: in.StartDate, EndDate: in.EndDate, TimeZone: in.TimeZone,
		Cities: cityOptions(), KeepDestination: !in.Destination.Sent, CurrentDestination: in.DestinationCurrent}
	switch {
	case in.Destination.Form:
		v.Destination = in.Destination.City
	case in.Destination.Value != nil:
		v.Destination = in.Destination.Value.Name
	}
	return v
}

// formErrors turns a refusal of a form into messages for people in the page's language, by
// form field: the invalid fields, and a date range that does not work on the last day. false
// when err is neither.
func formErrors(ctx context.Context, err error, title string) (views.FieldErrors, bool) {
	var pe *planner.Error
	if !errors.As(err, &pe) {
		return nil, false
	}
	out := views.FieldErrors{}
	switch pe.Code {
	case planner.CodeInvalidDateRange:
		out["end_date"] = said(ctx, pe).Detail
	case planner.CodeInvalidRequest:
		for _, f := range pe.Fields {
			out[f.Field] = fieldMessage(ctx, f.Field, title)
		}
	}
	return out, len(out) > 0
}

// fieldMessage says what to change in a form field.
func fieldMessage(ctx context.Context, field, title string) string {
	switch field {
	case "title":
		if n := utf8.RuneCountInString(title); n > planner.TitleMax {
			return i18n.T(ctx, "forms.title_too_long", "Max", planner.TitleMax, "Has", n)
		}
		return i18n.T(ctx, "forms.title_needed", "Max", planner.TitleMax)
	case "destination":
		return i18n.T(ctx, "forms.destination_unknown")
	case "start_date", "end_date":
		return i18n.T(ctx, "forms.date_needed")
	case "time_zone":
		return i18n.T(ctx, "forms.time_zone_unknown")
	}
	return i18n.T(ctx, "forms.check_field")
}

// fieldErrorAnswer answers a browser's form with invalid fields by showing the form again with
// the messages next to the fields: htmx gets the fields (fields) swapped into their container
// (target) with a note in #flash, a plain form post the whole page (page). JSON clients, and
// errors that are not about fields, go on to the error handler.
func fieldErrorAnswer(c echo.Context, err error, target string, fields, page templ.Component) error {
	switch negotiate(c.Request()) {
	case asJSON:
		return err
	case asPartial:
		c.Response().Header().Set("HX-Retarget", target)
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		return render(c, http.StatusBadRequest, templ.Join(fields, views.FormErrorsFlash()))
	}
	return render(c, http.StatusBadRequest, page)
}

// planFormError shows the plan form again with its field errors (see fieldErrorAnswer); id is
// "" for a new plan.
func (s *Server) planFormError(c echo.Context, err error, in *planRequest, id string) error {
	errs, ok := formErrors(c.Request().Context(), err, in.Title)
	if !ok || negotiate(c.Request()) == asJSON {
		return err
	}
	v := planFormView(id, in)
	v.Errors = errs
	title := i18n.T(c.Request().Context(), "plan.new")
	if id != "" {
		title = i18n.T(c.Request().Context(), "plan.edit")
	}
	return fieldErrorAnswer(c, err, "#plan-fields", views.PlanFields(v), views.PlanForm(s.pageFor(c, title), v))
}
