package deploy

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	cmd  string // upper case: FROM, RUN, COPY…
	args string
}

// stage is a FROM and the instructions under it.
type stage struct {
	image, name  string
	instructions []instruction
}

// parseDockerfile reads the instructions of a Dockerfile, stage by stage: comment and blank
// lines dropped (parser directives are comments too), lines ending in \ joined to the next.
// It is no full parser (no heredocs, no escape directive): the Dockerfile it checks uses
// neither, and a failure to find what it looks for fails the test.
func parseDockerfile(text string) []stage {
	var stages []stage
	var pending string
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			pending += cont + " "
			continue
		}
		line, pending = pending+line, ""
		cmd, args, _ := strings.Cut(line, " ")
		in := instruction{cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args)}
		if in.cmd == "FROM" {
			var fields []string
			for _, f := range strings.Fields(in.args) {
				if !strings.HasPrefix(f, "--") { // --platform=…
					fields = append(fields, f)
				}
			}
			s := stage{image: fields[0]}
			if len(fields) == 3 && strings.EqualFold(fields[1], "AS") {
				s.name = fields[2]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) > 0 {
			stages[len(stages)-1].instructions = append(stages[len(stages)-1].instructions, in)
		}
	}
	return stages
}

// of returns the arguments of the stage's instructions of that kind.
func (s stage) of(cmd string) []string {
	var out []string
	for _, in := range s.instructions {
		if in.cmd == cmd {
			out = append(out, in.args)
		}
	}
	return out
}

// The image is built by the Go of go.mod, as a static binary of ./cmd/tripplan, and runs
// alone on distroless (or scratch) as the unprivileged user the manifests expect, on the port
// the Deployment declares.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	stages := parseDockerfile(string(b))
	if len(stages) < 2 {
		t.Fatalf("want a build stage and a final stage, found %d stages", len(stages))
	}
	build, final := stages[0], stages[len(stages)-1]

	mod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// The toolchain line, when there is one, names the Go that builds; else the go line.
	want := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if tc := regexp.MustCompile(`(?m)^toolchain go(\S+)$`).FindSubmatch(mod); tc != nil {
		want = tc
	}
	if want == nil {
		t.Fatal("go.mod names no Go version")
	}
	repo, tag, _ := strings.Cut(build.image, ":")
	if version, _, _ := strings.Cut(tag, "-"); repo != "golang" || version != string(want[1]) {
		t.Errorf("build stage FROM %s: want the official golang image at go.mod's Go %s (golang:%s…)", build.image, want[1], want[1])
	}

	goBuild := regexp.MustCompile(`(?:^|\s)go build\s.*-o\s+(\S+)\s+\./cmd/tripplan\s*$`)
	var binary string
	for _, run := range build.of("RUN") {
		if m := goBuild.FindStringSubmatch(run); m != nil {
			if !strings.Contains(run, "CGO_ENABLED=0 go build") || !strings.Contains(run, "-trimpath") {
				t.Errorf("RUN %s: want CGO_ENABLED=0 go build -trimpath (a static binary for distroless)", run)
			}
			binary = m[1]
		}
	}
	if binary == "" {
		t.Fatalf("the build stage has no RUN … go build … -o <binary> ./cmd/tripplan")
	}

	if !strings.HasPrefix(final.image, "gcr.io/distroless/static") && final.image != "scratch" {
		t.Errorf("final stage FROM %s: want gcr.io/distroless/static… (CA certificates, no shell) or scratch", final.image)
	}
	users := final.of("USER")
	if len(users) == 0 {
		t.Fatal("the final stage sets no USER: it would run as root")
	}
	if user, _, _ := strings.Cut(users[len(users)-1], ":"); user != "nonroot" && user != strconv.Itoa(distrolessNonroot) {
		t.Errorf("USER %s: want nonroot (uid %d, the manifests' runAsUser)", users[len(users)-1], distrolessNonroot)
	}

	var installed string
	for _, cp := range final.of("COPY") {
		if f := strings.Fields(cp); len(f) == 3 && f[0] == "--from="+build.name && build.name != "" && f[1] == binary {
			installed = f[2]
		}
	}
	if installed == "" {
		t.Fatalf("the final stage does not COPY --from=%s %s", build.name, binary)
	}
	if strings.HasSuffix(installed, "/") {
		installed = path.Join(installed, path.Base(binary))
	}
	var entrypoint []string
	if eps := final.of("ENTRYPOINT"); len(eps) > 0 {
		if err := json.Unmarshal([]byte(eps[len(eps)-1]), &entrypoint); err != nil {
			t.Errorf("ENTRYPOINT %s: want the exec form (distroless has no shell): %v", eps[len(eps)-1], err)
		}
	}
	if len(entrypoint) != 1 || entrypoint[0] != installed {
		t.Errorf("ENTRYPOINT %q: want [%q] alone (the migration Job adds its argument)", entrypoint, installed)
	}

	m := load(t)
	port := container(t, m.deployment.Spec.Template.Spec).Ports[0].ContainerPort
	if exposed := final.of("EXPOSE"); len(exposed) != 1 || exposed[0] != strconv.Itoa(int(port)) {
		t.Errorf("EXPOSE %q: want the Deployment's container port %d", exposed, port)
	}
}
