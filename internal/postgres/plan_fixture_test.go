package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// tripFixture is a three-day plan owned by owner with member as a second member, a collection
// linked to it with places, and a collection that is not linked; stranger is in neither.
type tripFixture struct {
	db                      *postgres.DB
	owner, member, stranger string // user ids
	plan                    *planner.Plan
	linked, unlinked        string   // collection ids
	cps                     []string // places of the linked collection (collection place ids)
	unlinkedCP              string   // a place of the unlinked collection
	places                  []string // place ids of cps, in order
}

// newTrip builds a tripFixture on db.
func newTrip(t *testing.T, db *postgres.DB) *tripFixture {
	t.Helper()
	ctx := t.Context()
	f := &tripFixture{db: db}
	f.owner, f.member, f.stranger = newUser(t, db, "Owner"), newUser(t, db, "Member"), newUser(t, db, "Stranger")
	f.plan = must(db.CreatePlan(ctx, f.owner, planner.PlanInput{Title: "Trip", StartDate: day("2026-11-27"), EndDate: day("2026-11-29")}))
	join(t, db, f.plan.ID, f.member)
	var places []planner.Place
	for i := range 6 {
		places = append(places, planner.Place{Provider: "GOOGLE", ProviderPlaceID: fmt.Sprintf("fixture-%d", i),
			Name: fmt.Sprintf("Place %d", i), Photos: []string{fmt.Sprintf("https://img.example/%d.jpg", i)}})
	}
	saved := must(db.SavePlaces(ctx, places))
	f.linked = must(db.CreateCollection(ctx, f.owner, "Linked")).ID
	f.unlinked = must(db.CreateCollection(ctx, f.owner, "Unlinked")).ID
	for _, p := range saved[:5] {
		f.cps = append(f.cps, must(db.AddCollectionPlace(ctx, f.owner, f.linked, p.ID)).ID)
		f.places = append(f.places, p.ID)
	}
	f.unlinkedCP = must(db.AddCollectionPlace(ctx, f.owner, f.unlinked, saved[5].ID)).ID
	must(db.LinkCollections(ctx, f.owner, f.plan.ID, []string{f.linked}))
	return f
}

// block adds a PLACE block of the i-th linked place on day d from start to end (HH:MM), as the
// owner.
func (f *tripFixture) block(t *testing.T, d, i int, start, end string) *planner.TimeBlock {
	t.Helper()
	return must(f.db.AddBlock(t.Context(), f.owner, f.plan.ID, planner.NewBlock{
		Type: planner.BlockPlace, CollectionPlaceID: f.cps[i], Slot: slot(d, start, end)}))
}

// dayID is the id of the plan's day d.
func (f *tripFixture) dayID(t *testing.T, d int) string {
	t.Helper()
	var id string
	if err := f.db.Get(&id, `SELECT id FROM plan_days WHERE plan_id = $1 AND day = $2`, f.plan.ID, d); err != nil {
		t.Fatal(err)
	}
	return id
}

// expense puts an ADDITIONAL expense on the plan's day dayID straight into the table, after the
// time block after ("": at the day's start), and answers its id.
func (f *tripFixture) expense(t *testing.T, dayID, after string) string {
	t.Helper()
	id := planner.NewID()
	if _, err := f.db.Exec(`INSERT INTO expenses (id, plan_id, kind, plan_day_id, after_time_block_id, rank) VALUES ($1, $2, 'ADDITIONAL', $3, NULLIF($4, ''), 1)`,
		id, f.plan.ID, dayID, after); err != nil {
		t.Fatal(err)
	}
	return id
}

// race runs do(i, user) for each i < n in a goroutine of its own, all released at once, user
// taking turns between the owner and the member, and waits for them.
func (f *tripFixture) race(n int, do func(i int, user string)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		user := f.owner
		if i%2 == 1 {
			user = f.member
		}
		wg.Go(func() {
			<-start
			do(i, user)
		})
	}
	close(start)
	wg.Wait()
}

func slot(d int, start, end string) planner.Slot {
	return planner.Slot{Day: d, Start: clockOf(start), End: clockOf(end)}
}

func clockOf(s string) planner.TimeOfDay {
	t, err := planner.ParseTimeOfDay(s)
	if err != nil {
		panic(err)
	}
	return t
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// newUser signs in a new user and returns its id.
func newUser(t *testing.T, db *postgres.DB, nickname string) string {
	t.Helper()
	u, err := db.SignInUser(context.Background(), planner.User{Provider: "GOOGLE", ProviderID: planner.NewID(), Nickname: nickname})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// join makes the user a member of the plan (invite links come with the sharing issue) and
// returns the member id.
func join(t *testing.T, db *postgres.DB, planID, userID string) string {
	t.Helper()
	id := planner.NewID()
	_, err := db.Exec(`INSERT INTO plan_members (id, plan_id, user_id, nickname) SELECT $1, $2, id, nickname FROM users WHERE id = $3`,
		id, planID, userID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// must returns v, panicking on err: for fixtures, where any error is a broken test.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// wantCode fails unless err has the code.
func wantCode(t *testing.T, what string, err error, code planner.Code) {
	t.Helper()
	if got := planner.ErrorCode(err); got != code {
		t.Errorf("%s: got %v, want %s", what, err, code)
	}
}
