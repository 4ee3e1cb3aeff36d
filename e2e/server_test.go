// Package e2e drives the real application in Chromium: the server binary is built and
// started on a fresh database, and two people use it through their own browsers, as
// docs/ARCHITECTURE.md's pages and partials describe. Its tests run in `make test` and skip
// when Chromium is not installed (.ci/run installs it).
package e2e

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"tripplan/internal/postgres/pgtest"
)

// server is a tripplan process started for one test.
type server struct {
	base string      // its BASE_URL, such as http://127.0.0.1:41234
	out  *syncBuffer // what it printed (its request log), saved with the artifacts of a failure
}

// syncBuffer is a bytes.Buffer that the server's output and the test may use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// Bytes is a copy of what was written so far.
func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// startServer builds cmd/tripplan into a temporary directory and starts it on a fresh
// database (pgtest), in development mode (dev sign-in, demo users Ana and Ben) with map tiles
// off (no internet here), on a free local port, with the extra variables given as NAME=value.
// It returns once /readyz answers 200; the process gets SIGTERM when the test ends, before
// pgtest drops the database.
func startServer(t *testing.T, extraEnv ...string) *server {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tripplan")
	started := time.Now()
	// `go test` puts its own go command first on PATH.
	if out, err := exec.Command("go", "build", "-o", bin, "tripplan/cmd/tripplan").CombinedOutput(); err != nil {
		t.Fatalf("build the server: %v\n%s", err, out)
	}
	t.Logf("built the server in %v", time.Since(started).Round(time.Millisecond))

	dbURL := pgtest.URL(t)
	addr := freeAddr(t)
	srv := &server{base: "http://" + addr, out: &syncBuffer{}}
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir() // uploads go to .data/uploads under the working directory
	// Only what the server needs: nothing from the caller's environment (a Google Places key,
	// an OSRM server) may change what the browser sees.
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + cmd.Dir, "TMPDIR=" + os.TempDir(),
		"DATABASE_URL=" + dbURL, "ADDR=" + addr, "BASE_URL=" + srv.base,
		"APP_ENV=development", "MAP_TILE_URL=none",
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stdout, cmd.Stderr = srv.out, srv.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the server: %v", err)
	}
	exited := make(chan struct{}) // closed when the process has ended, with its error in waitErr
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.base+"/readyz", nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				t.Logf("server ready at %s after %v", srv.base, time.Since(started).Round(time.Millisecond))
				return srv
			}
		}
		select {
		case <-exited:
			t.Fatalf("the server exited before it was ready: %v\n%s", waitErr, srv.out.Bytes())
		case <-ctx.Done():
			t.Fatalf("the server was not ready within 30 s\n%s", srv.out.Bytes())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// freeAddr is a local address with a port nobody listens on right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
