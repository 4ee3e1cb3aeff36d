package route

import (
	"container/list"
	"sync"
	"time"
)

// cache keeps OSRM answers in memory: at most limit entries, each valid for ttl after it was
// stored; when full, the least recently used entry makes room. Safe for concurrent use.
type cache struct {
	limit int
	ttl   time.Duration
	now   func() time.Time

	mu    sync.Mutex
	order *list.List // of *cacheEntry, most recently used first
	byKey map[string]*list.Element
}

type cacheEntry struct {
	key      string
	measures []Measure
	expires  time.Time
}

func newCache(limit int, ttl time.Duration) *cache {
	return &cache{limit: limit, ttl: ttl, now: time.Now, order: list.New(), byKey: make(map[string]*list.Element)}
}

// get returns a copy of the measures stored under key, if they have not expired.
func (c *cache) get(key string) ([]Measure, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.expires) {
		c.order.Remove(el)
		delete(c.byKey, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return append([]Measure(nil), e.measures...), true
}

// put stores a copy of measures under key, evicting the least recently used entry when full.
func (c *cache) put(key string, measures []Measure) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &cacheEntry{key: key, measures: append([]Measure(nil), measures...), expires: c.now().Add(c.ttl)}
	if el, ok := c.byKey[key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(e)
	if c.order.Len() > c.limit {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.byKey, oldest.Value.(*cacheEntry).key)
	}
}
