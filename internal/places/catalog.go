package places

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"

	"tripplan/internal/planner"
)

// catalogFS holds the built-in catalog: one JSON file per destination (see catalog/README.md
// for the format, sources and licence).
//
//go:embed catalog/*.json
var catalogFS embed.FS

// entry is one place of a catalog file.
type entry struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Names        []string `json:"names"`
	Address      string   `json:"address"`
	LocalAddress string   `json:"local_address"`
	City         string   `json:"city"`
	Country      string   `json:"country"`
	Lat          float64  `json:"lat"`
	Lng          float64  `json:"lng"`
	Type         string   `json:"type"`
}

var slug = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Catalog returns every place of the built-in catalog and a version that changes whenever
// the data does.
func Catalog() (places []planner.Place, version string, err error) {
	entries, version, err := catalogEntries()
	if err != nil {
		return nil, "", err
	}
	tax := NewTaxonomy()
	places = make([]planner.Place, len(entries))
	for i, e := range entries {
		places[i] = e.place(tax)
	}
	return places, version, nil
}

// catalogEntries reads and checks every entry of the catalog files, in file order, and the
// data's version.
func catalogEntries() (entries []entry, version string, err error) {
	files, err := fs.Glob(catalogFS, "catalog/*.json")
	if err != nil {
		return nil, "", err
	}
	sort.Strings(files)
	h := sha256.New()
	seen := map[string]string{}
	for _, f := range files {
		data, err := catalogFS.ReadFile(f)
		if err != nil {
			return nil, "", err
		}
		h.Write([]byte(f))
		h.Write(data)
		var list []entry
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, "", fmt.Errorf("%s: %w", f, err)
		}
		for _, e := range list {
			if err := e.check(); err != nil {
				return nil, "", fmt.Errorf("%s: %s: %w", f, e.ID, err)
			}
			if other, dup := seen[e.ID]; dup {
				return nil, "", fmt.Errorf("%s: id %s already used in %s", f, e.ID, other)
			}
			seen[e.ID] = f
			entries = append(entries, e)
		}
	}
	return entries, hex.EncodeToString(h.Sum(nil))[:16], nil
}

func (e entry) check() error {
	switch {
	case !slug.MatchString(e.ID):
		return fmt.Errorf("id must be a lower-case slug")
	case e.Name == "" || e.Address == "" || e.City == "" || len(e.Country) != 2:
		return fmt.Errorf("name, address, city and country are required")
	case e.Lat < -90 || e.Lat > 90 || e.Lng < -180 || e.Lng > 180 || e.Lat == 0 && e.Lng == 0:
		return fmt.Errorf("coordinates out of range")
	case LeafForTypes(e.Type) == OtherLeaf:
		return fmt.Errorf("type %q is not in the taxonomy mapping", e.Type)
	}
	return nil
}

func (e entry) place(tax *Taxonomy) planner.Place {
	c := tax.Categories(LeafForTypes(e.Type), Category{})
	lat, lng := strconv.FormatFloat(e.Lat, 'f', 6, 64), strconv.FormatFloat(e.Lng, 'f', 6, 64)
	names := e.Names
	if names == nil {
		names = []string{}
	}
	return planner.Place{
		Provider: planner.ProviderBuiltin, ProviderPlaceID: e.ID,
		Name: e.Name, Names: names, Address: e.Address, LocalAddress: e.LocalAddress, City: e.City,
		CategoryLevel1: c.Level1.ID, CategoryLevel2: c.Level2.ID, CategoryLevel3: c.Level3.ID,
		PrimaryType: e.Type, PrimaryTypeName: TypeName(e.Type),
		// The catalog has no map of its own: link to the point on OpenStreetMap.
		MapsURI:  "https://www.openstreetmap.org/?mlat=" + lat + "&mlon=" + lng + "#map=18/" + lat + "/" + lng,
		Photos:   []string{},
		Latitude: lat, Longitude: lng,
	}
}
