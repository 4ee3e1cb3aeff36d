package web

import (
	"context"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/paths"
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
	return shareLinkJSON{Type: string(l.Type), ReferenceID: l.ReferenceID, URL: s.inviteURL(l.Code),
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

// shareKind is what the link and removed-member routes of plans and collections differ in.
type shareKind struct {
	typ        planner.ShareType
	param      string // the path parameter naming the plan or collection
	ownerField string // the member id field of PATCH …/owner
	path       func(id string) string
	member     func(planner.Member) any // the resource's Member shape
}

var (
	planShares = shareKind{typ: planner.SharePlan, param: "planId", ownerField: "plan_member_id", path: paths.Plan,
		member: func(m planner.Member) any { return toPlanMemberJSON(m) }}
	collectionShares = shareKind{typ: planner.ShareCollection, param: "collectionId", ownerField: "collection_member_id", path: paths.Collection,
		member: func(m planner.Member) any { return toMemberJSON(m) }}
)

// invitationJSON is a link that still works, as its plan's or collection's members see it.
type invitationJSON struct {
	Code      string `json:"code"`
	URL       string `json:"url"`
	CreatedBy any    `json:"created_by"` // a PlanMember or a (collection) Member
	CreatedAt string `json:"created_at"`
	ExpiresAt string `json:"expires_at"`
}

// inviteURL is the address of a link.
func (s *Server) inviteURL(code string) string { return s.cfg.BaseURL + "/invite/" + code }

// listInvitations lists the links to the plan or collection that still work (members).
func (s *Server) listInvitations(k shareKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		links, err := s.store.ShareLinks(c.Request().Context(), caller(c).UserID, k.typ, c.Param(k.param))
		if err != nil {
			return err
		}
		out := make([]invitationJSON, len(links))
		for i, l := range links {
			out[i] = invitationJSON{Code: l.Code, URL: s.inviteURL(l.Code), CreatedBy: k.member(l.CreatedBy),
				CreatedAt: instant(l.CreatedAt), ExpiresAt: instant(l.ExpiresAt)}
		}
		return respond(c, http.StatusOK, out, nil, nil)
	}
}

// revokeInvitation deletes a link (its owner, or the member who made it): it stops working at
// once, for joining and for the guests it admitted. htmx gets the refreshed members drawer.
func (s *Server) revokeInvitation(k shareKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, id := c.Request().Context(), c.Param(k.param)
		if err := s.store.RevokeShareLink(ctx, caller(c).UserID, k.typ, id, c.Param("code")); err != nil {
			return err
		}
		return s.respondWithDrawer(c, k, id)
	}
}

// listRemovedMembers lists the members the owner removed and has not let back in (the owner).
func (s *Server) listRemovedMembers(k shareKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		removed, err := s.store.RemovedMembers(c.Request().Context(), caller(c).UserID, k.typ, c.Param(k.param))
		if err != nil {
			return err
		}
		out := make([]any, len(removed))
		for i, m := range removed {
			out[i] = k.member(m)
		}
		return respond(c, http.StatusOK, out, nil, nil)
	}
}

// letMemberBack lets a removed member join again through a link (the owner). htmx gets the
// refreshed members drawer.
func (s *Server) letMemberBack(k shareKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, id := c.Request().Context(), c.Param(k.param)
		if err := s.store.LetMemberBack(ctx, caller(c).UserID, k.typ, id, c.Param("memberId")); err != nil {
			return err
		}
		return s.respondWithDrawer(c, k, id)
	}
}

// respondWithDrawer answers a change made from the members drawer: 204 for JSON, the drawer as
// it is now for htmx, and the page for a plain form.
func (s *Server) respondWithDrawer(c echo.Context, k shareKind, id string) error {
	var drawer templ.Component
	if wantsPartial(c) {
		ctx, userID := c.Request().Context(), caller(c).UserID
		var g *planner.MemberGroup
		var err error
		if k.typ == planner.SharePlan {
			g, err = s.store.PlanMembers(ctx, userID, id)
		} else {
			g, err = s.store.CollectionMembers(ctx, userID, id)
		}
		if err != nil {
			return err
		}
		if drawer, err = s.membersDrawer(ctx, userID, k, id, g); err != nil {
			return err
		}
	}
	return respondChange(c, http.StatusNoContent, nil, drawer, k.path(id))
}

// membersDrawer is the members drawer of a plan or collection as the caller sees it: members
// also see the links that still work (each revocable by the owner and by its maker), the
// owner also the members they removed.
func (s *Server) membersDrawer(ctx context.Context, userID string, k shareKind, id string, g *planner.MemberGroup) (templ.Component, error) {
	v := views.MembersView{BasePath: k.path(id), OwnerField: k.ownerField, Members: toMemberViews(g.Members)}
	if g.Me == nil { // a guest
		return views.MembersDrawer(v), nil
	}
	v.MeID, v.IAmOwner = g.Me.ID, g.Me.Role == planner.RoleOwner
	links, err := s.store.ShareLinks(ctx, userID, k.typ, id)
	if err != nil {
		return nil, err
	}
	for _, l := range links {
		v.Links = append(v.Links, views.InviteLinkView{Code: l.Code, MadeBy: l.CreatedBy.Nickname,
			Mine: l.CreatedBy.ID == g.Me.ID, Expires: views.Moment(i18n.From(ctx), l.ExpiresAt.UTC()) + " UTC",
			CanRevoke: v.IAmOwner || l.CreatedBy.ID == g.Me.ID})
	}
	if v.IAmOwner {
		removed, err := s.store.RemovedMembers(ctx, userID, k.typ, id)
		if err != nil {
			return nil, err
		}
		v.Removed = toMemberViews(removed)
	}
	return views.MembersDrawer(v), nil
}

// sharedPath is the page of a link's plan or collection.
func sharedPath(l *planner.ShareLink) string {
	if l.Type == planner.SharePlan {
		return paths.Plan(l.ReferenceID)
	}
	return paths.Collection(l.ReferenceID)
}

// openInvite opens an invite link: a signed-in user joins and goes to the page; an anonymous
// visitor gets the guest cookie and goes there too (to sign in and join). A bad link (404) or a
// member the owner removed (403 MEMBER_REMOVED) is a problem for JSON clients and an
// explanation page for browsers. Browsers land on the front end's pages when FRONTEND_URL is
// set (sharedPage, linkProblemPage).
func (s *Server) openInvite(c echo.Context) error {
	ctx, code := c.Request().Context(), c.Param("code")
	var l *planner.ShareLink
	var err error
	if p := caller(c); p != nil && !p.Guest {
		l, err = s.store.JoinByLink(ctx, p.UserID, code)
	} else if l, err = s.store.ShareLink(ctx, code); err == nil {
		c.SetCookie(s.cookie(guestCookie, code, int(planner.ShareLinkTTL.Seconds())))
	}
	browser := negotiate(c.Request()) != asJSON
	if code := planner.ErrorCode(err); linkErrors[code] != "" && browser {
		return c.Redirect(http.StatusFound, s.linkProblemPage(code))
	}
	if err != nil {
		return err
	}
	if browser {
		return c.Redirect(http.StatusFound, s.sharedPage(l))
	}
	return c.Redirect(http.StatusFound, sharedPath(l))
}

// linkErrors are the link error page's ?error= values.
var linkErrors = map[planner.Code]string{planner.CodeInvalidLink: "invalid_link", planner.CodeExpiredLink: "expired_link",
	planner.CodeMemberRemoved: "member_removed"}

// linkErrorPage explains a link that does not work.
func (s *Server) linkErrorPage(c echo.Context) error {
	l := i18n.From(c.Request().Context())
	e := views.ErrorView{Status: http.StatusNotFound, Title: l.T("errors.link_invalid_title"),
		Detail: l.T("errors.link_invalid_detail"), Code: string(planner.CodeInvalidLink)}
	switch c.QueryParam("error") {
	case linkErrors[planner.CodeExpiredLink]:
		e.Title, e.Detail, e.Code = l.T("errors.link_expired_title"), l.T("errors.link_expired_detail"), string(planner.CodeExpiredLink)
	case linkErrors[planner.CodeMemberRemoved]:
		e.Status, e.Title, e.Code = http.StatusForbidden, l.T("errors.link_removed_title"), string(planner.CodeMemberRemoved)
		e.Detail = l.T("errors.link_removed_detail")
	}
	return render(c, e.Status, views.ErrorPage(s.pageFor(c, e.Title), e))
}

// joinHeldInvite joins the user to the plan or collection of a guest cookie held at sign-in,
// and returns its page ("" when there is none); the cookie is spent either way. A member the
// owner removed goes to the page that says why they are not let back in.
func (s *Server) joinHeldInvite(c echo.Context, userID string) string {
	held, err := c.Cookie(guestCookie)
	if err != nil || held.Value == "" {
		return ""
	}
	c.SetCookie(s.cookie(guestCookie, "", -1))
	l, err := s.store.JoinByLink(c.Request().Context(), userID, held.Value)
	if planner.ErrorCode(err) == planner.CodeMemberRemoved {
		return s.linkProblemPage(planner.CodeMemberRemoved)
	}
	if err != nil {
		return "" // an expired or withdrawn link just does nothing at sign-in
	}
	return sharedPath(l)
}
