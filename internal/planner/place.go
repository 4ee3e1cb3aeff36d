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

// ProviderBuiltin is the built-in catalog's provider name.
const ProviderBuiltin = "BUILTIN"
