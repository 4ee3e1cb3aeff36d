// Package gpxschema checks GPX documents against the GPX 1.1 XML Schema (gpx11.xsd, written
// from the published specification) with xmllint, for tests. Without xmllint the test is
// skipped, saying so; .ci/run installs it (libxml2-utils).
package gpxschema

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Validate answers xmllint's report when doc does not match the schema, nil when it does. It
// fails the test when xmllint cannot run the check at all.
func Validate(t testing.TB, doc []byte) error {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed; .ci/run installs libxml2-utils")
	}
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("gpxschema: cannot find the schema beside its source")
	}
	path := filepath.Join(t.TempDir(), "doc.gpx")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join(filepath.Dir(here), "gpx11.xsd"), path).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit) && exit.ExitCode() == 3: // a validation error
		return errors.New(string(out))
	}
	t.Fatalf("xmllint: %v\n%s", err, out)
	return nil
}
