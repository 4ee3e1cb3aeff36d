// Package planner is the domain of Tripplan: its types, its pure rules and its error codes.
// It imports nothing else from the module.
package planner

import (
	"errors"
	"fmt"
)

// Code is a stable, machine-readable error code sent to clients as problem+json "code".
type Code string

// The error codes of the API contract (docs/API.md §Errors). Which HTTP status goes with each is
// the web layer's (web/errors.go).
const (
	// Generic.
	CodeInvalidRequest       Code = "INVALID_REQUEST"
	CodeUnsupportedMediaType Code = "UNSUPPORTED_MEDIA_TYPE"
	CodeNotFound             Code = "NOT_FOUND"
	CodeMethodNotAllowed     Code = "METHOD_NOT_ALLOWED"
	CodePayloadTooLarge      Code = "PAYLOAD_TOO_LARGE"
	CodeTooManyRequests      Code = "TOO_MANY_REQUESTS"
	CodeServiceUnavailable   Code = "SERVICE_UNAVAILABLE"
	CodeInternal             Code = "INTERNAL"
	CodeCrossOrigin          Code = "CROSS_ORIGIN_FORBIDDEN"
	// A conditional write's If-Match did not match the resource's version (see Stale).
	CodePreconditionFailed Code = "PRECONDITION_FAILED"

	// Authentication and users.
	CodeMissingToken         Code = "MISSING_TOKEN"
	CodeExpiredToken         Code = "EXPIRED_TOKEN"
	CodeInvalidToken         Code = "INVALID_TOKEN"
	CodeInvalidGrant         Code = "INVALID_GRANT"
	CodeTermsRequired        Code = "TERMS_REQUIRED"
	CodeTermsAlreadyAccepted Code = "TERMS_ALREADY_ACCEPTED"
	CodeUserNotFound         Code = "USER_NOT_FOUND"
	CodeUserWithdrawn        Code = "USER_WITHDRAWN"
	CodeUnsupportedImageType Code = "UNSUPPORTED_IMAGE_CONTENT_TYPE"
	CodeInvalidUploadURL     Code = "INVALID_UPLOAD_URL"

	// Roles.
	CodeGuestForbidden        Code = "GUEST_FORBIDDEN"
	CodeForbiddenNotMember    Code = "FORBIDDEN_NOT_MEMBER"
	CodeForbiddenNotOwner     Code = "FORBIDDEN_NOT_OWNER"
	CodeForbiddenNotGuest     Code = "FORBIDDEN_NOT_GUEST"
	CodeBlockOpinionForbidden Code = "BLOCK_OPINION_FORBIDDEN"

	// Places, collections, members.
	CodePlaceNotFound                 Code = "PLACE_NOT_FOUND"
	CodeCollectionNotFound            Code = "COLLECTION_NOT_FOUND"
	CodeMemberNotFound                Code = "MEMBER_NOT_FOUND"
	CodeMemberAlreadyExists           Code = "MEMBER_ALREADY_EXISTS"
	CodeNeedToDelegateOwnership       Code = "NEED_TO_DELEGATE_OWNERSHIP"
	CodeCannotDelegateOwnershipToSelf Code = "CANNOT_DELEGATE_OWNERSHIP_TO_SELF"
	CodeInvalidSortType               Code = "INVALID_SORT_TYPE"
	CodeCollectionPlaceNotFound       Code = "COLLECTION_PLACE_NOT_FOUND"
	CodeCollectionPlaceAlreadyExists  Code = "COLLECTION_PLACE_ALREADY_EXISTS"
	CodeSocialMediaUnsupported        Code = "SOCIAL_MEDIA_UNSUPPORTED"
	CodeJobInProgress                 Code = "JOB_IN_PROGRESS"
	CodeJobNotFound                   Code = "JOB_NOT_FOUND"
	CodeAlreadyDecided                Code = "ALREADY_DECIDED"
	CodeInvalidLink                   Code = "INVALID_LINK"
	CodeExpiredLink                   Code = "EXPIRED_LINK"
	CodeMemberRemoved                 Code = "MEMBER_REMOVED"

	// Plans and blocks.
	CodePlanNotFound                  Code = "PLAN_NOT_FOUND"
	CodeInvalidDateRange              Code = "INVALID_DATE_RANGE"
	CodePlanDayNotFound               Code = "PLAN_DAY_NOT_FOUND"
	CodePlanCollectionNotFound        Code = "PLAN_COLLECTION_NOT_FOUND"
	CodePlanCollectionAlreadyExists   Code = "PLAN_COLLECTION_ALREADY_EXISTS"
	CodeBlockNotFound                 Code = "BLOCK_NOT_FOUND"
	CodeDeletionNotFound              Code = "DELETION_NOT_FOUND"
	CodeBlockNotInTimeBlock           Code = "BLOCK_NOT_IN_TIME_BLOCK"
	CodeCandidateCountInsufficient    Code = "CANDIDATE_COUNT_INSUFFICIENT"
	CodeCannotAddCandidateToFreeBlock Code = "CANNOT_ADD_CANDIDATE_TO_FREE_BLOCK"
	CodeTimeBlockExactDuplicate       Code = "TIME_BLOCK_EXACT_DUPLICATE"
	CodeTimeBlockOverlap              Code = "TIME_BLOCK_OVERLAP"
	CodeBlockOpinionNotFound          Code = "BLOCK_OPINION_NOT_FOUND"
	CodeBlockOpinionAlreadyExists     Code = "BLOCK_OPINION_ALREADY_EXISTS"
	CodeBlockNotPlaceType             Code = "BLOCK_NOT_PLACE_TYPE"
	CodeBudgetNotFound                Code = "BUDGET_NOT_FOUND"
	CodeExpenseNotFound               Code = "EXPENSE_NOT_FOUND"
	CodeExpenseItemNotFound           Code = "EXPENSE_ITEM_NOT_FOUND"
	CodeExchangeRateRequired          Code = "EXCHANGE_RATE_REQUIRED"
	CodeNotificationNotFound          Code = "NOTIFICATION_NOT_FOUND"
	CodeSettlementNotFound            Code = "SETTLEMENT_NOT_FOUND"
	CodeTooManyStops                  Code = "TOO_MANY_STOPS" // a day too full to optimise

	// Idempotent requests (docs/API.md §Concurrent writes): a POST's Idempotency-Key.
	CodeInvalidIdempotencyKey Code = "INVALID_IDEMPOTENCY_KEY"
	CodeIdempotencyKeyReused  Code = "IDEMPOTENCY_KEY_REUSED"
	CodeIdempotencyKeyInUse   Code = "IDEMPOTENCY_KEY_IN_USE"
)

// FieldError is one invalid input field, named by its JSON name.
type FieldError struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
	// Format and Args are what Reason was made from (Validation.Addf); a reason given as it is
	// has no Format. Like Error's, they let the web layer say the reason in another language.
	Format string `json:"-"`
	Args   []any  `json:"-"`
}

// Error is the one error type the domain returns; the web layer turns it into problem+json.
type Error struct {
	Code   Code
	Detail string
	// Format and Args are what Detail was made from (Errorf); a detail given as it is has no
	// Format. The English format is also the id of the detail's Korean translation (see
	// i18n.Localizer.Problem), so the web layer can say it in the request's language.
	Format string
	Args   []any
	Fields []FieldError
	// Extra properties added to the problem body (e.g. time_block_id).
	Extra map[string]any
	// Current is the resource as it is now, for PRECONDITION_FAILED: a domain value (e.g.
	// *Plan) that the web layer writes as the problem's current in the resource's JSON shape.
	Current any
}

func (e *Error) Error() string {
	if e.Detail == "" {
		return string(e.Code)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Detail)
}

// Errorf makes an *Error with a formatted, client-safe detail.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Detail: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// ErrorCode returns the code of err if it is (or wraps) an *Error, else "".
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Validation collects field errors; Err returns nil when there are none.
type Validation struct{ fields []FieldError }

// Add records one bad field; a field already recorded keeps its first reason, so each bad
// field is listed once.
func (v *Validation) Add(field, reason string) {
	v.add(FieldError{Field: field, Reason: reason})
}

// Addf is Add with a formatted reason.
func (v *Validation) Addf(field, format string, args ...any) {
	v.add(FieldError{Field: field, Reason: fmt.Sprintf(format, args...), Format: format, Args: args})
}

func (v *Validation) add(f FieldError) {
	if !v.Has(f.Field) {
		v.fields = append(v.fields, f)
	}
}

// Has reports whether the field was recorded as bad.
func (v *Validation) Has(field string) bool {
	for _, f := range v.fields {
		if f.Field == field {
			return true
		}
	}
	return false
}

// Check records the field when ok is false.
func (v *Validation) Check(ok bool, field, reason string) {
	if !ok {
		v.Add(field, reason)
	}
}

// Checkf is Check with a formatted reason.
func (v *Validation) Checkf(ok bool, field, format string, args ...any) {
	if !ok {
		v.Addf(field, format, args...)
	}
}

// Err is the INVALID_REQUEST error listing every recorded field, or nil.
func (v *Validation) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return &Error{Code: CodeInvalidRequest, Detail: "The request has invalid fields.", Fields: v.fields}
}
