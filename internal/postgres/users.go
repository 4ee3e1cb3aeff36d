package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

const userColumns = `id, provider, provider_id, nickname, picture, email, language, terms_accepted_at, withdrawn_at, created_at`

// SignInUser finds the user of a social account, creating it on first sign-in. Later sign-ins
// keep the user's own profile. A withdrawn account cannot sign in again.
func (db *DB) SignInUser(ctx context.Context, in planner.User) (*planner.User, error) {
	var u planner.User
	err := db.tx(ctx, func(tx *sqlx.Tx) error { return insertUser(ctx, tx, &u, in, in.Nickname) })
	return admitted(&u, err)
}

// insertUser creates the user of a social account, called nickname, into u. A simultaneous
// first sign-in of the same account made the row already: ON CONFLICT DO UPDATE with a no-op
// assignment returns the existing row too, race-free.
func insertUser(ctx context.Context, tx *sqlx.Tx, u *planner.User, in planner.User, nickname string) error {
	return tx.GetContext(ctx, u, `
		INSERT INTO users (id, provider, provider_id, nickname, picture, email)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT ON CONSTRAINT users_provider_account
		DO UPDATE SET provider = EXCLUDED.provider
		RETURNING `+userColumns,
		planner.NewID(), in.Provider, in.ProviderID, nickname, in.Picture, in.Email)
}

// admitted is the signed-in user u, unless signing in failed (err) or the account was
// withdrawn: a withdrawn account cannot sign in again (USER_WITHDRAWN).
func admitted(u *planner.User, err error) (*planner.User, error) {
	if err != nil {
		return nil, err
	}
	if u.WithdrawnAt != nil {
		return nil, planner.Errorf(planner.CodeUserWithdrawn, "This account was deleted and cannot sign in again.")
	}
	return u, nil
}

// User loads an active user by public id.
func (db *DB) User(ctx context.Context, id string) (_ *planner.User, err error) {
	defer named(&err)
	if !planner.ValidID(id) {
		return nil, planner.Errorf(planner.CodeUserNotFound, "No such user.")
	}
	var u planner.User
	err = db.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE id = $1 AND withdrawn_at IS NULL`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, planner.Errorf(planner.CodeUserNotFound, "No such user.")
	}
	if err != nil {
		return nil, mapError(err)
	}
	return &u, nil
}

// Language is an active user's language setting, nil when they have none (or no such user
// is active). It is read afresh each time: one primary-key lookup, which is what confirming a
// kept copy against the events table would cost (see cache.go).
func (db *DB) Language(ctx context.Context, userID string) (_ *string, err error) {
	defer named(&err)
	var l []sql.NullString
	if err := db.SelectContext(ctx, &l, `SELECT language FROM users WHERE id = $1 AND withdrawn_at IS NULL`, userID); err != nil {
		return nil, mapError(err)
	}
	if len(l) == 1 && l[0].Valid {
		return &l[0].String, nil
	}
	return nil, nil
}

// AcceptTerms records the user's acceptance of the terms; accepting twice is a conflict.
func (db *DB) AcceptTerms(ctx context.Context, id string) (*planner.User, error) {
	if err := writer(id); err != nil {
		return nil, err
	}
	var u planner.User
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &u, `
			UPDATE users SET terms_accepted_at = now(), updated_at = now()
			WHERE id = $1 AND withdrawn_at IS NULL AND terms_accepted_at IS NULL
			RETURNING `+userColumns, id)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var exists bool
		if err := tx.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND withdrawn_at IS NULL)`, id); err != nil {
			return err
		}
		if !exists {
			return planner.Errorf(planner.CodeUserNotFound, "No such user.")
		}
		return planner.Errorf(planner.CodeTermsAlreadyAccepted, "The terms were already accepted.")
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// UpdateProfile changes the user's nickname and language, each when given (ProfileChange),
// and copies the nickname to the user's active memberships, where other members see it.
func (db *DB) UpdateProfile(ctx context.Context, userID string, ch planner.ProfileChange) (*planner.User, error) {
	if err := writer(userID); err != nil {
		return nil, err
	}
	var u planner.User
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &u, `
			UPDATE users SET nickname = coalesce($2, nickname),
				language = CASE WHEN $3 THEN $4 ELSE language END, updated_at = now()
			WHERE id = $1 AND withdrawn_at IS NULL
			RETURNING `+userColumns, userID, ch.Nickname, ch.SetLanguage, ch.Language)
		if errors.Is(err, sql.ErrNoRows) {
			return planner.Errorf(planner.CodeUserNotFound, "No such user.")
		}
		if err != nil {
			return err
		}
		return copyProfile(ctx, tx, userID, u.Nickname, u.Picture)
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// copyProfile writes the nickname and picture into the user's active plan and collection
// memberships.
func copyProfile(ctx context.Context, tx *sqlx.Tx, userID, nickname, picture string) error {
	for _, table := range []string{"plan_members", "collection_members"} {
		if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET nickname = $2, picture = $3
			WHERE user_id = $1 AND left_at IS NULL`, userID, nickname, picture); err != nil {
			return err
		}
	}
	return nil
}

// SetPicture changes (or, with "", removes) the user's picture and copies it to the user's
// active memberships. key is the storage key of a picture uploaded here ("" for none); it
// answers the key of the picture it replaced ("" when that was not one of ours).
func (db *DB) SetPicture(ctx context.Context, userID, picture, key string) (oldKey string, err error) {
	if err := writer(userID); err != nil {
		return "", err
	}
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		var u planner.User
		err := tx.GetContext(ctx, &oldKey, `SELECT coalesce(picture_key, '') FROM users WHERE id = $1 AND withdrawn_at IS NULL FOR UPDATE`, userID)
		if errors.Is(err, sql.ErrNoRows) {
			return planner.Errorf(planner.CodeUserNotFound, "No such user.")
		}
		if err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &u, `UPDATE users SET picture = $2, picture_key = NULLIF($3, ''), updated_at = now()
			WHERE id = $1 RETURNING `+userColumns, userID, picture, key); err != nil {
			return err
		}
		return copyProfile(ctx, tx, userID, u.Nickname, u.Picture)
	})
	return oldKey, err
}
