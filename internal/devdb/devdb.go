// Package devdb finds or starts the PostgreSQL server that `make run` and the tests use, so
// that neither needs any configuration: DATABASE_URL when set, else a server already answering
// on 127.0.0.1:5432, else a private cluster in a project directory, started on demand.
package devdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lib/pq"
)

// ErrNoPostgres means there is no server to use and no PostgreSQL binaries to start one.
var ErrNoPostgres = errors.New("no PostgreSQL server found and no PostgreSQL binaries (initdb, pg_ctl, postgres) to start one")

// Options says where to look; the zero value of every field but Getenv and Database is usable.
type Options struct {
	Getenv   func(string) string // os.Getenv in production; tests pass their own
	Database string              // database name to use/create, e.g. "tripplan"
	DataDir  string              // private cluster directory, default ".data/postgres" (relative to cwd), made absolute
	Log      *slog.Logger

	// Probe is the host:port of a shared server to try before starting a private cluster;
	// default 127.0.0.1:5432.
	Probe string
	// Port is the port the private cluster prefers; default 54329. When something else holds
	// it, a free port is picked instead.
	Port int
	// BinDirs are the directories searched for initdb, pg_ctl and postgres; default the PATH,
	// then /usr/lib/postgresql/*/bin, newest version first.
	BinDirs []string
}

// Cluster is the server Find settled on.
type Cluster struct {
	URL      string // a lib/pq URL for Database
	AdminURL string // URL of the maintenance database ("postgres") on the same server, for CREATE DATABASE
	Private  bool   // true when this process started a private cluster

	stop func() error // stops the cluster this call started; nil otherwise
}

// Close stops the private cluster if this Find started it; otherwise it does nothing. A
// cluster that was found already running belongs to whoever started it.
func (c *Cluster) Close() error {
	if c.stop == nil {
		return nil
	}
	stop := c.stop
	c.stop = nil
	return stop()
}

const (
	defaultProbe = "127.0.0.1:5432"
	defaultPort  = 54329
	// connectTimeout keeps a probe of a server that does not answer from stalling start-up.
	connectTimeout = 2 * time.Second
)

// Find returns the first server available, in this order: DATABASE_URL (used as is, with
// DATABASE_ADMIN_URL or the same server's "postgres" database as AdminURL), a server on
// o.Probe that lets user postgres or root in without a password, or the private cluster in
// o.DataDir, started if it is not running. In the last two cases it creates o.Database if
// missing.
func Find(ctx context.Context, o Options) (*Cluster, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Database == "" {
		o.Database = "postgres"
	}
	if o.Probe == "" {
		o.Probe = defaultProbe
	}
	if o.Port == 0 {
		o.Port = defaultPort
	}
	if o.DataDir == "" {
		o.DataDir = filepath.Join(".data", "postgres")
	}
	dir, err := filepath.Abs(o.DataDir)
	if err != nil {
		return nil, err
	}
	o.DataDir = dir

	if u := o.Getenv("DATABASE_URL"); u != "" {
		admin := o.Getenv("DATABASE_ADMIN_URL")
		if admin == "" {
			if admin, err = SwitchDatabase(u, "postgres"); err != nil {
				return nil, fmt.Errorf("DATABASE_URL: %w", err)
			}
		}
		o.Log.Info("postgres: using DATABASE_URL")
		return &Cluster{URL: u, AdminURL: admin}, nil
	}

	if admin := probe(ctx, o); admin != "" {
		c, err := withDatabase(ctx, admin, o.Database)
		if err != nil {
			return nil, err
		}
		o.Log.Info("postgres: using the server on "+o.Probe, "database", o.Database)
		return c, nil
	}
	return private(ctx, o)
}

// probe returns the admin URL of the server on o.Probe if it answers and lets one of the usual
// superusers in; "" otherwise.
func probe(ctx context.Context, o Options) string {
	conn, err := net.DialTimeout("tcp", o.Probe, time.Second)
	if err != nil {
		return ""
	}
	conn.Close()
	host, port, err := net.SplitHostPort(o.Probe)
	if err != nil {
		return ""
	}
	var errs []error
	for _, user := range []string{"postgres", "root"} {
		admin := pgURL(user, host, port, "postgres")
		if err = ping(ctx, admin); err == nil {
			return admin
		}
		errs = append(errs, fmt.Errorf("user %s: %w", user, err))
	}
	// Something answers but will not let us in (a password, a different server): say so,
	// since the private cluster started instead may surprise whoever set that server up.
	o.Log.Warn("postgres: the server on "+o.Probe+" refused us; using a private cluster", "err", errors.Join(errs...))
	return ""
}

// pgURL builds a lib/pq URL for a server without TLS, as local development servers are.
func pgURL(user, host, port, database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(user),
		Host:     net.JoinHostPort(host, port),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// ping connects to dsn once, giving up after connectTimeout.
func ping(ctx context.Context, dsn string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	return db.PingContext(ctx)
}

// withDatabase creates database on the server behind admin if it is missing and returns the
// Cluster pointing at it.
func withDatabase(ctx context.Context, admin, database string) (*Cluster, error) {
	u, err := SwitchDatabase(admin, database)
	if err != nil {
		return nil, err
	}
	if err := createDatabase(ctx, admin, database); err != nil {
		return nil, err
	}
	return &Cluster{URL: u, AdminURL: admin}, nil
}

// createDatabase creates database through the maintenance database at admin unless it exists.
// Several processes may do this at once; the losers' duplicate errors are ignored.
func createDatabase(ctx context.Context, admin, database string) error {
	db, err := sql.Open("postgres", admin)
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	err = db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, database).Scan(&exists)
	if err != nil || exists {
		return err
	}
	_, err = db.ExecContext(ctx, "CREATE DATABASE "+pq.QuoteIdentifier(database))
	var pqErr *pq.Error
	// 42P04 duplicate_database; 23505 is what PostgreSQL reports when two CREATE DATABASE of
	// the same name race past its friendly check.
	if errors.As(err, &pqErr) && (pqErr.Code == "42P04" || pqErr.Code == "23505") {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create database %s: %w", database, err)
	}
	return nil
}

// SwitchDatabase returns dsn, a lib/pq URL or key=value connection string, naming database
// instead of the one it names.
func SwitchDatabase(dsn, database string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", err
		}
		u.Path, u.RawPath = "/"+database, ""
		return u.String(), nil
	}
	// In a key=value string the last setting of a key wins.
	quoted := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(database)
	return strings.TrimSpace(dsn) + " dbname='" + quoted + "'", nil
}
