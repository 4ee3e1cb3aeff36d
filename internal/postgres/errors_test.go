package postgres_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

func TestDatabaseErrorsBecomeDomainCodes(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	// A data exception from bad input is a 400, not a 500.
	_, err := db.SignInUser(ctx, planner.User{Provider: "GOOGLE", ProviderID: "nul\x00byte", Nickname: "Nul"})
	if planner.ErrorCode(err) != planner.CodeInvalidRequest {
		t.Fatalf("NUL byte in text: %v, want INVALID_REQUEST", err)
	}
	// A mapped constraint: the same collection place twice.
	u, err := db.SignInUser(ctx, planner.User{Provider: "GOOGLE", ProviderID: "map-1", Nickname: "Mapper"})
	if err != nil {
		t.Fatal(err)
	}
	var cp struct{ Collection, Member, Place string }
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		cp.Collection, cp.Member, cp.Place = planner.NewID(), planner.NewID(), planner.NewID()
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO collections (id, title) VALUES ($1, 'Errors')`, []any{cp.Collection}},
			{`INSERT INTO collection_members (id, collection_id, user_id, role, nickname) VALUES ($1, $2, $3, 'OWNER', 'Mapper')`, []any{cp.Member, cp.Collection, u.ID}},
			{`INSERT INTO places (id, provider, provider_place_id, name) VALUES ($1, 'BUILTIN', 'p-1', 'Somewhere')`, []any{cp.Place}},
		} {
			if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	insert := func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO collection_places (id, collection_id, place_id, added_by) VALUES ($1, $2, $3, $4)`,
			planner.NewID(), cp.Collection, cp.Place, cp.Member)
		return err
	}
	if err := db.Tx(ctx, insert); err != nil {
		t.Fatal(err)
	}
	if err := db.Tx(ctx, insert); planner.ErrorCode(err) != planner.CodeCollectionPlaceAlreadyExists {
		t.Fatalf("duplicate collection place: %v", err)
	}
}

func TestUnreachableDatabaseIsUnavailable(t *testing.T) {
	db, err := postgres.Open(context.Background(), "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=1")
	if err == nil {
		db.Close()
		t.Fatal("opened a database on port 1")
	}
	if !postgres.Unavailable(err) {
		t.Fatalf("Unavailable(%v) = false", err)
	}
}

// TestConstraintCodesNameRealConstraints: a misspelt constraint name would never match.
func TestConstraintCodesNameRealConstraints(t *testing.T) {
	db := pgtest.New(t)
	for name := range postgres.ConstraintCodes {
		var found bool
		err := db.Get(&found, `SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = $1)
			OR EXISTS (SELECT 1 FROM pg_indexes WHERE schemaname = 'public' AND indexname = $1)`, name)
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			t.Errorf("constraintCodes names %q, which is no constraint or index of the schema", name)
		}
	}
}
