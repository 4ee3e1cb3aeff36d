package web

import (
	"cmp"
	"net/url"
	"strings"

	"tripplan/internal/planner"
	"tripplan/views"
)

// Frontend is a separate front end that serves the pages (docs/API.md §App sign-in). When URL is set,
// the browser redirects of sign-in and of invite links land on its pages instead of this
// server's; the JSON API answers as always. A path may hold {id} (the plan's or collection's
// id) and {error} (a problem code), which are filled in.
type Frontend struct {
	URL            string // FRONTEND_URL: scheme://host[/prefix] without a trailing slash; "": this server's pages
	SignedInPath   string // FRONTEND_SIGNED_IN_PATH: after sign-in, and (with ?error=) after a failed one
	TermsPath      string // FRONTEND_TERMS_PATH: after sign-in while the terms are pending
	PlanPath       string // FRONTEND_PLAN_PATH: the plan an invite link opened
	CollectionPath string // FRONTEND_COLLECTION_PATH: the collection an invite link opened
	LinkErrorPath  string // FRONTEND_LINK_ERROR_PATH: why an invite link does not work
}

// The front end's paths when not configured.
const (
	DefaultFrontendSignedInPath   = "/login"
	DefaultFrontendTermsPath      = "/onboard"
	DefaultFrontendPlanPath       = "/projects/{id}"
	DefaultFrontendCollectionPath = "/home/{id}"
	DefaultFrontendLinkErrorPath  = "/403?error={error}"
)

// withDefaults fills in the paths not configured.
func (f Frontend) withDefaults() Frontend {
	f.SignedInPath = cmp.Or(f.SignedInPath, DefaultFrontendSignedInPath)
	f.TermsPath = cmp.Or(f.TermsPath, DefaultFrontendTermsPath)
	f.PlanPath = cmp.Or(f.PlanPath, DefaultFrontendPlanPath)
	f.CollectionPath = cmp.Or(f.CollectionPath, DefaultFrontendCollectionPath)
	f.LinkErrorPath = cmp.Or(f.LinkErrorPath, DefaultFrontendLinkErrorPath)
	return f
}

// page is the one builder of the front end's addresses: URL + path, its {id} and {error}
// filled in with the values escaped.
func (f Frontend) page(path, id string, problem planner.Code) string {
	return f.URL + strings.NewReplacer("{id}", url.PathEscape(id), "{error}", url.QueryEscape(string(problem))).Replace(path)
}

// codeSignInFailed is the ?error= of a social sign-in that did not complete (a refused
// approval, a forged or expired flow, a provider that failed); a withdrawn account's is
// USER_WITHDRAWN.
const codeSignInFailed planner.Code = "SIGN_IN_FAILED"

// The pages below are where browsers are sent: this server's, or the front end's when
// FRONTEND_URL is set.

// signedInPage is where a browser goes once signed in: next (a local path) — through the terms
// first while they are pending —, or the front end's signed-in or terms page.
func (s *Server) signedInPage(termsAccepted bool, next string) string {
	if f := s.cfg.Frontend; f.URL != "" {
		if !termsAccepted {
			return f.page(f.TermsPath, "", "")
		}
		return f.page(f.SignedInPath, "", "")
	}
	if !termsAccepted {
		return views.TermsPath + "?next=" + url.QueryEscape(next)
	}
	return next
}

// signInErrorPage is where a browser goes when social sign-in did not complete (problem is
// codeSignInFailed or USER_WITHDRAWN): the sign-in page saying why, this server's
// (?error=failed|withdrawn) or the front end's signed-in page with ?error=<problem>.
func (s *Server) signInErrorPage(problem planner.Code) string {
	if f := s.cfg.Frontend; f.URL != "" {
		sep := "?"
		if strings.Contains(f.SignedInPath, "?") {
			sep = "&"
		}
		return f.page(f.SignedInPath+sep+"error={error}", "", problem)
	}
	if problem == planner.CodeUserWithdrawn {
		return "/login?error=withdrawn"
	}
	return "/login?error=failed"
}

// sharedPage is where a browser goes to see an invite link's plan or collection.
func (s *Server) sharedPage(l *planner.ShareLink) string {
	f := s.cfg.Frontend
	switch {
	case f.URL == "":
		return sharedPath(l)
	case l.Type == planner.SharePlan:
		return f.page(f.PlanPath, l.ReferenceID, "")
	}
	return f.page(f.CollectionPath, l.ReferenceID, "")
}

// linkProblemPage is where a browser learns why an invite link does not work (problem is one
// of linkErrors' codes): this server's link error page, or the front end's with the code.
func (s *Server) linkProblemPage(problem planner.Code) string {
	if f := s.cfg.Frontend; f.URL != "" {
		return f.page(f.LinkErrorPath, "", problem)
	}
	return views.LinkErrorPath + "?error=" + linkErrors[problem]
}
