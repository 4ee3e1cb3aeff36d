package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tripplan/internal/auth"
	"tripplan/internal/devdb"
	"tripplan/internal/extraction"
	"tripplan/internal/fetch"
	"tripplan/internal/places"
	"tripplan/internal/postgres"
	"tripplan/internal/reach"
	"tripplan/internal/storage"
	"tripplan/internal/timezone"
	"tripplan/static"
	"tripplan/web"
)

// run wires the application from its environment and serves until ctx is done.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	migrateOnly := len(args) == 1 && args[0] == "migrate"
	if len(args) > 0 && !migrateOnly {
		return fmt.Errorf("unexpected arguments %q: tripplan serves with none, or brings the database up to date and exits with "+
			"migrate; it is configured by environment variables (see README.md)", args)
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	var handler slog.Handler = slog.NewTextHandler(stdout, &slog.HandlerOptions{Level: slog.LevelInfo})
	if cfg.Env == "production" {
		handler = slog.NewJSONHandler(stdout, nil)
	}
	log := slog.New(handler)

	// DATABASE_URL, else PostgreSQL on 127.0.0.1:5432, else a private cluster in .data/postgres.
	cluster, err := devdb.Find(ctx, devdb.Options{Getenv: getenv, Database: "tripplan", DataDir: ".data/postgres", Log: log})
	if err != nil {
		return err
	}
	defer cluster.Close()
	// Every connection of this instance carries its name, in pg_stat_activity.
	application := applicationName(os.Getpid())
	dbURL, err := postgres.WithApplicationName(cluster.URL, application)
	if err != nil {
		return fmt.Errorf("DATABASE_URL: %w", err)
	}
	switch {
	case migrateOnly:
		return prepare(ctx, dbURL, cfg.DBPool, cfg.Env == "development", log)
	case cfg.MigrateOnStart:
		if err := prepare(ctx, dbURL, cfg.DBPool, cfg.Env == "development", log); err != nil {
			return err
		}
	default:
		if err := awaitSchema(ctx, dbURL, cfg.DBPool, log); err != nil {
			if ctx.Err() != nil {
				return nil // stopped while waiting: a clean stop, nothing was served
			}
			return err
		}
	}
	// Requests run on connections whose statements are bounded; start-up work above is not.
	serving, err := postgres.WithStatementTimeout(dbURL, cfg.StatementTimeout)
	if err != nil {
		return fmt.Errorf("DATABASE_URL: %w", err)
	}
	db, err := postgres.OpenPool(ctx, serving, cfg.DBPool)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := checkBudget(ctx, db, cfg.DBPool, application, log); err != nil {
		return err
	}
	if err := db.Listen(ctx, dbURL, log); err != nil {
		return fmt.Errorf("change feed: %w", err)
	}

	tokens, err := auth.NewIssuer(cfg.JWTSecret, nil, cfg.JWTPreviousSecrets...)
	if err != nil {
		return err
	}
	webCfg := web.Config{Env: cfg.Env, BaseURL: cfg.publicURL(), DevLogin: cfg.DevLogin, SecureCookies: cfg.Env != "development",
		MapTileURL: cfg.MapTileURL, MapTileAttribution: cfg.MapTileAttribution, SignIn: cfg.SignIn,
		CORSOrigins: cfg.CORSOrigins, TrustedProxies: cfg.TrustedProxies, StreamLimit: cfg.StreamLimit,
		StreamLimitPerUser: cfg.StreamLimitPerUser, StreamLimitPerAddress: cfg.StreamLimitPerAddress, RefreshReuseGrace: cfg.RefreshReuseGrace,
		CookieSameSite: cfg.CookieSameSite, CookieDomain: cfg.CookieDomain, Frontend: cfg.Frontend,
		ClientRedirectURIs: cfg.ClientRedirectURIs, VAPIDPublicKey: cfg.VAPID.PublicKey, EmailDigest: cfg.SMTP != nil,
		UnsubscribeKey: cfg.SessionSecret}
	files, err := storage.Open(ctx, cfg.StorageURL, filepath.Join(".data", "uploads"), webCfg.BaseURL+"/uploads", cfg.SessionSecret)
	if err != nil {
		return err
	}
	defer files.Close()
	timezone.Warm() // plans take their first place's zone; load the boundaries before that is asked
	// Static files are compressed once at their best levels (about 3 s of one core): do it now,
	// beside serving; a file asked for first waits for its own.
	go static.Files.Precompress()
	provider := cfg.placeProvider()
	jobs := []extraction.Periodic{
		extraction.Every(storage.OrphanInterval, storage.OrphanArgs{}, &storage.OrphanWorker{Files: files, Refs: db, Log: log}),
		extraction.Every(postgres.IdempotencyPruneInterval, postgres.ExpiredIdempotencyKeysArgs{}, &postgres.ExpiredIdempotencyKeysWorker{DB: db, Log: log}),
	}
	push := cfg.VAPID != (reach.VAPID{})
	if push {
		jobs = append(jobs, extraction.Also(&reach.PushWorker{Store: db, Keys: cfg.VAPID, BaseURL: webCfg.BaseURL, Log: log}))
	}
	if cfg.SMTP != nil {
		jobs = append(jobs, extraction.Every(reach.DigestInterval, reach.DigestArgs{}, &reach.DigestWorker{Store: db, Mailer: cfg.SMTP,
			From: cfg.MailFrom, BaseURL: webCfg.BaseURL, Key: cfg.SessionSecret, Log: log}))
		log.Info("daily e-mail digest on", "smtp", cfg.SMTP.Host())
	}
	queue, err := extraction.NewQueue(db.DB.DB, &extraction.Worker{
		Store: db, Fetcher: &fetch.Fetcher{AllowHosts: cfg.ExtractAllowHosts},
		Searcher: &places.Finder{Remote: provider, Store: db, Log: log}, LLM: cfg.LLM, Log: log,
	}, log, jobs...)
	if err != nil {
		return err
	}
	db.OnExtraction(queue)
	if push {
		db.OnPush(reach.Enqueue(queue))
		log.Info("web push on")
	}
	if err := queue.Start(ctx); err != nil {
		return fmt.Errorf("job queue: %w", err)
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		defer cancel()
		queue.Stop(stopCtx) // jobs not finished by then are retried at the next start
	}()
	srv, err := web.New(webCfg, web.Deps{
		Store:    db,
		Files:    files,
		Places:   provider,
		Router:   cfg.router(),
		Rates:    cfg.rates(log),
		Sessions: db.NewSessionStore(web.SessionOptions(webCfg), cfg.SessionSecret),
		Tokens:   tokens,
		Log:      log,
	})
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	url := cfg.BaseURL
	if url == "" {
		url = localURL(ln.Addr())
	}
	fmt.Fprintf(stdout, "\nTripplan is running at %s (%s)\n", url, cfg.Env)
	if cfg.DevLogin {
		fmt.Fprintf(stdout, "Sign in at %s/login as a demo user (Ana or Ben), or from a client:\n", url)
		fmt.Fprintf(stdout, "  curl -X POST %s/dev/auth/login -H 'Content-Type: application/json' -d '{\"provider\":\"GOOGLE\",\"provider_id\":\"demo-ana\",\"nickname\":\"Ana\"}'\n\n", url)
	}

	go pruneExpired(ctx, db, log)
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(handler, slog.LevelWarn),
	}
	hs.RegisterOnShutdown(srv.EndStreams) // open event streams would hold Shutdown until its timeout
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// stopTimeout bounds each of the two steps of stopping, one after the other: the HTTP server's
// drain of its requests (live-update streams are ended at once), then the job queue's wait for
// running jobs. deploy/ checks that Kubernetes' terminationGracePeriodSeconds covers both.
const stopTimeout = 15 * time.Second

// applicationName names the connections of the instance with process id pid: tripplan, the
// host and the process, within PostgreSQL's 63 bytes.
func applicationName(pid int) string {
	host, _ := os.Hostname()
	if len(host) > 40 {
		host = host[:40]
	}
	return fmt.Sprintf("tripplan/%s/%d", host, pid)
}

// checkBudget logs the instance's connection budget (the pool and the LISTEN connections),
// refuses it when the database could never give that many to ordinary roles, and warns when
// it does not fit beside the connections others hold now.
func checkBudget(ctx context.Context, db *postgres.DB, pool postgres.Pool, application string, log *slog.Logger) error {
	room, err := db.ConnectionRoom(ctx, application)
	if err != nil {
		return fmt.Errorf("read the database's connection limits: %w", err)
	}
	budget := pool.Budget()
	log.Info("database connection budget", "application_name", application, "budget", budget, "pool", pool.MaxConns,
		"listen", postgres.ListenConns, "max_connections", room.Max, "reserved", room.Reserved, "held_by_others", room.Others)
	if budget > room.Allowed() {
		return fmt.Errorf("DB_MAX_CONNS=%d: this instance needs %d connections (its pool and %d LISTEN), more than the %d the database allows "+
			"(max_connections %d less %d reserved)", pool.MaxConns, budget, postgres.ListenConns, room.Allowed(), room.Max, room.Reserved)
	}
	if room.Others+budget > room.Allowed() {
		log.Warn("database connections: this instance's budget and those open now exceed what the database allows; requests may find it full",
			"budget", budget, "held_by_others", room.Others, "allowed", room.Allowed())
	}
	return nil
}

// localURL is the URL to print for a listener with no BASE_URL.
func localURL(a net.Addr) string {
	addr := a.String()
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if host == "::" || host == "0.0.0.0" || host == "" || strings.HasPrefix(host, "[::") {
			host = "localhost"
		}
		addr = net.JoinHostPort(host, port)
	}
	return "http://" + addr
}

// pruneExpired deletes expired sessions and refresh tokens every hour.
func pruneExpired(ctx context.Context, db *postgres.DB, log *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if err := db.PruneExpired(ctx); err != nil && ctx.Err() == nil {
			log.Warn("pruning expired sessions", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// schemaPoll is how often a server that does not migrate looks whether the schema is current.
const schemaPoll = 2 * time.Second

// awaitSchema waits until `tripplan migrate` (elsewhere: a Kubernetes Job) has applied every
// migration this build carries (MIGRATE_ON_START=false), so that a new version never serves on
// the schema before it. It returns ctx's error when stopped first.
func awaitSchema(ctx context.Context, url string, pool postgres.Pool, log *slog.Logger) error {
	db, err := postgres.OpenPool(ctx, url, pool)
	if err != nil {
		return err
	}
	defer db.Close()
	t := time.NewTicker(schemaPoll)
	defer t.Stop()
	for said := false; ; said = true {
		current, err := postgres.SchemaCurrent(ctx, db.DB.DB)
		if err != nil {
			return fmt.Errorf("database schema: %w", err)
		}
		if current {
			return nil
		}
		if !said {
			log.Info("waiting for the database schema: migrations are pending and MIGRATE_ON_START=false leaves them to tripplan migrate")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// prepare brings the database up to date on a connection pool of its own, without the
// serving statement timeout (migrations and seeding may wait for another instance's lock):
// migrations, the built-in place catalog, and in development the demo data. The pool is
// sized as the serving one and closed before that one opens: the budget holds at start too.
func prepare(ctx context.Context, url string, pool postgres.Pool, demo bool, log *slog.Logger) error {
	db, err := postgres.OpenPool(ctx, url, pool)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := postgres.Migrate(ctx, db.DB.DB, log); err != nil {
		return err
	}
	catalog, version, err := places.Catalog()
	if err != nil {
		return fmt.Errorf("built-in place catalog: %w", err)
	}
	if loaded, err := db.LoadCatalog(ctx, version, catalog); err != nil {
		return fmt.Errorf("load the place catalog: %w", err)
	} else if loaded {
		log.Info("place catalog loaded", "places", len(catalog), "version", version)
	}
	if demo {
		if seeded, err := db.SeedDemo(ctx); err != nil {
			return fmt.Errorf("seed demo data: %w", err)
		} else if seeded {
			log.Info("demo data seeded")
		}
	}
	return nil
}
