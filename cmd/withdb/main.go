// Command withdb runs a command with a PostgreSQL server to talk to:
//
//	go run ./cmd/withdb -- go test ./...
//
// It finds or starts the server with devdb (DATABASE_URL, else 127.0.0.1:5432, else a private
// cluster in .data/postgres), passes it on as DATABASE_URL and DATABASE_ADMIN_URL unless those
// are set already, stops the private cluster afterwards if it started it, and exits with the
// command's exit code.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"tripplan/internal/devdb"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: withdb -- command [args...]")
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	c, err := devdb.Find(context.Background(), devdb.Options{Getenv: os.Getenv, Database: "tripplan_test_admin", Log: log})
	if err != nil {
		fmt.Fprintln(os.Stderr, "withdb:", err)
		return 1
	}
	defer func() {
		if err := c.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "withdb: stop PostgreSQL:", err)
		}
	}()

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	for k, v := range map[string]string{"DATABASE_URL": c.URL, "DATABASE_ADMIN_URL": c.AdminURL} {
		if os.Getenv(k) == "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	// Catch the signals before starting so none ends withdb before the cluster is stopped.
	// A terminal's Ctrl-C reaches the command directly too (same process group); forwarding
	// covers a signal sent to withdb alone, such as a kill from a supervisor.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "withdb:", err)
		return 127
	}
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()) // as a shell reports it
		}
		return exit.ExitCode()
	default:
		fmt.Fprintln(os.Stderr, "withdb:", err)
		return 1
	}
}
