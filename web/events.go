package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
)

// Defaults of the event streams' limits and heartbeat (Config).
const (
	defaultStreamLimit           = 2000
	defaultStreamLimitPerUser    = 10
	defaultStreamLimitPerAddress = 50
	defaultHeartbeat             = 15 * time.Second
)

// streamLimits counts the open event streams per reader, per client address and in all, so
// that nobody holds more than their share (API-additions §6).
type streamLimits struct {
	mu                       sync.Mutex
	total, perReader, perAdr int
	open                     int
	readers, addrs           map[string]int
}

func newStreamLimits(cfg Config) *streamLimits {
	return &streamLimits{total: cfg.StreamLimit, perReader: cfg.StreamLimitPerUser, perAdr: cfg.StreamLimitPerAddress,
		readers: map[string]int{}, addrs: map[string]int{}}
}

// acquire counts a new stream of the reader from the address, or answers false when any
// limit is reached; release gives the place back.
func (l *streamLimits) acquire(reader, addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.total || l.readers[reader] >= l.perReader || l.addrs[addr] >= l.perAdr {
		return false
	}
	l.open++
	l.readers[reader]++
	l.addrs[addr]++
	return true
}

func (l *streamLimits) release(reader, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.readers[reader]--; l.readers[reader] == 0 {
		delete(l.readers, reader)
	}
	if l.addrs[addr]--; l.addrs[addr] == 0 {
		delete(l.addrs, addr)
	}
}

// openStream takes a place for the caller's new stream before anything is written (429
// TOO_MANY_REQUESTS with Retry-After when none is left) and answers the func that gives it
// back. A signed-in user counts as themselves; a guest, who has no identity of their own,
// as the invite link they hold at their address.
func (s *Server) openStream(c echo.Context) (release func(), err error) {
	addr, reader := clientAddress(c), "user "+caller(c).UserID
	if caller(c).Guest {
		reader = "guest " + caller(c).UserID + " " + addr // the guest's viewer id names their link
	}
	if !s.streams.acquire(reader, addr) {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(max(s.cfg.Heartbeat.Round(time.Second), time.Second)/time.Second)))
		return nil, planner.Errorf(planner.CodeTooManyRequests, "Too many live-update streams are open; close some and try again.")
	}
	return func() { s.streams.release(reader, addr) }, nil
}

// EndStreams ends every open event stream (and any opened later): graceful shutdown calls it,
// since streams never end by themselves. Clients reconnect to another instance and catch up.
func (s *Server) EndStreams() { s.endStreams.Do(func() { close(s.streamsDone) }) }

// planEvents streams a plan's changes to its members and guests; while the stream is open
// they count as present on the plan (see planPresence).
func (s *Server) planEvents(c echo.Context) error {
	release, err := s.openStream(c)
	if err != nil {
		return err
	}
	defer release()
	ctx := c.Request().Context()
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
	return s.stream(c, planner.PlanTopic(planID), func(ctx context.Context) error {
		return s.store.TouchPresence(ctx, viewer, planID, conn)
	})
}

// collectionEvents streams a collection's changes to its members and guests.
func (s *Server) collectionEvents(c echo.Context) error {
	release, err := s.openStream(c)
	if err != nil {
		return err
	}
	defer release()
	viewer, id := caller(c).UserID, c.Param("collectionId")
	check := func(ctx context.Context) error {
		_, err := s.store.Collection(ctx, viewer, id)
		return err
	}
	if err := check(c.Request().Context()); err != nil {
		return err
	}
	return s.stream(c, planner.CollectionTopic(id), check)
}

// stream writes the topic's events as Server-Sent Events (`id`, `event: <kind>`,
// `data: {"kind","id","actor"}`) until the client goes: first the ones recorded after the
// Last-Event-ID the client sends back when it reconnects, then each new one as any instance
// records it. Presence events (`event: presence`) carry no id: there is nothing to catch up
// on. At every heartbeat it writes a comment and checks that the reader may still read —
// their credential (credentialValid) and then access, which may also keep their presence —
// and ends when they may not. While idle it holds no database connection.
func (s *Server) stream(c echo.Context, topic string, access func(context.Context) error) error {
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
	if err == nil || (errors.As(err, &pe) && pe.Status() < 500) {
		return err
	}
	if c.Request().Context().Err() == nil {
		s.log.Warn("event stream: could not check access", "err", err)
	}
	return nil
}
