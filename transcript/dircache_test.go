package transcript

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestListedIsTheDirEntry: a listed entry answers Name, IsDir, Type and Info
// as the os.DirEntry it was read as, and Full is the folder joined with Name.
func TestListedIsTheDirEntry(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.jsonl", "..b", "c.", " space", "ünï.jsonl", "agent-a1.meta.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "subagents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink("a.jsonl", filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := NewDirCache().List(dir)
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name() != w.Name() || g.IsDir() != w.IsDir() || g.Type() != w.Type() || g.Full != filepath.Join(dir, w.Name()) {
			t.Errorf("entry %d: %q dir %v type %v full %q, want %q %v %v", i, g.Name(), g.IsDir(), g.Type(), g.Full, w.Name(), w.IsDir(), w.Type())
		}
		gi, err1 := g.Info()
		wi, err2 := w.Info()
		if err1 != nil || err2 != nil || gi.Size() != wi.Size() || gi.Mode() != wi.Mode() {
			t.Errorf("entry %q: Info %v %v, want %v %v", w.Name(), gi, err1, wi, err2)
		}
	}
}
