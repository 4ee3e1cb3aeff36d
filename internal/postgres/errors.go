package postgres

import (
	"database/sql/driver"
	"errors"
	"net"
	"syscall"

	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// constraintCodes maps a database constraint to the domain code it stands for. This is the one
// place where database errors become domain errors.
// Constraints not listed here are prevented by the application first; see docs/SCHEMA.md.
var constraintCodes = map[string]planner.Code{
	"collection_members_one_per_user": planner.CodeMemberAlreadyExists,
	"plan_members_one_per_user":       planner.CodeMemberAlreadyExists,
	"collection_members_owner_active": planner.CodeNeedToDelegateOwnership,
	"plan_members_owner_active":       planner.CodeNeedToDelegateOwnership,
	"collection_places_one_per_place": planner.CodeCollectionPlaceAlreadyExists,
	"plan_collections_pkey":           planner.CodePlanCollectionAlreadyExists,
	"opinions_one_per_member":         planner.CodeBlockOpinionAlreadyExists,
	"plans_date_range":                planner.CodeInvalidDateRange,
	"extraction_jobs_one_undecided":   planner.CodeJobInProgress,
	"time_blocks_no_overlap":          planner.CodeTimeBlockOverlap,
	// Backstops for races the stores check first: a day removed by a concurrent date change,
	// a collection place deleted while it becomes a candidate.
	"time_blocks_day":                     planner.CodePlanDayNotFound,
	"candidates_collection_place_id_fkey": planner.CodeCollectionPlaceNotFound,
}

// mapError turns driver errors into domain errors where the database decided something the
// client should hear about (a unique or exclusion constraint, an unreachable database); other
// errors pass through unchanged and end as 500 INTERNAL.
func mapError(err error) error {
	var (
		pe    *planner.Error
		pqErr *pq.Error
	)
	switch {
	case err == nil || errors.As(err, &pe):
		return err
	case Unavailable(err):
		return &planner.Error{Code: planner.CodeServiceUnavailable, Detail: "The database is not available; try again shortly."}
	case errors.As(err, &pqErr):
		if code, ok := constraintCodes[pqErr.Constraint]; ok {
			return &planner.Error{Code: code}
		}
		if pqErr.Code == "23514" || pqErr.Code.Class() == "22" {
			// A CHECK constraint or a data exception (value out of range, invalid text):
			// input the handlers should have refused. A backstop, so bad input is never a 500.
			return planner.Errorf(planner.CodeInvalidRequest, "The request has a value the service cannot store.")
		}
	}
	return err
}

// Unavailable reports whether err means the database could not be reached.
func Unavailable(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return true
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		c := pqErr.Code.Class()
		return c == "08" || c == "57" || pqErr.Code == "53300"
	}
	return false
}
