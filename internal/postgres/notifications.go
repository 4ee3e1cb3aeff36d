package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// notice is a notification to write: {actor} in Message becomes the acting user's nickname,
// {plan} and {collection} the resource's title.
type notice struct {
	category, eventType, message, link string
}

// newRowID makes a notification id in SQL: 21 characters of a random UUID's hex digits.
const newRowID = `substr(replace(gen_random_uuid()::text, '-', ''), 1, 21)`

// fill is the SQL that fills a notice's placeholders; $1 actor user id, $2 the resource id.
func fill(k memberKind) string {
	return fmt.Sprintf(`replace(replace($3, '{actor}', COALESCE((SELECT nickname FROM users WHERE id = $1), 'Someone')),
		'{%s}', COALESCE((SELECT title FROM %s WHERE id = $2), ''))`, k.noun, k.parent)
}

// notifyMembers notifies the resource's other active members (never the actor), in the
// caller's transaction.
func notifyMembers(ctx context.Context, tx *sqlx.Tx, k memberKind, id, actor string, n notice) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO notifications (id, user_id, category, event_type, message, link_url)
		SELECT `+newRowID+`, m.user_id, $4, $5, `+fill(k)+`, $6
		FROM `+k.table+` m WHERE m.`+k.key+` = $2 AND m.left_at IS NULL AND m.user_id <> $1`,
		actor, id, n.message, n.category, n.eventType, n.link)
	return err
}

// notifyMember notifies one member of the resource, unless they are the actor or left.
func notifyMember(ctx context.Context, tx *sqlx.Tx, k memberKind, id, memberID, actor string, n notice) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO notifications (id, user_id, category, event_type, message, link_url)
		SELECT `+newRowID+`, m.user_id, $4, $5, `+fill(k)+`, $6
		FROM `+k.table+` m WHERE m.id = $7 AND m.`+k.key+` = $2 AND m.left_at IS NULL AND m.user_id <> $1`,
		actor, id, n.message, n.category, n.eventType, n.link, memberID)
	return err
}

// Notifications lists the user's notifications, newest first, one page, and the unread count.
func (db *DB) Notifications(ctx context.Context, userID string, page planner.Page) (out []planner.Notification, hasNext bool, unread int, err error) {
	out = []planner.Notification{}
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.SelectContext(ctx, &out, `SELECT id, category, event_type, message, link_url, read_at, created_at
			FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
			userID, page.Size+1, page.Offset()); err != nil {
			return err
		}
		return tx.GetContext(ctx, &unread, `SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL`, userID)
	})
	if len(out) > page.Size {
		out, hasNext = out[:page.Size], true
	}
	return out, hasNext, unread, err
}

// UnreadCount is the user's number of unread notifications.
func (db *DB) UnreadCount(ctx context.Context, userID string) (int, error) {
	var n int
	err := db.GetContext(ctx, &n, `SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL`, userID)
	return n, mapError(err)
}

// MarkNotificationRead marks one of the user's notifications read (NOTIFICATION_NOT_FOUND for
// anyone else's).
func (db *DB) MarkNotificationRead(ctx context.Context, userID, id string) (*planner.Notification, error) {
	if err := writer(userID); err != nil {
		return nil, err
	}
	var n planner.Notification
	err := sql.ErrNoRows
	if planner.ValidID(id) {
		err = db.GetContext(ctx, &n, `UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE id = $1 AND user_id = $2
			RETURNING id, category, event_type, message, link_url, read_at, created_at`, id, userID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, planner.Errorf(planner.CodeNotificationNotFound, "No such notification.")
	}
	if err != nil {
		return nil, mapError(err)
	}
	return &n, nil
}

// MarkAllNotificationsRead marks every unread notification of the user read.
func (db *DB) MarkAllNotificationsRead(ctx context.Context, userID string) (int, error) {
	if err := writer(userID); err != nil {
		return 0, err
	}
	res, err := db.ExecContext(ctx, `UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL`, userID)
	if err != nil {
		return 0, mapError(err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
