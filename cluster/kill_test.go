package cluster_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStreamOutlivesAKilledInstance: a client follows a plan on the last instance, which is
// killed with SIGKILL (no chance to end its streams). The stream ends; a change is made
// through nginx while the instance is gone; the client comes back at once through nginx with
// Last-Event-ID — well within the retry interval the server announces (3 s), so a browser's
// EventSource reconnects the same way — and gets the change it missed. The instance is started
// again at the end (scripts/cluster.sh start-instance).
func TestStreamOutlivesAKilledInstance(t *testing.T) {
	c := setup(t)
	dir := os.Getenv("CLUSTER_DIR")
	if dir == "" {
		t.Fatal("CLUSTER_DIR must be set with CLUSTER_URL (scripts/cluster.sh test sets it)")
	}
	n := len(c.instances)
	victim := c.instances[n-1]
	pidFile := filepath.Join(dir, "instance"+strconv.Itoa(n)+".pid")
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatalf("%s: %v", pidFile, err)
	}
	t.Cleanup(func() {
		out, err := exec.Command("bash", "../scripts/cluster.sh", "start-instance", strconv.Itoa(n)).CombinedOutput()
		if err != nil {
			t.Errorf("start %s again: %v\n%s", victim.name, err, out)
		}
	})

	ana := c.member(t, "kill-ana")
	plan := c.createPlan(t, ana)
	events, _ := victim.subscribe(t, ana, plan, 0)
	before := c.proxy.addBlock(t, ana, plan, 0)
	seen := until(t, events, before)
	lastID := seen[len(seen)-1].id

	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s (pid %d): %v", victim.name, pid, err)
	}
	// The stream ends when the kernel closes the dead process's connection.
	deadline := time.After(20 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-events:
		case <-deadline:
			t.Fatalf("the stream on %s did not end after SIGKILL", victim.name)
		}
	}

	missed := c.proxy.addBlock(t, ana, plan, 1)
	// Through nginx, which passes the GET on to a live instance when the dead one refuses.
	events, _ = c.proxy.subscribe(t, ana, plan, lastID)
	marker := c.proxy.addBlock(t, ana, plan, 2)
	got := until(t, events, marker)
	about := map[string]int{}
	for _, ev := range got {
		if ev.id <= lastID {
			t.Fatalf("event %d from before Last-Event-ID %d: %v", ev.id, lastID, got)
		}
		if ev.kind == "block" {
			about[blockOf(ev)]++
		}
	}
	if about[missed] != 1 || about[marker] != 1 {
		t.Fatalf("after the reconnection: %d events of the missed block, %d of the marker, want 1 each: %v", about[missed], about[marker], got)
	}
}

// blockOf is the id of the object an event is about.
func blockOf(ev event) string {
	var d struct {
		ID string `json:"id"`
	}
	json.Unmarshal([]byte(ev.data), &d)
	return d.ID
}
