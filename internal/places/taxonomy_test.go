package places

import (
	"strconv"
	"testing"
)

func TestTaxonomyIDsAreStableAndWellFormed(t *testing.T) {
	seen := map[string]bool{}
	tax := NewTaxonomy()
	for _, n := range taxonomy {
		if seen[n.id] {
			t.Fatalf("duplicate id %s", n.id)
		}
		seen[n.id] = true
		id, err := strconv.Atoi(n.id)
		if err != nil || len(n.id) != 6 {
			t.Fatalf("id %q is not six digits", n.id)
		}
		switch {
		case n.parent == "":
			if id%100000 != 0 {
				t.Errorf("level 1 %s is not a multiple of 100000", n.id)
			}
		case tax.nodes[n.parent].parent == "":
			p, _ := strconv.Atoi(n.parent)
			if id%1000 != 0 || id/100000 != p/100000 {
				t.Errorf("level 2 %s does not sit under %s", n.id, n.parent)
			}
		default:
			p, _ := strconv.Atoi(n.parent)
			if id/1000 != p/1000 || id == p {
				t.Errorf("level 3 %s does not sit under %s", n.id, n.parent)
			}
		}
	}
	// The ids the product owner fixed.
	want := map[string]string{
		"100000": "Food & drink", "200000": "Dessert", "300000": "Sightseeing", "400000": "Lodging",
		"500000": "Shopping", "900000": "General", "101000": "Restaurant", "102000": "Bar", "201000": "Cafe",
		"202000": "Dessert", "301000": "Attraction", "302000": "Culture", "303000": "Park", "304000": "Nature",
		"305000": "Religious site", "306000": "Theme park", "307000": "Viewing", "308000": "Nightlife",
		"401000": "Lodging", "501000": "Shopping", "901000": "Activity", "902000": "Spa", "903000": "Transport",
		"904000": "Amenities", "905000": "Other",
	}
	for id, name := range want {
		if tax.nodes[id].name != name {
			t.Errorf("%s = %q, want %q", id, tax.nodes[id].name, name)
		}
	}
	for typ, leaf := range googleTypes {
		n, ok := tax.nodes[leaf]
		if !ok || n.parent == "" || tax.nodes[n.parent].parent == "" {
			t.Errorf("type %s maps to %s, which is not a leaf", typ, leaf)
		}
	}
}

func TestClassify(t *testing.T) {
	tax := NewTaxonomy()
	c := tax.Categories(LeafForTypes("point_of_interest", "palace"), Category{"palace", TypeName("palace")})
	if c.Level1.ID != "300000" || c.Level2.ID != "301000" || c.Level3 != (Category{"301003", "Palace"}) || c.PrimaryType.Name != "Palace" {
		t.Fatalf("palace: %+v", c)
	}
	unknown := tax.Categories(LeafForTypes("spaceport"), Category{"spaceport", "Spaceport"})
	if unknown.Level1.ID != "900000" || unknown.Level2.ID != "905000" || unknown.Level3.ID != "905001" {
		t.Fatalf("unknown type: %+v", unknown)
	}
	if got := tax.Categories("nonsense", Category{}); got.Level3.ID != OtherLeaf {
		t.Fatalf("unknown leaf: %+v", got)
	}
	if TypeName("korean_restaurant") != "Korean restaurant" {
		t.Fatal(TypeName("korean_restaurant"))
	}
}

// The Korean names of the level-2 categories are the ones the service's first clients key
// their icons and opinion reasons on (docs/API.md §Languages); every category has one.
func TestKoreanCategoryNames(t *testing.T) {
	ko := NewTaxonomyIn("ko")
	want := map[string]string{
		"101000": "식당", "102000": "주점", "201000": "카페", "202000": "디저트", "301000": "관광명소", "302000": "문화예술",
		"303000": "공원", "304000": "자연", "305000": "종교시설", "306000": "테마파크", "307000": "관람", "308000": "유흥",
		"401000": "숙소", "501000": "쇼핑", "901000": "액티비티", "902000": "스파", "903000": "교통", "904000": "편의시설", "905000": "기타",
	}
	for _, n := range taxonomy {
		isLevel2 := n.parent != "" && ko.nodes[n.parent].parent == ""
		if got, fixed := want[n.id]; isLevel2 && (!fixed || got != ko.Name(n.id)) {
			t.Errorf("level 2 %s (%s) is %q in Korean, want %q", n.id, n.name, ko.Name(n.id), got)
		}
		if ko.Name(n.id) == "" || ko.Name(n.id) == n.name {
			t.Errorf("%s (%s) has no Korean name", n.id, n.name)
		}
	}
	c := ko.Categories("301003", Category{})
	if c.Level1.Name != "관광" || c.Level2.Name != "관광명소" || c.Level3.Name != "궁궐" || c.Level3.ID != "301003" {
		t.Fatalf("Korean categories of a palace: %+v", c)
	}
	if NewTaxonomy().Name("301003") != "Palace" {
		t.Fatal("the default taxonomy is not English")
	}
}
