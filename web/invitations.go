package web

import (
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/views"
)

// guestCookie holds the code of the invite link an anonymous visitor opened: it lets them
// look at that plan or collection, and joins them when they sign in.
const guestCookie = "guest"

// shareLinkJSON is the ShareLink resource; ttl is the seconds it stays valid.
type shareLinkJSON struct {
	Type        string `json:"type"`
	ReferenceID string `json:"reference_id"`
	URL         string `json:"url"`
	TTL         int    `json:"ttl"`
}

func (s *Server) toShareLinkJSON(l *planner.ShareLink) shareLinkJSON {
	return shareLinkJSON{Type: string(l.Type), ReferenceID: l.ReferenceID, URL: s.cfg.BaseURL + "/invite/" + l.Code,
		TTL: int(time.Until(l.ExpiresAt).Round(time.Second).Seconds())}
}

// createInvitation makes an invite link to the plan or collection of the path.
func (s *Server) createInvitation(typ planner.ShareType, param string) echo.HandlerFunc {
	return func(c echo.Context) error {
		l, err := s.store.CreateShareLink(c.Request().Context(), caller(c).UserID, typ, c.Param(param))
		if err != nil {
			return err
		}
		out := s.toShareLinkJSON(l)
		return respond(c, http.StatusOK, out, nil, views.InviteLink(out.URL))
	}
}

// sharedPath is the page of a link's plan or collection.
func sharedPath(l *planner.ShareLink) string {
	if l.Type == planner.SharePlan {
		return planPath(l.ReferenceID)
	}
	return collectionPath(l.ReferenceID)
}

// openInvite opens an invite link: a signed-in user joins and goes to the page; an anonymous
// visitor gets the guest cookie and goes there too (to sign in and join). A bad link is a 404
// problem for JSON clients and an explanation page for browsers.
func (s *Server) openInvite(c echo.Context) error {
	ctx, code := c.Request().Context(), c.Param("code")
	var l *planner.ShareLink
	var err error
	if p := caller(c); p != nil && !p.Guest {
		l, err = s.store.JoinByLink(ctx, p.UserID, code)
	} else if l, err = s.store.ShareLink(ctx, code); err == nil {
		c.SetCookie(s.cookie(guestCookie, code, int(planner.ShareLinkTTL.Seconds())))
	}
	if code := planner.ErrorCode(err); (code == planner.CodeInvalidLink || code == planner.CodeExpiredLink) && negotiate(c.Request()) != asJSON {
		return c.Redirect(http.StatusFound, views.LinkErrorPath+"?error="+url.QueryEscape(linkErrors[code]))
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, sharedPath(l))
}

// linkErrors are the link error page's ?error= values.
var linkErrors = map[planner.Code]string{planner.CodeInvalidLink: "invalid_link", planner.CodeExpiredLink: "expired_link"}

// linkErrorPage explains a link that does not work.
func (s *Server) linkErrorPage(c echo.Context) error {
	e := views.ErrorView{Status: http.StatusNotFound, Title: "This invite link does not work",
		Detail: "Check that you copied the whole link, or ask the person who shared it for a new one.", Code: string(planner.CodeInvalidLink)}
	if c.QueryParam("error") == linkErrors[planner.CodeExpiredLink] {
		e.Title, e.Detail, e.Code = "This invite link has expired", "Invite links work for 7 days. Ask for a new one.", string(planner.CodeExpiredLink)
	}
	return render(c, http.StatusNotFound, views.ErrorPage(s.pageFor(c, e.Title), e))
}

// joinHeldInvite joins the user to the plan or collection of a guest cookie held at sign-in,
// and returns its page ("" when there is none); the cookie is spent either way.
func (s *Server) joinHeldInvite(c echo.Context, userID string) string {
	held, err := c.Cookie(guestCookie)
	if err != nil || held.Value == "" {
		return ""
	}
	c.SetCookie(s.cookie(guestCookie, "", -1))
	l, err := s.store.JoinByLink(c.Request().Context(), userID, held.Value)
	if err != nil {
		return "" // an expired or withdrawn link just does nothing at sign-in
	}
	return sharedPath(l)
}
