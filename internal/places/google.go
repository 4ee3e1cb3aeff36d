package places

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tripplan/internal/planner"
)

// Provider names of the remote services, stored with each place they found.
const (
	ProviderGoogle = "GOOGLE"
	ProviderOSM    = "OSM"
)

const (
	// maxResults is how many places a search returns.
	maxResults = 10
	// maxBody caps what is read from a provider: ten results are a few tens of KB, so a body
	// this large is broken or hostile and must not be held in memory whole.
	maxBody = 2 << 20
	// timeout bounds a search when the caller supplies no client of its own.
	timeout = 10 * time.Second
)

// Google searches the Google Places API (New) with Text Search.
type Google struct {
	Key     string
	BaseURL string       // default https://places.googleapis.com
	HTTP    *http.Client // default: 10 s timeout, redirects not followed
}

// googleFieldMask lists the fields Text Search returns; Google requires one and bills by the
// most expensive field in it. Photos are left out: their media URLs need the API key, which
// must never reach a browser, so they wait for a server-side photo proxy.
const googleFieldMask = "places.id,places.displayName,places.formattedAddress,places.location," +
	"places.types,places.primaryType,places.primaryTypeDisplayName,places.googleMapsUri"

// googlePlace is the part of a Places API (New) Place resource that googleFieldMask asks for.
type googlePlace struct {
	ID               string        `json:"id"`
	DisplayName      googleText    `json:"displayName"`
	FormattedAddress string        `json:"formattedAddress"`
	Location         *googleLatLng `json:"location"`
	Types            []string      `json:"types"`
	PrimaryType      string        `json:"primaryType"`
	PrimaryTypeName  googleText    `json:"primaryTypeDisplayName"`
	GoogleMapsURI    string        `json:"googleMapsUri"`
}

type googleText struct {
	Text         string `json:"text"`
	LanguageCode string `json:"languageCode"`
}

type googleLatLng struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// Search returns up to 10 places matching a free-text query, in Google's order.
func (g *Google) Search(ctx context.Context, query string) ([]planner.Place, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return []planner.Place{}, nil // nothing to look for: don't spend a billed request
	}
	if g.Key == "" {
		return nil, errors.New("google places: no API key configured")
	}
	body, err := json.Marshal(map[string]any{"textQuery": query, "pageSize": maxResults, "languageCode": "en"})
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(g.BaseURL, "/")
	if base == "" {
		base = "https://places.googleapis.com"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/places:searchText", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("google places: %w", err)
	}
	// The key travels in a header, never in the URL, so it stays out of logs and error texts.
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Goog-Api-Key", g.Key)
	req.Header.Set("X-Goog-FieldMask", googleFieldMask)

	client := g.HTTP
	if client == nil {
		// Go copies custom headers such as X-Goog-Api-Key to any host a redirect names, and
		// Google never redirects this endpoint: treat a redirect as the error it would be.
		client = &http.Client{Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}
	}
	var resp struct {
		Places []googlePlace `json:"places"`
	}
	if err := fetchJSON(client, req, "google places", &resp); err != nil {
		// Google's messages don't quote the key today; errors end up in logs, so make sure.
		var he *HTTPError
		if errors.As(err, &he) {
			he.Message = strings.ReplaceAll(he.Message, g.Key, "[redacted]")
		}
		return nil, err
	}
	tax := NewTaxonomy()
	places := []planner.Place{}
	for _, p := range resp.Places {
		if p.ID == "" || p.DisplayName.Text == "" {
			continue // nothing to store it under or to show
		}
		places = append(places, p.place(tax))
		if len(places) == maxResults {
			break
		}
	}
	return places, nil
}

func (p googlePlace) place(tax *Taxonomy) planner.Place {
	c := tax.Categories(LeafForTypes(append([]string{p.PrimaryType}, p.Types...)...), Category{})
	typeName := p.PrimaryTypeName.Text
	if typeName == "" {
		typeName = TypeName(p.PrimaryType)
	}
	var lat, lng string
	if p.Location != nil {
		lat, lng = coord(p.Location.Latitude), coord(p.Location.Longitude)
	}
	return planner.Place{
		Provider: ProviderGoogle, ProviderPlaceID: p.ID,
		Name: p.DisplayName.Text, Names: []string{}, Address: p.FormattedAddress,
		CategoryLevel1: c.Level1.ID, CategoryLevel2: c.Level2.ID, CategoryLevel3: c.Level3.ID,
		PrimaryType: p.PrimaryType, PrimaryTypeName: typeName,
		MapsURI:  p.GoogleMapsURI,
		Photos:   []string{},
		Latitude: lat, Longitude: lng,
	}
}

// coord formats a degree value the way places are stored: six decimals, about 10 cm.
func coord(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

// HTTPError is a provider's non-2xx answer. Status lets callers tell an exhausted quota (429)
// or a refused key (403) from an outage.
type HTTPError struct {
	Provider string
	Status   int
	Message  string // the provider's own explanation, when it sent one
}

func (e *HTTPError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d %s", e.Provider, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// fetchJSON sends req and decodes a 2xx JSON answer into v, reading at most maxBody bytes.
// Errors start with name.
func fetchJSON(client *http.Client, req *http.Request, name string, v any) error {
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// An error body is a short JSON object; the first 64 KB hold all of it that matters.
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return &HTTPError{Provider: name, Status: resp.StatusCode, Message: errorMessage(data)}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("%s: reading response: %w", name, err)
	}
	if len(data) > maxBody {
		return fmt.Errorf("%s: response larger than %d bytes", name, maxBody)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: malformed response: %w", name, err)
	}
	return nil
}

// errorMessage extracts the explanation from an error body. Google sends
// {"error":{"code":403,"message":"…","status":"PERMISSION_DENIED"}}; Nominatim sends that
// shape without status, or at times {"error":"…"}. Anything else (an HTML page from a proxy
// or a block page) yields "": the status alone says enough.
func errorMessage(body []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Error) == 0 {
		return ""
	}
	var detail struct{ Message, Status string }
	var text string
	if json.Unmarshal(e.Error, &detail) == nil {
		text = detail.Message
		if detail.Status != "" && text != "" {
			text = detail.Status + ": " + text
		}
	} else {
		json.Unmarshal(e.Error, &text)
	}
	// The text is for logs: keep a hostile or verbose server from filling them.
	if r := []rune(text); len(r) > 300 {
		text = string(r[:300]) + "…"
	}
	return text
}
