// Package pgtest gives each test its own real, migrated, empty PostgreSQL database, cloned from
// a template that is migrated once per set of migrations, so a database costs a CREATE DATABASE
// rather than a migration run.
//
// The server comes from devdb: DATABASE_URL (and DATABASE_ADMIN_URL) when set, as under
// `make test`, else a server on 127.0.0.1:5432, else the private cluster in
// <module root>/.data/postgres.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"

	"tripplan/internal/devdb"
	"tripplan/internal/postgres"
	"tripplan/migrations"
)

// New returns a pool on a fresh database with every migration applied and no rows. The pool
// is closed and the database dropped when tb ends.
func New(tb testing.TB) *postgres.DB {
	tb.Helper()
	db, err := postgres.Open(context.Background(), URL(tb))
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	// Cleanups run last-in first-out: the pool closes before URL's cleanup drops the database.
	tb.Cleanup(func() { db.Close() })
	return db
}

// URL is New for tests that connect by themselves, such as a server process: it returns the
// URL of a fresh migrated database, dropped (whoever is still connected) when tb ends.
func URL(tb testing.TB) string {
	tb.Helper()
	s, err := shared()
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	// The creation time in the name lets a later run drop databases whose test was killed
	// before its cleanup ran.
	name := fmt.Sprintf("%s%d_%s", testPrefix, time.Now().Unix(), strings.ToLower(rand.Text()[:10]))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.clone(ctx, name); err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := drop(ctx, s.admin, name); err != nil {
			tb.Errorf("pgtest: %v", err)
		}
	})
	u, err := devdb.SwitchDatabase(s.adminURL, name)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	return u
}

const (
	testPrefix     = "tripplan_t_"
	templatePrefix = "tripplan_tpl_"
	// templateLock is the advisory lock key (an arbitrary number) every pgtest process takes
	// on the maintenance database to make, check or drop templates.
	templateLock = 7_340_981_276_001
	// stale is how long after its last use a template, or after its creation a test database,
	// is surely left over: no test run lasts that long.
	stale = 24 * time.Hour
)

// server is the database server shared by every test of this process.
type server struct {
	admin    *sql.DB // on the maintenance database, for CREATE and DROP DATABASE
	adminURL string
	template string
}

// shared finds the server and makes the template once per test process (hence a package
// variable: every test of the process shares them); a failure is reported to every test that
// asks.
var shared = sync.OnceValues(func() (*server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	// A private cluster started here is never stopped: the test processes of the other
	// packages share it, and the next run reuses it. `make test` (cmd/withdb) stops the one
	// it starts.
	c, err := devdb.Find(ctx, devdb.Options{
		Getenv:   os.Getenv,
		Database: "tripplan_test_admin",
		DataDir:  filepath.Join(root, ".data", "postgres"),
	})
	if err != nil {
		return nil, err
	}
	admin, err := sql.Open("postgres", c.AdminURL)
	if err != nil {
		return nil, err
	}
	s := &server{admin: admin, adminURL: c.AdminURL}
	if s.template, err = templateName(); err != nil {
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		admin.Close()
		return nil, err
	}
	return s, nil
})

// moduleRoot walks up from the working directory (the package's, under go test) to go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// templateName names the template after the migrations it holds, so changing any migration
// leads to a new template instead of a stale one.
func templateName() (string, error) {
	h := sha256.New()
	h.Write([]byte(postgres.QueueSchema))
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return templatePrefix + hex.EncodeToString(h.Sum(nil))[:12], nil
}

// prepare makes the template unless it is there, under the advisory lock, since test
// processes of several packages (and of other checkouts using the same server) start at once.
func (s *server) prepare(ctx context.Context) error {
	return s.locked(ctx, func() error {
		if err := s.ensureTemplate(ctx); err != nil {
			return err
		}
		return s.sweep(ctx)
	})
}

// locked runs fn holding the template lock. The lock is taken in a transaction on a
// connection of its own, so the rollback releases it however fn ends, while fn runs
// CREATE DATABASE (which cannot run in a transaction) on other connections.
func (s *server) locked(ctx context.Context, fn func() error) error {
	tx, err := s.admin.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, templateLock); err != nil {
		return err
	}
	return fn()
}

// ensureTemplate makes the template unless a finished one exists, and dates its use. The
// template is marked IS_TEMPLATE only once migrated: a database of that name without the mark
// is the remains of a run that died midway, and is made again.
func (s *server) ensureTemplate(ctx context.Context) error {
	var ready bool
	err := s.admin.QueryRowContext(ctx, `SELECT datistemplate FROM pg_database WHERE datname = $1`, s.template).Scan(&ready)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	case !ready:
		if err := drop(ctx, s.admin, s.template); err != nil {
			return err
		}
	}
	if !ready {
		if err := s.build(ctx); err != nil {
			return err
		}
	}
	// The comment dates the template's last use, so that other checkouts sharing this server
	// drop it only when nobody has used it for a day (see sweep).
	_, err = s.admin.ExecContext(ctx, fmt.Sprintf(`COMMENT ON DATABASE %s IS %s`,
		pq.QuoteIdentifier(s.template), pq.QuoteLiteral(time.Now().UTC().Format(time.RFC3339))))
	return err
}

// build creates and migrates the template, then closes it to connections: CREATE DATABASE
// refuses a template anyone is connected to.
func (s *server) build(ctx context.Context) error {
	tpl := pq.QuoteIdentifier(s.template)
	if _, err := s.admin.ExecContext(ctx, `CREATE DATABASE `+tpl); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	u, err := devdb.SwitchDatabase(s.adminURL, s.template)
	if err != nil {
		return err
	}
	db, err := postgres.Open(ctx, u)
	if err != nil {
		return err
	}
	err = postgres.Migrate(ctx, db.DB.DB, nil)
	db.Close()
	if err != nil {
		return fmt.Errorf("migrate template: %w", err)
	}
	_, err = s.admin.ExecContext(ctx, `ALTER DATABASE `+tpl+` WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`)
	return err
}

// sweep drops templates of other migrations unused for a day and test databases whose test
// died before dropping them. It runs under the template lock, so no template it sees is being
// made.
func (s *server) sweep(ctx context.Context) error {
	rows, err := s.admin.QueryContext(ctx, `
		SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database
		WHERE datname LIKE 'tripplan\_tpl\_%' OR datname LIKE 'tripplan\_t\_%'`)
	if err != nil {
		return err
	}
	var old []string
	for rows.Next() {
		var name, comment string
		if err := rows.Scan(&name, &comment); err != nil {
			rows.Close()
			return err
		}
		var made time.Time
		if rest, ok := strings.CutPrefix(name, testPrefix); ok {
			unix, _, _ := strings.Cut(rest, "_")
			sec, _ := strconv.ParseInt(unix, 10, 64)
			made = time.Unix(sec, 0)
		} else if name != s.template {
			made, _ = time.Parse(time.RFC3339, comment)
		} else {
			continue
		}
		if time.Since(made) > stale {
			old = append(old, name)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, name := range old {
		if err := drop(ctx, s.admin, name); err != nil {
			return err
		}
	}
	return nil
}

// clone creates database name from the template. PostgreSQL refuses while a connection to the
// template lingers (55006), as one can for a moment after the template is made; try again.
func (s *server) clone(ctx context.Context, name string) error {
	for attempt := 1; ; attempt++ {
		_, err := s.admin.ExecContext(ctx, `CREATE DATABASE `+pq.QuoteIdentifier(name)+` TEMPLATE `+pq.QuoteIdentifier(s.template))
		var pqErr *pq.Error
		if err == nil || !errors.As(err, &pqErr) || pqErr.Code != "55006" || attempt == 20 {
			if err != nil {
				return fmt.Errorf("create database %s from %s: %w", name, s.template, err)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// drop drops database name, disconnecting anyone still on it.
func drop(ctx context.Context, admin *sql.DB, name string) error {
	q := pq.QuoteIdentifier(name)
	// A template cannot be dropped while marked as one.
	if _, err := admin.ExecContext(ctx, `ALTER DATABASE `+q+` IS_TEMPLATE false`); err != nil {
		var pqErr *pq.Error
		if errors.As(err, &pqErr) && pqErr.Code == "3D000" { // invalid_catalog_name: gone already
			return nil
		}
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	if _, err := admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+q+` WITH (FORCE)`); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}
