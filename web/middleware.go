package web

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// logRequests writes one structured line per request with its request id and the bytes sent
// (compressed, as measure counts them).
func (s *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err) // write the error now so the logged status is the real one
		}
		r, res := c.Request(), c.Response()
		level := slog.LevelInfo
		if res.Status >= 500 {
			level = slog.LevelError
		}
		s.log.LogAttrs(r.Context(), level, "request",
			slog.String("request_id", res.Header().Get(echo.HeaderXRequestID)),
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", res.Status), slog.Int64("bytes", meterOf(c).written),
			slog.Duration("duration", time.Since(start)), slog.String("remote", clientAddress(c)))
		return nil
	}
}

// clientAddress is the address of the client behind a request, the one every per-address
// limit and the request log use: the connection's peer, or — when the peer is a trusted proxy
// (Config.TrustedProxies) — the right-most address of X-Forwarded-For that is not a trusted
// proxy, the last hop no client can forge.
func clientAddress(c echo.Context) string { return c.RealIP() }

// addressExtractor is what clientAddress reads for the trusted proxies. Echo's X-Forwarded-For
// extractor trusts loopback, link-local and private peers by default; here nothing is trusted
// but the configured ranges.
func addressExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, r := range trusted {
		opts = append(opts, echo.TrustIPRange(r))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// recoverPanics turns a panic into 500 INTERNAL; the stack goes to the log, never to the client.
func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(c.Request().Context(), "panic", "value", fmt.Sprint(v), "stack", string(debug.Stack()),
					"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
				err = &planner.Error{Code: planner.CodeInternal} // the error handler gives its detail
			}
		}()
		return next(c)
	}
}

// securityHeaders sets the headers every response carries: a CSP that allows only this
// origin's scripts and styles, no framing, no MIME sniffing.
// Images may come from any https origin (profile pictures, place photos, map tiles), from
// blob: URLs (the preview of a photo before upload) and from a plain-http tile server when
// one is configured.
func securityHeaders(cfg Config) echo.MiddlewareFunc {
	images := "'self' data: blob: https:"
	if u, err := url.Parse(cfg.MapTileURL); err == nil && u.Scheme == "http" && u.Host != "" {
		images += " http://" + u.Host
	}
	csp := "default-src 'self'; img-src " + images + "; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
			if cfg.SecureCookies {
				h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
			}
			return next(c)
		}
	}
}

// principal is who is calling.
type principal struct {
	// UserID is the signed-in user's id, or for a guest the planner.GuestViewer id that lets
	// store reads show the linked plan or collection only.
	UserID   string
	PreTerms bool
	Bearer   bool // authenticated by an Authorization header (exempt from CSRF checks)
	Guest    bool // not signed in, holding an invite link's guest cookie
	// Session is the sign-in session (refresh-token family) the access token or browser
	// session belongs to; "" for guests and for credentials issued before sessions were named.
	Session string
}

const (
	principalKey = "principal"
	authErrKey   = "auth_error"
	sessionName  = "tripplan_session"
	sessionTerms = "terms"
	sessionID    = "sid" // the browser session's sign-in session (see principal.Session)
)

func bearerToken(r *http.Request) string {
	h := r.Header.Get(echo.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// authenticate identifies the caller from a bearer token or the session cookie and loads
// nothing else (whether the credential was revoked is known without a query: tokenRevoked).
// A bad or revoked token is remembered, and reported only by routes that require a user.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if h := r.Header.Get(echo.HeaderAuthorization); h != "" {
			token := bearerToken(r)
			if token == "" {
				c.Set(authErrKey, planner.Errorf(planner.CodeInvalidToken, "The Authorization header must be \"Bearer <token>\"."))
				return next(c)
			}
			claims, err := s.tokens.Verify(token)
			if err != nil {
				c.Set(authErrKey, err)
				return next(c)
			}
			return s.signedIn(c, next, &principal{UserID: claims.Subject, PreTerms: claims.PreTerms(), Bearer: true, Session: claims.Session})
		}
		if _, err := r.Cookie(sessionName); err == nil {
			sess, err := s.sessions.Get(r, sessionName)
			if err != nil {
				return err
			}
			if id, ok := sess.Values[postgres.SessionUserKey].(string); ok && id != "" {
				terms, _ := sess.Values[sessionTerms].(bool)
				session, _ := sess.Values[sessionID].(string)
				return s.signedIn(c, next, &principal{UserID: id, PreTerms: !terms, Session: session})
			}
		}
		if held, err := r.Cookie(guestCookie); err == nil && held.Value != "" {
			// An invite link's guest: read-only access to its plan or collection while the link works.
			if l, err := s.store.ShareLink(r.Context(), held.Value); err == nil {
				c.Set(principalKey, &principal{UserID: planner.GuestViewer(l), Guest: true})
			}
		}
		return next(c)
	}
}

// signedIn continues as p unless p's sign-in session has been signed out or revoked (or its
// user withdrawn): then as nobody, remembering INVALID_TOKEN for routes that require a user.
func (s *Server) signedIn(c echo.Context, next echo.HandlerFunc, p *principal) error {
	revoked, err := s.tokenRevoked(c.Request().Context(), p)
	if err != nil {
		return err
	}
	if revoked {
		c.Set(authErrKey, planner.Errorf(planner.CodeInvalidToken, "The access token was revoked: its sign-in has ended (signed out, revoked, or the account deleted)."))
		return next(c)
	}
	c.Set(principalKey, p)
	if !p.Bearer {
		c.Response().Header().Set(viewerHeader, viewerTag(p.UserID)) // whose pages the service worker keeps
	}
	return next(c)
}

// tokenRevoked reports whether the principal's credential — an access token or a browser
// session — may no longer be used: its sign-in session was signed out (POST /auth/logout on
// any instance), revoked (a replayed refresh token), or its user withdrew. It costs no query
// while the revocations feed is followed (one otherwise), so long-lived requests such as event
// streams may ask again at every heartbeat. Guests are never revoked here (their access is
// their link's).
func (s *Server) tokenRevoked(ctx context.Context, p *principal) (bool, error) {
	if p == nil || p.Guest {
		return false, nil
	}
	return s.store.SessionRevoked(ctx, p.UserID, p.Session)
}

// credentialValid checks again that the credential the request was authenticated with still
// holds, for requests that outlive a moment (event streams ask at every heartbeat): a bearer
// token still verifies and its sign-in was not ended (tokenRevoked), a browser session's row
// still exists (signing out deletes it). A guest's link is checked by the store's read check,
// which the stream runs right after. It answers the error the request would now get.
func (s *Server) credentialValid(c echo.Context) error {
	p, r := caller(c), c.Request()
	signedOut := planner.Errorf(planner.CodeMissingToken, "Sign in to continue.")
	switch {
	case p == nil:
		return signedOut
	case p.Guest:
		return nil
	case p.Bearer:
		if _, err := s.tokens.Verify(bearerToken(r)); err != nil {
			return err
		}
	default:
		sess, err := s.sessions.New(r, sessionName) // from the store, not the request's registry
		if err != nil {
			return err
		}
		if id, _ := sess.Values[postgres.SessionUserKey].(string); id != p.UserID {
			return signedOut
		}
	}
	revoked, err := s.tokenRevoked(r.Context(), p)
	if err != nil {
		return err
	}
	if revoked {
		return planner.Errorf(planner.CodeInvalidToken, "The access token was revoked: its sign-in has ended.")
	}
	return nil
}

// caller returns the authenticated principal or nil.
func caller(c echo.Context) *principal {
	p, _ := c.Get(principalKey).(*principal)
	return p
}

// requireAccount answers 401 without a signed-in account, 403 GUEST_FORBIDDEN for an invite
// link's guest (who has none), and 403 TERMS_REQUIRED for a pre-terms token unless the route
// is part of the terms flow: the routes of the account itself and of what it makes (its lists,
// settings, notifications, new plans and collections, searches).
func (s *Server) requireAccount(allowPreTerms bool) echo.MiddlewareFunc {
	return s.requireViewer(allowPreTerms, false)
}

// requireViewer authenticates the caller — an account, or (allowGuest) an invite link's guest
// too — and decides nothing else: the routes of a plan or a collection leave to the store
// which of its readers may read or change what. Once the caller is known, its routes' POSTs
// run through idempotent: an Idempotency-Key is the caller's.
func (s *Server) requireViewer(allowPreTerms, allowGuest bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		next = s.idempotent(next)
		return func(c echo.Context) error {
			p := caller(c)
			if p != nil && p.Guest && !allowGuest {
				return planner.Errorf(planner.CodeGuestForbidden, "Guests can look but not change anything; sign in to join.")
			}
			if p == nil {
				if err, ok := c.Get(authErrKey).(error); ok {
					return err
				}
				return planner.Errorf(planner.CodeMissingToken, "Sign in to continue.")
			}
			if p.PreTerms && !allowPreTerms {
				return planner.Errorf(planner.CodeTermsRequired, "Accept the terms of service first.")
			}
			return next(c)
		}
	}
}

// crossOriginProtection rejects cross-origin unsafe requests that ride on cookies (CSRF),
// using the browser's Sec-Fetch-Site and Origin headers (net/http.CrossOriginProtection).
// Requests carrying an Authorization header are exempt: a browser never adds one by itself.
func (s *Server) crossOriginProtection(next echo.HandlerFunc) echo.HandlerFunc {
	cop := http.NewCrossOriginProtection()
	for _, origin := range s.cfg.CORSOrigins {
		if err := cop.AddTrustedOrigin(origin); err != nil {
			panic(err) // origins are validated when the configuration is read
		}
	}
	return func(c echo.Context) error {
		r := c.Request()
		if r.Header.Get(echo.HeaderAuthorization) == "" {
			if err := cop.Check(r); err != nil {
				return planner.Errorf(planner.CodeCrossOrigin, "Cross-origin request refused.")
			}
		}
		return next(c)
	}
}

// rateLimit bounds sign-in and token requests per client address with a token bucket kept in
// PostgreSQL (TakeToken), which every instance shares: N instances allow what one would.
//
// When the database cannot answer, the request goes through (fail open, with a warning): a
// brief outage must not lock everybody out of sign-in once it is over, nor answer every
// attempt with a 5xx of the limiter's own. Sign-in needs the database itself, so what an
// outage lets through cannot do much.
func (s *Server) rateLimit() echo.MiddlewareFunc {
	retryAfter := strconv.Itoa(int(math.Ceil(1 / s.cfg.SignInRate)))
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			taken, err := s.store.TakeToken(ctx, "sign-in", clientAddress(c), s.cfg.SignInRate, s.cfg.SignInBurst)
			if err != nil {
				s.log.WarnContext(ctx, "rate limit: could not take a token; letting the request through", "err", err)
				return next(c)
			}
			if !taken {
				c.Response().Header().Set(echo.HeaderRetryAfter, retryAfter)
				return planner.Errorf(planner.CodeTooManyRequests, "Too many sign-in attempts; wait a moment and try again.")
			}
			return next(c)
		}
	}
}
