package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
)

// heartbeat keeps idle event streams (and the proxies in between) open.
const heartbeat = 15 * time.Second

// planEvents streams a plan's changes to its members and guests; while the stream is open
// they count as present on the plan (see planPresence).
func (s *Server) planEvents(c echo.Context) error {
	ctx := c.Request().Context()
	conn, err := s.store.EnterPlan(ctx, caller(c).UserID, c.Param("planId"))
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := s.store.LeavePlanPresence(ctx, conn); err != nil {
			s.log.Warn("presence: could not end", "err", err)
		}
	}()
	return s.stream(c, planner.PlanTopic(c.Param("planId")), func(ctx context.Context) {
		if err := s.store.TouchPresence(ctx, conn); err != nil {
			s.log.Warn("presence: could not touch", "err", err)
		}
	})
}

// collectionEvents streams a collection's changes to its members and guests.
func (s *Server) collectionEvents(c echo.Context) error {
	if _, err := s.store.Collection(c.Request().Context(), caller(c).UserID, c.Param("collectionId")); err != nil {
		return err
	}
	return s.stream(c, planner.CollectionTopic(c.Param("collectionId")), nil)
}

// stream writes the topic's events as Server-Sent Events (`id`, `event: <kind>`,
// `data: {"kind","id","actor"}`) until the client goes: first the ones recorded after the
// Last-Event-ID the client sends back when it reconnects, then each new one as any instance
// records it, with a comment every 15 s (when it also calls beat, if not nil). Presence
// events (`event: presence`) carry no id: there is nothing to catch up on.
func (s *Server) stream(c echo.Context, topic string, beat func(context.Context)) error {
	ctx := c.Request().Context()
	events, cancel, err := s.store.Subscribe(topic) // before catching up, so nothing falls between
	if err != nil {
		return err
	}
	defer cancel()
	var last int64
	if id, err := strconv.ParseInt(c.Request().Header.Get("Last-Event-ID"), 10, 64); err == nil && id > 0 {
		last = id
	}
	var missed []planner.Event
	if last > 0 {
		if missed, err = s.store.EventsSince(ctx, topic, last); err != nil {
			return err
		}
	}
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 3000\n: connected\n\n")
	send := func(ev planner.Event) error {
		data, _ := json.Marshal(map[string]string{"kind": ev.Kind, "id": ev.ObjectID, "actor": ev.Actor})
		if ev.Kind == planner.KindPresence {
			_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Kind, data)
			return err
		}
		if ev.ID <= last {
			return nil // caught up already
		}
		last = ev.ID
		_, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.ID, ev.Kind, data)
		return err
	}
	for _, ev := range missed {
		if err := send(ev); err != nil {
			return nil
		}
	}
	w.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-events:
			if send(ev) != nil {
				return nil
			}
		case <-tick.C:
			if beat != nil {
				beat(ctx)
			}
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return nil
			}
		}
		w.Flush()
	}
}
