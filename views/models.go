// Package views renders Tripplan's HTML with templ: full pages (wrapped in the shared
// layout) and the small partials htmx swaps in. View models are plain Go structs filled by
// the web handlers; from the module it imports only the domain's types (planner, for the sentences
// of histories and notifications) and the languages (i18n, whose catalogues hold the pages' words).
//
// Regenerate the *_templ.go files after editing a .templ file with
//
//	go tool templ generate
//
// and then rebuild the CSS (`npm run build:css`) so new Tailwind classes are picked up.
package views

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"

	"tripplan/internal/i18n"
)

// Paths the views link to. Handlers must serve these.
const (
	// HomePath is the signed-in home (Home): the viewer's plans and collections.
	HomePath = "/home"
	// LoginPath is the sign-in page (SignIn).
	LoginPath = "/login"
	// LogoutPath receives the header's "Sign out" form (POST).
	LogoutPath = "/auth/logout"
	// DevLoginPath receives the dev sign-in form (POST, form-encoded).
	DevLoginPath = "/dev/auth/login"
	// TermsPath receives the onboarding "Agree and continue" form (POST).
	TermsPath = "/onboarding/terms"
	// LanguagePath receives the language switch (POST, form-encoded: language and next).
	LanguagePath = "/language"
	// ManifestPath is the web app manifest (the layout links it).
	ManifestPath = "/manifest.webmanifest"
	// OfflinePath is the page the service worker shows for a page never opened, offline.
	OfflinePath = "/offline"
)

// HTMXConfig is the content of the <meta name="htmx-config"> tag on every page.
// 204 swaps nothing, 2xx/3xx swap as usual, and 4xx/5xx error partials (ErrorPartial) are
// swapped into the #flash region, always as its innerHTML whatever hx-swap the
// triggering element uses. Indicator styles are in app.css (the CSP forbids htmx's inline
// <style>) and eval-based features are off (the CSP forbids them too).
// Settling leaves the style attribute alone: setting it is an inline style the CSP refuses.
// DELETE sends its form in the body, as the JSON API's DELETE /users/me takes one.
const HTMXConfig = `{"includeIndicatorStyles":false,"allowEval":false,"attributesToSettle":["class","width","height"],` +
	`"methodsThatUseUrlParams":["get"],` +
	`"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},` +
	`{"code":"[45]..","swap":true,"error":true,"target":"#flash","swapOverride":"innerHTML"}]}`

// Viewer is the signed-in user as the views show them. A nil *Viewer means signed out.
type Viewer struct {
	UserID   string
	Nickname string
	Picture  string // absolute URL of the profile picture, or "" for initials
}

// Page holds what every full page needs.
type Page struct {
	Title    string  // the page's own title; the layout appends " · Tripplan"
	Viewer   *Viewer // nil when signed out
	Unread   int     // the viewer's unread notifications (the header's bell)
	DevLogin bool    // dev login is enabled (shows the dev sign-in form and a "dev" badge)
	Path     string  // the request path, for the current nav item and the sign-in "next"
	Here     string  // the request path and query, where the language switch comes back to ("" = Path)
}

// here is where the language switch comes back to: the page as it was asked for.
func (p Page) here() string {
	if p.Here != "" {
		return p.Here
	}
	return p.Path
}

// languageNames name each language in itself, as a language switch lists them.
var languageNames = map[i18n.Lang]string{i18n.Korean: "한국어", i18n.English: "English"}

// languageCurrent marks the language switch's button of the page's language.
func languageCurrent(ctx context.Context, l i18n.Lang) templ.Attributes {
	if l == i18n.From(ctx).Lang() {
		return templ.Attributes{"aria-current": "true"}
	}
	return nil
}

// SignInProvider is one enabled social sign-in provider on the sign-in page.
type SignInProvider struct {
	ID   string // path segment: "google", "kakao", "naver", "apple", or a configured OIDC id
	Name string // shown on the button: "Google"
}

// SignInView is the sign-in page (GET /login).
type SignInView struct {
	DevLogin   bool   // show the dev sign-in form and the demo buttons
	Error      string // shown in an alert above the form
	Next       string // local path to return to after signing in
	Nickname   string // dev form: value to refill after an error
	ProviderID string // dev form: value to refill after an error
	// Provider is the dev form's selected provider (GOOGLE, KAKAO or NAVER); "" = GOOGLE.
	Provider string
	// Providers are the enabled social providers; each gets a button linking to
	// /oauth2/authorization/{ID} (with ?next= when Next is set).
	Providers []SignInProvider
}

// TermsView is the onboarding page where a new user accepts the terms.
type TermsView struct {
	Next string // local path to continue to after agreeing
}

// PlanCard is one plan on the home page.
type PlanCard struct {
	ID          string
	Title       string
	Dates       string // already formatted, e.g. "12 – 15 Mar 2026"
	MemberCount int
}

// CollectionCard is one collection on the home page.
type CollectionCard struct {
	ID          string
	Title       string
	Thumbnail   string // image URL, or "" for a placeholder
	PlaceCount  int
	MemberCount int
}

// HomeView is the signed-in home page.
type HomeView struct {
	Plans       []PlanCard
	Collections []CollectionCard
}

// ErrorView is an error shown to a browser, as a page or as an htmx partial. It is written for
// people: a title in words for what happened (never a status text or a code), the detail, and
// each invalid field as a sentence that scripts can put next to the field.
type ErrorView struct {
	Status int    // HTTP status; 0 is shown as 500
	Title  string // short; "" = the title for the code, else for the status
	Detail string // one or two sentences for a person
	Code   string // the API error code (e.g. PLAN_NOT_FOUND): never shown, kept in data-error-code
	Fields []FieldMessage
}

// FieldMessage is one invalid field of a form: its name (the form field's and the API's) and
// what is wrong, as the API says it ("must be at most 50 characters").
type FieldMessage struct{ Name, Reason string }

// Sentence is the field's message for a person, in the language of ctx: "Start time must be
// HH:MM." (the reason comes in that language already).
func (f FieldMessage) Sentence(ctx context.Context) string {
	label := strings.ReplaceAll(f.Name, "_", " ")
	if i := strings.LastIndexByte(label, '.'); i >= 0 {
		label = label[i+1:] // manual_place.name → name
	}
	if label != "" {
		label = strings.ToUpper(label[:1]) + label[1:]
	}
	reason := snakeWords.ReplaceAllStringFunc(strings.TrimSpace(f.Reason), func(w string) string { return strings.ReplaceAll(w, "_", " ") })
	return strings.TrimSuffix(t(ctx, "errors.field_reason", "Field", label, "Reason", reason), ".") + "."
}

// snakeWords are API field names inside a reason ("earlier than end_time").
var snakeWords = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)

// codeTitles are the titles of the errors people meet most, by code (message ids).
var codeTitles = map[string]string{
	"INVALID_REQUEST":                    "errors.check_input",
	"TIME_BLOCK_OVERLAP":                 "errors.time_taken",
	"TIME_BLOCK_EXACT_DUPLICATE":         "errors.block_exists",
	"GUEST_FORBIDDEN":                    "errors.guest_forbidden",
	"FORBIDDEN_NOT_MEMBER":               "errors.not_member",
	"PRECONDITION_FAILED":                "errors.changed_meanwhile",
	"CANNOT_ADD_CANDIDATE_TO_FREE_BLOCK": "errors.free_time_no_places",
	"MEMBER_REMOVED":                     "errors.removed",
}

// statusTitles are the titles for everything else, by status (message ids).
var statusTitles = map[int]string{
	http.StatusBadRequest:            "errors.check_input",
	http.StatusUnauthorized:          "errors.please_sign_in",
	http.StatusForbidden:             "errors.forbidden",
	http.StatusNotFound:              "errors.not_found",
	http.StatusMethodNotAllowed:      "errors.method",
	http.StatusConflict:              "errors.conflict",
	http.StatusGone:                  "errors.gone",
	http.StatusPreconditionFailed:    "errors.changed_meanwhile",
	http.StatusRequestEntityTooLarge: "errors.too_large",
	http.StatusUnsupportedMediaType:  "errors.unsupported_type",
	http.StatusUnprocessableEntity:   "errors.unprocessable",
	http.StatusTooManyRequests:       "errors.too_many",
}

// --- small helpers used by the templates ---

func pageTitle(title string) string {
	title = strings.TrimSpace(title)
	if title == "" || title == "Tripplan" {
		return "Tripplan"
	}
	return title + " · Tripplan"
}

func (e ErrorView) status() int {
	if e.Status < 100 || e.Status > 599 {
		return http.StatusInternalServerError
	}
	return e.Status
}

func (e ErrorView) title(ctx context.Context) string {
	if t := strings.TrimSpace(e.Title); t != "" {
		return t
	}
	if id := codeTitles[e.Code]; id != "" {
		return t(ctx, id)
	}
	if id := statusTitles[e.status()]; id != "" {
		return t(ctx, id)
	}
	return t(ctx, "errors.something_wrong")
}

func (e ErrorView) detail(ctx context.Context) string {
	if len(e.Fields) > 0 {
		return t(ctx, "errors.correct_marked")
	}
	if d := strings.TrimSpace(e.Detail); d != "" {
		return d
	}
	switch s := e.status(); {
	case s == http.StatusNotFound:
		return t(ctx, "errors.page_not_found")
	case s == http.StatusUnauthorized:
		return t(ctx, "errors.sign_in_to_continue")
	case s == http.StatusForbidden:
		return t(ctx, "errors.no_access")
	case s == http.StatusTooManyRequests:
		return t(ctx, "errors.slow_down")
	case s >= 500:
		return t(ctx, "errors.our_side")
	default:
		return t(ctx, "errors.check_and_retry")
	}
}

// SafeNext returns next when it is a local path ("/x", not "//x" or "/\x"), else "": the one
// check against open redirects, for links the views render and redirects the server sends.
func SafeNext(next string) string {
	if next == "" || next[0] != '/' || len(next) > 1 && (next[1] == '/' || next[1] == '\\') {
		return ""
	}
	if strings.ContainsAny(next, "\r\n\t") {
		return ""
	}
	return next
}

// withNext appends ?next=... to path when next is a safe local path.
func withNext(path, next string) string {
	next = SafeNext(next)
	if next == "" || next == "/" {
		return path
	}
	return path + "?next=" + url.QueryEscape(next)
}

// loginHref is the header's "Sign in" link: back to the current page afterwards.
func loginHref(p Page) string {
	if p.Path == LoginPath || p.Path == "/" || p.Path == TermsPath {
		return LoginPath
	}
	return withNext(LoginPath, p.Path)
}

func providerHref(pr SignInProvider, next string) string {
	return withNext("/oauth2/authorization/"+url.PathEscape(strings.ToLower(pr.ID)), next)
}

// navCurrent reports whether the nav item for prefix is the current page.
func navCurrent(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// currentPage marks the current nav item with aria-current="page".
func currentPage(current bool) templ.Attributes {
	if current {
		return templ.Attributes{"aria-current": "page"}
	}
	return nil
}

// initials is the avatar fallback: the first letter (or two, for Latin names with a
// space) of a nickname, upper-cased.
func initials(nickname string) string {
	fields := strings.Fields(nickname)
	if len(fields) == 0 {
		return "?"
	}
	first, _ := utf8.DecodeRuneInString(fields[0])
	out := string(unicode.ToUpper(first))
	if len(fields) > 1 {
		second, _ := utf8.DecodeRuneInString(fields[len(fields)-1])
		out += string(unicode.ToUpper(second))
	}
	return out
}

func devProvider(v SignInView) string {
	switch p := strings.ToUpper(v.Provider); p {
	case "GOOGLE", "KAKAO", "NAVER":
		return p
	}
	return "GOOGLE"
}

func homeHref(v *Viewer) string {
	if v != nil {
		return HomePath
	}
	return "/"
}

// unreadLabel caps the bell's count: "9+".
func unreadLabel(n int) string {
	if n > 9 {
		return "9+"
	}
	return strconv.Itoa(n)
}

// StaleView answers an edit sent from a form opened before someone else changed the same
// thing (412 PRECONDITION_FAILED): nothing was saved; Lines show it as it is now.
type StaleView struct {
	Title string // "Someone changed this block while you were editing"
	Lines []StaleLine
	Hint  string // what to do now
	// Theirs, when set, are the form's fields as they are now: the dialog offers to keep the
	// viewer's own values (sent again against Version) or to take these.
	Theirs  []StaleLine // Label is the field's name
	Version int
}

// versionAttr is data-version, for the stale alert's buttons.
func versionAttr(version int) templ.Attributes {
	return templ.Attributes{"data-version": strconv.Itoa(version)}
}

// theirsAttrs carries the current values for "Use theirs": data-version and a data-theirs-<name>
// per form field, which plan.js puts into the dialog's fields of those names.
func theirsAttrs(v StaleView) templ.Attributes {
	out := versionAttr(v.Version)
	for _, f := range v.Theirs {
		out["data-theirs-"+strings.ReplaceAll(f.Label, "_", "-")] = f.Value
	}
	return out
}

// StaleLine is one labelled value of the current state.
type StaleLine struct{ Label, Value string }

// ifMatch makes an htmx request conditional on the version of what the page shows: hx-headers
// sending If-Match: "<version>" (none for version 0, unknown: the request is unconditional).
// A form that was opened on a stale version is then refused (412) instead of overwriting.
func ifMatch(version int) templ.Attributes {
	if version < 1 {
		return templ.Attributes{}
	}
	return templ.Attributes{"hx-headers": `{"If-Match": "\"` + strconv.Itoa(version) + `\""}`}
}
