package postgres

// HoldFeed makes the change feed wait, before it hands its next event to subscribers, until
// release is called: tests order a notification after something else with it.
func (db *DB) HoldFeed() (release func()) {
	db.events.mu.Lock()
	return db.events.mu.Unlock
}

// PlanVersion is the day cache's version of the plan.
func (db *DB) PlanVersion(plan string) uint64 {
	s, _ := db.days.now(plan)
	return s.version
}
