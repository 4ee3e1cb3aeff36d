package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"tripplan/internal/places"
)

func decodeTags(t *testing.T, res response) []opinionTagJSON {
	t.Helper()
	var out []opinionTagJSON
	if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK {
		t.Fatalf("GET /opinion-tags: %d %s", res.Status, res.Body)
	}
	return out
}

func tagIDsOf(tags []opinionTagJSON) []string {
	out := make([]string, len(tags))
	for i, tg := range tags {
		out[i] = tg.TagID
	}
	return out
}

// GET /opinion-tags (docs/API.md §Activity): the catalogue, all of it or what a category of any
// level is offered, in English or Korean, to any signed-in user and any guest.
func TestOpinionTagsRoute(t *testing.T) {
	a := newTestApp(t)
	token := a.member("ot-ana", "Ana")
	catalogue := places.NewOpinionTags(places.NewTaxonomy())

	res := a.do(req{Method: "GET", Path: "/opinion-tags", Token: token})
	all := decodeTags(t, res)
	if len(all) != len(catalogue.All()) || res.Header.Get("Content-Language") != "en" {
		t.Fatalf("all: %d tags (want %d), Content-Language %q", len(all), len(catalogue.All()), res.Header.Get("Content-Language"))
	}
	rank := map[string]int{"POSITIVE": 0, "NEUTRAL": 1, "NEGATIVE": 2}
	for i, tg := range all {
		if want, _ := catalogue.Lookup(tg.TagID); tg.Label != want.En || tg.Type != string(want.Type) {
			t.Errorf("%+v, want label %q type %s", tg, want.En, want.Type)
		}
		if i > 0 && rank[tg.Type] < rank[all[i-1].Type] {
			t.Errorf("%s (%s) after %s (%s): want POSITIVE, NEUTRAL, NEGATIVE", tg.TagID, tg.Type, all[i-1].TagID, all[i-1].Type)
		}
	}
	// A blank category_id is no category.
	if got := decodeTags(t, a.do(req{Method: "GET", Path: "/opinion-tags?category_id=", Token: token})); len(got) != len(all) {
		t.Errorf("blank category_id: %d tags, want all %d", len(got), len(all))
	}

	// A category of each level: its own reasons, those of the levels above and the general ones.
	for _, tc := range []struct {
		category string
		has, not []string
	}{
		{"100000", []string{"tasty", "long_queue", "worth_it"}, []string{"great_coffee", "must_see"}},
		{"201000", []string{"great_coffee", "tasty", "worth_it"}, []string{"must_see"}},
		{"202001", []string{"good_desserts", "tasty"}, []string{"great_coffee"}},
		{"301003", []string{"must_see", "rich_history", "crowded"}, []string{"tasty"}},
		{"401001", []string{"clean", "small_rooms"}, []string{"tasty"}},
	} {
		ids := tagIDsOf(decodeTags(t, a.do(req{Method: "GET", Path: "/opinion-tags?category_id=" + tc.category, Token: token})))
		want, _ := catalogue.For(tc.category)
		if len(ids) != len(want) || len(ids) >= len(all) {
			t.Errorf("%s: %d tags, want the catalogue's %d (fewer than all %d)", tc.category, len(ids), len(want), len(all))
		}
		for _, id := range tc.has {
			if !slices.Contains(ids, id) {
				t.Errorf("%s: %v lacks %s", tc.category, ids, id)
			}
		}
		for _, id := range tc.not {
			if slices.Contains(ids, id) {
				t.Errorf("%s: %v holds %s", tc.category, ids, id)
			}
		}
	}

	// Not a category: 400 naming the field.
	for _, bad := range []string{"999999", "restaurant", "101"} {
		p := a.do(req{Method: "GET", Path: "/opinion-tags?category_id=" + bad, Token: token}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if errs, _ := p["errors"].([]any); len(errs) != 1 || errs[0].(map[string]any)["field"] != "category_id" {
			t.Errorf("category_id=%s: errors %v, want one on category_id", bad, p["errors"])
		}
	}

	// Korean when the request prefers it; English otherwise.
	for header, want := range map[string]string{
		"ko-KR,ko;q=0.9,en;q=0.8": "ko", "ko": "ko", "en;q=0.9, ko;q=0.5": "en", "ko;q=0.2, en": "en",
		"fr-FR": "en", "": "en", "a;q=x;;": "en",
	} {
		res := a.do(req{Method: "GET", Path: "/opinion-tags?category_id=101000", Token: token, Header: map[string]string{"Accept-Language": header}})
		tags := decodeTags(t, res)
		tasty, _ := catalogue.Lookup("tasty")
		i := slices.Index(tagIDsOf(tags), "tasty")
		if res.Header.Get("Content-Language") != want || i < 0 || tags[i].Label != tasty.Label(want) {
			t.Errorf("Accept-Language %q: Content-Language %q, tasty %v; want %s", header, res.Header.Get("Content-Language"), tags, want)
		}
		if !slices.Contains(res.Header.Values("Vary"), "Accept-Language") {
			t.Errorf("Accept-Language %q: Vary %q lacks Accept-Language", header, res.Header.Values("Vary"))
		}
	}

	// Guests of any plan or collection read it; nobody else without signing in.
	plan := a.createPlan(token, "Tags", "2026-04-01", "2026-04-02")
	guest := a.guestOf(t, a.invite(token, "/plans/"+plan.PlanID))
	if got := decodeTags(t, a.do(req{Method: "GET", Path: "/opinion-tags?category_id=300000", Client: guest, Header: map[string]string{"Accept": "application/json"}})); len(got) == 0 {
		t.Error("a guest got no tags")
	}
	a.do(req{Method: "GET", Path: "/opinion-tags"}).problem(t, http.StatusUnauthorized, "MISSING_TOKEN")
}

// An opinion's tag_ids are the catalogue's ids; ids a client makes up are kept as given.
func TestOpinionTagIDsAreKeptAsGiven(t *testing.T) {
	f := newPlanFixture(t)
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	path := f.blocks + "/" + tb.Candidates[0].BlockID + "/opinions"
	res := f.a.do(req{Method: "POST", Path: path, Token: f.ben, Body: map[string]any{"type": "POSITIVE", "tag_ids": []string{"must_see", "my-own_reason9"}}})
	var op opinionJSON
	if err := json.Unmarshal(res.Body, &op); err != nil || res.Status != http.StatusCreated || !slices.Equal(op.TagIDs, []string{"must_see", "my-own_reason9"}) {
		t.Fatalf("add: %d %s", res.Status, res.Body)
	}
	if op.CreatedAt == "" || op.UpdatedAt != op.CreatedAt {
		t.Errorf("a new opinion's times: created %q, updated %q", op.CreatedAt, op.UpdatedAt)
	}
}
