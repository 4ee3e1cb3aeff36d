package postgres

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// eventsChannel is where migration 00005's triggers announce every recorded event, as JSON.
const eventsChannel = "tripplan_events"

// Day listings are cached per plan, user, day and page, and trusted only while the plan has
// not changed: every change to a plan's rows records an event that PostgreSQL announces at
// commit to every instance (migration 00005), which bumps the plan's version here. An entry is served
// only when the version it was loaded at is still current, the notification connection has
// been up the whole time (a reconnection forgets everything, since notifications may have been
// missed), and it is younger than dayCacheTTL (which bounds how stale place details, changed
// outside any plan, can be). Writes through this instance also bump at once, so a client
// reads its own writes without waiting for the notification.
const (
	dayCacheTTL     = time.Minute
	dayCacheEntries = 20000
)

// stamp is when, in the change feed's terms, something was loaded.
type stamp struct{ epoch, version uint64 }

type dayKey struct {
	plan, user       string
	day, page, pages int
}

type dayEntry struct {
	at      stamp
	loaded  time.Time
	info    planner.DayInfo
	blocks  []planner.TimeBlock
	hasNext bool
}

// dayCache holds day listings and the plans' versions.
type dayCache struct {
	mu       sync.Mutex
	live     bool // LISTEN is in place
	epoch    uint64
	versions map[string]uint64
	entries  map[dayKey]dayEntry
}

func newDayCache() *dayCache {
	return &dayCache{versions: map[string]uint64{}, entries: map[dayKey]dayEntry{}}
}

// now is the plan's current stamp, and whether the cache may be used at all.
func (c *dayCache) now(plan string) (stamp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return stamp{c.epoch, c.versions[plan]}, c.live
}

func (c *dayCache) get(k dayKey) (dayEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || !c.live || e.at != (stamp{c.epoch, c.versions[k.plan]}) || time.Since(e.loaded) > dayCacheTTL {
		return dayEntry{}, false
	}
	return e, true
}

// put keeps e, loaded at e.at, unless the plan changed meanwhile.
func (c *dayCache) put(k dayKey, e dayEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || e.at != (stamp{c.epoch, c.versions[k.plan]}) {
		return
	}
	if len(c.entries) >= dayCacheEntries {
		clear(c.entries)
	}
	c.entries[k] = e
}

// changed records that the plan changed.
func (c *dayCache) changed(plan string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.versions[plan]++
}

// setLive turns the cache on or off; coming back on starts a new epoch, forgetting
// everything, since notifications may have been missed.
func (c *dayCache) setLive(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if live && !c.live {
		c.epoch++
		clear(c.versions)
		clear(c.entries)
	}
	c.live = live
}

// Listen follows the change feed on its own connection to url until ctx ends: it turns on
// the day-listing cache and delivers events to subscribers (see Subscribe) while it does.
// Without Listen nothing is cached and nothing is delivered live. It also follows the
// revocations channel (revocations.go).
func (db *DB) Listen(ctx context.Context, url string, log *slog.Logger) error {
	if err := db.followRevocations(ctx, url, log); err != nil {
		return err
	}
	cache := newDayCache()
	hub := newHub()
	l := pq.NewListener(url, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			cache.setLive(false)
			if log != nil {
				log.Warn("change feed: disconnected; serving without the cache", "err", err)
			}
		case pq.ListenerEventReconnected:
			cache.setLive(false) // a new epoch, whatever was seen before
			cache.setLive(true)
		}
	})
	listening := make(chan error, 1)
	go func() { listening <- l.Listen(eventsChannel) }()
	select {
	case err := <-listening:
		if err != nil {
			l.Close()
			return err
		}
	case <-ctx.Done():
		l.Close()
		return ctx.Err()
	}
	cache.setLive(true)
	db.days, db.events = cache, hub
	go func() {
		defer l.Close()
		for {
			select {
			case <-ctx.Done():
				cache.setLive(false)
				return
			case n := <-l.Notify:
				if n == nil { // reconnected: the event handler already started a new epoch
					continue
				}
				var ev planner.Event
				if err := json.Unmarshal([]byte(n.Extra), &ev); err != nil {
					continue
				}
				if plan, ok := strings.CutPrefix(ev.Topic, "plan:"); ok && ev.Kind != planner.KindPresence {
					cache.changed(plan)
				}
				hub.publish(ev)
			}
		}
	}()
	return nil
}

// planChanged bumps the plan's version after a write through this instance commits.
func (db *DB) planChanged(plan string) {
	if db.days != nil {
		db.days.changed(plan)
	}
}
