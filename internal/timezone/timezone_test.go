package timezone

import "testing"

func TestAt(t *testing.T) {
	for _, c := range []struct {
		name     string
		lat, lon float64
		want     string
	}{
		{"Gyeongbokgung", 37.579617, 126.977041, "Asia/Seoul"},
		{"Seongsan Ilchulbong", 33.458031, 126.942508, "Asia/Seoul"},
		{"Senso-ji", 35.714765, 139.796655, "Asia/Tokyo"},
		{"Eiffel Tower", 48.858370, 2.294481, "Europe/Paris"},
		{"British Museum", 51.519413, -0.126957, "Europe/London"},
		{"Central Park", 40.782865, -73.965355, "America/New_York"},
		{"Sagrada Familia", 41.403629, 2.174356, "Europe/Madrid"},
		{"Grand Palace", 13.750, 100.4913, "Asia/Bangkok"},
		{"out of range", 91, 0, ""},
	} {
		if got := At(c.lat, c.lon); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestLoad(t *testing.T) {
	for _, ok := range []string{"Asia/Seoul", "UTC", "America/Argentina/Buenos_Aires"} {
		if _, err := Load(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "Local", "Mars/Olympus", "../etc/passwd", "/etc/localtime", "Asia/Seoul\x00"} {
		if _, err := Load(bad); err != ErrUnknown {
			t.Errorf("%q: %v, want ErrUnknown", bad, err)
		}
	}
}
