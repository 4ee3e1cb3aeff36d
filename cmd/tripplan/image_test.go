package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tripplan/internal/postgres/pgtest"
)

// TestStaticBinaryServesFromAnEmptyDirectory is the closest check of the container image that
// runs without Docker: the binary built as the Dockerfile builds it (CGO_ENABLED=0, -trimpath,
// stripped) starts in an empty working directory with nothing but the environment the
// Kubernetes example gives it (no PATH, no HOME), answers /readyz, and stops cleanly on SIGTERM.
func TestStaticBinaryServesFromAnEmptyDirectory(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build the binary with")
	}
	bin := filepath.Join(t.TempDir(), "tripplan")
	build := exec.Command(goTool, "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}

	port := strconv.Itoa(freePort(t))
	secret := strings.Repeat("k", 48)
	dir := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = []string{"APP_ENV=production", "DATABASE_URL=" + pgtest.URL(t), "ADDR=127.0.0.1:" + port,
		"BASE_URL=http://127.0.0.1:" + port, "SESSION_SECRET=" + secret, "JWT_SECRET=" + strings.ToUpper(secret)}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if strings.Contains(lines.Text(), "Tripplan is running at") {
				exited <- nil
				break
			}
		}
		io.Copy(io.Discard, out)
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	if err := <-exited; err != nil {
		t.Fatalf("the binary exited before serving: %v\n%s", err, stderr.String())
	}

	res, err := http.Get("http://127.0.0.1:" + port + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/readyz: %d\n%s", res.StatusCode, stderr.String())
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the binary did not stop within 30 s of SIGTERM")
	}
}
