package places

import (
	"testing"

	"tripplan/internal/planner"
)

func TestDisplayName(t *testing.T) {
	palace := planner.Place{Name: "Gyeongbokgung Palace", Names: []string{"경복궁", "Gyeongbokgung"}}
	tower := planner.Place{Name: "Eiffel Tower", Names: []string{"Tour Eiffel", "에펠탑", "エッフェル塔"}}
	temple := planner.Place{Name: "Kinkaku-ji", Names: []string{"金閣寺"}}
	market := planner.Place{Name: "광장시장", Names: []string{"Gwangjang Market"}}
	plain := planner.Place{Name: "Blue Bottle", Names: []string{}}
	same := planner.Place{Name: "N Seoul Tower", Names: []string{"N Seoul Tower"}}
	for _, c := range []struct {
		lang           string
		place          planner.Place
		name, subtitle string
	}{
		{"ko", palace, "경복궁", "Gyeongbokgung Palace"},
		{"en", palace, "Gyeongbokgung Palace", "경복궁"},
		{"ko", tower, "에펠탑", "Eiffel Tower"},
		{"en", tower, "Eiffel Tower", "Tour Eiffel"},
		{"ko", temple, "Kinkaku-ji", "金閣寺"},
		{"en", temple, "Kinkaku-ji", "金閣寺"},
		{"ko", market, "광장시장", "Gwangjang Market"},
		{"en", market, "광장시장", "Gwangjang Market"},
		{"ko", plain, "Blue Bottle", ""},
		{"en", plain, "Blue Bottle", ""},
		{"ko", same, "N Seoul Tower", ""},
	} {
		if name, subtitle := DisplayName(c.lang, c.place); name != c.name || subtitle != c.subtitle {
			t.Errorf("DisplayName(%s, %s) = %q, %q; want %q, %q", c.lang, c.place.Name, name, subtitle, c.name, c.subtitle)
		}
	}
}
