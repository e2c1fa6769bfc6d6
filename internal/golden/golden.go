// Package golden compares test output with committed files, rewriting them on request.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Golden compares got with the committed file at path, or rewrites the file
// when update is set. rerun is the command that rewrites it, named in the
// failure so the reader knows the next step.
func Golden(tb testing.TB, path string, got []byte, update bool, rerun string) {
	tb.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Errorf("no golden file %s (%v); run `%s` and commit it", path, err, rerun)
		return
	}
	if !bytes.Equal(want, got) {
		tb.Errorf("what the code produces now differs from %s; if the change is intended, run `%s` and review the diff.\n%s",
			path, rerun, FirstDiff(string(want), string(got)))
	}
}

// FirstDiff shows the first line where two texts differ.
func FirstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  committed: " + w + "\n  now:       " + g
		}
	}
	return ""
}
