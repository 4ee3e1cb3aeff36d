package pgtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/devdb"
	"tripplan/internal/postgres"
)

func TestNewIsolated(t *testing.T) {
	a, b := New(t), New(t)
	var nameA, nameB string
	if err := a.Get(&nameA, `SELECT current_database()`); err != nil {
		t.Fatal(err)
	}
	if err := b.Get(&nameB, `SELECT current_database()`); err != nil {
		t.Fatal(err)
	}
	if nameA == nameB || !strings.HasPrefix(nameA, testPrefix) || !strings.HasPrefix(nameB, testPrefix) {
		t.Fatalf("databases %q and %q: want two distinct %s* databases", nameA, nameB, testPrefix)
	}

	// Both hold the schema of migration 00001, empty.
	for _, db := range []*sqlx.DB{a.DB, b.DB} {
		var users int
		if err := db.Get(&users, `SELECT count(*) FROM users`); err != nil {
			t.Fatalf("users table: %v", err)
		}
		if users != 0 {
			t.Fatalf("%d users in a fresh database", users)
		}
	}
	if _, err := a.Exec(`INSERT INTO users (id, provider, provider_id, nickname) VALUES ('u1', 'dev', '1', 'Ann')`); err != nil {
		t.Fatal(err)
	}
	var inA, inB int
	a.Get(&inA, `SELECT count(*) FROM users`)
	b.Get(&inB, `SELECT count(*) FROM users`)
	if inA != 1 || inB != 0 {
		t.Fatalf("after inserting into the first database: %d and %d users, want 1 and 0", inA, inB)
	}
}

func TestURLDroppedAtCleanup(t *testing.T) {
	var name string
	t.Run("uses", func(t *testing.T) {
		db, err := sqlx.Open("postgres", URL(t))
		if err != nil {
			t.Fatal(err)
		}
		// Left open on purpose: the cleanup must drop the database even so.
		if err := db.Get(&name, `SELECT current_database()`); err != nil {
			t.Fatal(err)
		}
	})
	s, err := shared()
	if err != nil {
		t.Fatal(err)
	}
	var exists bool
	if err := s.admin.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if name == "" || exists {
		t.Fatalf("database %q still exists after its test ended", name)
	}
}

func TestTemplate(t *testing.T) {
	s, err := shared()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := templateName()
	var isTemplate, allowConn bool
	err = s.admin.QueryRow(`SELECT datistemplate, datallowconn FROM pg_database WHERE datname = $1`, want).Scan(&isTemplate, &allowConn)
	if err != nil {
		t.Fatalf("template %s: %v", want, err)
	}
	if !isTemplate || allowConn {
		t.Errorf("template %s: is_template %v allow_connections %v, want true and false", want, isTemplate, allowConn)
	}
}

// TestHalfMadeTemplate checks that a template left unmarked by a run that died midway is made
// again rather than cloned.
func TestHalfMadeTemplate(t *testing.T) {
	s, err := shared()
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	// Named outside the tripplan_tpl_ pattern so that no concurrent run's sweep drops it.
	half := &server{admin: s.admin, adminURL: s.adminURL, template: "pgtest_halfmade_" + strings.ToLower(rand.Text()[:10])}
	t.Cleanup(func() { drop(context.Background(), s.admin, half.template) })
	if _, err := s.admin.Exec(`CREATE DATABASE ` + half.template); err != nil {
		t.Fatal(err)
	}
	if err := half.prepare(ctx); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("%s%d_halfmade%s", testPrefix, time.Now().Unix(), strings.ToLower(rand.Text()[:6]))
	if err := half.clone(ctx, name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drop(context.Background(), s.admin, name) })
	u, _ := devdb.SwitchDatabase(s.adminURL, name)
	clone, err := sqlx.Open("postgres", u)
	if err != nil {
		t.Fatal(err)
	}
	defer clone.Close()
	var tables int
	if err := clone.Get(&tables, `SELECT count(*) FROM pg_tables WHERE tablename = 'users'`); err != nil {
		t.Fatal(err)
	}
	if tables != 1 {
		t.Fatal("the remade template lacks the users table")
	}
}

// TestSweep checks that leftovers a day old go and that recent ones, perhaps another run's,
// stay.
func TestSweep(t *testing.T) {
	s, err := shared()
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	suffix := strings.ToLower(rand.Text()[:8])
	dayAgo := time.Now().Add(-25 * time.Hour)
	oldTpl, newTpl := templatePrefix+"old"+suffix, templatePrefix+"new"+suffix
	keep := map[string]bool{ // whether sweep should keep each
		oldTpl: false,
		newTpl: true,
		fmt.Sprintf("%s%d_%s", testPrefix, dayAgo.Unix(), suffix):     false,
		fmt.Sprintf("%s%d_%s", testPrefix, time.Now().Unix(), suffix): true,
	}
	for name := range keep {
		t.Cleanup(func() { drop(context.Background(), s.admin, name) })
	}
	// Under the lock, as prepare does: other test runs on this server sweep too, and a
	// template without its dating comment would look stale to them.
	err = s.locked(ctx, func() error {
		for name := range keep {
			if _, err := s.admin.Exec(`CREATE DATABASE ` + name); err != nil {
				return err
			}
		}
		for name, used := range map[string]time.Time{oldTpl: dayAgo, newTpl: time.Now()} {
			if _, err := s.admin.Exec(`COMMENT ON DATABASE ` + name + ` IS '` + used.UTC().Format(time.RFC3339) + `'`); err != nil {
				return err
			}
		}
		if err := s.sweep(ctx); err != nil {
			return err
		}
		for name, want := range keep {
			var exists bool
			if err := s.admin.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
				return err
			}
			if exists != want {
				t.Errorf("%s: exists %v after sweep, want %v", name, exists, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	New(t) // fails unless the current template survived
}

// BenchmarkNew times what New does for each test: clone the template and connect. Dropping
// is left out of the timing, and done at once so that open pools do not pile up.
func BenchmarkNew(b *testing.B) {
	s, err := shared() // the template is made once, untimed
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	for i := 0; b.Loop(); i++ {
		name := fmt.Sprintf("%s%d_bench%d", testPrefix, time.Now().Unix(), i)
		if err := s.clone(ctx, name); err != nil {
			b.Fatal(err)
		}
		u, _ := devdb.SwitchDatabase(s.adminURL, name)
		db, err := postgres.Open(ctx, u)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		if err := drop(ctx, s.admin, name); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
