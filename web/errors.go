package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/views"
)

// The one table between error codes and HTTP statuses, both ways: statuses gives each code of
// the contract (docs/API.md §Errors) its status; echoCodes gives the statuses Echo and its
// middleware produce their codes (each of which has that status again).
var (
	statuses = map[planner.Code]int{
		planner.CodeInvalidRequest:       http.StatusBadRequest,
		planner.CodeUnsupportedMediaType: http.StatusUnsupportedMediaType,
		planner.CodeNotFound:             http.StatusNotFound,
		planner.CodeMethodNotAllowed:     http.StatusMethodNotAllowed,
		planner.CodePayloadTooLarge:      http.StatusRequestEntityTooLarge,
		planner.CodeTooManyRequests:      http.StatusTooManyRequests,
		planner.CodeServiceUnavailable:   http.StatusServiceUnavailable,
		planner.CodeInternal:             http.StatusInternalServerError,
		planner.CodeCrossOrigin:          http.StatusForbidden,
		planner.CodePreconditionFailed:   http.StatusPreconditionFailed,

		planner.CodeMissingToken:         http.StatusUnauthorized,
		planner.CodeExpiredToken:         http.StatusUnauthorized,
		planner.CodeInvalidToken:         http.StatusUnauthorized,
		planner.CodeInvalidGrant:         http.StatusBadRequest,
		planner.CodeTermsRequired:        http.StatusForbidden,
		planner.CodeTermsAlreadyAccepted: http.StatusConflict,
		planner.CodeUserNotFound:         http.StatusNotFound,
		planner.CodeUserWithdrawn:        http.StatusForbidden,
		planner.CodeUnsupportedImageType: http.StatusBadRequest,
		planner.CodeInvalidUploadURL:     http.StatusForbidden,

		planner.CodeGuestForbidden:        http.StatusForbidden,
		planner.CodeForbiddenNotMember:    http.StatusForbidden,
		planner.CodeForbiddenNotOwner:     http.StatusForbidden,
		planner.CodeForbiddenNotGuest:     http.StatusForbidden,
		planner.CodeBlockOpinionForbidden: http.StatusForbidden,

		planner.CodePlaceNotFound:                 http.StatusNotFound,
		planner.CodeCollectionNotFound:            http.StatusNotFound,
		planner.CodeMemberNotFound:                http.StatusNotFound,
		planner.CodeMemberAlreadyExists:           http.StatusConflict,
		planner.CodeNeedToDelegateOwnership:       http.StatusConflict,
		planner.CodeCannotDelegateOwnershipToSelf: http.StatusConflict,
		planner.CodeInvalidSortType:               http.StatusBadRequest,
		planner.CodeCollectionPlaceNotFound:       http.StatusNotFound,
		planner.CodeCollectionPlaceAlreadyExists:  http.StatusConflict,
		planner.CodeSocialMediaUnsupported:        http.StatusBadRequest,
		planner.CodeJobInProgress:                 http.StatusConflict,
		planner.CodeJobNotFound:                   http.StatusNotFound,
		planner.CodeAlreadyDecided:                http.StatusConflict,
		planner.CodeInvalidLink:                   http.StatusNotFound,
		planner.CodeExpiredLink:                   http.StatusNotFound,
		planner.CodeMemberRemoved:                 http.StatusForbidden,

		planner.CodePlanNotFound:                  http.StatusNotFound,
		planner.CodeInvalidDateRange:              http.StatusBadRequest,
		planner.CodePlanDayNotFound:               http.StatusNotFound,
		planner.CodePlanCollectionNotFound:        http.StatusNotFound,
		planner.CodePlanCollectionAlreadyExists:   http.StatusConflict,
		planner.CodeBlockNotFound:                 http.StatusNotFound,
		planner.CodeDeletionNotFound:              http.StatusNotFound,
		planner.CodeBlockNotInTimeBlock:           http.StatusBadRequest,
		planner.CodeCandidateCountInsufficient:    http.StatusBadRequest,
		planner.CodeCannotAddCandidateToFreeBlock: http.StatusBadRequest,
		planner.CodeTimeBlockExactDuplicate:       http.StatusConflict,
		planner.CodeTimeBlockOverlap:              http.StatusConflict,
		planner.CodeBlockOpinionNotFound:          http.StatusNotFound,
		planner.CodeBlockOpinionAlreadyExists:     http.StatusConflict,
		planner.CodeBlockNotPlaceType:             http.StatusBadRequest,
		planner.CodeBudgetNotFound:                http.StatusNotFound,
		planner.CodeExpenseNotFound:               http.StatusNotFound,
		planner.CodeExpenseItemNotFound:           http.StatusNotFound,
		planner.CodeExchangeRateRequired:          http.StatusBadRequest,
		planner.CodeNotificationNotFound:          http.StatusNotFound,
		planner.CodeSettlementNotFound:            http.StatusNotFound,
		planner.CodeTooManyStops:                  http.StatusBadRequest,

		planner.CodeInvalidIdempotencyKey: http.StatusBadRequest,
		planner.CodeIdempotencyKeyReused:  http.StatusUnprocessableEntity,
		planner.CodeIdempotencyKeyInUse:   http.StatusConflict,
	}

	echoCodes = map[int]planner.Code{
		http.StatusBadRequest:            planner.CodeInvalidRequest,
		http.StatusNotFound:              planner.CodeNotFound,
		http.StatusMethodNotAllowed:      planner.CodeMethodNotAllowed,
		http.StatusRequestEntityTooLarge: planner.CodePayloadTooLarge,
		http.StatusUnsupportedMediaType:  planner.CodeUnsupportedMediaType,
		http.StatusTooManyRequests:       planner.CodeTooManyRequests,
		http.StatusServiceUnavailable:    planner.CodeServiceUnavailable,
		http.StatusUnauthorized:          planner.CodeMissingToken,
		http.StatusForbidden:             planner.CodeCrossOrigin,
	}
)

// httpStatus is the HTTP status that goes with the code (500 for an unknown code).
func httpStatus(c planner.Code) int {
	if s, ok := statuses[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// details are the client-facing sentences for generic codes (message ids): the detail of an
// error that brings none.
var details = map[planner.Code]string{
	planner.CodeInvalidRequest:       "errors.detail_unreadable",
	planner.CodeNotFound:             "errors.detail_not_found",
	planner.CodeMethodNotAllowed:     "errors.detail_method",
	planner.CodePayloadTooLarge:      "errors.detail_too_large",
	planner.CodeUnsupportedMediaType: "errors.detail_media_type",
	planner.CodeTooManyRequests:      "errors.detail_too_many",
	planner.CodeServiceUnavailable:   "errors.detail_unavailable",
	planner.CodeInternal:             "errors.detail_internal",
	planner.CodeMissingToken:         "errors.detail_sign_in",
}

// said is the error in the request's language: its detail (the generic one of its code when it
// brings none) and each field's reason, made again from their English formats (the ids of
// their translations, i18n.Localizer.Problem). pe stays as it is: errors may be shared values.
func said(ctx context.Context, pe *planner.Error) *planner.Error {
	l := i18n.From(ctx)
	out := *pe
	if pe.Detail != "" {
		out.Detail = problemSentence(l, pe.Detail, pe.Format, pe.Args)
	} else if id, ok := details[pe.Code]; ok {
		out.Detail = l.T(id)
	}
	if pe.Fields != nil {
		out.Fields = make([]planner.FieldError, len(pe.Fields))
		for i, f := range pe.Fields {
			f.Reason = problemSentence(l, f.Reason, f.Format, f.Args)
			out.Fields[i] = f
		}
	}
	return &out
}

// problemSentence is a problem's sentence in l's language: made from its format and args, or,
// when it was given as it is (no format), the text is its own id.
func problemSentence(l *i18n.Localizer, text, format string, args []any) string {
	if format == "" {
		return l.Problem(text, nil)
	}
	return l.Problem(format, args)
}

// toDomain turns any error into the *planner.Error the client sees.
func (s *Server) toDomain(c echo.Context, err error) *planner.Error {
	ctx := c.Request().Context()
	var pe *planner.Error
	if errors.As(err, &pe) {
		return pe
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		if code, ok := echoCodes[he.Code]; ok {
			return &planner.Error{Code: code}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &planner.Error{Code: planner.CodeServiceUnavailable}
	}
	s.log.ErrorContext(ctx, "internal error", "err", err,
		"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "path", c.Request().URL.Path)
	return &planner.Error{Code: planner.CodeInternal}
}

// handleError is Echo's one error handler: problem+json for API clients, an error partial for
// htmx, a page (or a redirect to sign-in) for browsers.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if !i18n.Carries(c.Request().Context()) { // an error before the request was given its language
		s.giveLanguage(c)
	}
	// Choosing the language here names it in Content-Language before anything is written, also
	// when a JSON answer needed no word before (its language is chosen when first needed).
	pe := said(c.Request().Context(), s.toDomain(c, err))
	status := httpStatus(pe.Code)
	h := c.Response().Header()
	h.Add("Vary", "Accept, HX-Request")
	switch pe.Code {
	case planner.CodeMissingToken, planner.CodeExpiredToken, planner.CodeInvalidToken:
		h.Set("WWW-Authenticate", `Bearer realm="api", error="invalid_token"`)
	case planner.CodeTooManyRequests:
		if h.Get("Retry-After") == "" {
			h.Set("Retry-After", "1")
		}
	}
	var werr error
	switch negotiate(c.Request()) {
	case asJSON:
		werr = s.writeProblem(c, status, pe)
	case asPartial:
		werr = render(c, status, s.errorPartial(c, status, pe))
	default:
		switch pe.Code {
		case planner.CodeMissingToken, planner.CodeExpiredToken, planner.CodeInvalidToken:
			werr = c.Redirect(http.StatusSeeOther, "/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		case planner.CodeTermsRequired:
			werr = c.Redirect(http.StatusSeeOther, "/onboarding/terms?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		case planner.CodePreconditionFailed:
			v := staleView(c.Request().Context(), pe.Current)
			werr = render(c, status, views.ErrorPage(s.pageFor(c, v.Title), views.ErrorView{Status: status, Title: v.Title,
				Detail: i18n.T(c.Request().Context(), "errors.nothing_saved_reopen")}))
		default:
			werr = render(c, status, views.ErrorPage(s.pageFor(c, strconv.Itoa(status)), errorView(status, pe)))
		}
	}
	if werr != nil {
		s.log.ErrorContext(c.Request().Context(), "writing error response", "err", werr)
	}
}

// writeProblem writes an RFC 9457 problem detail with the contract's members: code always,
// errors for invalid fields, and the error's extra members (e.g. time_block_id).
func (s *Server) writeProblem(c echo.Context, status int, pe *planner.Error) error {
	body := map[string]any{}
	for k, v := range pe.Extra {
		body[k] = v
	}
	body["type"], body["title"], body["status"] = "about:blank", http.StatusText(status), status
	body["instance"], body["code"] = c.Request().URL.Path, pe.Code
	if pe.Detail != "" {
		body["detail"] = pe.Detail
	}
	if len(pe.Fields) > 0 {
		body["errors"] = pe.Fields
	}
	if pe.Current != nil {
		body["current"] = s.currentJSON(c.Request().Context(), pe.Current)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("encode problem: %w", err)
	}
	return c.Blob(status, "application/problem+json", b)
}

func errorView(status int, pe *planner.Error) views.ErrorView {
	v := views.ErrorView{Status: status, Detail: pe.Detail, Code: string(pe.Code)}
	for _, f := range pe.Fields {
		v.Fields = append(v.Fields, views.FieldMessage{Name: f.Field, Reason: f.Reason})
	}
	return v
}
