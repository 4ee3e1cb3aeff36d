// Package places finds places: the built-in catalog and other providers, and the category
// taxonomy every provider's place types map into.
package places

// Category is one node of the three-level taxonomy, or a provider's own type.
type Category struct {
	ID   string `json:"category_id"`
	Name string `json:"name"`
}

// Categories is a place's position in the taxonomy plus the provider's own type.
type Categories struct {
	Level1      Category `json:"level1"`
	Level2      Category `json:"level2"`
	Level3      Category `json:"level3"`
	PrimaryType Category `json:"primary_type"`
}

// node is a taxonomy entry: its id, name and parent id ("" for level 1).
type node struct{ id, name, parent string }

// taxonomy is the one list of categories. Ids are stable: level 1 are multiples of 100000,
// level 2 of 1000 under their level 1, level 3 count up from their level 2. Never renumber;
// add new leaves at the end of their group.
var taxonomy = []node{
	{"100000", "Food & drink", ""},
	{"101000", "Restaurant", "100000"},
	{"101001", "Restaurant", "101000"},
	{"101002", "Korean", "101000"},
	{"101003", "Japanese", "101000"},
	{"101004", "Ramen & noodles", "101000"},
	{"101005", "Sushi", "101000"},
	{"101006", "Barbecue", "101000"},
	{"101007", "Seafood", "101000"},
	{"101008", "French", "101000"},
	{"101009", "Italian", "101000"},
	{"101010", "Pizza", "101000"},
	{"101011", "Spanish & tapas", "101000"},
	{"101012", "Thai", "101000"},
	{"101013", "American", "101000"},
	{"101014", "Steakhouse", "101000"},
	{"101015", "Deli", "101000"},
	{"101016", "Street food", "101000"},
	{"101017", "Food market", "101000"},
	{"102000", "Bar", "100000"},
	{"102001", "Bar", "102000"},
	{"102002", "Pub", "102000"},
	{"102003", "Wine bar", "102000"},

	{"200000", "Dessert", ""},
	{"201000", "Cafe", "200000"},
	{"201001", "Cafe", "201000"},
	{"201002", "Coffee shop", "201000"},
	{"201003", "Tea house", "201000"},
	{"202000", "Dessert", "200000"},
	{"202001", "Bakery", "202000"},
	{"202002", "Dessert shop", "202000"},
	{"202003", "Ice cream", "202000"},

	{"300000", "Sightseeing", ""},
	{"301000", "Attraction", "300000"},
	{"301001", "Tourist attraction", "301000"},
	{"301002", "Historical landmark", "301000"},
	{"301003", "Palace", "301000"},
	{"301004", "Castle", "301000"},
	{"301005", "Monument", "301000"},
	{"301006", "Village", "301000"},
	{"301007", "Neighborhood", "301000"},
	{"302000", "Culture", "300000"},
	{"302001", "Museum", "302000"},
	{"302002", "Art gallery", "302000"},
	{"302003", "History museum", "302000"},
	{"302004", "Theater", "302000"},
	{"302005", "Stadium", "302000"},
	{"303000", "Park", "300000"},
	{"303001", "Park", "303000"},
	{"303002", "Garden", "303000"},
	{"303003", "National park", "303000"},
	{"304000", "Nature", "300000"},
	{"304001", "Beach", "304000"},
	{"304002", "Mountain", "304000"},
	{"304003", "Hiking area", "304000"},
	{"304004", "Island", "304000"},
	{"304005", "Waterfall", "304000"},
	{"305000", "Religious site", "300000"},
	{"305001", "Buddhist temple", "305000"},
	{"305002", "Shinto shrine", "305000"},
	{"305003", "Church", "305000"},
	{"305004", "Cathedral", "305000"},
	{"305005", "Mosque", "305000"},
	{"306000", "Theme park", "300000"},
	{"306001", "Amusement park", "306000"},
	{"306002", "Theme park", "306000"},
	{"306003", "Zoo", "306000"},
	{"306004", "Aquarium", "306000"},
	{"307000", "Viewing", "300000"},
	{"307001", "Observation deck", "307000"},
	{"307002", "Viewpoint", "307000"},
	{"308000", "Nightlife", "300000"},
	{"308001", "Night club", "308000"},
	{"308002", "Live music", "308000"},

	{"400000", "Lodging", ""},
	{"401000", "Lodging", "400000"},
	{"401001", "Hotel", "401000"},
	{"401002", "Hostel", "401000"},
	{"401003", "Ryokan", "401000"},
	{"401004", "Guest house", "401000"},

	{"500000", "Shopping", ""},
	{"501000", "Shopping", "500000"},
	{"501001", "Market", "501000"},
	{"501002", "Shopping mall", "501000"},
	{"501003", "Department store", "501000"},
	{"501004", "Shopping street", "501000"},
	{"501005", "Store", "501000"},
	{"501006", "Book store", "501000"},

	{"900000", "General", ""},
	{"901000", "Activity", "900000"},
	{"901001", "Activity", "901000"},
	{"902000", "Spa", "900000"},
	{"902001", "Spa", "902000"},
	{"902002", "Hot spring", "902000"},
	{"902003", "Public bath", "902000"},
	{"903000", "Transport", "900000"},
	{"903001", "Train station", "903000"},
	{"903002", "Airport", "903000"},
	{"903003", "Ferry terminal", "903000"},
	{"904000", "Amenities", "900000"},
	{"904001", "Amenities", "904000"},
	{"905000", "Other", "900000"},
	{"905001", "Other", "905000"},
}

// OtherLeaf is where unknown types fall: General › Other › Other.
const OtherLeaf = "905001"

// Taxonomy resolves leaves to their three levels.
type Taxonomy struct {
	nodes map[string]node
}

// NewTaxonomy indexes the taxonomy.
func NewTaxonomy() *Taxonomy {
	t := &Taxonomy{nodes: make(map[string]node, len(taxonomy))}
	for _, n := range taxonomy {
		t.nodes[n.id] = n
	}
	return t
}

// Categories returns the three levels of a leaf id (General › Other › Other for an unknown
// one) with the provider's own type.
func (t *Taxonomy) Categories(leaf string, primaryType Category) Categories {
	l3, ok := t.nodes[leaf]
	if !ok || l3.parent == "" || t.nodes[l3.parent].parent == "" {
		l3 = t.nodes[OtherLeaf]
	}
	l2 := t.nodes[l3.parent]
	l1 := t.nodes[l2.parent]
	return Categories{
		Level1:      Category{l1.id, l1.name},
		Level2:      Category{l2.id, l2.name},
		Level3:      Category{l3.id, l3.name},
		PrimaryType: primaryType,
	}
}

// Name is the name of a category id of any level, "" for an unknown id.
func (t *Taxonomy) Name(id string) string { return t.nodes[id].name }

// Lineage is a category id of any level followed by its ancestors up to level 1 (a leaf gives
// three ids, a level-1 id one); false for an id not in the taxonomy.
func (t *Taxonomy) Lineage(id string) ([]string, bool) {
	n, ok := t.nodes[id]
	if !ok {
		return nil, false
	}
	out := []string{n.id}
	for n.parent != "" {
		n = t.nodes[n.parent]
		out = append(out, n.id)
	}
	return out, true
}
