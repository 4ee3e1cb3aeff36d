package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// Notifications lists the user's notifications, newest first, one page, and the unread count.
func (db *DB) Notifications(ctx context.Context, userID string, page planner.Page) (out []planner.Notification, hasNext bool, unread int, err error) {
	var rows []notificationRow
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.SelectContext(ctx, &rows, `SELECT `+notificationColumns+`
			FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
			userID, page.Size+1, page.Offset()); err != nil {
			return err
		}
		return tx.GetContext(ctx, &unread, `SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL`, userID)
	})
	if err != nil {
		return nil, false, 0, err
	}
	if len(rows) > page.Size {
		rows, hasNext = rows[:page.Size], true
	}
	out = make([]planner.Notification, len(rows))
	for i, r := range rows {
		if out[i], err = r.notification(); err != nil {
			return nil, false, 0, err
		}
	}
	return out, hasNext, unread, nil
}

// notificationColumns are the columns of a notificationRow.
const notificationColumns = `id, category, event_type, COALESCE(message, '') AS message, details, link_url, event_count, read_at, created_at`

// notificationRow is a notification as scanned: its details are NULL for notifications written
// before they were kept (migration 00016) whose text could not be read back into them
// (migration 00024), which have their message instead.
type notificationRow struct {
	planner.Notification
	Details []byte `db:"details"`
}

func (r notificationRow) notification() (planner.Notification, error) {
	n := r.Notification
	if r.Details != nil {
		n.Details = &planner.Details{}
		if err := json.Unmarshal(r.Details, n.Details); err != nil {
			return n, fmt.Errorf("notification %s: details: %w", r.ID, err)
		}
	}
	return n, nil
}

// UnreadCount is the user's number of unread notifications.
func (db *DB) UnreadCount(ctx context.Context, userID string) (_ int, err error) {
	defer named(&err)
	var n int
	err = db.GetContext(ctx, &n, `SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL`, userID)
	return n, mapError(err)
}

// MarkNotificationRead marks one of the user's notifications read (NOTIFICATION_NOT_FOUND for
// anyone else's).
func (db *DB) MarkNotificationRead(ctx context.Context, userID, id string) (_ *planner.Notification, err error) {
	defer named(&err)
	if err := writer(userID); err != nil {
		return nil, err
	}
	var r notificationRow
	err = sql.ErrNoRows
	if planner.ValidID(id) {
		err = db.GetContext(ctx, &r, `UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE id = $1 AND user_id = $2
			RETURNING `+notificationColumns, id, userID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, planner.Errorf(planner.CodeNotificationNotFound, "No such notification.")
	}
	if err != nil {
		return nil, mapError(err)
	}
	n, err := r.notification()
	return &n, err
}

// MarkAllNotificationsRead marks every unread notification of the user read.
func (db *DB) MarkAllNotificationsRead(ctx context.Context, userID string) (_ int, err error) {
	defer named(&err)
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
