package main

import (
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// k8sObject is the part of a Kubernetes manifest that says what environment a container gets
// (deploy/'s own test decodes the manifests strictly and checks the rest).
type k8sObject struct {
	Kind     string                `yaml:"kind"`
	Metadata struct{ Name string } `yaml:"metadata"`
	Data     map[string]string     `yaml:"data"`
	Spec     struct {
		Template struct {
			Spec struct {
				Containers []k8sContainer `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type k8sContainer struct {
	Name    string   `yaml:"name"`
	Args    []string `yaml:"args"`
	EnvFrom []struct {
		ConfigMapRef *struct{ Name string } `yaml:"configMapRef"`
		SecretRef    *struct{ Name string } `yaml:"secretRef"`
	} `yaml:"envFrom"`
	Env []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef *struct{ Name, Key string } `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
}

// TestDeployManifestsSetOnlyWhatTheServerReads runs the program with the environment each
// container of deploy/k8s gets, recording the variables it reads: every variable a manifest
// sets must be one of them (a misspelt or retired name would silently do nothing), and the
// example configuration must be one the server accepts. Secrets, which the manifests only
// name, get stand-in values; the database is unreachable, so the program stops once it has
// read its configuration and looked for the database.
func TestDeployManifestsSetOnlyWhatTheServerReads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "deploy", "k8s", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/k8s: %v", err)
	}
	configMaps := map[string]map[string]string{}
	var workloads []k8sObject
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var o k8sObject
		if err := yaml.Unmarshal(b, &o); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		switch o.Kind {
		case "ConfigMap":
			configMaps[o.Metadata.Name] = o.Data
		case "Deployment", "Job":
			workloads = append(workloads, o)
		}
	}
	if len(workloads) < 2 {
		t.Fatalf("want the Deployment and the migration Job, found %d workloads", len(workloads))
	}
	const unreachable = "postgres://127.0.0.1:1/unreachable"
	for _, w := range workloads {
		for _, c := range w.Spec.Template.Spec.Containers {
			t.Run(w.Kind+"/"+c.Name, func(t *testing.T) {
				vars := map[string]string{}
				for _, from := range c.EnvFrom {
					if from.SecretRef != nil {
						t.Fatalf("envFrom secretRef %s: name each secret variable (env valueFrom secretKeyRef), so that it is checked", from.SecretRef.Name)
					}
					data, ok := configMaps[from.ConfigMapRef.Name]
					if !ok {
						t.Fatalf("envFrom names ConfigMap %s, which deploy/k8s does not hold", from.ConfigMapRef.Name)
					}
					maps.Copy(vars, data)
				}
				for _, e := range c.Env {
					switch {
					case e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil:
						vars[e.Name] = e.Value
					case e.Name == "DATABASE_URL":
						vars[e.Name] = unreachable
					default:
						vars[e.Name] = strings.Repeat(e.Name[:1], 48) // a stand-in secret, long enough for any
					}
				}
				if vars["DATABASE_URL"] == "" {
					t.Fatal("no DATABASE_URL: the server would look for a database on 127.0.0.1")
				}
				if _, err := loadConfig(env(vars)); err != nil {
					t.Fatalf("the server refuses this configuration: %v", err)
				}
				read := map[string]bool{}
				getenv := func(name string) string { read[name] = true; return vars[name] }
				err := run(context.Background(), c.Args, getenv, io.Discard)
				if err == nil || !strings.Contains(err.Error(), "connect to database") {
					t.Fatalf("run with the database unreachable: %v, want a connection failure", err)
				}
				for _, name := range slices.Sorted(maps.Keys(vars)) {
					// The AWS SDK reads its own variables for STORAGE_URL's bucket (README.md).
					if sdk := strings.HasPrefix(name, "AWS_") && strings.HasPrefix(vars["STORAGE_URL"], "s3://"); !read[name] && !sdk {
						t.Errorf("%s is set but the server never reads it", name)
					}
				}
			})
		}
	}
}
