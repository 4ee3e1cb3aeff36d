package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// planCandidate checks the candidate belongs to the plan (BLOCK_NOT_FOUND) and is a place
// (BLOCK_NOT_PLACE_TYPE: a free-time entry takes no opinions).
func planCandidate(ctx context.Context, tx *sqlx.Tx, planID, candidateID string) error {
	var free bool
	err := sql.ErrNoRows
	if planner.ValidID(candidateID) {
		err = tx.GetContext(ctx, &free, `
			SELECT c.place_id IS NULL FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id
			WHERE c.id = $1 AND b.plan_id = $2`, candidateID, planID)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return blockNotFound()
	case err != nil:
		return err
	case free:
		return planner.Errorf(planner.CodeBlockNotPlaceType, "Free time takes no opinions.")
	}
	return nil
}

// AddOpinion records the member's opinion of a place candidate; one per member per candidate
// (BLOCK_OPINION_ALREADY_EXISTS).
func (db *DB) AddOpinion(ctx context.Context, userID, planID, candidateID string, in planner.OpinionInput) (*planner.Opinion, error) {
	var out *planner.Opinion
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		if err := planCandidate(ctx, tx, planID, candidateID); err != nil {
			return err
		}
		id := planner.NewID()
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO opinions (id, candidate_id, member_id, type, comment, tag_ids) VALUES ($1, $2, $3, $4, $5, $6)`,
			id, candidateID, me.ID, in.Type, in.Comment, pq.Array(nonNil(in.TagIDs))); err != nil {
			return err
		}
		if err := db.opinionHappened(ctx, tx, planID, userID, candidateID, id, planner.ActOpinionAdded, in.Type); err != nil {
			return err
		}
		out, err = oneOpinion(ctx, tx, candidateID, id)
		return err
	})
	return out, err
}

// Opinions lists a candidate's opinions, oldest first.
func (db *DB) Opinions(ctx context.Context, userID, planID, candidateID string) ([]planner.Opinion, error) {
	var out []planner.Opinion
	err := db.readCandidate(ctx, userID, planID, candidateID, func(tx *sqlx.Tx) (err error) {
		out, err = opinions(ctx, tx, candidateID, "")
		return err
	})
	return out, err
}

// Opinion loads one opinion of a candidate (BLOCK_OPINION_NOT_FOUND).
func (db *DB) Opinion(ctx context.Context, userID, planID, candidateID, opinionID string) (*planner.Opinion, error) {
	var out *planner.Opinion
	err := db.readCandidate(ctx, userID, planID, candidateID, func(tx *sqlx.Tx) (err error) {
		out, err = oneOpinion(ctx, tx, candidateID, opinionID)
		return err
	})
	return out, err
}

// readCandidate runs read in a transaction once the user may read the plan (planReader) and
// the candidate is a place of it (planCandidate).
func (db *DB) readCandidate(ctx context.Context, userID, planID, candidateID string, read func(*sqlx.Tx) error) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planReader(ctx, tx, planID, userID); err != nil {
			return err
		}
		if err := planCandidate(ctx, tx, planID, candidateID); err != nil {
			return err
		}
		return read(tx)
	})
}

// UpdateOpinion replaces an opinion, a new version of it; only its author may
// (BLOCK_OPINION_FORBIDDEN), and only at the version ifMatch expects (PRECONDITION_FAILED,
// compared in the statement that writes, with the opinion as it is now).
func (db *DB) UpdateOpinion(ctx context.Context, userID, planID, candidateID, opinionID string, in planner.OpinionInput, ifMatch planner.IfMatch) (*planner.Opinion, error) {
	var out *planner.Opinion
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		if err := authorOf(ctx, tx, userID, planID, candidateID, opinionID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
			UPDATE opinions SET type = $2, comment = $3, tag_ids = $4, version = version + 1, updated_at = clock_timestamp()
			WHERE id = $1 AND ($5 = 0 OR version = $5)`,
			opinionID, in.Type, in.Comment, pq.Array(nonNil(in.TagIDs)), int(ifMatch))
		if err != nil {
			return err
		}
		if out, err = oneOpinion(ctx, tx, candidateID, opinionID); err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return planner.Stale("The opinion was changed since you read it; nothing was changed. current holds it as it is now.", out)
		}
		return db.opinionHappened(ctx, tx, planID, userID, candidateID, opinionID, planner.ActOpinionChanged, in.Type)
	})
	return out, err
}

// DeleteOpinion deletes an opinion; only its author may, and only at the version ifMatch
// expects.
func (db *DB) DeleteOpinion(ctx context.Context, userID, planID, candidateID, opinionID string, ifMatch planner.IfMatch) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		if err := authorOf(ctx, tx, userID, planID, candidateID, opinionID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM opinions WHERE id = $1 AND ($2 = 0 OR version = $2)`, opinionID, int(ifMatch))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			now, err := oneOpinion(ctx, tx, candidateID, opinionID)
			if err != nil {
				return err
			}
			return planner.Stale("The opinion was changed since you read it; nothing was changed. current holds it as it is now.", now)
		}
		return db.opinionHappened(ctx, tx, planID, userID, candidateID, opinionID, planner.ActOpinionRemoved, "")
	})
}

// opinionHappened records an opinion given, changed (now is its type) or taken back in the
// plan's history, and tells the member who proposed the candidate: what one member thinks of
// one candidate is one notification however often they change their mind (see mergeGroups).
func (db *DB) opinionHappened(ctx context.Context, tx *sqlx.Tx, planID, userID, candidateID, opinionID string, kind planner.ActivityKind, now planner.OpinionType) error {
	var r struct {
		AddedBy string         `db:"added_by"`
		Place   string         `db:"place"`
		Names   pq.StringArray `db:"names"`
		Day     int            `db:"day"`
		Start   sqlTime        `db:"start_time"`
		End     sqlTime        `db:"end_time"`
	}
	if err := tx.GetContext(ctx, &r, `
		SELECT c.added_by, COALESCE(p.name, '') AS place, p.names, d.day, b.start_time, b.end_time
		FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id JOIN plan_days d ON d.id = b.plan_day_id
		LEFT JOIN places p ON p.id = c.place_id
		WHERE c.id = $1`, candidateID); err != nil {
		return err
	}
	d := planner.Details{Place: r.Place, Names: planner.NamesOf(r.Place, r.Names), Day: r.Day, Start: planner.TimeOfDay(r.Start).HHMM(), End: planner.TimeOfDay(r.End).HHMM(), Opinion: now}
	return db.record(ctx, tx, planDid(planID, userID, kind, planner.TargetOpinion, opinionID, d).
		toMember(r.AddedBy, paths.Day(planID, r.Day), "candidate:"+candidateID))
}

// authorOf checks, in order: the plan and membership, the candidate, the opinion
// (BLOCK_OPINION_NOT_FOUND), and that the user wrote it (BLOCK_OPINION_FORBIDDEN).
func authorOf(ctx context.Context, tx *sqlx.Tx, userID, planID, candidateID, opinionID string) error {
	me, err := planMember(ctx, tx, planID, userID)
	if err != nil {
		return err
	}
	if err := planCandidate(ctx, tx, planID, candidateID); err != nil {
		return err
	}
	o, err := oneOpinion(ctx, tx, candidateID, opinionID)
	if err != nil {
		return err
	}
	if o.AddedBy.ID != me.ID {
		return planner.Errorf(planner.CodeBlockOpinionForbidden, "Only its author can change an opinion.")
	}
	return nil
}

func oneOpinion(ctx context.Context, tx *sqlx.Tx, candidateID, opinionID string) (*planner.Opinion, error) {
	var list []planner.Opinion
	if planner.ValidID(opinionID) {
		var err error
		if list, err = opinions(ctx, tx, candidateID, opinionID); err != nil {
			return nil, err
		}
	}
	if len(list) == 0 {
		return nil, planner.Errorf(planner.CodeBlockOpinionNotFound, "No such opinion on this block.")
	}
	return &list[0], nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
