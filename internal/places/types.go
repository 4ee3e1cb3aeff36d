package places

import "strings"

// googleTypes maps Google Places (New) types — also the vocabulary of the built-in catalog —
// to taxonomy leaves. The first type of a place that maps decides its category.
var googleTypes = map[string]string{
	"restaurant": "101001", "food": "101001", "meal_takeaway": "101001", "meal_delivery": "101001",
	"korean_restaurant": "101002", "japanese_restaurant": "101003", "ramen_restaurant": "101004",
	"noodle_restaurant": "101004", "sushi_restaurant": "101005", "barbecue_restaurant": "101006",
	"seafood_restaurant": "101007", "french_restaurant": "101008", "italian_restaurant": "101009",
	"pizza_restaurant": "101010", "spanish_restaurant": "101011", "tapas_bar": "101011",
	"thai_restaurant": "101012", "american_restaurant": "101013", "hamburger_restaurant": "101013",
	"steak_house": "101014", "deli": "101015", "sandwich_shop": "101015", "street_food": "101016",
	"food_court": "101016", "food_market": "101017",
	"bar": "102001", "pub": "102002", "wine_bar": "102003",
	"cafe": "201001", "coffee_shop": "201002", "tea_house": "201003",
	"bakery": "202001", "dessert_shop": "202002", "dessert_restaurant": "202002", "confectionery": "202002",
	"ice_cream_shop":     "202003",
	"tourist_attraction": "301001", "historical_landmark": "301002", "historical_place": "301002",
	"palace": "301003", "castle": "301004", "monument": "301005", "village": "301006",
	"neighborhood": "301007",
	"museum":       "302001", "art_gallery": "302002", "history_museum": "302003",
	"performing_arts_theater": "302004", "stadium": "302005",
	"park": "303001", "garden": "303002", "botanical_garden": "303002", "national_park": "303003",
	"beach": "304001", "mountain": "304002", "hiking_area": "304003", "island": "304004",
	"waterfall":       "304005",
	"buddhist_temple": "305001", "shinto_shrine": "305002", "church": "305003", "cathedral": "305004",
	"mosque": "305005", "place_of_worship": "305003",
	"amusement_park": "306001", "theme_park": "306002", "zoo": "306003", "aquarium": "306004",
	"observation_deck": "307001", "scenic_point": "307002",
	"night_club": "308001", "live_music_venue": "308002",
	"hotel": "401001", "lodging": "401001", "resort_hotel": "401001", "hostel": "401002",
	"ryokan": "401003", "japanese_inn": "401003", "guest_house": "401004", "bed_and_breakfast": "401004",
	"market": "501001", "shopping_mall": "501002", "department_store": "501003",
	"shopping_street": "501004", "store": "501005", "clothing_store": "501005", "book_store": "501006",
	"spa": "902001", "hot_spring": "902002", "public_bath": "902003",
	"train_station": "903001", "subway_station": "903001", "transit_station": "903001",
	"airport": "903002", "ferry_terminal": "903003",
	"tourist_information_center": "904001", "atm": "904001", "public_bathroom": "904001",
}

// LeafForTypes returns the taxonomy leaf of the first type that maps, or OtherLeaf.
func LeafForTypes(types ...string) string {
	for _, t := range types {
		if leaf, ok := googleTypes[strings.ToLower(strings.TrimSpace(t))]; ok {
			return leaf
		}
	}
	return OtherLeaf
}

// TypeName turns a provider type into its display name: "korean_restaurant" → "Korean restaurant".
func TypeName(t string) string {
	s := strings.ReplaceAll(strings.TrimSpace(t), "_", " ")
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
