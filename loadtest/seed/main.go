// Command seed builds the load-test dataset through Tripplan's JSON API, as clients would:
//
//	go run ./loadtest/seed -base http://127.0.0.1:8080 -out loadtest/results/data.json
//
// It signs in 100 users with dev sign-in (the server must run with APP_ENV=development) and
// accepts the terms, then creates 120 collections holding 2,000 collection places found with
// GET /places/search in the built-in catalog (a collection keeps to one city; collections share
// places), with members joined by invite links and some picks and passes; then 200 plans of
// 1–10 days, each with members, one or two linked collections and 2–6 time blocks a day between
// 08:00 and 22:00 holding 1–4 candidates (or a FREE block), opinions, and a confirmed candidate
// on about half of the blocks with several. What gets created is decided up front from -seed,
// so the dataset has the same shape on every run whatever order the workers finish in.
//
// It writes what the k6 scripts need (tokens, plan, day, block, candidate, collection and
// collection place ids) to -out as JSON. Every plan's day 1 is left empty before 08:00: the
// scripts add and move their blocks there.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"tripplan/internal/places"
)

// The dataset's size.
const (
	userCount       = 100
	collectionCount = 120
	placeTotal      = 2000 // collection places over all collections
	planCount       = 200
	maxPlanDays     = 10
	minPlaces       = 5  // per collection
	maxPlaces       = 40 // per collection (a city has about 76 catalog places)
	// signInBurst is how many sign-ins the server lets one client address make at once.
	signInBurst = 10
)

func main() {
	base := flag.String("base", "", "the server's base URL, e.g. http://127.0.0.1:8080")
	out := flag.String("out", "", "where to write the dataset's ids (JSON)")
	seed := flag.Uint64("seed", 1, "random seed: the same seed gives the same dataset")
	workers := flag.Int("workers", 8, "concurrent requests")
	users := flag.String("users", "load", "the users' provider ids are this and a number: another name seeds other users into a database seeded before")
	flag.Parse()
	if *base == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: seed -base URL -out FILE [-seed N] [-workers N] [-users NAME]")
		os.Exit(2)
	}
	if err := run(strings.TrimRight(*base, "/"), *out, *seed, *workers, *users); err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
}

func run(base, out string, seed uint64, workers int, users string) error {
	catalog, _, err := places.Catalog()
	if err != nil {
		return err
	}
	cities := map[string][]catalogPlace{}
	for _, p := range catalog {
		cities[p.City] = append(cities[p.City], catalogPlace{id: p.ProviderPlaceID, name: p.Name})
	}
	spec := plan(rand.New(rand.NewPCG(seed, 0)), cities)

	c := newClient(base, workers)
	started := time.Now()
	s := &seeder{c: c, spec: spec, users: users, tokens: make([]string, userCount),
		collections: make([]collectionOut, len(spec.collections)), plans: make([]planOut, len(spec.plans))}
	for _, phase := range []struct {
		name string
		n    int
		job  func(int) error
	}{
		{"users", userCount, s.user},
		{"collections", len(spec.collections), s.collection},
		{"plans", len(spec.plans), s.plan},
	} {
		t := time.Now()
		if err := parallel(workers, phase.n, phase.job); err != nil {
			return fmt.Errorf("%s: %w", phase.name, err)
		}
		fmt.Printf("seed: %-11s %4d in %5.1f s\n", phase.name, phase.n, time.Since(t).Seconds())
	}
	elapsed := time.Since(started)

	data := s.output(seed)
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, b, 0o600); err != nil {
		return err
	}
	st := spec.stats()
	fmt.Printf("seed: %d users, %d collections, %d collection places, %d picks/passes, %d plans, %d plan days, "+
		"%d time blocks (%d FREE), %d candidates, %d opinions, %d confirmed selections\n",
		userCount, len(spec.collections), st.places, st.prefs, len(spec.plans), st.days, st.blocks, st.free, st.candidates, st.opinions, st.selections)
	fmt.Printf("seed: %d requests with %d workers in %.1f s (%.0f requests/s); seed %d; ids in %s\n",
		c.requests.Load(), workers, elapsed.Seconds(), float64(c.requests.Load())/elapsed.Seconds(), seed, out)
	return nil
}

// catalogPlace is a catalog entry the seeder searches for by name.
type catalogPlace struct{ id, name string }

// dataset is everything the seeder will create, decided before the first request.
type dataset struct {
	collections []collectionSpec
	plans       []planSpec
}

type collectionSpec struct {
	owner   int
	members []int // other members, joining by invite link
	title   string
	places  []placeSpec
}

type placeSpec struct {
	place catalogPlace
	adder int
	prefs []preference
}

// preference is a pick or pass (or an opinion's type) by a user.
type preference struct {
	user int
	typ  string
}

type planSpec struct {
	owner       int
	members     []int // other members
	title       string
	start       time.Time
	days        int
	collections []int
	blocks      []blockSpec
}

type blockSpec struct {
	day        int
	start, end string
	adder      int             // who adds the block (its first candidate)
	candidates []candidateSpec // none for a FREE block
	confirm    int             // index of the candidate to confirm, -1 for none
	confirmer  int
}

type candidateSpec struct {
	collection, place int // index into dataset.collections and its places
	adder             int
	opinions          []preference
}

// plan decides the dataset from the random source.
func plan(r *rand.Rand, cities map[string][]catalogPlace) *dataset {
	names := make([]string, 0, len(cities))
	for city := range cities {
		names = append(names, city)
	}
	slices.Sort(names)
	d := &dataset{}

	// Collections: every user owns one, 20 users a second; up to three others join each.
	sizes := make([]int, collectionCount)
	for i := range sizes {
		sizes[i] = minPlaces
	}
	cityOf := make([]string, collectionCount)
	for i := range cityOf {
		cityOf[i] = names[r.IntN(len(names))]
	}
	for left := placeTotal - minPlaces*collectionCount; left > 0; {
		i := r.IntN(collectionCount)
		if sizes[i] < min(maxPlaces, len(cities[cityOf[i]])) {
			sizes[i]++
			left--
		}
	}
	for i := range collectionCount {
		owner := i
		if i >= userCount {
			owner = r.IntN(userCount)
		}
		col := collectionSpec{owner: owner, members: others(r, owner, r.IntN(4)), title: fmt.Sprintf("%s %d", cityOf[i], i+1)}
		everyone := append([]int{owner}, col.members...)
		pool := cities[cityOf[i]]
		for _, k := range r.Perm(len(pool))[:sizes[i]] {
			p := placeSpec{place: pool[k], adder: everyone[r.IntN(len(everyone))]}
			for _, u := range everyone {
				if r.Float64() < 0.25 {
					p.prefs = append(p.prefs, preference{u, pick(r, []string{"PICK", "PICK", "PICK", "PASS"})})
				}
			}
			col.places = append(col.places, p)
		}
		d.collections = append(d.collections, col)
	}
	memberOf := make([][]int, userCount) // collections by user
	for i, col := range d.collections {
		for _, u := range append([]int{col.owner}, col.members...) {
			memberOf[u] = append(memberOf[u], i)
		}
	}

	// Plans: up to four others join; one or two of the owner's collections are linked.
	epoch := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range planCount {
		owner := r.IntN(userCount)
		p := planSpec{owner: owner, members: others(r, owner, r.IntN(5)), title: fmt.Sprintf("Trip %d", i+1),
			start: epoch.AddDate(0, 0, r.IntN(300)), days: 1 + r.IntN(maxPlanDays)}
		mine := memberOf[owner]
		for _, k := range r.Perm(len(mine))[:min(len(mine), 1+r.IntN(2))] {
			p.collections = append(p.collections, mine[k])
		}
		var pool [][2]int // collection places of the linked collections, one per place
		seen := map[string]bool{}
		for _, c := range p.collections {
			for k, cp := range d.collections[c].places {
				if !seen[cp.place.id] {
					seen[cp.place.id] = true
					pool = append(pool, [2]int{c, k})
				}
			}
		}
		everyone := append([]int{owner}, p.members...)
		for day := 1; day <= p.days; day++ {
			hours := r.Perm(14)[:2+r.IntN(5)] // distinct hours from 08:00 to 21:00
			slices.Sort(hours)
			for _, h := range hours {
				b := blockSpec{day: day, start: fmt.Sprintf("%02d:00", 8+h), end: fmt.Sprintf("%02d:%02d", 8+h, pick(r, []int{30, 45, 59})),
					adder: everyone[r.IntN(len(everyone))], confirm: -1}
				if r.Float64() >= 0.15 {
					n := pick(r, []int{1, 1, 1, 1, 2, 2, 2, 3, 3, 4})
					for j, k := range r.Perm(len(pool))[:min(n, len(pool))] {
						c := candidateSpec{collection: pool[k][0], place: pool[k][1], adder: everyone[r.IntN(len(everyone))]}
						if j == 0 {
							c.adder = b.adder
						}
						for _, u := range everyone {
							if r.Float64() < 0.35 {
								c.opinions = append(c.opinions, preference{u, pick(r, []string{"POSITIVE", "POSITIVE", "NEUTRAL", "NEGATIVE"})})
							}
						}
						b.candidates = append(b.candidates, c)
					}
					if len(b.candidates) >= 2 && r.IntN(2) == 0 {
						b.confirm, b.confirmer = r.IntN(len(b.candidates)), everyone[r.IntN(len(everyone))]
					}
				}
				p.blocks = append(p.blocks, b)
			}
		}
		d.plans = append(d.plans, p)
	}
	return d
}

// others picks n distinct users other than u.
func others(r *rand.Rand, u, n int) []int {
	var out []int
	for _, k := range r.Perm(userCount) {
		if len(out) == n {
			break
		}
		if k != u {
			out = append(out, k)
		}
	}
	return out
}

func pick[T any](r *rand.Rand, from []T) T { return from[r.IntN(len(from))] }

type stats struct{ places, prefs, days, blocks, free, candidates, opinions, selections int }

func (d *dataset) stats() stats {
	var s stats
	for _, c := range d.collections {
		s.places += len(c.places)
		for _, p := range c.places {
			s.prefs += len(p.prefs)
		}
	}
	for _, p := range d.plans {
		s.days += p.days
		s.blocks += len(p.blocks)
		for _, b := range p.blocks {
			if len(b.candidates) == 0 {
				s.free++
			}
			if b.confirm >= 0 {
				s.selections++
			}
			s.candidates += len(b.candidates)
			for _, c := range b.candidates {
				s.opinions += len(c.opinions)
			}
		}
	}
	return s
}

// seeder carries out the dataset and keeps the ids the server gave. Each job writes its own
// element; a phase reads only what earlier phases wrote.
type seeder struct {
	c           *client
	spec        *dataset
	users       string   // the users' provider ids' start
	tokens      []string // by user
	collections []collectionOut
	plans       []planOut
}

// user signs user i in and accepts the terms.
func (s *seeder) user(i int) error {
	body := map[string]string{"provider": "GOOGLE", "provider_id": fmt.Sprintf("%s-%03d", s.users, i), "nickname": fmt.Sprintf("User%03d", i)}
	var pre struct {
		AccessToken string `json:"access_token"`
	}
	if err := s.c.signIn(i/signInBurst, body, &pre); err != nil {
		return err
	}
	var full struct {
		AccessToken string `json:"access_token"`
	}
	if err := s.c.call("PATCH", "/users/me/terms", pre.AccessToken, nil, http.StatusOK, &full); err != nil {
		return err
	}
	s.tokens[i] = full.AccessToken
	return nil
}

// join has the users join through a new invite link to path (a plan or collection) made by
// its owner.
func (s *seeder) join(path string, owner int, users []int) error {
	if len(users) == 0 {
		return nil
	}
	var link struct {
		URL string `json:"url"`
	}
	if err := s.c.call("POST", path+"/invitations", s.tokens[owner], nil, http.StatusOK, &link); err != nil {
		return err
	}
	u, err := url.Parse(link.URL)
	if err != nil {
		return err
	}
	for _, m := range users {
		if err := s.c.call("GET", u.Path, s.tokens[m], nil, http.StatusFound, nil); err != nil {
			return err
		}
	}
	return nil
}

type collectionOut struct {
	ID      string   `json:"id"`
	Members []int    `json:"members"`
	Places  []string `json:"places"` // collection place ids
}

// collection creates collection i with its members, places and picks.
func (s *seeder) collection(i int) error {
	spec := s.spec.collections[i]
	var col struct {
		ID string `json:"collection_id"`
	}
	if err := s.c.call("POST", "/collections", s.tokens[spec.owner], map[string]string{"title": spec.title}, http.StatusCreated, &col); err != nil {
		return err
	}
	path := "/collections/" + col.ID
	if err := s.join(path, spec.owner, spec.members); err != nil {
		return err
	}
	out := collectionOut{ID: col.ID, Members: append([]int{spec.owner}, spec.members...)}
	for _, p := range spec.places {
		token := s.tokens[p.adder]
		placeID, err := s.find(token, p.place)
		if err != nil {
			return err
		}
		var cp struct {
			ID string `json:"collection_place_id"`
		}
		if err := s.c.call("POST", path+"/places", token, map[string]string{"place_id": placeID}, http.StatusCreated, &cp); err != nil {
			return err
		}
		for _, pref := range p.prefs {
			if err := s.c.call("POST", path+"/places/"+cp.ID+"/preference?type="+pref.typ, s.tokens[pref.user], nil, http.StatusOK, nil); err != nil {
				return err
			}
		}
		out.Places = append(out.Places, cp.ID)
	}
	s.collections[i] = out
	return nil
}

// find searches the catalog place by its name and answers its place id.
func (s *seeder) find(token string, p catalogPlace) (string, error) {
	query := p.name
	if utf8.RuneCountInString(query) > 50 {
		query = string([]rune(query)[:50])
	}
	var found []struct {
		PlaceID         string `json:"place_id"`
		ProviderPlaceID string `json:"provider_place_id"`
	}
	if err := s.c.call("GET", "/places/search?query="+url.QueryEscape(query), token, nil, http.StatusOK, &found); err != nil {
		return "", err
	}
	for _, f := range found {
		if f.ProviderPlaceID == p.id {
			return f.PlaceID, nil
		}
	}
	return "", fmt.Errorf("searching %q did not find catalog place %s", query, p.id)
}

type planOut struct {
	ID          string     `json:"id"`
	Days        int        `json:"days"`
	Members     []int      `json:"members"`
	Collections []int      `json:"collections"`
	Blocks      []blockOut `json:"blocks"`
}

type blockOut struct {
	ID         string   `json:"id"` // time block id
	Day        int      `json:"day"`
	Type       string   `json:"type"`
	Candidates []string `json:"candidates"` // candidate ids, in order of creation
}

type timeBlock struct {
	ID         string `json:"time_block_id"`
	Candidates []struct {
		ID string `json:"block_id"`
	} `json:"candidates"`
}

// plan creates plan i with its members, linked collections, blocks, candidates, opinions and
// selections.
func (s *seeder) plan(i int) error {
	spec := s.spec.plans[i]
	owner := s.tokens[spec.owner]
	var p struct {
		ID string `json:"plan_id"`
	}
	body := map[string]string{"title": spec.title, "start_date": spec.start.Format(time.DateOnly),
		"end_date": spec.start.AddDate(0, 0, spec.days-1).Format(time.DateOnly)}
	if err := s.c.call("POST", "/plans", owner, body, http.StatusCreated, &p); err != nil {
		return err
	}
	path := "/plans/" + p.ID
	if err := s.join(path, spec.owner, spec.members); err != nil {
		return err
	}
	out := planOut{ID: p.ID, Days: spec.days, Members: append([]int{spec.owner}, spec.members...), Collections: spec.collections, Blocks: []blockOut{}}
	ids := make([]string, len(spec.collections))
	for k, c := range spec.collections {
		ids[k] = s.collections[c].ID
	}
	if err := s.c.call("POST", path+"/collections", owner, map[string][]string{"collection_ids": ids}, http.StatusCreated, nil); err != nil {
		return err
	}
	for _, b := range spec.blocks {
		req := map[string]any{"type": "FREE", "day": b.day, "start_time": b.start, "end_time": b.end}
		if len(b.candidates) > 0 {
			req["type"], req["collection_place_id"] = "PLACE", s.collectionPlaceID(b.candidates[0])
		}
		var tb timeBlock
		if err := s.c.call("POST", path+"/blocks", s.tokens[b.adder], req, http.StatusOK, &tb); err != nil {
			return err
		}
		bo := blockOut{ID: tb.ID, Day: b.day, Type: req["type"].(string), Candidates: []string{tb.Candidates[0].ID}}
		for _, c := range b.candidates[min(1, len(b.candidates)):] {
			var more timeBlock
			if err := s.c.call("POST", path+"/blocks/"+tb.ID+"/candidates", s.tokens[c.adder],
				map[string][]string{"collection_place_ids": {s.collectionPlaceID(c)}}, http.StatusOK, &more); err != nil {
				return err
			}
			bo.Candidates = append(bo.Candidates, more.Candidates[len(more.Candidates)-1].ID)
		}
		for k, c := range b.candidates {
			for _, o := range c.opinions {
				if err := s.c.call("POST", path+"/blocks/"+bo.Candidates[k]+"/opinions", s.tokens[o.user],
					map[string]string{"type": o.typ}, http.StatusCreated, nil); err != nil {
					return err
				}
			}
		}
		if b.confirm >= 0 {
			if err := s.c.call("PATCH", path+"/blocks/"+tb.ID+"/selection", s.tokens[b.confirmer],
				map[string]string{"block_id": bo.Candidates[b.confirm]}, http.StatusOK, nil); err != nil {
				return err
			}
		}
		out.Blocks = append(out.Blocks, bo)
	}
	s.plans[i] = out
	return nil
}

func (s *seeder) collectionPlaceID(c candidateSpec) string {
	return s.collections[c.collection].Places[c.place]
}

// output is the file the k6 scripts read.
type output struct {
	Seed        uint64          `json:"seed"`
	Users       []userOut       `json:"users"`
	Collections []collectionOut `json:"collections"`
	Plans       []planOut       `json:"plans"`
}

type userOut struct {
	Token       string `json:"token"`
	Plans       []int  `json:"plans"`       // indexes into plans
	Collections []int  `json:"collections"` // indexes into collections
}

func (s *seeder) output(seed uint64) output {
	users := make([]userOut, userCount)
	for i := range users {
		users[i] = userOut{Token: s.tokens[i], Plans: []int{}, Collections: []int{}}
	}
	for i, c := range s.collections {
		for _, u := range c.Members {
			users[u].Collections = append(users[u].Collections, i)
		}
	}
	for i, p := range s.plans {
		for _, u := range p.Members {
			users[u].Plans = append(users[u].Plans, i)
		}
	}
	return output{Seed: seed, Users: users, Collections: s.collections, Plans: s.plans}
}

// parallel runs job(0..n-1) on the given number of workers and answers the first error.
func parallel(workers, n int, job func(int) error) error {
	next := atomic.Int64{}
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for failed.Load() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := job(i); err != nil {
					failed.CompareAndSwap(nil, &err)
				}
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		return *err
	}
	return nil
}

// client speaks JSON to the server with bearer tokens and counts its requests.
type client struct {
	base     string
	http     *http.Client
	requests atomic.Int64

	// signIns are clients dialling from their own loopback address each, so that signing in
	// 100 users does not wait on the per-address sign-in rate limit (10 at once, then 1 a
	// second), as 100 people on their own devices would not; nil when the server is not on
	// loopback.
	mu      sync.Mutex
	signIns map[int]*http.Client
}

func newClient(base string, workers int) *client {
	return &client{base: base, http: &http.Client{
		Transport:     &http.Transport{MaxIdleConnsPerHost: workers},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// signIn signs in with dev login from the group's own loopback address when the server is on
// loopback, waiting out the rate limit if it answers 429 anyway.
func (c *client) signIn(group int, body, out any) error {
	hc := c.http
	if u, err := url.Parse(c.base); err == nil {
		if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() && ip.To4() != nil {
			hc = c.signInClient(group)
		}
	}
	for {
		status, b, header, err := c.send(hc, "POST", "/dev/auth/login", "", body)
		if err != nil {
			return err
		}
		if status == http.StatusTooManyRequests {
			wait, _ := strconv.Atoi(header.Get("Retry-After"))
			time.Sleep(time.Duration(max(wait, 1)) * time.Second)
			continue
		}
		if status != http.StatusOK {
			return fmt.Errorf("POST /dev/auth/login: %d %s", status, b)
		}
		return json.Unmarshal(b, out)
	}
}

func (c *client) signInClient(group int) *http.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.signIns == nil {
		c.signIns = map[int]*http.Client{}
	}
	if hc := c.signIns[group]; hc != nil {
		return hc
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 1, byte(1+group))}}
	hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	c.signIns[group] = hc
	return hc
}

// call sends a request and expects the status; out (if not nil) receives the JSON answer.
func (c *client) call(method, path, token string, body any, want int, out any) error {
	status, b, _, err := c.send(c.http, method, path, token, body)
	if err != nil {
		return err
	}
	if status != want {
		return fmt.Errorf("%s %s: %d (want %d) %s", method, path, status, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return nil
}

func (c *client) send(hc *http.Client, method, path, token string, body any) (int, []byte, http.Header, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c.requests.Add(1)
	res, err := hc.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	if res.StatusCode >= 500 {
		return 0, nil, nil, errors.New(method + " " + path + ": server error " + res.Status + ": " + string(b))
	}
	return res.StatusCode, b, res.Header, nil
}
