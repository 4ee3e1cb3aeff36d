package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// PushQueue queues pushes in the transaction that wrote their notifications (River's
// InsertManyTx): they are sent once it commits, and never for a notification rolled back.
type PushQueue func(ctx context.Context, tx *sql.Tx, pushes []planner.Push) error

// OnPush sets where record queues the pushes of new notifications; until it is called (and in
// a server without VAPID keys) nothing is pushed.
func (db *DB) OnPush(q PushQueue) { db.pushes = q }

// queuePushes queues the pushes record's statement answered.
func (db *DB) queuePushes(ctx context.Context, tx *sqlx.Tx, pushes []planner.Push) error {
	if len(pushes) == 0 || db.pushes == nil {
		return nil
	}
	return db.pushes(ctx, tx.Tx, pushes)
}

// NotificationSettings are the user's settings of every category, off where never changed.
func (db *DB) NotificationSettings(ctx context.Context, userID string) (_ []planner.NotificationSetting, err error) {
	defer named(&err)
	var out []planner.NotificationSetting
	err = db.SelectContext(ctx, &out, `SELECT c.category, COALESCE(s.push, false) AS push, COALESCE(s.email, false) AS email
		FROM unnest($2::text[]) WITH ORDINALITY AS c(category, n)
		LEFT JOIN notification_settings s ON s.user_id = $1 AND s.category = c.category
		ORDER BY c.n`, userID, pq.Array(planner.NotifyCategories))
	return out, mapError(err)
}

// SetNotificationSettings changes the settings of the categories given (each once, known:
// the caller validates) and answers all of them.
func (db *DB) SetNotificationSettings(ctx context.Context, userID string, in []planner.NotificationSetting) (_ []planner.NotificationSetting, err error) {
	defer named(&err)
	if err := writer(userID); err != nil {
		return nil, err
	}
	categories, push, email := make([]string, len(in)), make([]bool, len(in)), make([]bool, len(in))
	for i, s := range in {
		categories[i], push[i], email[i] = s.Category, s.Push, s.Email
	}
	_, err = db.ExecContext(ctx, `INSERT INTO notification_settings (user_id, category, push, email)
		SELECT $1, c, p, e FROM unnest($2::text[], $3::boolean[], $4::boolean[]) AS u(c, p, e)
		ON CONFLICT (user_id, category) DO UPDATE SET push = EXCLUDED.push, email = EXCLUDED.email`,
		userID, pq.Array(categories), pq.Array(push), pq.Array(email))
	if err != nil {
		return nil, mapError(err)
	}
	return db.NotificationSettings(ctx, userID)
}

// TurnOffDigest turns the e-mail digest off for every category (the mail's unsubscribe link).
func (db *DB) TurnOffDigest(ctx context.Context, userID string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `UPDATE notification_settings SET email = false WHERE user_id = $1 AND email`, userID)
	return mapError(err)
}

// SavePushSubscription keeps a browser's subscription for the user and the sign-in session
// that made it (s.Session; endSessions deletes it when that session ends). An endpoint known
// already is the same browser: its keys are renewed and it moves to this user and session (a
// browser shared by two accounts pushes to the one signed in last). Beyond
// MaxPushSubscriptions the oldest go.
func (db *DB) SavePushSubscription(ctx context.Context, userID string, s planner.PushSubscription) (*planner.PushSubscription, error) {
	if err := writer(userID); err != nil {
		return nil, err
	}
	var out planner.PushSubscription
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		// Subscriptions of one user are saved one at a time, so the cap holds.
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &out, `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, session)
			VALUES (`+newRowID+`, $1, $2, $3, $4, NULLIF($5, ''))
			ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
			    session = EXCLUDED.session, created_at = now()
			RETURNING id, user_id, endpoint, p256dh, auth, COALESCE(session, '') AS session, created_at, last_success_at`,
			userID, s.Endpoint, s.P256dh, s.Auth, s.Session); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id IN (
			SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2)`,
			userID, planner.MaxPushSubscriptions)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeletePushSubscription forgets the user's subscription of the endpoint (none: nothing).
func (db *DB) DeletePushSubscription(ctx context.Context, userID, endpoint string) (err error) {
	defer named(&err)
	if err := writer(userID); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2`, userID, endpoint)
	return mapError(err)
}

// PushDelivery is what to send for a push, in one statement; nil when the notification or the
// subscription is gone, or the subscription is another user's now (nothing to send).
func (db *DB) PushDelivery(ctx context.Context, p planner.Push) (_ *planner.Delivery, err error) {
	defer named(&err)
	var r struct {
		notificationRow
		SubscriptionID string `db:"subscription_id"`
		UserID         string `db:"user_id"`
		Endpoint       string `db:"endpoint"`
		P256dh         string `db:"p256dh"`
		Auth           string `db:"auth"`
		Language       string `db:"language"`
	}
	err = db.GetContext(ctx, &r, `SELECT n.id, n.category, n.event_type, COALESCE(n.message, '') AS message, n.details, n.link_url,
		    n.event_count, n.read_at, n.created_at,
		    s.id AS subscription_id, s.user_id, s.endpoint, s.p256dh, s.auth, COALESCE(u.language, '') AS language
		FROM notifications n JOIN push_subscriptions s ON s.user_id = n.user_id JOIN users u ON u.id = n.user_id
		WHERE n.id = $1 AND s.id = $2`, p.NotificationID, p.SubscriptionID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, mapError(err)
	}
	n, err := r.notificationRow.notification()
	if err != nil {
		return nil, err
	}
	sub := planner.PushSubscription{ID: r.SubscriptionID, UserID: r.UserID, Endpoint: r.Endpoint, P256dh: r.P256dh, Auth: r.Auth}
	return &planner.Delivery{Notification: n, Subscription: sub, Language: r.Language}, nil
}

// PushDelivered records a push service's acceptance of a push.
func (db *DB) PushDelivered(ctx context.Context, subscriptionID string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `UPDATE push_subscriptions SET last_success_at = now() WHERE id = $1`, subscriptionID)
	return mapError(err)
}

// DropPushSubscription deletes a subscription its push service says is gone (404, 410).
func (db *DB) DropPushSubscription(ctx context.Context, subscriptionID string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id = $1`, subscriptionID)
	return mapError(err)
}

// DigestRecipients are the users with an e-mail address who asked for the digest of some
// category and have had none on day (UTC).
func (db *DB) DigestRecipients(ctx context.Context, day time.Time) (_ []planner.DigestRecipient, err error) {
	defer named(&err)
	var out []planner.DigestRecipient
	err = db.SelectContext(ctx, &out, `SELECT u.id AS user_id, u.email, u.nickname, COALESCE(u.language, '') AS language
		FROM users u
		WHERE u.email <> '' AND u.withdrawn_at IS NULL
		  AND EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = u.id AND s.email)
		  AND NOT EXISTS (SELECT 1 FROM email_digests d WHERE d.user_id = u.id AND d.day = $1::date)
		ORDER BY u.id`, day.UTC().Format(time.DateOnly))
	return out, mapError(err)
}

// maxDigestItems bounds one digest: the newest unread notifications; the mail links to the rest.
const maxDigestItems = 50

// Digest sends the user's digest of day (UTC) at most once: it claims the day's row of
// email_digests, reads the unread notifications of the categories the user chose since their
// last digest, and calls send with them, newest first; the claim commits only when send
// succeeds. Another instance claiming the same day waits for this one and then finds it taken;
// nothing to send leaves no claim.
func (db *DB) Digest(ctx context.Context, userID string, day time.Time, send func([]planner.Notification) error) error {
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		var rows []notificationRow
		if err := tx.SelectContext(ctx, &rows, `WITH claim AS (
			    INSERT INTO email_digests (user_id, day) VALUES ($1, $2::date) ON CONFLICT DO NOTHING RETURNING user_id)
			SELECT `+notificationColumns+` FROM notifications
			WHERE user_id = (SELECT user_id FROM claim) AND read_at IS NULL
			  AND created_at > COALESCE((SELECT max(sent_at) FROM email_digests WHERE user_id = $1), '-infinity')
			  AND category IN (SELECT category FROM notification_settings WHERE user_id = $1 AND email)
			ORDER BY created_at DESC, id DESC LIMIT $3`, userID, day.UTC().Format(time.DateOnly), maxDigestItems); err != nil {
			return err
		}
		if len(rows) == 0 {
			return errNothingToSend
		}
		list := make([]planner.Notification, len(rows))
		for i, r := range rows {
			n, err := r.notification()
			if err != nil {
				return err
			}
			list[i] = n
		}
		return send(list)
	})
	if errors.Is(err, errNothingToSend) {
		return nil
	}
	return err
}

// errNothingToSend rolls a digest's claim back: nothing was sent.
var errNothingToSend = errors.New("nothing to send")
