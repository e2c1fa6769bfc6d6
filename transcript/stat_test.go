package transcript

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestLstatIsStatButForLinks: Lstat gives what Stat gives for a file, a
// folder and a missing path, in one call, and for a symlink only that it
// is one (Prefetch takes a folder's stat from it).
func TestLstatIsStatButForLinks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(file, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "subagents")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, sub, dir} {
		fi, link, err := Lstat(p)
		if err != nil || link {
			t.Fatalf("Lstat(%s): link %v, err %v", p, link, err)
		}
		if want := Stat(p); fi != want || !fi.Exists() {
			t.Errorf("Lstat(%s) = %+v, Stat gives %+v", p, fi, want)
		}
	}
	if fi, link, err := Lstat(filepath.Join(dir, "gone")); err == nil || link || fi.Exists() {
		t.Errorf("Lstat of a missing path: %+v, link %v, err %v", fi, link, err)
	}
	if runtime.GOOS == "windows" {
		return // symlinks need a privilege there
	}
	for _, target := range []string{"a.jsonl", "subagents", "nowhere"} {
		l := filepath.Join(dir, "to-"+target)
		if err := os.Symlink(target, l); err != nil {
			t.Fatal(err)
		}
		if fi, link, err := Lstat(l); err != nil || !link || fi.Exists() {
			t.Errorf("Lstat(link to %s) = %+v, link %v, err %v; want only link", target, fi, link, err)
		}
	}
}
