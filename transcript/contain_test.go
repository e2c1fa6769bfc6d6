package transcript

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestRootOpenSymlinks: Open reads a file, or a symlink to one, inside the
// root, and refuses a symlinked file or folder that leads outside it, as
// the whole check decides whether the last element is opened without
// following (O_NOFOLLOW) or not.
func TestRootOpenSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root, outside := t.TempDir(), t.TempDir()
	write := func(p, body string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "p", "a.jsonl"), "inside")
	write(filepath.Join(outside, "secret.jsonl"), "outside")
	for _, l := range [][2]string{
		{"a.jsonl", filepath.Join(root, "p", "in.jsonl")},                            // relative, inside
		{filepath.Join(root, "p", "a.jsonl"), filepath.Join(root, "p", "abs.jsonl")}, // absolute, inside
		{filepath.Join(outside, "secret.jsonl"), filepath.Join(root, "p", "out.jsonl")},
		{outside, filepath.Join(root, "q")}, // a folder leading outside
	} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRoot(root, "")
	for _, c := range []struct {
		rel  string
		want string // the body, or "" when refused
	}{
		{"p/a.jsonl", "inside"},
		{"p/in.jsonl", "inside"},
		{"p/abs.jsonl", "inside"},
		{"p/out.jsonl", ""},
		{"q/secret.jsonl", ""},
		{"p/missing.jsonl", ""},
	} {
		f, err := r.Open(filepath.Join(root, filepath.FromSlash(c.rel)))
		if c.want == "" {
			if err == nil {
				f.Close()
				t.Errorf("%s: opened, want refused", c.rel)
			} else if c.rel != "p/missing.jsonl" && !errors.Is(err, ErrOutside) {
				t.Errorf("%s: %v, want ErrOutside", c.rel, err)
			} else if c.rel == "p/missing.jsonl" && noFollow && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %v, want a missing file", c.rel, err) // its folders are inside: said as it is
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.rel, err)
			continue
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if string(b) != c.want {
			t.Errorf("%s: read %q, want %q", c.rel, b, c.want)
		}
	}
}
