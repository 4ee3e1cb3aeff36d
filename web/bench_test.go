package web

import (
	"io"
	"net/http"
	"testing"
)

// benchGet measures one GET over loopback HTTP against the real server and database.
func benchGet(b *testing.B, a *testApp, path string, header map[string]string) {
	client := &http.Client{}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, _ := http.NewRequest("GET", a.http.URL+path, nil)
		for k, v := range header {
			r.Header.Set(k, v)
		}
		res, err := client.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
}

func BenchmarkHealthz(b *testing.B) {
	a := newTestApp(b)
	benchGet(b, a, "/healthz", nil)
}

func BenchmarkUsersMe(b *testing.B) {
	a := newTestApp(b)
	token := a.member("bench-1", "Bench")
	benchGet(b, a, "/users/me", map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"})
}

func BenchmarkLandingPage(b *testing.B) {
	a := newTestApp(b)
	benchGet(b, a, "/", map[string]string{"Accept": "text/html"})
}

func BenchmarkSearchPlaces(b *testing.B) {
	a := newTestApp(b)
	a.loadCatalog()
	token := a.member("bench-2", "Bench")
	benchGet(b, a, "/places/search?query=Gyeongbokgung", map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"})
}

func BenchmarkSearchPlacesTypoKorean(b *testing.B) {
	a := newTestApp(b)
	a.loadCatalog()
	token := a.member("bench-3", "Bench")
	benchGet(b, a, "/places/search?query=%EA%B4%91%EC%9E%A5%EC%8B%9C%EC%9E%A5", map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"})
}
