package e2e

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tripplan/internal/places"
	"tripplan/internal/planner"
)

// mapPins is a JavaScript expression: how many places the collection map shows, each single
// pin once and each cluster as many as it holds (leaflet.markercluster's bubbles), or -1 while
// the map is not drawn.
const mapPins = `(() => {
	const canvas = document.querySelector("#map-panel [data-map-canvas][data-drawn]");
	if (!canvas) return -1;
	return [...canvas.querySelectorAll(".leaflet-marker-icon")].reduce((n, m) =>
		n + (m.classList.contains("marker-cluster") ? parseInt(m.textContent, 10) : 1), 0);
})()`

// listedNames is a JavaScript expression: the names of the place cards the list shows.
const listedNames = `[...document.querySelectorAll("#place-list li[id^=place-] h3 a")].map(a => a.textContent.trim())`

// TestCollectionMap is issue 24 item 4: the collection page pins every place of the
// collection on a map, in clusters where they crowd; a filter (here the category) narrows the
// list and the map alike, and is kept in the address, so a reload shows the same. On a phone
// the list and the map are a "List | Map" toggle, and nothing is wider than the screen.
func TestCollectionMap(t *testing.T) {
	s := newScenario(t, "ana")
	ana, base := s.browsers[0], s.srv.base

	var colID, category, categoryName string
	var inCategory []string // the names of the places of that category
	const total = 30
	s.step("Ana has a collection of 30 places of Seoul", func(t *testing.T) {
		devSignIn(t, ana, base, "demo-ana")
		col := sendJSON[collectionJSON](t, ana, "POST", "/collections", map[string]string{"title": "Seoul on a map"})
		colID = col.CollectionID
		all, _, err := places.Catalog()
		if err != nil {
			t.Fatal(err)
		}
		// Seoul's places of each category in turn (the catalog lists them category by category).
		var groups [][]planner.Place
		group := map[string]int{}
		for _, p := range all {
			if p.City != "Seoul" || p.Latitude == "" || utf8.RuneCountInString(p.Name) > 50 { // search's limit
				continue
			}
			i, ok := group[p.CategoryLevel1]
			if !ok {
				i, group[p.CategoryLevel1] = len(groups), len(groups)
				groups = append(groups, nil)
			}
			groups[i] = append(groups[i], p)
		}
		var mixed []planner.Place
		for n := 0; len(mixed) < 3*total; n++ {
			before := len(mixed)
			for _, g := range groups {
				if n < len(g) {
					mixed = append(mixed, g[n])
				}
			}
			if len(mixed) == before {
				break
			}
		}
		added := map[string]bool{}
		byCategory := map[string][]string{}
		for _, p := range mixed {
			if len(added) == total {
				break
			}
			found := getJSON[[]struct {
				PlaceID  string `json:"place_id"`
				Name     string `json:"name"`
				Category struct {
					Level1 struct {
						ID   string `json:"category_id"`
						Name string `json:"name"`
					} `json:"level1"`
				} `json:"category"`
			}](t, ana, "/places/search?query="+url.QueryEscape(p.Name))
			if len(found) == 0 || added[found[0].PlaceID] {
				continue
			}
			f := found[0]
			sendJSON[any](t, ana, "POST", "/collections/"+colID+"/places", map[string]string{"place_id": f.PlaceID})
			added[f.PlaceID] = true
			byCategory[f.Category.Level1.ID+" "+f.Category.Level1.Name] = append(byCategory[f.Category.Level1.ID+" "+f.Category.Level1.Name], f.Name)
		}
		if len(added) != total {
			t.Fatalf("added %d places, want %d", len(added), total)
		}
		// The filter to apply: the category with the most places, short of all of them.
		for k, names := range byCategory {
			if len(names) < total && len(names) > len(inCategory) {
				category, categoryName, _ = strings.Cut(k, " ")
				inCategory = names
			}
		}
		if len(inCategory) < 2 {
			t.Fatalf("no category holds 2 to %d of the places: %v", total-1, byCategory)
		}
		slices.Sort(inCategory)
	})

	page := base + "/collections/"
	s.step("at 1440x900 the list and the map are side by side, every place pinned, in clusters", func(t *testing.T) {
		desktop.emulate(t, ana)
		ana.do(t, "open the collection", chromedp.Navigate(page+colID))
		ana.waitUntil(t, "every place on the map", fmt.Sprintf(`%s === %d`, mapPins, total))
		if n := eval[int](t, ana, `document.querySelectorAll("#map-panel .marker-cluster").length`); n == 0 {
			t.Errorf("30 places of one city show no cluster")
		}
		if n := eval[int](t, ana, `document.querySelectorAll("#place-list li[id^=place-]").length`); n != 20 {
			t.Errorf("the list's first page shows %d places, want 20 (the map holds all 30)", n)
		}
		if !eval[bool](t, ana, `(l => l.right <= document.querySelector("#map-panel").getBoundingClientRect().left)(document.querySelector("#places-panel").getBoundingClientRect())`) {
			t.Errorf("the list and the map are not side by side at 1440 px")
		}
		if got := eval[string](t, ana, `document.querySelector("#map-panel [data-map-canvas]").getAttribute("aria-label")`); got != "Map of the places in Seoul on a map" {
			t.Errorf("the map's name is %q", got)
		}
		if eval[bool](t, ana, `getComputedStyle(document.querySelector("[data-map-toggle]")).display !== "none"`) {
			t.Errorf("the List | Map toggle shows at 1440 px")
		}
		fitsScreen(t, ana, 1440, "collection at 1440")
		for _, v := range axeViolations(t, ana, axeSource(t)) {
			t.Errorf("axe %s violation %q: %s; elements: %s", v.Impact, v.ID, v.Help, strings.Join(v.Targets, " | "))
		}
		screenshot(t, ana, "collection-map-1440", false)
		// Scrolled to the places, the map stays beside the list.
		eval[chromedp.Void](t, ana, `scrollTo({top: document.querySelector("#places-heading").getBoundingClientRect().top + scrollY - 16, behavior: "instant"})`)
		screenshot(t, ana, "collection-map-1440-places", false)
	})

	s.step("by keyboard, a cluster opens by Enter and a pin's popup links to the place", func(t *testing.T) {
		eval[chromedp.Void](t, ana, `document.querySelector("#map-panel .marker-cluster").focus()`)
		if !eval[bool](t, ana, `document.activeElement.matches(".marker-cluster[tabindex='0'][role=button][aria-label]")`) {
			t.Fatalf("a cluster is not a named button in the tab order: %s", eval[string](t, ana, `document.activeElement.outerHTML`))
		}
		clusters := eval[int](t, ana, `document.querySelectorAll("#map-panel .marker-cluster").length`)
		ana.do(t, "press Enter on a cluster", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "the cluster opened (zoomed in or spread out)", fmt.Sprintf(
			`document.querySelectorAll("#map-panel .marker-cluster").length !== %d || document.querySelector("#map-panel .leaflet-marker-icon:not(.marker-cluster)")`, clusters))
		ana.waitUntil(t, "a single pin", `document.querySelector("#map-panel .leaflet-marker-icon:not(.marker-cluster)")`)
		eval[chromedp.Void](t, ana, `document.querySelector("#map-panel .leaflet-marker-icon:not(.marker-cluster)").focus()`)
		ana.do(t, "press Enter on a pin", chromedp.KeyEvent(kb.Enter))
		ana.waitUntil(t, "its popup with a link to the place", fmt.Sprintf(`document.querySelector(%s)`, js(`.leaflet-popup-content a[href^="/collections/`+colID+`/places/"]`)))
		if got := eval[string](t, ana, textOf(".leaflet-popup-content")); !strings.Contains(got, "Added by") {
			t.Errorf("the popup says %q, want who added the place", got)
		}
	})

	s.step("a category filter narrows the list and the map alike and stays in the address", func(t *testing.T) {
		ana.awaitRequests(t, []string{"get /collections/" + colID}, "choose "+categoryName,
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %s; s.dispatchEvent(new Event("change", {bubbles: true})); })(document.querySelector("#place-filters select[name=category]"))`, js(category))))
		if got := eval[string](t, ana, `location.pathname + location.search`); got != "/collections/"+colID+"?category="+category {
			t.Errorf("the address is %s, want the filter in it", got)
		}
		ana.waitUntil(t, "the map narrowed", fmt.Sprintf(`%s === %d`, mapPins, len(inCategory)))
		same := func(t *testing.T, when string) {
			names := eval[[]string](t, ana, listedNames)
			slices.Sort(names)
			if !slices.Equal(names, inCategory) {
				t.Errorf("%s: the list shows %q, want %q", when, names, inCategory)
			}
			if n := eval[int](t, ana, mapPins); n != len(inCategory) {
				t.Errorf("%s: the map shows %d places, want %d", when, n, len(inCategory))
			}
		}
		same(t, "filtered")
		ana.do(t, "reload", chromedp.Reload())
		ana.waitUntil(t, "the map drawn again", fmt.Sprintf(`%s === %d`, mapPins, len(inCategory)))
		same(t, "reloaded")
		if got := eval[string](t, ana, `document.querySelector("#place-filters select[name=category]").value`); got != category {
			t.Errorf("after a reload the category filter is %q, want %s", got, category)
		}
	})

	s.step("at 390x844 the list and the map are a toggle, and nothing is wider than the screen", func(t *testing.T) {
		phone.emulate(t, ana)
		ana.do(t, "open the collection", chromedp.Navigate(page+colID))
		ana.idle(t)
		fitsScreen(t, ana, 390, "collection list at 390")
		if eval[bool](t, ana, `document.querySelector("#map-panel").getClientRects().length > 0`) {
			t.Errorf("the map shows beside the list on a phone")
		}
		screenshot(t, ana, "collection-list-390", false)
		tap(t, ana, `[data-map-toggle] [data-show="map"]`)
		ana.waitUntil(t, "the map shown with every place", fmt.Sprintf(`%s === %d`, mapPins, total))
		if eval[bool](t, ana, `document.querySelector("#places-panel").getClientRects().length > 0`) {
			t.Errorf("the list still shows with the map on a phone")
		}
		if got := eval[string](t, ana, `document.querySelector("[data-show=map]").getAttribute("aria-pressed")`); got != "true" {
			t.Errorf("the Map button is not pressed: %s", got)
		}
		if w := eval[float64](t, ana, `document.querySelector("#map-panel [data-map-canvas]").getBoundingClientRect().width`); w < 300 || w > 390 {
			t.Errorf("the map is %.0f px wide on a 390 px phone", w)
		}
		fitsScreen(t, ana, 390, "collection map at 390")
		eval[chromedp.Void](t, ana, `scrollTo({top: document.querySelector("[data-map-toggle]").getBoundingClientRect().top + scrollY - document.querySelector("header").offsetHeight - 8, behavior: "instant"})`)
		screenshot(t, ana, "collection-map-390", false)
		tap(t, ana, `[data-map-toggle] [data-show="list"]`)
		ana.waitUntil(t, "the list back", `document.querySelector("#places-panel").getClientRects().length > 0 && !document.querySelector("#map-panel").getClientRects().length`)
	})
}
