package devdb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// private returns the cluster in o.DataDir, initialising and starting it when needed.
func private(ctx context.Context, o Options) (*Cluster, error) {
	dir := o.DataDir
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	// Several test processes start at once; the lock makes one of them initialise and start
	// the cluster while the others wait and then find it running.
	unlock, err := lock(ctx, dir+".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()

	if port, ok := running(ctx, dir); ok {
		c, err := withDatabase(ctx, pgURL("postgres", "127.0.0.1", strconv.Itoa(port), "postgres"), o.Database)
		if err != nil {
			return nil, err
		}
		o.Log.Info("postgres: using the running private cluster", "dir", dir, "port", port, "database", o.Database)
		return c, nil
	}

	bin, err := binaries(o)
	if err != nil {
		return nil, err
	}
	cred, err := credential(dir, o.Log)
	if err != nil {
		return nil, err
	}
	pg := &server{dir: dir, bin: bin, cred: cred}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := pg.initdb(ctx); err != nil {
			return nil, err
		}
	}
	port := freePort(o.Port)
	if err := pg.start(ctx, port); err != nil {
		return nil, err
	}
	c, err := withDatabase(ctx, pgURL("postgres", "127.0.0.1", strconv.Itoa(port), "postgres"), o.Database)
	if err != nil {
		pg.stop()
		return nil, err
	}
	c.Private = true
	c.stop = func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		unlock, err := lock(ctx, dir+".lock")
		if err != nil {
			return err
		}
		defer unlock()
		return pg.stop()
	}
	o.Log.Info("postgres: started a private cluster", "dir", dir, "port", port, "database", o.Database, "bin", bin)
	return c, nil
}

// lock takes an exclusive flock on path, polling so that ctx can end the wait.
func lock(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil // closing the file releases the lock
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// running reports the port of the cluster in dir if it is up and accepting connections. The
// port is line 4 of postmaster.pid. A pid file left by a crash names a port where nothing
// answers, or another server, which reports another data directory.
func running(ctx context.Context, dir string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 {
		return 0, false
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	if err != nil {
		return 0, false
	}
	db, err := sql.Open("postgres", pgURL("postgres", "127.0.0.1", strconv.Itoa(port), "postgres"))
	if err != nil {
		return 0, false
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	var served string
	if db.QueryRowContext(ctx, `SHOW data_directory`).Scan(&served) != nil {
		return 0, false
	}
	theirs, err1 := os.Stat(served)
	ours, err2 := os.Stat(dir)
	return port, err1 == nil && err2 == nil && os.SameFile(theirs, ours)
}

// binaries returns the first directory holding initdb, pg_ctl and postgres together, so that
// all three are of one version.
func binaries(o Options) (string, error) {
	dirs := o.BinDirs
	if dirs == nil {
		dirs = append(filepath.SplitList(o.Getenv("PATH")), versionDirs()...)
	}
	for _, d := range dirs {
		if d != "" && executable(filepath.Join(d, "initdb")) && executable(filepath.Join(d, "pg_ctl")) && executable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", fmt.Errorf(`%w
No server let us in on %s, and initdb, pg_ctl and postgres are not in: %s.
Install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; the server need not be running),
or set DATABASE_URL to a server, e.g. DATABASE_URL='postgres://user:password@host:5432/tripplan?sslmode=disable'`,
		ErrNoPostgres, o.Probe, strings.Join(dirs, ", "))
}

// versionDirs lists Debian's /usr/lib/postgresql/<version>/bin, newest version first.
func versionDirs() []string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	version := func(d string) float64 {
		v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(d)), 64)
		return v
	}
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	return dirs
}

func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// freePort returns port if nothing listens on it, else a port the kernel says is free. Our own
// cluster is not running at this point, so whatever holds port is something else.
func freePort(port int) int {
	for _, p := range []int{port, 0} {
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err == nil {
			defer ln.Close()
			return ln.Addr().(*net.TCPAddr).Port
		}
	}
	return port // let PostgreSQL report the clash
}

// credential returns who runs the cluster: nil (this process's user) normally. PostgreSQL
// refuses to run as root, so root runs it as the postgres system user, which must own dir and
// be able to reach it through every parent directory.
func credential(dir string, log *slog.Logger) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL must run as the postgres system user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	if err := traversable(filepath.Dir(dir), uint32(uid), uint32(gid), log); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// traversable adds search permission for others to dir and its parents where uid could not
// pass otherwise (a root-only home or temporary directory). Search alone lists nothing.
func traversable(dir string, uid, gid uint32, log *slog.Logger) error {
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	for {
		fi, err := os.Stat(dir)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		mode := fi.Mode().Perm()
		ok := mode&0o001 != 0 || (st.Uid == uid && mode&0o100 != 0) || (st.Gid == gid && mode&0o010 != 0)
		if !ok {
			if err := os.Chmod(dir, fi.Mode()|0o001); err != nil {
				return err
			}
			log.Info("postgres: let the postgres user pass through a directory (o+x)", "dir", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// server runs the PostgreSQL binaries in bin on the cluster in dir.
type server struct {
	dir  string
	bin  string
	cred *syscall.Credential
}

func (s *server) initdb(ctx context.Context) error {
	// Trust auth is safe because the cluster listens on 127.0.0.1 and a socket inside dir
	// only; --no-sync because a dev cluster that loses power is simply made again.
	return s.run(ctx, "initdb", "-D", s.dir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
}

func (s *server) start(ctx context.Context, port int) error {
	// Unix socket paths are limited to 107 bytes; a deep dir gets TCP only.
	sockets := s.dir
	if len(sockets)+len("/.s.PGSQL.65535") > 107 {
		sockets = ""
	}
	// Durability is not worth waiting for in a throwaway cluster; parallel test packages
	// each hold a pool, hence the higher connection limit.
	opts := fmt.Sprintf("-h 127.0.0.1 -p %d -k %s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300",
		port, shellQuote(sockets))
	logFile := filepath.Join(s.dir, "server.log")
	if err := s.run(ctx, "pg_ctl", "start", "-D", s.dir, "-w", "-t", "60", "-l", logFile, "-o", opts); err != nil {
		tail, _ := os.ReadFile(logFile)
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		return fmt.Errorf("%w\n%s:\n%s", err, logFile, tail)
	}
	return nil
}

func (s *server) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.run(ctx, "pg_ctl", "stop", "-D", s.dir, "-m", "fast", "-w")
}

// run runs one of the PostgreSQL binaries as the cluster's user; a failure carries its output.
func (s *server) run(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(s.bin, name), args...)
	// The cluster's user may not be able to enter this process's working directory.
	cmd.Dir = filepath.Dir(s.dir)
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// pg_ctl's server redirects its own output to the log file, but should anything keep the
	// pipe open, do not wait for it forever.
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out.Bytes())
	}
	return nil
}

// shellQuote quotes s for the shell pg_ctl passes the server options through.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
