package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
)

// healthz answers 200 while the process is up.
func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the database answers within a second, else 503.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), time.Second)
	defer cancel()
	if err := s.store.PingContext(ctx); err != nil {
		s.log.WarnContext(ctx, "readiness check failed", "err", err)
		return planner.Errorf(planner.CodeServiceUnavailable, "The database is not answering.")
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}
