package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// Defaults of the event streams' limits and heartbeat (Config).
const (
	defaultStreamLimit           = 2000
	defaultStreamLimitPerUser    = 10
	defaultStreamLimitPerAddress = 50
	defaultHeartbeat             = 15 * time.Second
)

// openStream takes a place for the caller's new stream before anything is written (429
// TOO_MANY_REQUESTS with Retry-After when none is left) and answers the place's id, which the
// stream's heartbeat touches and closeStream gives back. The places are rows in PostgreSQL
// (OpenStream), so the caps per reader and per address hold across instances; the cap in all is
// this instance's. A signed-in user counts as themselves; a guest, who has no identity of their
// own, as the invite link they hold at their address.
func (s *Server) openStream(c echo.Context) (string, error) {
	addr, reader := clientAddress(c), "user "+caller(c).UserID
	if caller(c).Guest {
		reader = "guest " + caller(c).UserID + " " + addr // the guest's viewer id names their link
	}
	place := postgres.StreamPlace{ID: planner.NewID(), Instance: s.instance, Reader: reader, Address: addr}
	opened, err := s.store.OpenStream(c.Request().Context(), place, postgres.StreamCaps{
		PerInstance: s.cfg.StreamLimit, PerReader: s.cfg.StreamLimitPerUser, PerAddress: s.cfg.StreamLimitPerAddress,
		Live: streamLive * s.cfg.Heartbeat,
	})
	if err != nil {
		return "", err
	}
	if !opened {
		c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(int(max(s.cfg.Heartbeat.Round(time.Second), time.Second)/time.Second)))
		return "", planner.Errorf(planner.CodeTooManyRequests, "Too many live-update streams are open; close some and try again.")
	}
	return place.ID, nil
}

// streamLive is how many heartbeats a stream's place counts without being touched: a few, so
// that a late heartbeat does not free it, and the places of an instance that died without
// closing them are free again soon.
const streamLive = 3

// closeStream gives a stream's place back when it ends. When the database cannot, the place
// stops counting streamLive heartbeats later.
func (s *Server) closeStream(ctx context.Context, place string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := s.store.CloseStream(ctx, place); err != nil {
		s.log.Warn("event stream: could not give its place back", "err", err)
	}
}

// EndStreams ends every open event stream (and any opened later) and gives their places back:
// graceful shutdown calls it, since streams never end by themselves. Clients reconnect to
// another instance and catch up.
func (s *Server) EndStreams() {
	s.endStreams.Do(func() {
		close(s.streamsDone)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.store.CloseInstanceStreams(ctx, s.instance); err != nil {
			s.log.Warn("event streams: could not give their places back", "err", err)
		}
	})
}

// planEvents streams a plan's changes to its members and guests; while the stream is open
// they count as present on the plan (see planPresence).
func (s *Server) planEvents(c echo.Context) error {
	place, err := s.openStream(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	defer s.closeStream(ctx, place)
	viewer, planID := caller(c).UserID, c.Param("planId")
	conn, err := s.store.EnterPlan(ctx, viewer, planID)
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
	return s.stream(c, planner.PlanTopic(planID), place, func(ctx context.Context) error {
		return s.store.TouchPresence(ctx, viewer, planID, conn)
	})
}

// collectionEvents streams a collection's changes to its members and guests.
func (s *Server) collectionEvents(c echo.Context) error {
	place, err := s.openStream(c)
	if err != nil {
		return err
	}
	defer s.closeStream(c.Request().Context(), place)
	viewer, id := caller(c).UserID, c.Param("collectionId")
	check := func(ctx context.Context) error {
		_, err := s.store.Collection(ctx, viewer, id)
		return err
	}
	if err := check(c.Request().Context()); err != nil {
		return err
	}
	return s.stream(c, planner.CollectionTopic(id), place, check)
}

// stream writes the topic's events as Server-Sent Events (`id`, `event: <kind>`,
// `data: {"kind","id","actor"}`) until the client goes: first the ones recorded after the
// Last-Event-ID the client sends back when it reconnects, then each new one as any instance
// records it. Presence events (`event: presence`) carry no id: there is nothing to catch up
// on. At every heartbeat it writes a comment and checks that the reader may still read —
// their credential (credentialValid) and then access, which may also keep their presence —
// and ends when they may not, and keeps the stream's place (openStream) counted. While idle it
// holds no database connection.
func (s *Server) stream(c echo.Context, topic, place string, access func(context.Context) error) error {
	ctx := c.Request().Context()
	events, cancel, err := s.store.Subscribe(topic) // before catching up, so nothing falls between
	if err != nil {
		return err
	}
	defer cancel()
	var missed []planner.Event
	if last, err := strconv.ParseInt(c.Request().Header.Get("Last-Event-ID"), 10, 64); err == nil && last > 0 {
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
		_, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.ID, ev.Kind, data)
		return err
	}
	// An event both caught up from the table and announced after subscribing goes once.
	caught := make(map[int64]bool, len(missed))
	for _, ev := range missed {
		caught[ev.ID] = true
		if err := send(ev); err != nil {
			return nil
		}
	}
	w.Flush()
	tick := time.NewTicker(s.cfg.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.streamsDone:
			return nil
		case ev, ok := <-events:
			if !ok {
				return nil // fell behind: the client reconnects and catches up
			}
			if caught[ev.ID] {
				continue
			}
			if send(ev) != nil {
				return nil
			}
		case <-tick.C:
			if err := s.stillReading(c, access); err != nil {
				return nil
			}
			if err := s.store.TouchStream(ctx, place); err != nil && ctx.Err() == nil {
				s.log.Warn("event stream: could not keep its place", "err", err) // the next heartbeat tries again
			}
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return nil
			}
		}
		w.Flush()
	}
}

// stillReading runs a stream's heartbeat check: the caller's credential, then their access.
// It answers an error only when they lost it (a 4xx answer); when the database cannot tell
// (it is down), the stream goes on and the next heartbeat asks again.
func (s *Server) stillReading(c echo.Context, access func(context.Context) error) error {
	err := s.credentialValid(c)
	if err == nil {
		err = access(c.Request().Context())
	}
	var pe *planner.Error
	if err == nil || (errors.As(err, &pe) && httpStatus(pe.Code) < 500) {
		return err
	}
	if c.Request().Context().Err() == nil {
		s.log.Warn("event stream: could not check access", "err", err)
	}
	return nil
}
