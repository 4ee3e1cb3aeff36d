package web

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/internal/reach"
	"tripplan/views"
)

// notificationSettingsJSON is GET and PUT /users/me/notification-settings.
type notificationSettingsJSON struct {
	Settings []planner.NotificationSetting `json:"settings"`
	// VAPIDPublicKey is what browsers subscribe with; null when Web Push is off.
	VAPIDPublicKey *string `json:"vapid_public_key"`
	// EmailDigest says whether this server sends the daily digest (SMTP configured).
	EmailDigest bool `json:"email_digest"`
}

func (s *Server) settingsJSON(settings []planner.NotificationSetting) notificationSettingsJSON {
	out := notificationSettingsJSON{Settings: settings, EmailDigest: s.cfg.EmailDigest}
	if s.cfg.VAPIDPublicKey != "" {
		out.VAPIDPublicKey = &s.cfg.VAPIDPublicKey
	}
	return out
}

// notificationSettings answers how news reaches the caller, every category.
func (s *Server) notificationSettings(c echo.Context) error {
	settings, err := s.store.NotificationSettings(c.Request().Context(), caller(c).UserID)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, s.settingsJSON(settings), nil, nil)
}

type notificationSettingsRequest struct {
	Settings []planner.NotificationSetting `json:"settings"`
}

// setNotificationSettings changes the settings of the categories given (JSON), or of every
// category from the profile's form (checkboxes push and email, valued by category: an
// unchecked box is off).
func (s *Server) setNotificationSettings(c echo.Context) error {
	var in []planner.NotificationSetting
	var v planner.Validation
	if isForm(c) {
		if err := c.Request().ParseForm(); err != nil {
			return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
		}
		f := c.Request().PostForm
		for _, k := range planner.NotifyCategories {
			in = append(in, planner.NotificationSetting{Category: k, Push: slices.Contains(f["push"], k), Email: slices.Contains(f["email"], k)})
		}
		for _, k := range append(f["push"], f["email"]...) {
			v.Check(planner.IsNotifyCategory(k), "settings", "names an unknown category")
		}
	} else {
		var body notificationSettingsRequest
		if err := c.Bind(&body); err != nil {
			return err
		}
		in = body.Settings
		v.Checkf(len(in) >= 1 && len(in) <= len(planner.NotifyCategories), "settings", "must list 1 to %d categories", len(planner.NotifyCategories))
		seen := map[string]bool{}
		for i, set := range in {
			field := "settings[" + strconv.Itoa(i) + "].category"
			v.Check(planner.IsNotifyCategory(set.Category), field, "must be PLAN, COLLECTION or SYSTEM")
			v.Check(!seen[set.Category], field, "is listed twice")
			seen[set.Category] = true
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	settings, err := s.store.SetNotificationSettings(c.Request().Context(), caller(c).UserID, in)
	if err != nil {
		return err
	}
	if !wantsPartial(c) {
		return respondChange(c, http.StatusOK, s.settingsJSON(settings), nil, views.ProfilePath+"#news")
	}
	u, err := s.store.User(c.Request().Context(), caller(c).UserID)
	if err != nil {
		return err
	}
	view := s.newsView(settings, u.Email != "")
	view.Saved = true
	return render(c, http.StatusOK, views.NewsSettings(view))
}

// newsView is the profile's settings section.
func (s *Server) newsView(settings []planner.NotificationSetting, hasEmail bool) views.NewsSettingsView {
	return views.NewsSettingsView{Settings: settings, Push: s.cfg.VAPIDPublicKey != "", Email: s.cfg.EmailDigest, HasEmail: hasEmail}
}

type pushSubscriptionRequest struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

type pushSubscriptionJSON struct {
	SubscriptionID string `json:"subscription_id"`
	Endpoint       string `json:"endpoint"`
	CreatedAt      string `json:"created_at"`
}

// subscribePush keeps the caller's browser's PushSubscription (PushSubscription.toJSON()).
func (s *Server) subscribePush(c echo.Context) error {
	if s.cfg.VAPIDPublicKey == "" {
		return planner.Errorf(planner.CodeNotFound, "Web Push is not set up on this server.")
	}
	var in pushSubscriptionRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	v.Check(reach.CheckEndpoint(in.Endpoint, s.cfg.PushAllowHTTP), "endpoint", "must be an https URL of at most 1000 characters")
	// A P-256 public key is 65 bytes (87 base64url characters), an auth secret 16 (22).
	v.Check(validKey(in.Keys.P256dh, 65), "keys.p256dh", "must be the browser's P-256 key, base64url")
	v.Check(validKey(in.Keys.Auth, 16), "keys.auth", "must be the browser's 16-byte auth secret, base64url")
	if err := v.Err(); err != nil {
		return err
	}
	p := caller(c)
	sub, err := s.store.SavePushSubscription(c.Request().Context(), p.UserID,
		planner.PushSubscription{Endpoint: in.Endpoint, P256dh: in.Keys.P256dh, Auth: in.Keys.Auth, Session: p.Session})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, pushSubscriptionJSON{SubscriptionID: sub.ID, Endpoint: sub.Endpoint, CreatedAt: instant(sub.CreatedAt)})
}

// unsubscribePush forgets the caller's browser's subscription (?endpoint=).
func (s *Server) unsubscribePush(c echo.Context) error {
	endpoint := c.QueryParam("endpoint")
	var v planner.Validation
	v.Check(endpoint != "" && len(endpoint) <= 1000, "endpoint", "must be the subscription's endpoint")
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.DeletePushSubscription(c.Request().Context(), caller(c).UserID, endpoint); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// digestOffPage is where the digest's unsubscribe link leads: a button that turns it off,
// for anyone holding the signed link (a mail scanner's GET changes nothing).
func (s *Server) digestOffPage(c echo.Context) error {
	user, sig := c.QueryParam("user"), c.QueryParam("sig")
	v := views.DigestOffView{User: user, Sig: sig, Invalid: !reach.CheckUnsubscribe(s.cfg.UnsubscribeKey, user, sig)}
	status := http.StatusOK
	if v.Invalid {
		status = http.StatusForbidden
	}
	return render(c, status, views.DigestOff(s.pageFor(c, i18n.T(c.Request().Context(), "news.off_heading")), v))
}

// digestOff turns the digest off: the page's button, or a mail client's one-click
// List-Unsubscribe POST (RFC 8058), with the link's query.
func (s *Server) digestOff(c echo.Context) error {
	user, sig := c.QueryParam("user"), c.QueryParam("sig")
	v := views.DigestOffView{Invalid: !reach.CheckUnsubscribe(s.cfg.UnsubscribeKey, user, sig)}
	status := http.StatusForbidden
	if !v.Invalid {
		if err := s.store.TurnOffDigest(c.Request().Context(), user); err != nil {
			return err
		}
		v.Done, status = true, http.StatusOK
	}
	return render(c, status, views.DigestOff(s.pageFor(c, i18n.T(c.Request().Context(), "news.off_heading")), v))
}

// validKey reports whether s is n bytes in base64url, padded or not (browsers differ).
func validKey(s string, n int) bool {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	return err == nil && len(b) == n
}
