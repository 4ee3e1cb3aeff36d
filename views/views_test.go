package views

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"golang.org/x/net/html"

	"tripplan/static"
)

func render(t *testing.T, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	return b.String()
}

// page is rendered HTML parsed into a document, to ask for elements and their attributes.
type page struct {
	t   *testing.T
	doc *goquery.Document
}

func parsed(t *testing.T, html string) page {
	t.Helper()
	return page{t, parse(t, html)}
}

// has fails the test for each CSS selector that matches no element.
func (p page) has(selectors ...string) {
	p.t.Helper()
	for _, s := range selectors {
		if p.doc.Find(s).Length() == 0 {
			p.t.Errorf("no element matches %s", s)
		}
	}
}

// lacks fails the test for each CSS selector that matches an element.
func (p page) lacks(selectors ...string) {
	p.t.Helper()
	for _, s := range selectors {
		if n := p.doc.Find(s).Length(); n != 0 {
			p.t.Errorf("%d elements unexpectedly match %s", n, s)
		}
	}
}

// count is how many elements match selector.
func (p page) count(selector string) int { return p.doc.Find(selector).Length() }

// text is what the page's text nodes say, without the data scripts' contents (the JavaScript
// messages, which mention many a phrase).
func (p page) text() string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "script" {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range p.doc.Nodes {
		walk(n)
	}
	return b.String()
}

// says fails the test for each phrase that is not in the page's text.
func (p page) says(phrases ...string) {
	p.t.Helper()
	text := p.text()
	for _, w := range phrases {
		if !strings.Contains(text, w) {
			p.t.Errorf("the page does not say %q", w)
		}
	}
}

// neverSays fails the test for each string found in the page's text (the scripts' contents
// included: found anywhere is too much).
func (p page) neverSays(unwanted ...string) {
	p.t.Helper()
	text := p.doc.Text()
	for _, w := range unwanted {
		if strings.Contains(text, w) {
			p.t.Errorf("the page unexpectedly says %q", w)
		}
	}
}

// nowhere fails the test for each string found in the page's text or in any attribute's value.
func (p page) nowhere(unwanted ...string) {
	p.t.Helper()
	p.neverSays(unwanted...)
	for _, w := range unwanted {
		p.doc.Find("*").Each(func(_ int, s *goquery.Selection) {
			for _, a := range s.Nodes[0].Attr {
				if strings.Contains(a.Val, w) {
					p.t.Errorf("<%s %s=%q> unexpectedly holds %q", goquery.NodeName(s), a.Key, a.Val, w)
				}
			}
		})
	}
}

// hasText fails the test unless an element matching selector has exactly text as its text.
func (p page) hasText(selector, text string) {
	p.t.Helper()
	if p.doc.Find(selector).FilterFunction(func(_ int, s *goquery.Selection) bool { return s.Text() == text }).Length() == 0 {
		p.t.Errorf("no %s says %q", selector, text)
	}
}

// noTextNode fails the test when a text node of the page (scripts' included) begins with
// prefix, or when exact, is prefix: ">Edit<" and ">Day " in the markup.
func (p page) noTextNode(prefix string, exact bool) {
	p.t.Helper()
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode && (n.Data == prefix || !exact && strings.HasPrefix(n.Data, prefix)) {
			p.t.Errorf("a text node unexpectedly reads %q", n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range p.doc.Nodes {
		walk(n)
	}
}

// title is the text of the page's title.
func (p page) title() string { return p.doc.Find("head > title").Text() }

var ana = &Viewer{UserID: "u1", Nickname: "Ana", Picture: "https://example.com/ana.png"}

func TestLayoutBasics(t *testing.T) {
	html := render(t, Landing(Page{Title: "Welcome", Path: "/"}))
	if !strings.HasPrefix(html, "<!doctype html>") {
		t.Errorf("no doctype: %.40s", html)
	}
	p := parsed(t, html)
	p.has(
		`html[lang="en"]`,
		`meta[name="viewport"][content="width=device-width, initial-scale=1"]`,
		`[href="`+static.URL("img/logo.svg")+`"]`,
		`link[rel="stylesheet"][href="`+static.URL("css/app.css")+`"]`,
		`script[src="`+static.URL("js/htmx.min.js")+`"][defer]:empty`,
		`script[src="`+static.URL("js/htmx-ext-sse.min.js")+`"][defer]:empty`,
		`script[src="`+static.URL("js/app.js")+`"][defer]:empty`,
		`meta[name="htmx-config"]`,
		`div#flash[aria-live="polite"]`,
		`main#main`,
		`a[href="#content"][data-skip-link]:contains("Skip to content")`, `#content`,
		`[href="/login"]`, // signed out: Sign in link
		"footer",
	)
	if got := p.title(); got != "Welcome · Tripplan" {
		t.Errorf("title %q", got)
	}
	// CSP: no inline scripts, no inline styles, no event-handler attributes.
	p.lacks(`script:not([src]):not([type="application/json"])`, "[style]", "[onclick]", "[onerror]", "[onload]", "style")
	p.lacks(`[action="/auth/logout"]`, `[href="/plans"]`)
}

func TestHTMXConfigIsValidJSON(t *testing.T) {
	var cfg struct {
		IncludeIndicatorStyles *bool `json:"includeIndicatorStyles"`
		ResponseHandling       []struct {
			Code   string `json:"code"`
			Swap   bool   `json:"swap"`
			Error  bool   `json:"error"`
			Target string `json:"target"`
		} `json:"responseHandling"`
	}
	if err := json.Unmarshal([]byte(HTMXConfig), &cfg); err != nil {
		t.Fatalf("HTMXConfig is not JSON: %v", err)
	}
	if cfg.IncludeIndicatorStyles == nil || *cfg.IncludeIndicatorStyles {
		t.Error("includeIndicatorStyles must be false (CSP forbids inline styles)")
	}
	if n := len(cfg.ResponseHandling); n != 3 {
		t.Fatalf("responseHandling has %d entries, want 3", n)
	}
	last := cfg.ResponseHandling[2]
	if last.Code != "[45].." || !last.Swap || !last.Error || last.Target != "#flash" {
		t.Errorf("error handling entry = %+v, want 4xx/5xx swapped into #flash", last)
	}
	// The attribute is HTML-escaped in the page but must round-trip.
	if got := parsed(t, render(t, Landing(Page{}))).doc.Find(`meta[name="htmx-config"]`).AttrOr("content", ""); got != HTMXConfig {
		t.Errorf("htmx-config's content %q, want %q", got, HTMXConfig)
	}
}

func TestHeaderSignedIn(t *testing.T) {
	p := parsed(t, render(t, Home(Page{Title: "Home", Viewer: ana, Path: "/plans/x"}, HomeView{})))
	p.has(
		`form[method="post"][action="/auth/logout"]`,
		`[href="/plans"]`, `[href="/collections"]`,
		`[src="https://example.com/ana.png"]`,
	)
	p.says("Sign out")
	if p.doc.Find("span").FilterFunction(func(_ int, s *goquery.Selection) bool { return s.Text() == "Ana" }).Length() == 0 {
		t.Errorf("no span names Ana")
	}
	// The current section is marked, and only that one.
	if p.count(`[aria-current="page"]`) != 2 { // desktop nav and the phone menu
		t.Errorf("want the Plans link marked current in both navs")
	}
	p.lacks(`[href="/login"]`)
	// On narrow screens the actions are behind a menu button that says whether it is open.
	p.has(
		`[data-menu-button][aria-expanded="false"][aria-controls="site-menu"]`,
		`div#site-menu[hidden][data-menu-panel]`,
		`nav[aria-label="Main menu"]`,
	)
	if n := p.count(`[action="/auth/logout"]`); n != 2 {
		t.Errorf("Sign out appears %d times, want in the header and in its phone menu", n)
	}
}

func TestLanding(t *testing.T) {
	out := parsed(t, render(t, Landing(Page{Title: "Tripplan", Path: "/"})))
	if got := out.title(); got != "Tripplan" {
		t.Errorf("title %q", got)
	}
	out.says("Sign in", "Plan the trip")
	out.has(`[href="/login"]`)
	out.lacks(`[href="/home"]`)

	in := parsed(t, render(t, Landing(Page{Viewer: ana, Path: "/"})))
	in.has(`[href="/home"]`)
	in.says("Go to your trips")
	in.nowhere("Sign in to start planning")
}

func TestSignInDevLogin(t *testing.T) {
	html := render(t, SignIn(Page{Title: "Sign in", Path: "/login", DevLogin: true}, SignInView{
		DevLogin: true, Next: "/plans/abc?x=1", Nickname: "Mina", ProviderID: "p-1", Provider: "KAKAO",
	}))
	p := parsed(t, html)
	p.has(
		`[action="/dev/auth/login"]`,
		`[name="provider"]`, `option[value="GOOGLE"]`, `option[value="KAKAO"][selected]`, `option[value="NAVER"]`,
		`[name="provider_id"]`, `[value="p-1"]`,
		`[name="nickname"]`, `[value="Mina"]`,
		`input[type="hidden"][name="next"][value="/plans/abc?x=1"]`,
		`[value="demo-ana"]`, `[value="demo-ben"]`,
		`[for="dev-provider"]`, `[for="dev-provider-id"]`, `[for="dev-nickname"]`,
	)
	p.says("Sign in as Ana (demo)", "Sign in as Ben (demo)")
	// One form for the free-form account plus one per demo account.
	if n := p.count(`[action="/dev/auth/login"]`); n != 3 {
		t.Errorf("dev login forms = %d, want 3", n)
	}
	p.nowhere("Sign-in isn’t set up yet")
}

func TestSignInWithoutDevLogin(t *testing.T) {
	none := parsed(t, render(t, SignIn(Page{Path: "/login"}, SignInView{})))
	none.nowhere("/dev/auth/login", "(demo)", "demo-ana")
	none.says("Sign-in isn’t set up yet")

	withProviders := parsed(t, render(t, SignIn(Page{Path: "/login"}, SignInView{
		Next:      "/plans/p1",
		Providers: []SignInProvider{{ID: "google", Name: "Google"}, {ID: "kakao", Name: "Kakao"}},
	})))
	withProviders.has(`[href="/oauth2/authorization/google?next=%2Fplans%2Fp1"]`)
	withProviders.says("Continue with Google", "Continue with Kakao")
	withProviders.nowhere("/dev/auth/login", "Sign-in isn’t set up yet")
}

func TestSignInErrorAndUnsafeNext(t *testing.T) {
	html := render(t, SignIn(Page{Path: "/login"}, SignInView{
		DevLogin: true, Error: "Nickname <b>too</b> long", Next: "//evil.example/x",
	}))
	p := parsed(t, html)
	p.has(`[role="alert"]`)
	p.says("Nickname <b>too</b> long")
	p.lacks(`b:contains("too")`)
	p.nowhere("evil.example")
	// The only "next" is the language switch's, back to this page.
	if all, back := p.count(`[name="next"]`), p.count(`[name="next"][value="/login"]`); all != 1 || back != 1 {
		t.Errorf("want one next field, the language switch's back to /login; got %d, %d of them back to /login", all, back)
	}
}

func TestEscaping(t *testing.T) {
	evil := `<script>alert(1)</script>`
	html := render(t, Home(
		Page{Title: evil, Viewer: &Viewer{Nickname: evil}},
		HomeView{
			Plans:       []PlanCard{{ID: `a"b`, Title: evil, Dates: evil, MemberCount: 2}},
			Collections: []CollectionCard{{ID: "c1", Title: evil, Thumbnail: `x" onerror="alert(1)`, PlaceCount: 1}},
		},
	))
	p := parsed(t, html)
	p.lacks(`script:contains("alert(1)")`, "[onerror]")
	p.says(evil) // as text
	p.has(`[href="/plans/a%22b"]`)

	partial := parsed(t, render(t, ErrorPartial(ErrorView{Status: 400, Title: evil, Detail: evil})))
	partial.lacks(`script:contains("alert(1)")`)
}

func TestTerms(t *testing.T) {
	p := parsed(t, render(t, Terms(Page{Title: "Terms", Viewer: ana, Path: "/onboarding/terms"}, TermsView{Next: "/plans/p1"})))
	p.has(
		`form[method="post"][action="/onboarding/terms"]`,
		`button[type="submit"][class="btn btn-primary"]:contains("Agree and continue")`,
		`input[type="hidden"][name="next"][value="/plans/p1"]`,
		`[action="/auth/logout"]`,
	)
	// No navigation to pages that need accepted terms.
	p.lacks(`[href="/plans"]`)
}

func TestHomeEmptyAndFull(t *testing.T) {
	empty := parsed(t, render(t, Home(Page{Viewer: ana, Path: "/home"}, HomeView{})))
	empty.says("No plans yet", "New plan", "No collections yet", "New collection")
	empty.has(`[href="/plans/new"]`, `[href="/collections/new"]`)

	full := parsed(t, render(t, Home(Page{Viewer: ana, Path: "/home"}, HomeView{
		Plans:       []PlanCard{{ID: "p1", Title: "Jeju", Dates: "1 – 3 May 2026", MemberCount: 3}},
		Collections: []CollectionCard{{ID: "c1", Title: "Cafés", PlaceCount: 1, MemberCount: 1}},
	})))
	full.has(`[href="/plans/p1"]`, `[href="/collections/c1"]`)
	full.says("Jeju", "1 – 3 May 2026", "3 members", "Cafés", "1 place", "1 member")
	full.nowhere("No plans yet", "No collections yet")
}

func TestErrorPage(t *testing.T) {
	p := parsed(t, render(t, ErrorPage(Page{Path: "/nope"}, ErrorView{Status: 404, Code: "NOT_FOUND"})))
	if got := p.title(); got != "We couldn't find that · Tripplan" {
		t.Errorf("title %q", got)
	}
	p.says("We couldn't find that", "Back to home")
	p.has(`[data-error-code="NOT_FOUND"]`, `[href="/"]`)
	p.nowhere("Not Found", "Error 404")
	p.neverSays("NOT_FOUND") // the code is for machines, in the attribute only

	signedIn := parsed(t, render(t, ErrorPage(Page{Viewer: ana}, ErrorView{Status: 403, Title: "No access", Detail: "Ask for an invite."})))
	signedIn.has(`[href="/home"]`)
	signedIn.says("No access", "Ask for an invite.")

	unknown := parsed(t, render(t, ErrorPage(Page{}, ErrorView{})))
	unknown.says("Something went wrong", "Something went wrong on our side")
	unknown.nowhere("Internal Server Error", "Error 500")
}

// Errors are written for people: a title in words for the code or the status (never "Bad
// Request" or the code itself), and each invalid field as a sentence marked with its name.
func TestErrorPartial(t *testing.T) {
	html := render(t, ErrorPartial(ErrorView{Status: 409, Detail: "A block already exists.", Code: "TIME_BLOCK_OVERLAP"}))
	if strings.Contains(html, "<html") { // parsing would add the document around a fragment
		t.Errorf("a partial is a whole page: %.60s", html)
	}
	p := parsed(t, html)
	p.has(`[role="alert"]`, "[data-flash]", "[data-dismiss]", `[aria-label="Dismiss"]`, `[data-error-code="TIME_BLOCK_OVERLAP"]`)
	p.says("That time is taken", "A block already exists.")
	p.lacks("main")
	p.nowhere("Conflict")
	p.neverSays("TIME_BLOCK_OVERLAP")

	fields := parsed(t, render(t, ErrorPartial(ErrorView{Status: 400, Detail: "The request has invalid fields.", Code: "INVALID_REQUEST",
		Fields: []FieldMessage{{"start_time", "must be earlier than end_time"}, {"manual_place.name", "is required"}}})))
	fields.says("Please check what you entered", "Please correct what is marked")
	for field, want := range map[string]string{"start_time": "Start time must be earlier than end time.", "manual_place.name": "Name is required."} {
		if got := fields.doc.Find(`li[data-error-field="` + field + `"]`).Text(); got != want {
			t.Errorf("%s's message %q, want %q", field, got, want)
		}
	}
	fields.nowhere("Bad Request", "The request has invalid fields")
	fields.neverSays("INVALID_REQUEST")

	for status, want := range map[int]string{401: "Please sign in", 413: "That is too large", 429: "Too many tries at once", 503: "Something went wrong"} {
		parsed(t, render(t, ErrorPartial(ErrorView{Status: status}))).says(want)
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"":               "",
		"/plans/1":       "/plans/1",
		"//evil.com":     "",
		`/\evil.com`:     "",
		"https://x.y/":   "",
		"plans":          "",
		"/a\r\nSet-X: y": "",
	} {
		if got := SafeNext(in); got != want {
			t.Errorf("SafeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInitials(t *testing.T) {
	for in, want := range map[string]string{"ana": "A", "Ana Lee": "AL", "  ": "?", "지민": "지"} {
		if got := initials(in); got != want {
			t.Errorf("initials(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPresenceSentence(t *testing.T) {
	ben, cho, dan := MemberView{Nickname: "Ben"}, MemberView{Nickname: "Cho"}, MemberView{Nickname: "Dan"}
	for _, c := range []struct {
		v    PresenceView
		want string
	}{
		{PresenceView{}, ""},
		{PresenceView{Others: []MemberView{ben}}, "Ben is here"},
		{PresenceView{Others: []MemberView{ben, cho}}, "Ben and Cho are here"},
		{PresenceView{Others: []MemberView{ben, cho, dan}}, "Ben, Cho and Dan are here"},
		{PresenceView{Guests: 1}, "A guest is looking"},
		{PresenceView{Guests: 3}, "3 guests are looking"},
		{PresenceView{Others: []MemberView{ben}, Guests: 1}, "Ben and a guest are here"},
		{PresenceView{Others: []MemberView{ben, cho}, Guests: 2}, "Ben, Cho and 2 guests are here"},
	} {
		if got := c.v.Sentence(context.Background()); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
}
