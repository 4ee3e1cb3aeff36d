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

// node is a taxonomy entry: its id, English and Korean names, and parent id ("" for level 1).
type node struct{ id, name, ko, parent string }

// taxonomy is the one list of categories. Ids are stable: level 1 are multiples of 100000,
// level 2 of 1000 under their level 1, level 3 count up from their level 2. Never renumber;
// add new leaves at the end of their group.
var taxonomy = []node{
	{"100000", "Food & drink", "음식", ""},
	{"101000", "Restaurant", "식당", "100000"},
	{"101001", "Restaurant", "식당", "101000"},
	{"101002", "Korean", "한식", "101000"},
	{"101003", "Japanese", "일식", "101000"},
	{"101004", "Ramen & noodles", "라멘·국수", "101000"},
	{"101005", "Sushi", "초밥", "101000"},
	{"101006", "Barbecue", "바비큐", "101000"},
	{"101007", "Seafood", "해산물", "101000"},
	{"101008", "French", "프랑스 음식", "101000"},
	{"101009", "Italian", "이탈리아 음식", "101000"},
	{"101010", "Pizza", "피자", "101000"},
	{"101011", "Spanish & tapas", "스페인 음식·타파스", "101000"},
	{"101012", "Thai", "태국 음식", "101000"},
	{"101013", "American", "미국 음식", "101000"},
	{"101014", "Steakhouse", "스테이크하우스", "101000"},
	{"101015", "Deli", "델리", "101000"},
	{"101016", "Street food", "길거리 음식", "101000"},
	{"101017", "Food market", "먹거리 시장", "101000"},
	{"102000", "Bar", "주점", "100000"},
	{"102001", "Bar", "바", "102000"},
	{"102002", "Pub", "펍", "102000"},
	{"102003", "Wine bar", "와인 바", "102000"},

	{"200000", "Dessert", "디저트", ""},
	{"201000", "Cafe", "카페", "200000"},
	{"201001", "Cafe", "카페", "201000"},
	{"201002", "Coffee shop", "커피숍", "201000"},
	{"201003", "Tea house", "찻집", "201000"},
	{"202000", "Dessert", "디저트", "200000"},
	{"202001", "Bakery", "베이커리", "202000"},
	{"202002", "Dessert shop", "디저트 가게", "202000"},
	{"202003", "Ice cream", "아이스크림", "202000"},

	{"300000", "Sightseeing", "관광", ""},
	{"301000", "Attraction", "관광명소", "300000"},
	{"301001", "Tourist attraction", "관광지", "301000"},
	{"301002", "Historical landmark", "역사 유적", "301000"},
	{"301003", "Palace", "궁궐", "301000"},
	{"301004", "Castle", "성", "301000"},
	{"301005", "Monument", "기념물", "301000"},
	{"301006", "Village", "마을", "301000"},
	{"301007", "Neighborhood", "동네", "301000"},
	{"302000", "Culture", "문화예술", "300000"},
	{"302001", "Museum", "박물관", "302000"},
	{"302002", "Art gallery", "미술관", "302000"},
	{"302003", "History museum", "역사박물관", "302000"},
	{"302004", "Theater", "극장", "302000"},
	{"302005", "Stadium", "경기장", "302000"},
	{"303000", "Park", "공원", "300000"},
	{"303001", "Park", "공원", "303000"},
	{"303002", "Garden", "정원", "303000"},
	{"303003", "National park", "국립공원", "303000"},
	{"304000", "Nature", "자연", "300000"},
	{"304001", "Beach", "해변", "304000"},
	{"304002", "Mountain", "산", "304000"},
	{"304003", "Hiking area", "등산로", "304000"},
	{"304004", "Island", "섬", "304000"},
	{"304005", "Waterfall", "폭포", "304000"},
	{"305000", "Religious site", "종교시설", "300000"},
	{"305001", "Buddhist temple", "사찰", "305000"},
	{"305002", "Shinto shrine", "신사", "305000"},
	{"305003", "Church", "교회", "305000"},
	{"305004", "Cathedral", "성당", "305000"},
	{"305005", "Mosque", "모스크", "305000"},
	{"306000", "Theme park", "테마파크", "300000"},
	{"306001", "Amusement park", "놀이공원", "306000"},
	{"306002", "Theme park", "테마파크", "306000"},
	{"306003", "Zoo", "동물원", "306000"},
	{"306004", "Aquarium", "아쿠아리움", "306000"},
	{"307000", "Viewing", "관람", "300000"},
	{"307001", "Observation deck", "전망대", "307000"},
	{"307002", "Viewpoint", "전망 명소", "307000"},
	{"308000", "Nightlife", "유흥", "300000"},
	{"308001", "Night club", "나이트클럽", "308000"},
	{"308002", "Live music", "라이브 음악", "308000"},

	{"400000", "Lodging", "숙소", ""},
	{"401000", "Lodging", "숙소", "400000"},
	{"401001", "Hotel", "호텔", "401000"},
	{"401002", "Hostel", "호스텔", "401000"},
	{"401003", "Ryokan", "료칸", "401000"},
	{"401004", "Guest house", "게스트하우스", "401000"},

	{"500000", "Shopping", "쇼핑", ""},
	{"501000", "Shopping", "쇼핑", "500000"},
	{"501001", "Market", "시장", "501000"},
	{"501002", "Shopping mall", "쇼핑몰", "501000"},
	{"501003", "Department store", "백화점", "501000"},
	{"501004", "Shopping street", "쇼핑 거리", "501000"},
	{"501005", "Store", "상점", "501000"},
	{"501006", "Book store", "서점", "501000"},

	{"900000", "General", "일반", ""},
	{"901000", "Activity", "액티비티", "900000"},
	{"901001", "Activity", "액티비티", "901000"},
	{"902000", "Spa", "스파", "900000"},
	{"902001", "Spa", "스파", "902000"},
	{"902002", "Hot spring", "온천", "902000"},
	{"902003", "Public bath", "대중목욕탕", "902000"},
	{"903000", "Transport", "교통", "900000"},
	{"903001", "Train station", "기차역", "903000"},
	{"903002", "Airport", "공항", "903000"},
	{"903003", "Ferry terminal", "여객터미널", "903000"},
	{"904000", "Amenities", "편의시설", "900000"},
	{"904001", "Amenities", "편의시설", "904000"},
	{"905000", "Other", "기타", "900000"},
	{"905001", "Other", "기타", "905000"},
}

// OtherLeaf is where unknown types fall: General › Other › Other.
const OtherLeaf = "905001"

// Taxonomy resolves leaves to their three levels, with names in one language.
type Taxonomy struct {
	nodes map[string]node
}

// NewTaxonomy indexes the taxonomy with its English names.
func NewTaxonomy() *Taxonomy { return NewTaxonomyIn("en") }

// NewTaxonomyIn indexes the taxonomy with its names in a language: "ko" gives the Korean
// names this service's first clients key on (식당, 카페, 관광명소, …), anything else English.
func NewTaxonomyIn(lang string) *Taxonomy {
	t := &Taxonomy{nodes: make(map[string]node, len(taxonomy))}
	for _, n := range taxonomy {
		if lang == "ko" {
			n.name = n.ko
		}
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

// TopLevel lists the level-1 categories in the taxonomy's order (the filters of a collection's
// places).
func (t *Taxonomy) TopLevel() []Category {
	var out []Category
	for _, n := range taxonomy {
		if n.parent == "" {
			out = append(out, Category{n.id, t.nodes[n.id].name})
		}
	}
	return out
}

// IsTopLevel tells whether id is a level-1 category.
func IsTopLevel(id string) bool {
	for _, n := range taxonomy {
		if n.id == id {
			return n.parent == ""
		}
	}
	return false
}
