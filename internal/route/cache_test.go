package route

import (
	"fmt"
	"testing"
	"time"
)

// size is the number of entries held, expired ones included until looked up or evicted.
func (c *cache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

func TestCacheEvictsTheLeastRecentlyUsed(t *testing.T) {
	c := newCache(2, time.Hour)
	c.put("a", []Measure{{DistanceM: 1}})
	c.put("b", []Measure{{DistanceM: 2}})
	c.get("a")
	c.put("c", []Measure{{DistanceM: 3}})
	if _, ok := c.get("b"); ok {
		t.Error("b is still cached; it was the least recently used")
	}
	for _, key := range []string{"a", "c"} {
		if _, ok := c.get(key); !ok {
			t.Errorf("%s was evicted", key)
		}
	}
	if n := c.size(); n != 2 {
		t.Errorf("%d entries, want 2", n)
	}
}

func TestCacheStaysBounded(t *testing.T) {
	c := newCache(osrmCacheSize, time.Hour)
	for i := range osrmCacheSize + 10 {
		c.put(fmt.Sprint(i), []Measure{{DistanceM: i}})
	}
	if n := c.size(); n != osrmCacheSize {
		t.Errorf("%d entries, want %d", n, osrmCacheSize)
	}
	if _, ok := c.get("0"); ok {
		t.Error("the oldest entry is still cached")
	}
	if m, ok := c.get(fmt.Sprint(osrmCacheSize + 9)); !ok || m[0].DistanceM != osrmCacheSize+9 {
		t.Errorf("the newest entry = %v, %v", m, ok)
	}
}

func TestCacheExpires(t *testing.T) {
	c := newCache(10, time.Hour)
	clock := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return clock }
	c.put("day", []Measure{{DistanceM: 1}})
	clock = clock.Add(time.Hour - time.Second)
	if _, ok := c.get("day"); !ok {
		t.Error("expired before its hour")
	}
	clock = clock.Add(time.Second)
	if _, ok := c.get("day"); ok {
		t.Error("still cached after its hour")
	}
	if n := c.size(); n != 0 {
		t.Errorf("%d entries after expiry, want 0", n)
	}
}

func TestCacheKeepsItsOwnCopy(t *testing.T) {
	c := newCache(10, time.Hour)
	stored := []Measure{{DistanceM: 1}}
	c.put("day", stored)
	stored[0].DistanceM = 2
	got, _ := c.get("day")
	got[0].DistanceM = 3
	if again, _ := c.get("day"); again[0].DistanceM != 1 {
		t.Errorf("cached distance = %d, want 1", again[0].DistanceM)
	}
}
