package postgres

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// PresenceTimeout is how long a presence row counts without being touched. Streams touch
// theirs with every heartbeat, so a row this old belongs to a server that went away without
// deleting it (migration 00006).
const PresenceTimeout = 45 * time.Second

// EnterPlan records that the viewer (a member or the plan's guest) has the plan open, after
// checking they may read it, and answers the key TouchPresence and LeavePlanPresence take.
func (db *DB) EnterPlan(ctx context.Context, viewer, planID string) (string, error) {
	conn := planner.NewID()
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := planReader(ctx, tx, planID, viewer)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO presence (connection, plan_id, member_id) VALUES ($1, $2, NULLIF($3, ''))`,
			conn, planID, m.ID)
		return err
	})
	if err != nil {
		return "", err
	}
	return conn, nil
}

// TouchPresence keeps the connection's presence current, after checking again, as
// EnterPlan did, that the viewer may still read the plan (FORBIDDEN_NOT_MEMBER once removed,
// PLAN_NOT_FOUND once deleted).
func (db *DB) TouchPresence(ctx context.Context, viewer, planID, conn string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planReader(ctx, tx, planID, viewer); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE presence SET seen_at = now() WHERE connection = $1`, conn)
		return err
	})
}

// LeavePlanPresence ends the connection's presence.
func (db *DB) LeavePlanPresence(ctx context.Context, conn string) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `DELETE FROM presence WHERE connection = $1`, conn)
	return mapError(err)
}

// PlanPresence answers who has the plan open, for a viewer who may read it.
func (db *DB) PlanPresence(ctx context.Context, viewer, planID string) (*planner.Presence, error) {
	out := planner.Presence{MemberGroup: planner.MemberGroup{Members: []planner.Member{}}}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planReader(ctx, tx, planID, viewer)
		if err != nil {
			return err
		}
		var rows []struct {
			planner.Member
			Guest bool `db:"guest"`
		}
		// One row per open connection; a member who left since is nobody.
		err = tx.SelectContext(ctx, &rows, `
			SELECT COALESCE(m.id, '') AS id, COALESCE(m.nickname, '') AS nickname,
			       COALESCE(m.picture, '') AS picture, COALESCE(m.role, '') AS role,
			       p.member_id IS NULL AS guest
			FROM presence p
			LEFT JOIN plan_members m ON m.id = p.member_id AND m.left_at IS NULL
			WHERE p.plan_id = $1 AND p.seen_at > now() - make_interval(secs => $2)
			ORDER BY m.nickname, m.id`, planID, PresenceTimeout.Seconds())
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, r := range rows {
			switch {
			case r.Guest:
				out.Guests++
			case r.ID != "" && !seen[r.ID]:
				seen[r.ID] = true
				out.Members = append(out.Members, r.Member)
			}
		}
		out.Mark(me.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
