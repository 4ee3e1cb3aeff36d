package places

// osmTypes maps OpenStreetMap main tags, as Nominatim reports them ("category:type", e.g.
// "tourism:museum"), to the Google-style types LeafForTypes knows, so every provider lands in
// the one taxonomy. A tag missing here falls to General › Other › Other.
//
// Nominatim's search result carries only the main tag, not religion or cuisine, so a place of
// worship lands on the religious-site leaf "Church" and a restaurant on plain "Restaurant".
var osmTypes = map[string]string{
	// Food and drink
	"amenity:restaurant": "restaurant", "amenity:fast_food": "meal_takeaway",
	"amenity:food_court": "food_court", "amenity:cafe": "cafe", "amenity:ice_cream": "ice_cream_shop",
	"amenity:bar": "bar", "amenity:pub": "pub", "amenity:biergarten": "bar",
	"amenity:nightclub": "night_club", "amenity:marketplace": "market",
	"shop:bakery": "bakery", "shop:pastry": "bakery", "shop:confectionery": "confectionery",

	// Sights and culture
	"tourism:attraction": "tourist_attraction", "tourism:artwork": "tourist_attraction",
	"tourism:museum": "museum", "tourism:gallery": "art_gallery", "tourism:viewpoint": "scenic_point",
	"tourism:zoo": "zoo", "tourism:aquarium": "aquarium", "tourism:theme_park": "theme_park",
	"tourism:information": "tourist_information_center",
	"historic:castle":     "castle", "historic:monument": "monument",
	"historic:memorial": "monument", "historic:ruins": "historical_landmark",
	"historic:archaeological_site": "historical_landmark", "historic:city_gate": "historical_landmark",
	"historic:building": "historical_landmark", "historic:fort": "castle",
	"man_made:tower": "tourist_attraction", "man_made:lighthouse": "tourist_attraction",
	"amenity:theatre": "performing_arts_theater", "amenity:arts_centre": "performing_arts_theater",
	"leisure:stadium":          "stadium",
	"amenity:place_of_worship": "place_of_worship", "building:cathedral": "cathedral",
	"building:church": "church", "building:mosque": "mosque",

	// Parks and nature
	"leisure:park": "park", "leisure:garden": "garden", "leisure:nature_reserve": "park",
	"boundary:national_park": "national_park", "leisure:water_park": "amusement_park",
	"natural:beach": "beach", "leisure:beach_resort": "beach", "natural:peak": "mountain",
	"natural:volcano": "mountain", "natural:waterfall": "waterfall", "waterway:waterfall": "waterfall",
	"place:island": "island", "place:islet": "island",
	"place:village": "village", "place:neighbourhood": "neighborhood", "place:quarter": "neighborhood",

	// Lodging
	"tourism:hotel": "hotel", "tourism:motel": "lodging", "tourism:apartment": "lodging",
	"tourism:hostel": "hostel", "tourism:guest_house": "guest_house",

	// Shopping
	"shop:mall": "shopping_mall", "shop:department_store": "department_store",
	"shop:supermarket": "store", "shop:convenience": "store", "shop:gift": "store",
	"shop:clothes": "clothing_store", "shop:books": "book_store",

	// Transport and amenities
	"railway:station": "train_station", "railway:halt": "train_station",
	"public_transport:station": "transit_station", "amenity:bus_station": "transit_station",
	"aeroway:aerodrome": "airport", "amenity:ferry_terminal": "ferry_terminal",
	"amenity:public_bath": "public_bath",
	"amenity:toilets":     "public_bathroom", "amenity:atm": "atm",
}
