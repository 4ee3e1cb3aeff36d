package planner

import "time"

// NotifyCategories are the kinds of notification (the notifications table's categories) a
// user chooses Web Push and the e-mail digest for, in the order the profile lists them.
var NotifyCategories = []string{NotifyPlan, NotifyCollection, NotifySystem}

// IsNotifyCategory reports whether c is one of NotifyCategories.
func IsNotifyCategory(c string) bool {
	for _, k := range NotifyCategories {
		if k == c {
			return true
		}
	}
	return false
}

// NotificationSetting is how notifications of one category reach the user besides the
// notifications page: by Web Push, in the daily e-mail digest. Both are off by default.
type NotificationSetting struct {
	Category string `db:"category" json:"category"`
	Push     bool   `db:"push" json:"push"`
	Email    bool   `db:"email" json:"email"`
}

// MaxPushSubscriptions is how many browsers one user receives pushes on: subscribing one more
// drops the oldest (browsers make new subscriptions without always telling of the old).
const MaxPushSubscriptions = 10

// PushSubscription is a browser's PushSubscription (RFC 8291 keys, base64url).
type PushSubscription struct {
	ID       string `db:"id"`
	UserID   string `db:"user_id"`
	Endpoint string `db:"endpoint"`
	P256dh   string `db:"p256dh"`
	Auth     string `db:"auth"`
	// Session is the sign-in session (refresh-token family) that subscribed, "" if none was
	// named: its sign-out or revocation ends the subscription.
	Session       string     `db:"session"`
	CreatedAt     time.Time  `db:"created_at"`
	LastSuccessAt *time.Time `db:"last_success_at"`
}

// Push is one notification to send to one subscription.
type Push struct {
	NotificationID string `db:"notification_id"`
	SubscriptionID string `db:"subscription_id"`
}

// Delivery is what a push sends: the notification, the subscription, and the recipient's
// chosen language ("" follows nothing known: the default).
type Delivery struct {
	Notification Notification
	Subscription PushSubscription
	Language     string
}

// DigestRecipient is a user who asked for the e-mail digest of at least one category.
type DigestRecipient struct {
	UserID   string `db:"user_id"`
	Email    string `db:"email"`
	Nickname string `db:"nickname"`
	Language string `db:"language"`
}
