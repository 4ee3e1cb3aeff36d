package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"net"
	"syscall"

	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// constraintCodes maps a database constraint to the domain code it stands for. This is the one
// place where database errors become domain errors.
var constraintCodes = map[string]planner.Code{}

// mapError turns driver errors into domain errors where the database decided something the
// client should hear about (a unique or exclusion constraint, an unreachable database); other
// errors pass through unchanged and end as 500 INTERNAL.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	var pe *planner.Error
	if errors.As(err, &pe) {
		return err
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		if code, ok := constraintCodes[pqErr.Constraint]; ok {
			return &planner.Error{Code: code}
		}
		switch pqErr.Code.Class() {
		case "08", "57": // connection exception, operator intervention (shutdown, restart)
			return unavailable(err)
		}
		if pqErr.Code == "53300" { // too_many_connections
			return unavailable(err)
		}
		return err
	}
	if Unavailable(err) {
		return unavailable(err)
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

func unavailable(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &planner.Error{Code: planner.CodeServiceUnavailable, Detail: "The database is not available; try again shortly."}
}
