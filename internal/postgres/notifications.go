package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// notice is a notification to write: {actor} in message becomes the acting user's nickname,
// {plan} and {collection} the resource's title.
//
// Notices of one actor with the same event type and target to one recipient within a minute
// of the first become one notification (mergeWindow): its event_count grows by count, its
// message becomes plural with {count} filled in (or the latest message when plural is empty),
// its created_at the latest event's time, and it is unread again.
type notice struct {
	category, eventType, message, link string
	// target is what the events are about ("" = the plan or collection itself), e.g. a time
	// block or a plan day.
	target string
	// count is how many events this notice stands for (0 means 1).
	count  int
	plural string
}

// mergeWindow is how long after its first event a notification takes in repeats.
const mergeWindow = "1 minute"

// newRowID makes a notification id in SQL: 21 characters of a random UUID's hex digits.
const newRowID = `substr(replace(gen_random_uuid()::text, '-', ''), 1, 21)`

// fill is the SQL that fills the placeholders of the message in parameter msg; $1 is the
// actor's user id, $2 the resource id.
func fill(k memberKind, msg string) string {
	return fmt.Sprintf(`replace(replace(%s, '{actor}', COALESCE((SELECT nickname FROM users WHERE id = $1), 'Someone')),
		'{%s}', COALESCE((SELECT title FROM %s WHERE id = $2), ''))`, msg, k.noun, k.parent)
}

// notifyMembers notifies the resource's other active members (never the actor), in the
// caller's transaction.
func notifyMembers(ctx context.Context, tx *sqlx.Tx, k memberKind, id, actor string, n notice) error {
	return notify(ctx, tx, k, id, actor, "", n)
}

// notifyMember notifies one member of the resource, unless they are the actor or left.
func notifyMember(ctx context.Context, tx *sqlx.Tx, k memberKind, id, memberID, actor string, n notice) error {
	return notify(ctx, tx, k, id, actor, memberID, n)
}

// notify writes the notice to the resource's other active members (only memberID unless it is
// empty) in one statement. Merging is an upsert on notifications_merge: each recipient's row
// takes the generation of their latest notification with the same key while that is within
// the window, the next one otherwise, so writers racing on one key meet on one row.
func notify(ctx context.Context, tx *sqlx.Tx, k memberKind, id, actor, memberID string, n notice) error {
	target := n.target
	if target == "" {
		target = k.noun + ":" + id
	}
	count := max(n.count, 1)
	_, err := tx.ExecContext(ctx, `
		INSERT INTO notifications AS n (id, user_id, category, event_type, message, link_url, merge_key, generation, event_count)
		SELECT `+newRowID+`, m.user_id, $4, $5, `+fill(k, "$3")+`, $6, $7,
		    COALESCE((SELECT CASE WHEN l.first_at > now() - interval '`+mergeWindow+`' THEN l.generation ELSE l.generation + 1 END
		              FROM notifications l WHERE l.merge_key = $7 AND l.user_id = m.user_id
		              ORDER BY l.generation DESC LIMIT 1), 1),
		    $8
		FROM `+k.table+` m WHERE m.`+k.key+` = $2 AND m.left_at IS NULL AND m.user_id <> $1 AND ($10 = '' OR m.id = $10)
		ORDER BY m.user_id -- writers on one key lock the recipients' rows in one order: no deadlock
		ON CONFLICT (merge_key, user_id, generation) WHERE merge_key IS NOT NULL DO UPDATE SET
		    event_count = n.event_count + EXCLUDED.event_count,
		    message = CASE WHEN $9 = '' THEN EXCLUDED.message
		        ELSE replace(`+fill(k, "$9")+`, '{count}', (n.event_count + EXCLUDED.event_count)::text) END,
		    link_url = EXCLUDED.link_url, created_at = EXCLUDED.created_at, read_at = NULL`,
		actor, id, n.message, n.category, n.eventType, n.link, n.eventType+" "+actor+" "+target, count, n.plural, memberID)
	return err
}

// Notifications lists the user's notifications, newest first, one page, and the unread count.
func (db *DB) Notifications(ctx context.Context, userID string, page planner.Page) (out []planner.Notification, hasNext bool, unread int, err error) {
	out = []planner.Notification{}
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.SelectContext(ctx, &out, `SELECT id, category, event_type, message, link_url, event_count, read_at, created_at
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
			RETURNING id, category, event_type, message, link_url, event_count, read_at, created_at`, id, userID)
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
