package web

import (
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/views"
)

// pageFor builds the common page model: title, the signed-in viewer, dev login, where the page
// is (the language switch comes back to a page asked for with GET, else goes home).
func (s *Server) pageFor(c echo.Context, title string) views.Page {
	p := views.Page{Title: title, DevLogin: s.cfg.DevLogin, Path: c.Request().URL.Path, Here: "/"}
	if c.Request().Method == http.MethodGet {
		p.Here = c.Request().URL.RequestURI()
	}
	if pr := caller(c); pr != nil && !pr.Guest {
		if u, err := s.store.User(c.Request().Context(), pr.UserID); err == nil {
			p.Viewer = &views.Viewer{UserID: u.ID, Nickname: u.Nickname, Picture: u.Picture}
			p.Unread, _ = s.store.UnreadCount(c.Request().Context(), u.ID)
		}
	}
	return p
}

// lazyPage is a full page whose common model — and its title, the catalogue's message
// titleID — is built only when it is rendered, so JSON answers of the same handler pay for
// neither the viewer nor the language.
func (s *Server) lazyPage(c echo.Context, titleID string, body func(views.Page) templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return body(s.pageFor(c, i18n.T(ctx, titleID))).Render(ctx, w)
	})
}

func (s *Server) landing(c echo.Context) error {
	if p := caller(c); p != nil && !p.PreTerms && !p.Guest {
		return c.Redirect(http.StatusSeeOther, views.HomePath)
	}
	return render(c, http.StatusOK, views.Landing(s.pageFor(c, i18n.T(c.Request().Context(), "home.landing_title"))))
}

// signInMessages are the sign-in page's error messages (ids), by the code in ?error=.
var signInMessages = map[string]string{
	"withdrawn": "auth.withdrawn",
	"failed":    "auth.failed",
}

func (s *Server) signInPage(c echo.Context) error {
	ctx := c.Request().Context()
	v := views.SignInView{DevLogin: s.cfg.DevLogin, Next: localPath(c.QueryParam("next"), "")}
	if id, ok := signInMessages[c.QueryParam("error")]; ok {
		v.Error = i18n.T(ctx, id)
	}
	for _, p := range s.signin.List() {
		v.Providers = append(v.Providers, views.SignInProvider{ID: p.ID, Name: p.Name})
	}
	return render(c, http.StatusOK, views.SignIn(s.pageFor(c, i18n.T(ctx, "common.sign_in")), v))
}

// nicknamePage is the onboarding step after the terms.
func (s *Server) nicknamePage(c echo.Context) error {
	u, err := s.store.User(c.Request().Context(), caller(c).UserID)
	if err != nil {
		return err
	}
	v := views.NicknameStepView{Nickname: u.Nickname, Next: localPath(c.QueryParam("next"), views.HomePath)}
	return render(c, http.StatusOK, views.NicknameStep(s.pageFor(c, i18n.T(c.Request().Context(), "auth.title_nickname")), v))
}

func (s *Server) onboardingPage(c echo.Context) error {
	return render(c, http.StatusOK, views.Terms(s.pageFor(c, i18n.T(c.Request().Context(), "auth.title_welcome")), views.TermsView{Next: localPath(c.QueryParam("next"), "/home")}))
}

// homeListLimit bounds each list on the home page; the full lists have their own pages.
const homeListLimit = 12

func (s *Server) home(c echo.Context) error {
	ctx, userID := c.Request().Context(), caller(c).UserID
	plans, err := s.store.RecentPlans(ctx, userID, homeListLimit)
	if err != nil {
		return err
	}
	collections, _, err := s.store.Collections(ctx, userID, planner.Page{Size: homeListLimit}, false)
	if err != nil {
		return err
	}
	var v views.HomeView
	l := i18n.From(ctx)
	for _, p := range plans {
		v.Plans = append(v.Plans, views.PlanCard{ID: p.ID, Title: p.Title, MemberCount: p.MemberCount,
			Dates: views.Dates(l, p.StartDate, p.EndDate)})
	}
	for _, col := range collections {
		v.Collections = append(v.Collections, views.CollectionCard{ID: col.ID, Title: col.Title, Thumbnail: col.Thumbnail,
			PlaceCount: col.PlaceCount, MemberCount: col.MemberCount})
	}
	return render(c, http.StatusOK, views.Home(s.pageFor(c, l.T("home.title")), v))
}

// profilePage lets the user change their nickname, sign out or delete their account.
func (s *Server) profilePage(c echo.Context) error {
	u, err := s.store.User(c.Request().Context(), caller(c).UserID)
	if err != nil {
		return err
	}
	settings, err := s.store.NotificationSettings(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	v := views.ProfileView{Nickname: u.Nickname, Picture: u.Picture, Email: planner.MaskEmail(u.Email), Provider: providerName(u.Provider),
		News: s.newsView(settings, u.Email != "")}
	return render(c, http.StatusOK, views.Profile(s.pageFor(c, i18n.T(c.Request().Context(), "common.profile")), v))
}

// providerName is a provider as people know it: "Google".
func providerName(p planner.Provider) string {
	switch p {
	case planner.ProviderOIDC:
		return "OpenID Connect"
	}
	s := strings.ToLower(string(p))
	return strings.ToUpper(s[:1]) + s[1:]
}
