package postgres

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// nicknameLock is the first key of the advisory locks that serialise nickname choices.
const nicknameLock = 0x6e69636b // "nick"

// SignInSocial signs in the user of a social account. A first sign-in creates the user with
// the given (valid) nickname, numbered if an active user already has it ("Mina" → "Mina2");
// later sign-ins keep the user's own profile. A withdrawn account cannot sign in again.
func (db *DB) SignInSocial(ctx context.Context, in planner.User) (*planner.User, error) {
	var u planner.User
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE provider = $1 AND provider_id = $2`, in.Provider, in.ProviderID)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		nickname, err := freeNickname(ctx, tx, in.Nickname)
		if err != nil {
			return err
		}
		return insertUser(ctx, tx, &u, in, nickname)
	})
	return admitted(&u, err)
}

// freeNickname is nickname, or the first of nickname numbered from 2 up, that no active user
// has (ignoring case). Every numbered form up to six digits starts with the nickname's first
// four characters, so one query finds the taken ones, and an advisory lock on those
// characters keeps two first sign-ins from choosing the same.
func freeNickname(ctx context.Context, tx *sqlx.Tx, nickname string) (string, error) {
	stem := strings.ToLower(string([]rune(nickname)[:min(4, len([]rune(nickname)))]))
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, nicknameLock, stem); err != nil {
		return "", err
	}
	var names []string
	if err := tx.SelectContext(ctx, &names, `
		SELECT lower(nickname) FROM users WHERE withdrawn_at IS NULL AND starts_with(lower(nickname), $1)`, stem); err != nil {
		return "", err
	}
	taken := make(map[string]bool, len(names))
	for _, n := range names {
		taken[n] = true
	}
	candidate := nickname
	for n := 2; taken[strings.ToLower(candidate)]; n++ {
		candidate = planner.NumberedNickname(nickname, n)
	}
	return candidate, nil
}
