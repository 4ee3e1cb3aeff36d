package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// DemoUser is an account that SeedDemo creates; sign in as it with dev login.
type DemoUser struct {
	Nickname   string
	Provider   planner.Provider
	ProviderID string
	Email      string
}

// DemoUsers lists the demo accounts: Ana owns the demo collection and plan, Ben is a member
// of both. Both have accepted the terms.
func DemoUsers() []DemoUser {
	return []DemoUser{
		{Nickname: "Ana", Provider: planner.ProviderGoogle, ProviderID: "demo-ana", Email: "ana@example.com"},
		{Nickname: "Ben", Provider: planner.ProviderGoogle, ProviderID: "demo-ben", Email: "ben@example.com"},
	}
}

// Indexes into DemoUsers, for the tables below.
const (
	demoAna = 0
	demoBen = 1
)

// demoSeedLock is the advisory lock key that serialises SeedDemo across app instances.
const demoSeedLock int64 = 0x7472_6970_6465_6d6f // "tripdemo"

// SeedDemo fills an empty database with demo data for `make run`: Ana and Ben, fourteen
// Seoul places, the collection "Seoul food & sights" and the three-day plan "Seoul weekend"
// starting next Friday, with blocks in every status, opinions, a budget and expenses. It runs
// once per database: later calls, and calls racing it from other instances, return false.
func (db *DB) SeedDemo(ctx context.Context) (seeded bool, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, demoSeedLock); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO seed_runs (name) VALUES ('demo') ON CONFLICT DO NOTHING`)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		seeded = true
		s := &seeder{ctx: ctx, tx: tx}
		s.demo(nextFriday(time.Now()))
		return s.err
	})
	return seeded && err == nil, err
}

// nextFriday is the first Friday after now's date in Seoul.
func nextFriday(now time.Time) time.Time {
	y, m, d := now.In(time.FixedZone("KST", 9*60*60)).Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	ahead := (int(time.Friday)-int(today.Weekday())+6)%7 + 1 // 1..7
	return today.AddDate(0, 0, ahead)
}

// demoPlace is a place of the built-in catalog (internal/places/catalog), by its id there,
// with the memo the demo collection gives it. The catalog is loaded before the seed runs.
type demoPlace struct {
	key  string // provider_place_id in the catalog
	memo string // the collection place's memo
}

var demoPlaces = []demoPlace{
	{"seoul-gyeongbokgung-palace", "Guard change at 10:00 and 14:00"},
	{"seoul-changdeokgung-palace", "Secret Garden tour needs a booking"},
	{"seoul-bukchon-hanok-village", ""},
	{"seoul-insadong", ""},
	{"seoul-namsangol-hanok-village", ""},
	{"seoul-n-seoul-tower", "Go at sunset"},
	{"seoul-lotte-world-tower", ""},
	{"seoul-dongdaemun-design-plaza", ""},
	{"seoul-myeongdong", ""},
	{"seoul-gwangjang-market", "Bindaetteok and mayak gimbap"},
	{"seoul-tosokchon-samgyetang", "Queue moves fast"},
	{"seoul-myeongdong-kyoja", ""},
	{"seoul-cafe-onion-anguk", "Pandoro!"},
	{"seoul-fritz-coffee-dohwa", ""},
}

// demoPreferences are PICK/PASS choices on collection places.
var demoPreferences = []struct {
	place string
	by    int
	typ   string
}{
	{"seoul-gyeongbokgung-palace", demoAna, "PICK"},
	{"seoul-gwangjang-market", demoBen, "PICK"},
	{"seoul-myeongdong-kyoja", demoBen, "PICK"},
	{"seoul-lotte-world-tower", demoBen, "PASS"},
	{"seoul-myeongdong", demoAna, "PASS"},
}

type demoItem struct {
	name string
	cost int64
}

type demoOpinion struct {
	by      int
	typ     string
	comment string
	tags    []string // ids of the opinion tag catalogue (internal/places/opinion_tags.json)
}

// demoCandidate is a candidate of a demo time block; place "" is a FREE block's entry.
type demoCandidate struct {
	place    string
	by       int
	selected bool
	memo     string
	items    []demoItem
	opinions []demoOpinion
}

// demoBlocks are the plan's time blocks; a block whose first candidate has no place is FREE.
var demoBlocks = []struct {
	day        int
	start, end string
	candidates []demoCandidate
}{
	// Day 1: FIXED, DIRECT right after it (adjacent), PENDING, FREE.
	{1, "10:00", "12:00", []demoCandidate{
		{place: "seoul-gyeongbokgung-palace", by: demoAna, selected: true, memo: "Rent hanbok: free entry",
			items:    []demoItem{{"Admission x2", 6000}},
			opinions: []demoOpinion{{demoBen, "POSITIVE", "The guard change is worth it", []string{"must_see", "photogenic"}}}},
		{place: "seoul-changdeokgung-palace", by: demoBen, items: []demoItem{{"Admission x2", 6000}}},
	}},
	{1, "12:00", "13:30", []demoCandidate{
		{place: "seoul-tosokchon-samgyetang", by: demoAna, selected: true, items: []demoItem{{"Samgyetang x2", 40000}}},
	}},
	{1, "14:00", "16:00", []demoCandidate{
		{place: "seoul-bukchon-hanok-village", by: demoBen, opinions: []demoOpinion{{demoAna, "POSITIVE", "", []string{"photogenic", "lots_of_walking"}}}},
		{place: "seoul-insadong", by: demoAna, opinions: []demoOpinion{{demoBen, "NEUTRAL", "Good for souvenirs", []string{"touristy"}}}},
	}},
	{1, "16:00", "17:00", []demoCandidate{
		{by: demoAna, memo: "Check in and rest at the hotel"},
	}},
	// Day 2: DIRECT, PENDING, FIXED.
	{2, "10:00", "11:00", []demoCandidate{
		{place: "seoul-cafe-onion-anguk", by: demoBen, selected: true, items: []demoItem{{"Coffee and pastries", 18000}}},
	}},
	{2, "12:00", "13:30", []demoCandidate{
		{place: "seoul-gwangjang-market", by: demoBen, items: []demoItem{{"Bindaetteok and gimbap", 25000}},
			opinions: []demoOpinion{{demoAna, "POSITIVE", "Yes please", []string{"tasty", "good_value"}}}},
		{place: "seoul-myeongdong-kyoja", by: demoAna, items: []demoItem{{"Kalguksu x2", 22000}}},
	}},
	{2, "18:00", "20:00", []demoCandidate{
		{place: "seoul-n-seoul-tower", by: demoAna, selected: true, items: []demoItem{{"Observatory x2", 52000}}},
		{place: "seoul-lotte-world-tower", by: demoBen, items: []demoItem{{"Seoul Sky x2", 62000}},
			opinions: []demoOpinion{{demoAna, "NEGATIVE", "Too far from the hotel", []string{"too_far", "pricey"}}}},
	}},
}

// demoAdditional are additional expenses: at the start of a day (after -1) or after the
// demoBlocks entry with that index, paid by a demo user and shared by everyone; one in US
// dollars (costs in cents) with its rate to the won.
var demoAdditional = []struct {
	day, after int
	items      []demoItem
	paidBy     int
	currency   string
	rate       string
}{
	{1, -1, []demoItem{{"T-money cards", 10000}}, demoAna, "", ""},
	{1, 1, []demoItem{{"Taxi to Bukchon", 6000}}, demoBen, "", ""},
	{1, -1, []demoItem{{"Airport limousine (booked online)", 3400}}, demoBen, "USD", "1463.52"},
}

// seeder runs the seed's statements in one transaction, keeping the first error: after it,
// every call does nothing, and SeedDemo returns it.
type seeder struct {
	ctx context.Context
	tx  *sqlx.Tx
	err error
}

func (s *seeder) exec(query string, args ...any) {
	if s.err == nil {
		_, s.err = s.tx.ExecContext(s.ctx, query, args...)
	}
}

// insert runs an INSERT whose first parameter is a new public id, and returns the id.
func (s *seeder) insert(query string, args ...any) string {
	id := planner.NewID()
	s.exec(query, append([]any{id}, args...)...)
	return id
}

// upsert runs an INSERT … RETURNING id whose first parameter is a new public id, and returns
// the id of the row inserted or found.
func (s *seeder) upsert(query string, args ...any) string {
	var id string
	if s.err == nil {
		s.err = s.tx.GetContext(s.ctx, &id, query, append([]any{planner.NewID()}, args...)...)
	}
	return id
}

// catalogPlaces returns the place ids of the demo places, by catalog key; a place missing from
// the database (the catalog not loaded) fails the seed.
func (s *seeder) catalogPlaces() map[string]string {
	keys := make([]string, len(demoPlaces))
	for i, p := range demoPlaces {
		keys[i] = p.key
	}
	var rows []struct {
		Key string `db:"provider_place_id"`
		ID  string `db:"id"`
	}
	if s.err == nil {
		s.err = s.tx.SelectContext(s.ctx, &rows, `
			SELECT provider_place_id, id FROM places WHERE provider = 'BUILTIN' AND provider_place_id = ANY($1)`, pq.Array(keys))
	}
	ids := make(map[string]string, len(rows))
	for _, r := range rows {
		ids[r.Key] = r.ID
	}
	if s.err == nil && len(ids) != len(keys) {
		s.err = fmt.Errorf("the demo places are not all in the database: load the place catalog first (found %d of %d)", len(ids), len(keys))
	}
	return ids
}

func (s *seeder) demo(start time.Time) {
	// Users may exist already (a dev login as demo-ana).
	users := DemoUsers()
	userIDs := make([]string, len(users))
	for i, u := range users {
		userIDs[i] = s.upsert(`
			INSERT INTO users (id, provider, provider_id, nickname, email, terms_accepted_at)
			VALUES ($1, $2, $3, $4, $5, now())
			ON CONFLICT ON CONSTRAINT users_provider_account
			DO UPDATE SET terms_accepted_at = coalesce(users.terms_accepted_at, now())
			RETURNING id`,
			u.Provider, u.ProviderID, u.Nickname, u.Email)
	}
	placeIDs := s.catalogPlaces()

	// The collection: Ana owns it, Ben is a member, it holds every demo place.
	collection := s.insert(`INSERT INTO collections (id, title) VALUES ($1, $2)`, "Seoul food & sights")
	collectionMembers := make([]string, len(users))
	for i, u := range users {
		collectionMembers[i] = s.insert(`
			INSERT INTO collection_members (id, collection_id, user_id, role, nickname) VALUES ($1, $2, $3, $4, $5)`,
			collection, userIDs[i], demoRole(i), u.Nickname)
	}
	collectionPlaces := map[string]string{}
	for i, p := range demoPlaces {
		collectionPlaces[p.key] = s.insert(`
			INSERT INTO collection_places (id, collection_id, place_id, added_by, memo) VALUES ($1, $2, $3, $4, $5)`,
			collection, placeIDs[p.key], collectionMembers[i%len(users)], p.memo)
	}
	for _, p := range demoPreferences {
		s.exec(`INSERT INTO collection_place_preferences (collection_place_id, member_id, type) VALUES ($1, $2, $3)`,
			collectionPlaces[p.place], collectionMembers[p.by], p.typ)
	}

	// The plan: three days from start, the same members, the collection linked, a budget.
	const days = 3
	plan := s.insert(`
		INSERT INTO plans (id, title, start_date, end_date, time_zone, time_zone_source) VALUES ($1, $2, $3, $4, 'Asia/Seoul', 'PLACE')`,
		"Seoul weekend", start.Format(time.DateOnly), start.AddDate(0, 0, days-1).Format(time.DateOnly))
	planMembers := make([]string, len(users))
	for i, u := range users {
		planMembers[i] = s.insert(`
			INSERT INTO plan_members (id, plan_id, user_id, role, nickname) VALUES ($1, $2, $3, $4, $5)`,
			plan, userIDs[i], demoRole(i), u.Nickname)
	}
	dayIDs := make([]string, days)
	for d := range dayIDs {
		dayIDs[d] = s.insert(`INSERT INTO plan_days (id, plan_id, day, date) VALUES ($1, $2, $3, $4)`,
			plan, d+1, start.AddDate(0, 0, d).Format(time.DateOnly))
	}
	s.exec(`INSERT INTO plan_collections (plan_id, collection_id, added_by) VALUES ($1, $2, $3)`,
		plan, collection, planMembers[demoAna])
	s.insert(`INSERT INTO budgets (id, plan_id, mode, total_budget, traveler_count) VALUES ($1, $2, 'BUDGET', 600000, 2)`, plan)

	// Blocks, their candidates with opinions, and each place candidate's expense.
	blockIDs := make([]string, len(demoBlocks))
	for i, b := range demoBlocks {
		typ := "PLACE"
		if b.candidates[0].place == "" {
			typ = "FREE"
		}
		blockIDs[i] = s.insert(`
			INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time) VALUES ($1, $2, $3, $4, $5, $6)`,
			plan, dayIDs[b.day-1], typ, b.start, b.end)
		for _, c := range b.candidates {
			var placeID, collectionPlaceID any // NULL for a FREE block's entry
			if c.place != "" {
				placeID, collectionPlaceID = placeIDs[c.place], collectionPlaces[c.place]
			}
			candidate := s.insert(`
				INSERT INTO candidates (id, time_block_id, place_id, collection_place_id, added_by, memo, selected)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				blockIDs[i], placeID, collectionPlaceID, planMembers[c.by], c.memo, c.selected)
			for _, o := range c.opinions {
				s.insert(`INSERT INTO opinions (id, candidate_id, member_id, type, comment, tag_ids) VALUES ($1, $2, $3, $4, $5, $6)`,
					candidate, planMembers[o.by], o.typ, o.comment, pq.Array(o.tags))
			}
			if c.place != "" {
				s.items(s.insert(`INSERT INTO expenses (id, plan_id, kind, candidate_id) VALUES ($1, $2, 'BLOCK', $3)`,
					plan, candidate), c.items)
			}
		}
	}
	for i, e := range demoAdditional {
		var after any // NULL: at the start of the day
		if e.after >= 0 {
			after = blockIDs[e.after]
		}
		var currency, rate any // NULL: the plan's currency
		if e.currency != "" {
			currency, rate = e.currency, e.rate
		}
		s.items(s.insert(`
			INSERT INTO expenses (id, plan_id, kind, plan_day_id, after_time_block_id, rank, paid_by, currency, exchange_rate)
			VALUES ($1, $2, 'ADDITIONAL', $3, $4, $5, $6, $7, $8::numeric)`,
			plan, dayIDs[e.day-1], after, i+1, planMembers[e.paidBy], currency, rate), e.items)
	}
}

// items adds an expense's items in order.
func (s *seeder) items(expense string, items []demoItem) {
	for i, it := range items {
		s.insert(`INSERT INTO expense_items (id, expense_id, name, cost, position) VALUES ($1, $2, $3, $4, $5)`,
			expense, it.name, it.cost, i)
	}
}

func demoRole(user int) string {
	if user == demoAna {
		return "OWNER"
	}
	return "MEMBER"
}
