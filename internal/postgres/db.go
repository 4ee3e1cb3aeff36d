// Package postgres stores Tripplan's data in PostgreSQL with sqlx and lib/pq. Each file holds
// one aggregate's SQL next to the Go that runs it; every public method is one transaction.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"

	"tripplan/internal/planner"
	"tripplan/migrations"
)

// DB is the database handle every store method hangs off.
type DB struct {
	*sqlx.DB
	days   *dayCache // nil until Listen: nothing cached
	events *hub      // nil until Listen: no live events
	// revoked is what this instance knows of revoked sessions; nil until Listen: every
	// SessionRevoked asks the database.
	revoked *revocations
	// pushes queues the Web Pushes of new notifications (OnPush); nil: none are sent.
	pushes PushQueue
	// extractions works extraction jobs (OnExtraction); nil: none can be requested.
	extractions ExtractionQueue
}

// Pool sizes an instance's pool of connections (DB_MAX_CONNS, DB_MAX_IDLE_CONNS and
// DB_MAX_IDLE_TIME). Requests and the job queue (River, which works through the same pool)
// share it.
type Pool struct {
	MaxConns    int           // the most connections open at once
	MaxIdle     int           // the most kept open while unused
	MaxIdleTime time.Duration // how long an unused connection is kept (0: for ever)
}

// DefaultPool is the pool Open makes.
var DefaultPool = Pool{MaxConns: 20, MaxIdle: 20, MaxIdleTime: 5 * time.Minute}

// ListenConns is how many connections Listen holds beside the pool: the change feed's and
// the revocations channel's (cache.go, revocations.go).
const ListenConns = 2

// Budget is the most connections an instance with this pool holds to PostgreSQL while it
// serves: the pool's and Listen's (docs/SCALING.md).
func (p Pool) Budget() int { return p.MaxConns + ListenConns }

// Open connects to url with DefaultPool.
func Open(ctx context.Context, url string) (*DB, error) {
	return OpenPool(ctx, url, DefaultPool)
}

// OpenPool connects to url, checks the connection and sizes the pool.
func OpenPool(ctx context.Context, url string, pool Pool) (*DB, error) {
	connector, err := pq.NewConnector(url)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db := sqlx.NewDb(sql.OpenDB(Connector(connector)), "postgres")
	db.SetMaxOpenConns(pool.MaxConns)
	db.SetMaxIdleConns(pool.MaxIdle)
	db.SetConnMaxIdleTime(pool.MaxIdleTime)
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	return &DB{DB: db}, nil
}

// Room is how many connections the server takes and how many others hold.
type Room struct {
	// Max is max_connections; Reserved those kept for superusers (superuser_reserved_connections
	// and, from PostgreSQL 16, reserved_connections). Ordinary roles get Max less Reserved.
	Max, Reserved int
	// Others is how many client connections, to any database, other applications hold.
	Others int
}

// Allowed is how many connections an ordinary role may open in all.
func (r Room) Allowed() int { return r.Max - r.Reserved }

// ConnectionRoom reads the server's connection limits and counts the client connections whose
// application_name is not application (this instance's).
func (db *DB) ConnectionRoom(ctx context.Context, application string) (_ Room, err error) {
	defer named(&err)
	var r Room
	// Rows of other roles' connections may hide their backend_type (NULL): counted as clients.
	err = db.QueryRowContext(ctx, `
		SELECT current_setting('max_connections')::int,
		       current_setting('superuser_reserved_connections')::int
		         + COALESCE(current_setting('reserved_connections', true)::int, 0),
		       (SELECT count(*) FROM pg_stat_activity
		         WHERE COALESCE(backend_type, 'client backend') = 'client backend'
		           AND application_name IS DISTINCT FROM $1)`, application).Scan(&r.Max, &r.Reserved, &r.Others)
	return r, mapError(err)
}

// WithStatementTimeout is the connection URL (lib/pq's URL or key=value form) with every
// statement on its connections limited to d (PostgreSQL's statement_timeout, sent when each
// connection starts); d of 0 leaves the URL alone. A statement that runs out is canceled and
// answers 503 SERVICE_UNAVAILABLE (see Unavailable).
func WithStatementTimeout(dsn string, d time.Duration) (string, error) {
	if d <= 0 {
		return dsn, nil
	}
	return withSetting(dsn, "statement_timeout", strconv.FormatInt(d.Milliseconds(), 10))
}

// WithApplicationName is the connection URL with its connections named name in
// pg_stat_activity (application_name), so that each instance's connections can be told apart.
func WithApplicationName(dsn, name string) (string, error) {
	return withSetting(dsn, "application_name", name)
}

// withSetting is the connection URL, in either of lib/pq's forms, with a connection parameter
// set (for the key=value form, appended, quoted when it must be: the last value of a key wins).
func withSetting(dsn, key, value string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", err
		}
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	if value == "" || strings.ContainsAny(value, ` '\`) {
		value = "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(value) + "'"
	}
	return strings.TrimSpace(dsn + " " + key + "=" + value), nil
}

// Migrate applies every pending embedded migration. A PostgreSQL advisory lock lets several
// instances start at once: one migrates, the others wait and then find nothing to do.
func Migrate(ctx context.Context, db *sql.DB, log *slog.Logger) error {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	sub, err := fs.Sub(migrations.FS, ".")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, sub, goose.WithSessionLocker(locker))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, r := range results {
		if log != nil {
			log.Info("migration applied", "source", r.Source.Path, "duration", r.Duration)
		}
	}
	return migrateQueue(ctx, db)
}

// QueueSchema names the job queue's own schema (River's migrations), so test templates made
// before a River upgrade are not reused.
const QueueSchema = "river v0.25.0"

// migrateQueue applies River's migrations (its job tables). They must run one transaction
// each (one adds an enum value that the next uses), so instances starting at once are kept in
// turn by a session advisory lock held on a connection of its own.
func migrateQueue(ctx context.Context, db *sql.DB) error {
	migrator, err := rivermigrate.New(riverdatabasesql.New(db), nil)
	if err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, queueMigrationLock); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, queueMigrationLock)
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate the job queue: %w", err)
	}
	return nil
}

// queueMigrationLock is the advisory lock key of migrateQueue (an arbitrary number).
const queueMigrationLock = 7_340_981_276_002

// planTx is tx for a change to a plan: once committed, this instance's cached views of the
// plan are dropped at once (other instances learn it from the change feed). The transaction
// reads the ids of the events it recorded, so that their notifications, arriving later, do
// not drop the views again (see cache.go).
func (db *DB) planTx(ctx context.Context, planID string, fn func(tx *sqlx.Tx) error) error {
	var events []int64
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := fn(tx); err != nil || db.days == nil {
			return err
		}
		var err error
		events, err = ownEvents(ctx, tx, planID)
		return err
	})
	if err == nil {
		db.planChanged(planID, events)
	}
	return err
}

// tx runs fn in one transaction, committing when it returns nil. The rollback is deferred, so
// a panic in fn leaves no transaction open. A driver's error becomes the domain's (mapError);
// any other is wrapped with the name of the store method that ran the transaction.
func (db *DB) tx(ctx context.Context, fn func(tx *sqlx.Tx) error) (err error) {
	defer func() {
		var pe *planner.Error
		if err = mapError(err); err != nil && !errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", operation(), err)
		}
	}()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // after Commit, sql.ErrTxDone: nothing left to undo
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// named wraps *err, when it is not the domain's, with the name of the store method returning
// it, as tx does for the transactions' errors: `defer named(&err)` in a method that runs its
// statements outside one.
func named(err *error) {
	var pe *planner.Error
	if *err != nil && !errors.As(*err, &pe) {
		*err = fmt.Errorf("%s: %w", operation(), *err)
	}
}

// operation names the store method running a transaction ("CreatePlan"): the nearest
// exported caller, past the store's own helpers (tx, planTx, linkedPlaces, …) and closures.
func operation() string {
	pcs := make([]uintptr, 16)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		name := f.Function[strings.LastIndex(f.Function, ".")+1:]
		if name != "" && unicode.IsUpper(rune(name[0])) {
			return name
		}
		if !more {
			return "transaction"
		}
	}
}
