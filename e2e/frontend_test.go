package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/golang-jwt/jwt/v5"

	"tripplan/internal/auth"
	"tripplan/internal/testimg"
)

// TestAFrontEndOnAnotherOrigin is docs/API.md §App sign-in in a real browser: a front end of its own,
// served from another site (localhost, while the server is 127.0.0.1) and named in the
// server's CORS_ORIGINS and FRONTEND_URL, signs in through the dev sign-in JSON API with a
// bearer token, uploads a profile picture the person picks to the signed upload URL with the
// headers browser front ends send (Content-Type, Cache-Control, Authorization, Accept-Language)
// and shows it in an <img>; then an invite link it made, opened in the browser, lands on the
// front end's plan page, which reads the plan. No request is refused on the way (the browser
// reports no CORS error), and the server's profile holds the uploaded picture.
func TestAFrontEndOnAnotherOrigin(t *testing.T) {
	chromium := findChromium(t)
	page, err := os.ReadFile(filepath.Join("testdata", "frontend.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The front end's origin is known before the server starts (its listener is open), and the
	// page names the server once it runs.
	fe := httptest.NewUnstartedServer(nil)
	t.Cleanup(fe.Close)
	_, port, _ := strings.Cut(fe.Listener.Addr().String(), ":")
	origin := "http://localhost:" + port
	const jwtSecret = "front-end-e2e-jwt-secret-of-32-bytes-or-more"
	srv := startServer(t, "CORS_ORIGINS="+origin, "FRONTEND_URL="+origin, "JWT_SECRET="+jwtSecret)
	html := strings.ReplaceAll(string(page), "__API__", srv.base)
	fe.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, html) // every path: the front end routes in the page
	})
	fe.Start()

	b := newBrowser(t, "frontie", chromium)
	saveOnFailure(t, srv, b)
	// outcome waits until the page's status is want or an error, and fails on an error.
	outcome := func(want string) {
		t.Helper()
		status := waitFor[string](t, b, "the status "+want, `(s => s === `+js(want)+` || s.startsWith("Error") ? s : "")(`+textOf("#status")+`)`)
		if status != want {
			t.Fatalf("the front end says %q, want %q", status, want)
		}
	}

	b.do(t, "open the front end", chromedp.Navigate(origin+"/"))
	b.waitUntil(t, "the front end to load", `document.readyState === "complete" && location.origin === `+js(origin))
	b.click(t, "#sign-in")
	outcome("Signed in as Frontie")

	// The person picks a 24×16 PNG.
	pic := testimg.PNG(t, 24, 16)
	file := filepath.Join(t.TempDir(), "me.png")
	if err := os.WriteFile(file, pic, 0o644); err != nil {
		t.Fatal(err)
	}
	b.do(t, "pick the picture", chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{file}))
	outcome("Picture updated")
	shown := eval[struct {
		Src           string `json:"src"`
		Complete      bool   `json:"complete"`
		Width, Height int
	}](t, b, `(i => ({src: i.src, complete: i.complete, Width: i.naturalWidth, Height: i.naturalHeight}))(document.getElementById("picture"))`)
	if !shown.Complete || shown.Width != 24 || shown.Height != 16 || !strings.HasPrefix(shown.Src, srv.base+"/files/pictures/") {
		t.Fatalf("the <img> shows %+v, want the 24×16 picture from %s/files/pictures/", shown, srv.base)
	}
	screenshot(t, b, "frontend-picture", false)

	// The server's profile holds the uploaded picture, byte for byte.
	token := devToken(t, srv.base, "frontend-e2e", "Frontie")
	var me struct {
		Picture string `json:"picture"`
	}
	getAPI(t, srv.base+"/users/me", token, &me)
	if me.Picture != shown.Src {
		t.Fatalf("/users/me shows picture %q, the front end %q", me.Picture, shown.Src)
	}
	res, err := http.Get(me.Picture)
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" || !bytes.Equal(served, pic) {
		t.Fatalf("GET the picture: %d %s, %d bytes (uploaded %d)", res.StatusCode, res.Header.Get("Content-Type"), len(served), len(pic))
	}

	// An hour later the access token has expired. The test signs the token the server would
	// have issued an hour and a minute earlier (same user and sign-in, the server's secret): the
	// front end's five calls at once each get 401, each renews with the same refresh token at
	// the same moment, and all of them go on (the refresh grace of docs/API.md §App sign-in) — the user
	// stays signed in.
	expired := expiredCopy(t, eval[string](t, b, `sessionStorage.getItem("token")`), jwtSecret)
	if status := statusWith(t, srv.base+"/users/me", expired); status != http.StatusUnauthorized {
		t.Fatalf("GET /users/me with the expired token: %d, want 401", status)
	}
	eval[bool](t, b, `(sessionStorage.setItem("token", `+js(expired)+`), window.renewals = 0, true)`)
	if nickname := eval[string](t, b, `loadAll()`); nickname != "Frontie" {
		t.Fatalf("after the expiry the front end reads nickname %q", nickname)
	}
	if renewals := eval[int](t, b, `window.renewals`); renewals != 5 {
		t.Fatalf("the five calls renewed the tokens %d times, want 5 (each on its own)", renewals)
	}
	if nickname := eval[string](t, b, `loadAll()`); nickname != "Frontie" || eval[int](t, b, `window.renewals`) != 5 {
		t.Fatalf("signed in after the renewals? nickname %q, renewals %d", nickname, eval[int](t, b, `window.renewals`))
	}

	// An invite link the front end made (reading the exposed Location of the new plan) lands on
	// its plan page once opened.
	invite := eval[struct {
		URL      string `json:"url"`
		Location string `json:"location"`
	}](t, b, `newInvite()`)
	planID, ok := strings.CutPrefix(invite.Location, "/plans/")
	if !ok || !strings.HasPrefix(invite.URL, srv.base+"/invite/") {
		t.Fatalf("the front end's invite: %+v", invite)
	}
	b.do(t, "open the invite link", chromedp.Navigate(invite.URL))
	b.waitPath(t, `^/projects/`+planID+`$`)
	if o := eval[string](t, b, `location.origin`); o != origin {
		t.Fatalf("the invite link landed on %s, want the front end %s", o, origin)
	}
	if got := waitFor[string](t, b, "the plan's title", `(s => s.startsWith("Plan:") || s.startsWith("Error") ? s : "")(`+textOf("#plan")+` || `+textOf("#status")+`)`); got != "Plan: Trip from afar" {
		t.Fatalf("the front end's plan page says %q", got)
	}
	// The browser logs the five 401s of the expired token's calls, and nothing else.
	var unexpected []string
	expired401 := 0
	for _, p := range b.reported() {
		if strings.Contains(p, "status of 401 (Unauthorized)") {
			expired401++
		} else {
			unexpected = append(unexpected, p)
		}
	}
	if len(unexpected) > 0 || expired401 != 5 {
		t.Fatalf("the browser reported problems %q and %d 401s (want none and the five of the expired token)", unexpected, expired401)
	}
}

// devToken signs the user in through the dev sign-in JSON API and answers the access token.
func devToken(t *testing.T, base, providerID, nickname string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"provider": "GOOGLE", "provider_id": providerID, "nickname": nickname})
	res, err := http.Post(base+"/dev/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tokens struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tokens); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("dev sign-in: %d %v", res.StatusCode, err)
	}
	return tokens.AccessToken
}

// getAPI GETs a JSON resource with the bearer token and decodes it into v.
func getAPI(t *testing.T, url, token string, v any) {
	t.Helper()
	res := bearerGet(t, url, token)
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
}

// expiredCopy signs, with the server's secret, a copy of the access token issued an hour and a
// minute before now: the same user, sign-in and scope, expired a minute ago.
func expiredCopy(t *testing.T, token, secret string) string {
	t.Helper()
	var claims auth.Claims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &claims); err != nil {
		t.Fatalf("read the front end's token: %v", err)
	}
	earlier, err := auth.NewIssuer([]byte(secret), func() time.Time { return time.Now().Add(-auth.AccessTTL - time.Minute) })
	if err != nil {
		t.Fatal(err)
	}
	expired, _, err := earlier.Issue(claims.Subject, claims.Session, !claims.PreTerms())
	if err != nil {
		t.Fatal(err)
	}
	return expired
}

// statusWith answers the status of a GET of url with the bearer token.
func statusWith(t *testing.T, url, token string) int {
	t.Helper()
	res := bearerGet(t, url, token)
	res.Body.Close()
	return res.StatusCode
}

// bearerGet GETs url as JSON with the bearer token.
func bearerGet(t *testing.T, url, token string) *http.Response {
	t.Helper()
	r, _ := http.NewRequest(http.MethodGet, url, nil)
	r.Header.Set("Authorization", "Bearer "+token)
	r.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
