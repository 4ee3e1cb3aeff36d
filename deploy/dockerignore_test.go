package deploy

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The build context keeps every file the binary is built from: go.mod, go.sum, and the Go
// and embedded files of every package of the module ./cmd/tripplan imports. Only plain
// .dockerignore patterns are understood (filepath.Match on a path or one of its parents); a
// pattern with ** or a ! exception fails the test rather than being misread.
func TestDockerignoreKeepsTheBuild(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.Contains(line, "**") || strings.HasPrefix(line, "!") {
			t.Fatalf(".dockerignore pattern %q: this test understands plain patterns only; teach it this one", line)
		}
		patterns = append(patterns, filepath.Clean(strings.TrimPrefix(line, "/")))
	}
	ignored := func(file string) string {
		for p := file; p != "." && p != "/"; p = filepath.Dir(p) {
			for _, pat := range patterns {
				if ok, _ := filepath.Match(pat, p); ok {
					return pat
				}
			}
		}
		return ""
	}

	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the packages with")
	}
	list := exec.Command(goTool, "list", "-deps", "-json=Dir,Module,GoFiles,EmbedFiles", "./cmd/tripplan")
	list.Dir = ".."
	list.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	needed := []string{"go.mod", "go.sum"}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			Dir                 string
			Module              *struct{ Path string }
			GoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != "tripplan" {
			continue // the standard library and downloaded modules
		}
		dir, err := filepath.Rel(root, p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			needed = append(needed, filepath.Join(dir, f))
		}
	}
	if len(needed) < 50 {
		t.Fatalf("go list found only %d files of the module; the listing is wrong", len(needed))
	}
	for _, f := range needed {
		if pat := ignored(f); pat != "" {
			t.Errorf(".dockerignore %q leaves out %s, which the binary is built from", pat, f)
		}
	}
}
