package devdb

import (
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lib/pq"
)

// env returns a Getenv that knows only vars, and the real PATH so binaries are found.
func env(vars ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(vars); i += 2 {
			if vars[i] == k {
				return vars[i+1]
			}
		}
		if k == "PATH" {
			return os.Getenv("PATH")
		}
		return ""
	}
}

// closedAddr returns a 127.0.0.1 address nothing listens on.
func closedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	return ln.Addr().String()
}

// currentDatabase connects to dsn and returns the database it lands in.
func currentDatabase(t *testing.T, dsn string) string {
	t.Helper()
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var name string
	if err := db.QueryRowContext(t.Context(), `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	return name
}

func randomName(prefix string) string {
	return prefix + strings.ToLower(rand.Text()[:10])
}

func TestDatabaseURL(t *testing.T) {
	// The port is closed: Find must use the URL as given, without connecting or creating.
	dsn := "postgres://app:secret@" + closedAddr(t) + "/tripplan?sslmode=disable"
	c, err := Find(t.Context(), Options{Getenv: env("DATABASE_URL", dsn), Database: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if c.URL != dsn || c.Private {
		t.Errorf("got URL %q private %v, want %q and not private", c.URL, c.Private, dsn)
	}
	if want := strings.Replace(dsn, "/tripplan?", "/postgres?", 1); c.AdminURL != want {
		t.Errorf("AdminURL = %q, want %q", c.AdminURL, want)
	}
	if err := c.Close(); err != nil {
		t.Error(err)
	}

	c, err = Find(t.Context(), Options{Getenv: env("DATABASE_URL", dsn, "DATABASE_ADMIN_URL", "postgres://admin@x/y")})
	if err != nil {
		t.Fatal(err)
	}
	if c.AdminURL != "postgres://admin@x/y" {
		t.Errorf("AdminURL = %q, want DATABASE_ADMIN_URL", c.AdminURL)
	}
}

func TestSwitchDatabase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://u:p@h:1/a?sslmode=disable", "postgres://u:p@h:1/b?sslmode=disable"},
		{"postgresql://h/a", "postgresql://h/b"},
		{"postgres://h", "postgres://h/b"},
		{"host=h dbname=a", "host=h dbname=a dbname='b'"},
	} {
		if got, err := SwitchDatabase(tc.in, "b"); err != nil || got != tc.want {
			t.Errorf("SwitchDatabase(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// requireShared skips unless a server answers on 127.0.0.1:5432.
func requireShared(t *testing.T) {
	conn, err := net.DialTimeout("tcp", defaultProbe, time.Second)
	if err != nil {
		t.Skip("no PostgreSQL on " + defaultProbe + " to test the shared-server path against")
	}
	conn.Close()
}

func TestSharedServer(t *testing.T) {
	requireShared(t)
	name := randomName("devdb_test_")
	o := Options{Getenv: env(), Database: name, DataDir: t.TempDir()}
	c, err := Find(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropDatabase(t, c.AdminURL, name) })
	if c.Private {
		t.Error("Private = true for the shared server")
	}
	if !strings.Contains(c.URL, "@"+defaultProbe+"/") {
		t.Errorf("URL %q is not on %s", c.URL, defaultProbe)
	}
	if got := currentDatabase(t, c.URL); got != name {
		t.Errorf("URL lands in %q, want the created %q", got, name)
	}
	if got := currentDatabase(t, c.AdminURL); got != "postgres" {
		t.Errorf("AdminURL lands in %q, want postgres", got)
	}
	if _, err := os.Stat(filepath.Join(o.DataDir, "PG_VERSION")); err == nil {
		t.Error("a private cluster was made although the shared server answered")
	}

	// Again, now that the database exists; and a key=value DSN switched to it lands there.
	if _, err := Find(t.Context(), o); err != nil {
		t.Fatalf("second Find: %v", err)
	}
	kv, _ := SwitchDatabase("host=127.0.0.1 port=5432 user="+userOf(t, c.AdminURL)+" sslmode=disable dbname=postgres", name)
	if got := currentDatabase(t, kv); got != name {
		t.Errorf("key=value DSN lands in %q, want %q", got, name)
	}
}

func userOf(t *testing.T, dsn string) string {
	i, j := strings.Index(dsn, "://"), strings.Index(dsn, "@")
	if i < 0 || j < i {
		t.Fatalf("no user in %q", dsn)
	}
	return dsn[i+3 : j]
}

func dropDatabase(t *testing.T, admin, name string) {
	db, err := sql.Open("postgres", admin)
	if err != nil {
		t.Error(err)
		return
	}
	defer db.Close()
	if _, err := db.Exec("DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(name) + " WITH (FORCE)"); err != nil {
		t.Error(err)
	}
}

func TestPrivateCluster(t *testing.T) {
	o := Options{Getenv: env(), Database: "devdb_test", DataDir: filepath.Join(t.TempDir(), "pg"), Probe: closedAddr(t),
		Log: slog.New(slog.NewTextHandler(t.Output(), nil))}
	if _, err := binaries(o); err != nil {
		t.Skip("no PostgreSQL binaries to start a private cluster with: ", err)
	}
	// Something else holds the preferred port: the cluster must move to another.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	o.Port = busy.Addr().(*net.TCPAddr).Port

	// Several processes (here goroutines, each with its own lock file handle) start at once:
	// one must initialise and start the cluster, the others reuse it.
	clusters := make([]*Cluster, 4)
	errs := make([]error, len(clusters))
	var wg sync.WaitGroup
	for i := range clusters {
		wg.Go(func() { clusters[i], errs[i] = Find(t.Context(), o) })
	}
	wg.Wait()
	for _, c := range clusters {
		if c != nil {
			t.Cleanup(func() { c.Close() })
		}
	}
	var owner *Cluster
	for i, c := range clusters {
		if errs[i] != nil {
			t.Fatalf("Find %d: %v", i, errs[i])
		}
		if c.Private {
			if owner != nil {
				t.Fatal("two callers started the cluster")
			}
			owner = c
		}
		if c.URL != clusters[0].URL {
			t.Errorf("URLs differ: %q and %q", c.URL, clusters[0].URL)
		}
		if got := currentDatabase(t, c.URL); got != o.Database {
			t.Errorf("URL lands in %q, want %q", got, o.Database)
		}
	}
	if owner == nil {
		t.Fatal("no caller says it started the cluster")
	}
	// Trigram search needs a Unicode-aware character class: under LC_CTYPE=C, pg_trgm treats
	// Hangul and kana as separators and Korean or Japanese place names could not be found.
	func() {
		db, err := sql.Open("postgres", owner.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var ctype string
		if err := db.QueryRow(`SELECT datctype FROM pg_database WHERE datname = current_database()`).Scan(&ctype); err != nil {
			t.Fatal(err)
		}
		if ctype != "C.UTF-8" {
			t.Errorf("private cluster LC_CTYPE = %q, want C.UTF-8", ctype)
		}
	}()
	if strings.Contains(owner.URL, ":"+strconv.Itoa(o.Port)+"/") {
		t.Errorf("URL %q uses the busy port %d", owner.URL, o.Port)
	}
	if _, err := os.Stat(filepath.Join(o.DataDir, ".s.PGSQL."+portOf(t, owner.URL))); err != nil {
		t.Errorf("no unix socket in the data dir: %v", err)
	}

	// Closing a reused cluster leaves it running; closing the starter's stops it.
	for _, c := range clusters {
		if c != owner {
			if err := c.Close(); err != nil {
				t.Error(err)
			}
		}
	}
	if err := ping(t.Context(), owner.URL); err != nil {
		t.Fatalf("the cluster stopped when a caller that did not start it closed: %v", err)
	}
	if err := owner.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ping(t.Context(), owner.URL); err == nil {
		t.Fatal("the cluster still answers after Close")
	}
	if _, err := os.Stat(filepath.Join(o.DataDir, "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("postmaster.pid after Close: %v", err)
	}

	// An initialised but stopped cluster starts again, keeping its databases, even when a
	// crash left a postmaster.pid naming a dead process and a port where another server is.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprintf("%d\n%s\n0\n5432\n%s\n127.0.0.1\n0 0\nready\n", dead.Process.Pid, o.DataDir, o.DataDir)
	pidFile := filepath.Join(o.DataDir, "postmaster.pid")
	if err := os.WriteFile(pidFile, []byte(pid), 0o600); err != nil {
		t.Fatal(err)
	}
	// Owned, as the server's own would be, by the data directory's owner (postgres, as root).
	fi, err := os.Stat(o.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if err := os.Chown(pidFile, int(st.Uid), int(st.Gid)); err != nil {
		t.Fatal(err)
	}
	c, err := Find(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if !c.Private {
		t.Error("restarting the stopped cluster: Private = false")
	}
	if got := currentDatabase(t, c.URL); got != o.Database {
		t.Errorf("URL lands in %q, want %q", got, o.Database)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func portOf(t *testing.T, dsn string) string {
	_, rest, _ := strings.Cut(dsn, "@127.0.0.1:")
	port, _, ok := strings.Cut(rest, "/")
	if !ok {
		t.Fatalf("no port in %q", dsn)
	}
	return port
}

func TestNoPostgres(t *testing.T) {
	empty := t.TempDir()
	o := Options{Getenv: env(), Database: "x", DataDir: filepath.Join(t.TempDir(), "pg"), Probe: closedAddr(t), BinDirs: []string{empty}}
	_, err := Find(t.Context(), o)
	if !errors.Is(err, ErrNoPostgres) {
		t.Fatalf("err = %v, want ErrNoPostgres", err)
	}
	for _, want := range []string{"apt-get install postgresql", "DATABASE_URL", empty, o.Probe} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%v", want, err)
		}
	}
	t.Log(err)
}
