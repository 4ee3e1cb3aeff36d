package places

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"tripplan/internal/planner"
)

func tagIDs(tags []OpinionTag) []string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.ID
	}
	return out
}

// The catalogue is well formed: ids opinions can store (the API's tag id pattern), both
// labels, types in the order the pages show them, and for every category of the first two
// levels a reason to like it and one not to.
func TestOpinionTagCatalogue(t *testing.T) {
	tax := NewTaxonomy()
	c := NewOpinionTags(tax)
	all := c.All()
	if len(all) < 30 {
		t.Fatalf("only %d tags", len(all))
	}
	valid := regexp.MustCompile(`^[a-z0-9_-]{1,40}$`) // web/opinions.go's tag id
	last := 0
	for _, tag := range all {
		if !valid.MatchString(tag.ID) {
			t.Errorf("%q is not a valid tag id", tag.ID)
		}
		if strings.TrimSpace(tag.En) == "" || strings.TrimSpace(tag.Ko) == "" || tag.Label("ko") != tag.Ko || tag.Label("en") != tag.En || tag.Label("") != tag.En {
			t.Errorf("%s: labels %q / %q", tag.ID, tag.En, tag.Ko)
		}
		if r := typeRank(tag.Type); r < last {
			t.Errorf("%s (%s) comes after a later type", tag.ID, tag.Type)
		} else {
			last = r
		}
		if got, ok := c.Lookup(tag.ID); !ok || got.ID != tag.ID {
			t.Errorf("Lookup(%s) = %v, %v", tag.ID, got, ok)
		}
	}
	// Ids the pages offered before the catalogue existed stay, so opinions holding them read as words.
	for _, id := range []string{"tasty", "pricey", "long_queue", "cozy", "view", "crowded", "photogenic", "too_far", "clean", "location", "worth_it"} {
		if _, ok := c.Lookup(id); !ok {
			t.Errorf("the catalogue lost %q", id)
		}
	}
	if _, ok := c.Lookup("Great view"); ok {
		t.Error("Lookup found a label as an id")
	}
	for _, n := range taxonomy {
		if tax.nodes[n.parent].parent != "" {
			continue // level 3: their level 2's tags, checked here
		}
		tags, ok := c.For(n.id)
		if !ok {
			t.Fatalf("For(%s) = unknown", n.id)
		}
		if !slices.ContainsFunc(tags, func(x OpinionTag) bool { return x.Type == planner.OpinionPositive }) ||
			!slices.ContainsFunc(tags, func(x OpinionTag) bool { return x.Type == planner.OpinionNegative }) {
			t.Errorf("%s (%s) offers %v: no reason to like it or none not to", n.id, n.name, tagIDs(tags))
		}
	}
}

// For at each level of the taxonomy: a category's own tags, its ancestors' and the general
// ones; never a sibling's or a descendant's.
func TestOpinionTagsForACategory(t *testing.T) {
	c := NewOpinionTags(NewTaxonomy())
	for _, tc := range []struct {
		category string
		has, not []string
	}{
		{"100000", []string{"tasty", "long_queue", "worth_it", "too_far"}, []string{"great_coffee", "must_see", "good_drinks", "clean"}},
		{"101000", []string{"tasty", "vegetarian_friendly", "pricey"}, []string{"good_drinks", "great_coffee"}},
		{"101005", []string{"tasty", "vegetarian_friendly", "book_ahead"}, []string{"good_drinks", "must_see"}},
		{"102001", []string{"good_drinks", "tasty"}, nil},
		{"201002", []string{"great_coffee", "good_desserts", "view", "tasty"}, []string{"must_see"}},
		{"202001", []string{"good_desserts", "tasty"}, []string{"great_coffee"}},
		{"300000", []string{"must_see", "view", "crowded"}, []string{"rich_history", "tasty"}},
		{"301003", []string{"must_see", "rich_history", "beautiful_at_night"}, []string{"tasty", "lovely_nature"}},
		{"401001", []string{"clean", "location", "small_rooms", "view"}, []string{"tasty", "must_see"}},
		{"905001", []string{"worth_it", "too_far", "if_time"}, []string{"tasty", "must_see", "clean"}},
	} {
		tags, ok := c.For(tc.category)
		if !ok {
			t.Fatalf("For(%s): unknown", tc.category)
		}
		ids := tagIDs(tags)
		for _, id := range tc.has {
			if !slices.Contains(ids, id) {
				t.Errorf("For(%s) = %v lacks %s", tc.category, ids, id)
			}
		}
		for _, id := range tc.not {
			if slices.Contains(ids, id) {
				t.Errorf("For(%s) = %v holds %s", tc.category, ids, id)
			}
		}
		if len(ids) >= len(c.All()) {
			t.Errorf("For(%s) offers every tag", tc.category)
		}
	}
	for _, bad := range []string{"", "999999", "101", "restaurant", "101000 "} {
		if tags, ok := c.For(bad); ok {
			t.Errorf("For(%q) = %v, want unknown", bad, tagIDs(tags))
		}
	}
}

func TestMalformedOpinionTagCataloguesAreRefused(t *testing.T) {
	tax := NewTaxonomy()
	for name, data := range map[string]string{
		"not JSON":         `{"tags": [`,
		"duplicate id":     `{"tags": [{"id": "a", "type": "POSITIVE", "en": "A", "ko": "가"}, {"id": "a", "type": "NEGATIVE", "en": "B", "ko": "나"}]}`,
		"empty id":         `{"tags": [{"id": "", "type": "POSITIVE", "en": "A", "ko": "가"}]}`,
		"unknown type":     `{"tags": [{"id": "a", "type": "GOOD", "en": "A", "ko": "가"}]}`,
		"no Korean":        `{"tags": [{"id": "a", "type": "POSITIVE", "en": "A", "ko": ""}]}`,
		"unknown category": `{"tags": [{"id": "a", "type": "POSITIVE", "en": "A", "ko": "가", "categories": ["123456"]}]}`,
	} {
		if _, err := loadOpinionTags([]byte(data), tax); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}
