package web

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/views"
)

type notificationJSON struct {
	NotificationID string  `json:"notification_id"`
	Category       string  `json:"category"`
	EventType      string  `json:"event_type"`
	Message        string  `json:"message"`
	LinkURL        string  `json:"link_url"`
	Count          int     `json:"count"`
	IsRead         bool    `json:"is_read"`
	ReadAt         *string `json:"read_at"`
	CreatedAt      string  `json:"created_at"`
}

// toNotificationJSON is a notification with its message in the language of l.
func toNotificationJSON(l *i18n.Localizer, n *planner.Notification) notificationJSON {
	out := notificationJSON{NotificationID: n.ID, Category: n.Category, EventType: n.EventType, Message: views.NotificationMessage(l, *n),
		LinkURL: n.LinkURL, Count: n.Count, IsRead: n.ReadAt != nil, CreatedAt: instant(n.CreatedAt)}
	if n.ReadAt != nil {
		r := instant(*n.ReadAt)
		out.ReadAt = &r
	}
	return out
}

// listNotifications lists the caller's notifications, newest first, with X-Unread-Count.
func (s *Server) listNotifications(c echo.Context) error {
	var v planner.Validation
	page := pageParams(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	list, hasNext, unread, err := s.store.Notifications(c.Request().Context(), caller(c).UserID, page)
	if err != nil {
		return err
	}
	c.Response().Header().Set("X-Unread-Count", strconv.Itoa(unread))
	l := i18n.For(s.answerLanguage(c))
	out := make([]notificationJSON, len(list))
	view := views.NotificationsView{Unread: unread, VAPIDKey: s.cfg.VAPIDPublicKey}
	for i := range list {
		out[i] = toNotificationJSON(l, &list[i])
		view.Items = append(view.Items, views.NotificationItem{ID: list[i].ID, Message: out[i].Message, Link: list[i].LinkURL,
			Read: list[i].ReadAt != nil, When: views.Moment(l, list[i].CreatedAt)})
	}
	if hasNext {
		view.NextHref = "/notifications?page=" + strconv.Itoa(page.Number+1)
	}
	return respond(c, http.StatusOK, newPage(out, hasNext, page),
		s.lazyPage(c, "activity.notifications", func(p views.Page) templ.Component { return views.Notifications(p, view) }), views.NotificationItems(view))
}

// readNotification marks one notification read.
func (s *Server) readNotification(c echo.Context) error {
	n, err := s.store.MarkNotificationRead(c.Request().Context(), caller(c).UserID, c.Param("notificationId"))
	if err != nil {
		return err
	}
	if wantsHTML(c) && n.LinkURL != "" { // a click in the list goes where the notification points
		return respondChange(c, http.StatusOK, nil, nil, n.LinkURL)
	}
	return respond(c, http.StatusOK, toNotificationJSON(i18n.For(s.answerLanguage(c)), n), nil, nil)
}

// readAllNotifications marks every notification of the caller read.
func (s *Server) readAllNotifications(c echo.Context) error {
	n, err := s.store.MarkAllNotificationsRead(c.Request().Context(), caller(c).UserID)
	if err != nil {
		return err
	}
	return respondChange(c, http.StatusOK, map[string]int{"updated_count": n}, nil, "/notifications")
}
