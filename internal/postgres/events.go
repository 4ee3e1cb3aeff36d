package postgres

import (
	"context"
	"errors"
	"sync"

	"tripplan/internal/planner"
)

// hub hands the events this instance hears to the subscribers of their topics.
type hub struct {
	mu   sync.Mutex
	subs map[string]map[chan planner.Event]struct{}
}

func newHub() *hub { return &hub{subs: map[string]map[chan planner.Event]struct{}{}} }

// publish delivers an event to its topic's subscribers. One too slow to take it (its buffer
// is full) is dropped, its channel closed: a stream then ends, and its client catches up
// from the table when it reconnects with Last-Event-ID, so it misses nothing.
func (h *hub) publish(ev planner.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[ev.Topic] {
		select {
		case ch <- ev:
		default:
			close(ch)
			h.drop(ev.Topic, ch)
		}
	}
}

// drop forgets a subscriber; h.mu is held.
func (h *hub) drop(topic string, ch chan planner.Event) {
	delete(h.subs[topic], ch)
	if len(h.subs[topic]) == 0 {
		delete(h.subs, topic)
	}
}

// ErrNoFeed is Subscribe without Listen.
var ErrNoFeed = errors.New("postgres: live events need Listen")

// Subscribe delivers the topic's events from now on until cancel is called. The channel is
// closed when the subscriber fell behind (see publish).
func (db *DB) Subscribe(topic string) (events <-chan planner.Event, cancel func(), err error) {
	h := db.events
	if h == nil {
		return nil, nil, ErrNoFeed
	}
	ch := make(chan planner.Event, 64)
	h.mu.Lock()
	if h.subs[topic] == nil {
		h.subs[topic] = map[chan planner.Event]struct{}{}
	}
	h.subs[topic][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		h.drop(topic, ch)
		h.mu.Unlock()
	}, nil
}

// EventsSince answers the topic's recorded events after the given id, oldest first (at most
// 500: a subscriber further behind reloads the page).
func (db *DB) EventsSince(ctx context.Context, topic string, afterID int64) (_ []planner.Event, err error) {
	defer named(&err)
	out := []planner.Event{}
	err = db.SelectContext(ctx, &out, `SELECT id, topic, kind, object_id, actor FROM events
		WHERE topic = $1 AND id > $2 ORDER BY id LIMIT 500`, topic, afterID)
	return out, mapError(err)
}

// LastEventID is the newest event id of the topic (0 when none).
func (db *DB) LastEventID(ctx context.Context, topic string) (_ int64, err error) {
	defer named(&err)
	var id int64
	err = db.GetContext(ctx, &id, `SELECT COALESCE(max(id), 0) FROM events WHERE topic = $1`, topic)
	return id, mapError(err)
}
