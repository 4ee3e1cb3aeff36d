package planner

// Place is a real-world place from a provider (the built-in catalog, Google, OpenStreetMap) or
// entered by hand (provider MANUAL).
type Place struct {
	ID              string
	Provider        string
	ProviderPlaceID string
	Name            string
	Names           []string // other names: the local-script name first, then alternates
	Address         string
	LocalAddress    string
	City            string
	// Category is the taxonomy leaf (level 3) and its parents, as ids.
	CategoryLevel1, CategoryLevel2, CategoryLevel3 string
	PrimaryType, PrimaryTypeName                   string // the provider's own type
	MapsURI                                        string
	Photos                                         []string
	// Latitude and Longitude are decimal degrees as text ("37.579617"), "" when unknown.
	Latitude, Longitude string
}

// SearchLimit is how many places a place search answers at most.
const SearchLimit = 10

// ProviderBuiltin is the built-in catalog's provider name.
const ProviderBuiltin = "BUILTIN"

// Member is a member of a plan or collection as others see them (snapshots of the user's
// nickname and picture).
type Member struct {
	ID       string `db:"id"`
	Nickname string `db:"nickname"`
	Picture  string `db:"picture"`
	Role     Role   `db:"role"`
}

// Preference is a member's PICK or PASS on a collection place.
type Preference string

// Preferences; NOTHING is "no preference".
const (
	PreferencePick    Preference = "PICK"
	PreferencePass    Preference = "PASS"
	PreferenceNothing Preference = "NOTHING"
)

// CollectionPlace is a place in a collection with who added it, its memo and the members'
// picks and passes.
type CollectionPlace struct {
	ID           string
	CollectionID string
	Memo         string
	Place        Place
	AddedBy      Member
	Picked       []Member
	Passed       []Member
	MyPreference Preference
	// SocialMedia is the page the place was found on (detail views only; nil otherwise).
	SocialMedia *SocialMedia
	// Version counts the changes to the place's memo (picks and passes are each member's own).
	Version int
}

// CollectionPlaceSort orders a collection's places.
type CollectionPlaceSort struct {
	Column      string // created_at or updated_at
	OldestFirst bool
}

// PlaceFilter narrows a collection's places, for its list and its map alike; zero fields
// select everything.
type PlaceFilter struct {
	AddedBy  string   // a collection member id
	Category string   // a level-1 category id of the taxonomy ("200000" Dessert)
	Picked   PickedBy // whose picks a place must have
}

// PickedBy is the picked filter: places picked by the reader, or by any current member.
type PickedBy string

// The picked filters; "" selects every place.
const (
	PickedByMe     PickedBy = "ME"
	PickedByAnyone PickedBy = "ANYONE"
)

// OtherCategory is the level-1 category of places without one (a name entered by hand): the
// taxonomy's General, where cards put them too.
const OtherCategory = "900000"

// MapPinsMax bounds the places one map of a collection shows; past it the map says so.
const MapPinsMax = 1000
