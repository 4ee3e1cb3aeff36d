package i18n

import (
	"fmt"
	"io/fs"

	"github.com/BurntSushi/toml"
)

// problemsFile holds the Korean of the problems' sentences by their English format (see the
// package doc).
const problemsFile = "locales/problems.ko.toml"

var problems = mustProblems(files)

func mustProblems(fsys fs.FS) map[string]string {
	data, err := fs.ReadFile(fsys, problemsFile)
	if err != nil {
		panic(err)
	}
	out := map[string]string{}
	if err := toml.Unmarshal(data, &out); err != nil {
		panic(fmt.Sprintf("i18n: %s: %v", problemsFile, err))
	}
	return out
}

// Problem is the sentence of a problem that fmt.Sprintf(format, args...) writes in English, in
// the localizer's language: format is also the id of its Korean. A sentence without a Korean
// entry stays English (a test keeps every sentence of the code in the file).
func (l *Localizer) Problem(format string, args []any) string {
	if ko, ok := problems[format]; ok && l.lang == Korean {
		format = ko
	}
	return fmt.Sprintf(format, args...)
}
