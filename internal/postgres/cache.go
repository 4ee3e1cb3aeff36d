package postgres

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// eventsChannel is where migration 00005's triggers announce every recorded event, as JSON.
const eventsChannel = "tripplan_events"

// Day listings are cached per plan, user, day and page; so are each plan's costs (planCosts:
// every expense as its budget counts it, which the budget, the settlement and the budget page
// start from) and its thumbnail for the plan list (Plans: found in the plan's blocks, else in
// its linked collections' places). Every change to a plan's rows — and a place added to or
// taken out of a linked collection (migration 00020) — records an event of topic
// "plan:<id>" (migrations 00005, 00020, 00027), so the plan's events say whether anything
// kept of it still holds. Only the costs are kept of a budget: who may read, the budget row,
// the members and the recorded payments are read afresh each time.
//
// Read-your-writes on every instance: a kept value carries its plan's event mark (mark),
// read from the events table before the value was loaded, and it is served only after one
// indexed statement finds the mark unchanged (unchanged, unchangedPlans). So a write
// committed through any instance is seen on the next read through any other, whether or not
// that instance's change feed has taken the write's notification yet: behind a round-robin
// balancer a client sees its own writes. The one bound left: the mark counts the plan's
// events above a floor catchUpWindow ids below the newest at loading, so a transaction that
// took its event id further back than that and committed after the loading is not noticed —
// the same bound the feed's catch-up assumes.
//
// The change feed still keeps versions, which drop entries early (no statement is spent on
// an entry this instance already knows to be stale) and keep the live streams: PostgreSQL
// announces every event at commit to every instance, and the plan's version here moves once
// per event id, however the event is learnt: from its notification, from the catch-up after
// the notification connection came back, or — for a write through this instance — from the
// writing transaction itself, which reads the ids of the events it recorded before
// committing (planTx). An event learnt twice (a local write and then its own notification)
// moves the version once, so a listing cached in between stays. An entry is served only when
// the version it was loaded at is still current, the notification connection is up (while
// it is down, nothing is cached or served), its mark holds, and it is younger than
// dayCacheTTL, which bounds how stale place details and photos, changed outside any plan,
// can be.
//
// Users' language settings are not kept: reading one is a primary-key lookup, which is what
// confirming a kept copy would cost (DB.Language).
const (
	dayCacheTTL     = time.Minute
	dayCacheEntries = 20000
	// feedMemory is how many event ids the cache and the feed remember having seen, to take
	// each once (it must well exceed catchUpWindow).
	feedMemory = 8192
	// catchUpWindow is how far below the newest event id seen the catch-up after a
	// reconnection starts reading: ids are taken when a transaction writes and announced when
	// it commits, so an event committed late may carry an id lower than ones already seen.
	catchUpWindow = 1000
	// catchUpBatch is how many events the catch-up reads at once.
	catchUpBatch = 1000
	// reconnectMax is the longest pause between the change feed's reconnection attempts.
	reconnectMax = time.Second
	// costsEntries is how many plans' costs are kept (a 30-day plan's 930 take ≈ 0.4 MB).
	costsEntries = 500
	// thumbEntries is how many plans' thumbnails are kept (an entry is a URL and a few ids).
	thumbEntries = 20000
)

// recentIDs remembers the last n event ids added, forgetting the oldest first.
type recentIDs struct {
	set  map[int64]struct{}
	ring []int64
	next int
}

func newRecentIDs(n int) *recentIDs {
	return &recentIDs{set: make(map[int64]struct{}, n), ring: make([]int64, n)}
}

// add remembers id and reports whether it was new.
func (r *recentIDs) add(id int64) bool {
	if _, ok := r.set[id]; ok {
		return false
	}
	if old := r.ring[r.next]; old != 0 {
		delete(r.set, old)
	}
	r.ring[r.next] = id
	r.next = (r.next + 1) % len(r.ring)
	r.set[id] = struct{}{}
	return true
}

// stamp is when, in the change feed's terms, something was loaded.
type stamp struct{ epoch, version uint64 }

type dayKey struct {
	plan, user       string
	day, page, pages int
}

type dayEntry struct {
	at     stamp
	mark   mark
	loaded time.Time
	page   planner.DayPage
}

// perPlan is something kept of each plan (its costs, its thumbnail), each under the stamp it
// was loaded at; at most max plans, all dropped when full. Its methods run under dayCache.mu.
type perPlan[T any] struct {
	max     int
	entries map[string]planEntry[T]
}

type planEntry[T any] struct {
	at     stamp
	mark   mark
	loaded time.Time
	value  T
}

func newPerPlan[T any](max int) perPlan[T] {
	return perPlan[T]{max: max, entries: map[string]planEntry[T]{}}
}

// get is the plan's kept value, with its mark, if this instance has not learnt of a change
// to the plan since it was loaded.
func (p perPlan[T]) get(c *dayCache, plan string) (T, mark, bool) {
	e, ok := p.entries[plan]
	if !ok || !c.current(plan, e.at, e.loaded) {
		var none T
		return none, mark{}, false
	}
	return e.value, e.mark, true
}

// put keeps the plan's value, loaded at at with mark m, unless the plan changed meanwhile.
func (p perPlan[T]) put(c *dayCache, plan string, at stamp, m mark, v T) {
	if !c.current(plan, at, time.Now()) {
		return
	}
	if len(p.entries) >= p.max {
		clear(p.entries)
	}
	p.entries[plan] = planEntry[T]{at: at, mark: m, loaded: time.Now(), value: v}
}

// mark is what the events table said of a topic when something of it was loaded: floor is
// the newest event id then, less catchUpWindow; count and max are the count and the highest
// id of the topic's events above floor. A kept value is served only while its topic's events
// above the floor still count and end the same (unchanged): any event recorded since, on
// any instance, has a higher id and moves max; one committed late with a lower id (above
// the floor) moves count.
type mark struct {
	Floor int64 `db:"floor"`
	Count int64 `db:"count"`
	Max   int64 `db:"max"`
}

// markOf reads topic's mark, in one statement: the floor from the primary key's end, the
// rest from index events_topic (at most catchUpWindow rows of the topic). Read it before
// what it marks, in the same or an earlier snapshot: a change committed in between then
// makes the mark older than the data, which costs a needless reload, never a stale answer.
func markOf(ctx context.Context, q sqlx.QueryerContext, topic string) (mark, error) {
	var m mark
	err := sqlx.GetContext(ctx, q, &m, `SELECT f.floor, count(e.id) AS count, coalesce(max(e.id), 0) AS max
		FROM (SELECT coalesce(max(id), 0) - $2 AS floor FROM events) f
		LEFT JOIN events e ON e.topic = $1 AND e.id > f.floor
		GROUP BY f.floor`, topic, catchUpWindow)
	return m, err
}

// unchanged reports whether topic's events above m's floor are still the ones m counted.
func unchanged(ctx context.Context, q sqlx.QueryerContext, topic string, m mark) (bool, error) {
	now := mark{Floor: m.Floor}
	err := sqlx.GetContext(ctx, q, &now, `SELECT count(id) AS count, coalesce(max(id), 0) AS max
		FROM events WHERE topic = $1 AND id > $2`, topic, m.Floor)
	return now == m, err
}

// unchangedPlans answers which of the plans' kept marks still hold (see unchanged), in one
// statement whatever their number.
func unchangedPlans(ctx context.Context, q sqlx.QueryerContext, marks map[string]mark) (map[string]bool, error) {
	plans, floors := make([]string, 0, len(marks)), make([]int64, 0, len(marks))
	for plan, m := range marks {
		plans, floors = append(plans, plan), append(floors, m.Floor)
	}
	var rows []struct {
		Plan string `db:"plan"`
		mark
	}
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT t.plan, t.floor, count(e.id) AS count, coalesce(max(e.id), 0) AS max
		FROM unnest($1::text[], $2::bigint[]) AS t(plan, floor)
		LEFT JOIN events e ON e.topic = 'plan:' || t.plan AND e.id > t.floor
		GROUP BY t.plan, t.floor`, pq.Array(plans), pq.Array(floors)); err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(rows))
	for _, r := range rows {
		out[r.Plan] = r.mark == marks[r.Plan]
	}
	return out, nil
}

// dayCache holds day listings, plans' costs and thumbnails, and the plans' versions.
type dayCache struct {
	mu   sync.Mutex
	live bool // the notification connection is up and caught up
	// conn counts the notification connection's losses, so that a catch-up that raced one
	// does not turn the cache back on.
	conn uint64
	// epoch starts again when the entries are dropped wholesale (with the versions).
	epoch    uint64
	versions map[string]uint64
	applied  *recentIDs
	entries  map[dayKey]dayEntry
	costs    perPlan[[]planner.Cost]
	thumbs   perPlan[string]
}

func newDayCache() *dayCache {
	return &dayCache{versions: map[string]uint64{}, applied: newRecentIDs(feedMemory), entries: map[dayKey]dayEntry{},
		costs: newPerPlan[[]planner.Cost](costsEntries), thumbs: newPerPlan[string](thumbEntries)}
}

// current reports whether something of plan loaded at at, at loaded, may be served.
// The caller holds c.mu.
func (c *dayCache) current(plan string, at stamp, loaded time.Time) bool {
	return c.live && at == (stamp{c.epoch, c.versions[plan]}) && time.Since(loaded) <= dayCacheTTL
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
	if !ok || !c.current(k.plan, e.at, e.loaded) {
		return dayEntry{}, false
	}
	return e, true
}

// costsOf answers the plan's costs, with their mark, if they are kept and this instance has
// not learnt of a change since. The slice is shared: read it, never change it.
func (c *dayCache) costsOf(plan string) ([]planner.Cost, mark, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.costs.get(c, plan)
}

// putCosts keeps the plan's costs, loaded at at with mark m, unless the plan changed meanwhile.
func (c *dayCache) putCosts(plan string, at stamp, m mark, costs []planner.Cost) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.costs.put(c, plan, at, m, costs)
}

// put keeps e, loaded at e.at, unless the plan changed meanwhile.
func (c *dayCache) put(k dayKey, e dayEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || e.at != (stamp{c.epoch, c.versions[k.plan]}) {
		return
	}
	if len(c.entries) >= dayCacheEntries {
		c.restart()
	}
	c.entries[k] = e
}

// restart drops everything, versions too, and starts a new epoch (under c.mu).
func (c *dayCache) restart() {
	clear(c.entries)
	clear(c.costs.entries)
	clear(c.versions)
	clear(c.thumbs.entries)
	c.epoch++
}

// thumbnail is the plan's kept thumbnail, with its mark, if this instance has not learnt of a
// change to the plan since it was found.
func (c *dayCache) thumbnail(plan string) (string, mark, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.thumbs.get(c, plan)
}

// putThumbnail keeps the plan's thumbnail, looked for at at with mark m, unless the plan
// changed meanwhile.
func (c *dayCache) putThumbnail(plan string, at stamp, m mark, photo string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.thumbs.put(c, plan, at, m, photo)
}

// apply records the plan's events: its version moves when any of them is new here.
func (c *dayCache) apply(plan string, events ...int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	moved := false
	for _, id := range events {
		if c.applied.add(id) {
			moved = true
		}
	}
	if moved {
		c.versions[plan]++
	}
}

// disconnected turns the cache off: notifications may be missed until the catch-up.
func (c *dayCache) disconnected() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live = false
	c.conn++
}

// connection is the count of losses so far, to hand to resume.
func (c *dayCache) connection() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn
}

// resume turns the cache back on after a catch-up, unless the connection was lost again
// since connection() answered conn.
func (c *dayCache) resume(conn uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == conn {
		c.live = true
	}
}

// feed takes the change feed's events, each once, to the day cache and the hub, and catches
// up from the events table after the notification connection comes back.
type feed struct {
	db    *DB
	cache *dayCache
	hub   *hub
	log   *slog.Logger
	// seen are the ids delivered lately; last is the highest of them, start the highest
	// recorded before the feed began (catching up never reads below it).
	seen        *recentIDs
	last, start int64
}

// deliver hands an event to the cache and the subscribers, unless it was delivered already.
// Presence events (id 0) are never recorded, so never repeated: they always pass.
func (f *feed) deliver(ev planner.Event) {
	if ev.ID != 0 {
		if !f.seen.add(ev.ID) {
			return
		}
		f.last = max(f.last, ev.ID)
	}
	if plan, ok := strings.CutPrefix(ev.Topic, "plan:"); ok && ev.Kind != planner.KindPresence {
		f.cache.apply(plan, ev.ID)
	}
	f.hub.publish(ev)
}

// catchUp delivers, in order, the recorded events the feed may have missed while its
// connection was down: those after the newest it saw (less catchUpWindow, for late commits).
func (f *feed) catchUp(ctx context.Context) (int, error) {
	from, n := max(f.start, f.last-catchUpWindow), 0
	for {
		var batch []planner.Event
		if err := f.db.SelectContext(ctx, &batch, `SELECT id, topic, kind, object_id, actor FROM events
			WHERE id > $1 ORDER BY id LIMIT $2`, from, catchUpBatch); err != nil {
			return n, mapError(err)
		}
		for _, ev := range batch {
			f.deliver(ev)
		}
		n += len(batch)
		if len(batch) < catchUpBatch {
			return n, nil
		}
		from = batch[len(batch)-1].ID
	}
}

// reconnected catches up after the listener's connection came back (retrying while the
// database is not answering yet) and then turns the cache back on, unless the connection
// was lost again meanwhile — the next reconnection catches up then.
func (f *feed) reconnected(ctx context.Context, l *pq.Listener) {
	conn := f.cache.connection()
	for delay := 50 * time.Millisecond; ; delay = min(2*delay, reconnectMax) {
		n, err := f.catchUp(ctx)
		if err == nil {
			if f.log != nil {
				f.log.Info("change feed: reconnected and caught up", "events", n)
			}
			break
		}
		if f.log != nil {
			f.log.Warn("change feed: catching up failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		if f.cache.connection() != conn {
			return
		}
	}
	if l.Ping() == nil {
		f.cache.resume(conn)
	}
}

// Listen follows the change feed on its own connection to url until ctx ends: it turns on
// the day-listing cache and delivers events to subscribers (see Subscribe) while it does.
// When the connection drops it reconnects (after at most reconnectMax) and catches up from
// the events table, so subscribers and the cache miss nothing. Without Listen nothing is
// cached and nothing is delivered live. It also follows the revocations channel
// (revocations.go).
func (db *DB) Listen(ctx context.Context, url string, log *slog.Logger) (err error) {
	defer named(&err)
	if err := db.followRevocations(ctx, url, log); err != nil {
		return err
	}
	cache := newDayCache()
	f := &feed{db: db, cache: cache, hub: newHub(), log: log, seen: newRecentIDs(feedMemory)}
	l := pq.NewListener(url, 50*time.Millisecond, reconnectMax, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventDisconnected:
			cache.disconnected()
			if log != nil {
				log.Warn("change feed: disconnected; serving without the cache until it is back", "err", err)
			}
		case pq.ListenerEventConnectionAttemptFailed: // every second while the database is away
			cache.disconnected()
			if log != nil {
				log.Debug("change feed: reconnection failed", "err", err)
			}
		}
	})
	if err := listen(ctx, l, eventsChannel); err != nil {
		return err
	}
	// Events recorded from here on are announced to this listener.
	if err := db.GetContext(ctx, &f.start, `SELECT COALESCE(max(id), 0) FROM events`); err != nil {
		l.Close()
		return mapError(err)
	}
	f.last = f.start
	if conn := cache.connection(); l.Ping() == nil {
		cache.resume(conn)
	}
	db.days, db.events = cache, f.hub
	go func() {
		defer l.Close()
		for {
			select {
			case <-ctx.Done():
				cache.disconnected()
				return
			case n := <-l.Notify:
				if n == nil { // reconnected
					f.reconnected(ctx, l)
					continue
				}
				var ev planner.Event
				if err := json.Unmarshal([]byte(n.Extra), &ev); err != nil {
					continue
				}
				f.deliver(ev)
			}
		}
	}()
	return nil
}

// ownEvents answers the ids of the plan's events the transaction recorded (and perhaps a few
// that others committed meanwhile: applying those early is harmless, since the transaction
// sees them committed). Events carry their transaction's start time, so the index on
// created_at finds them among the few newer rows.
func ownEvents(ctx context.Context, tx *sqlx.Tx, planID string) ([]int64, error) {
	var ids pq.Int64Array
	err := tx.GetContext(ctx, &ids, `SELECT COALESCE(array_agg(id), '{}') FROM events
		WHERE created_at >= now() AND topic = 'plan:' || $1`, planID)
	return ids, err
}

// planChanged applies a write through this instance, once committed, to the day cache: the
// events it recorded, read by ownEvents.
func (db *DB) planChanged(plan string, events []int64) {
	if db.days != nil {
		db.days.apply(plan, events...)
	}
}

// listen starts l listening on channel, giving up (and closing l) when that fails or ctx ends
// first: a database that does not answer at start-up must not hold the server.
func listen(ctx context.Context, l *pq.Listener, channel string) error {
	listening := make(chan error, 1)
	go func() { listening <- l.Listen(channel) }()
	select {
	case err := <-listening:
		if err != nil {
			l.Close()
		}
		return err
	case <-ctx.Done():
		l.Close()
		return ctx.Err()
	}
}
