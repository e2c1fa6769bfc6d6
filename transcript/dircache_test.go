package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
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

// bumpMtime sets a folder's mtime n seconds into the future, so that a
// change is seen even on a file system with coarse times.
func bumpMtime(t *testing.T, dir string, n int) {
	t.Helper()
	at := time.Now().Add(time.Duration(n) * time.Second)
	if err := os.Chtimes(dir, at, at); err != nil {
		t.Fatal(err)
	}
}

// TestPrefetchListsAlike: folders listed after a Prefetch come out as they
// do without one, over passes with files added and folders changed between
// them, with a folder gone and a prefetched folder the walk never lists.
func TestPrefetchListsAlike(t *testing.T) {
	base := t.TempDir()
	dirs := []string{"p1", "p1/s1", "p1/s1/subagents", "p2", "p2/s2", "gone"}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, d, "a.jsonl"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain, ahead := NewDirCache(), NewDirCache()
	render := func(c *DirCache, prefetch bool) string {
		c.BeginPass()
		defer c.EndPass()
		var b strings.Builder
		if prefetch {
			for _, d := range append(dirs, "p1/never", "p2/s2/subagents") {
				c.Prefetch(filepath.Join(base, d))
			}
		}
		for _, d := range dirs {
			fmt.Fprintf(&b, "%s:", d)
			for _, e := range c.List(filepath.Join(base, d)) {
				fmt.Fprintf(&b, " %s/%v", e.Name(), e.IsDir())
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	for pass := 0; pass < 4; pass++ {
		want, got := render(plain, false), render(ahead, true)
		if got != want {
			t.Fatalf("pass %d: with Prefetch\n%s\nwithout\n%s", pass, got, want)
		}
		if pass == 0 && !strings.Contains(want, "a.jsonl") {
			t.Fatal("nothing listed; the comparison proves nothing")
		}
		switch pass {
		case 0:
			if err := os.WriteFile(filepath.Join(base, "p1/s1", "b.jsonl"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			bumpMtime(t, filepath.Join(base, "p1/s1"), 1)
		case 1:
			if err := os.RemoveAll(filepath.Join(base, "gone")); err != nil {
				t.Fatal(err)
			}
		case 2:
			if err := os.Mkdir(filepath.Join(base, "p2/s2/subagents"), 0o755); err != nil {
				t.Fatal(err)
			}
			bumpMtime(t, filepath.Join(base, "p2/s2"), 2)
		}
	}
}

// TestPrefetchLeavesSymlinks: a look-ahead does not follow a symlink (the
// walk lists one only after Admit), and List then looks for itself.
func TestPrefetchLeavesSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	base, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "subagents")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	c := NewDirCache()
	c.BeginPass()
	c.Prefetch(link, filepath.Join(base, "gone"))
	for _, p := range []string{link, filepath.Join(base, "gone")} {
		la := c.ahead[p]
		<-la.done
		if !la.skip || la.read || la.des != nil || la.st.Exists() {
			t.Errorf("%s: looked ahead through it: %+v", filepath.Base(p), la)
		}
	}
	if got := c.List(link); len(got) != 1 || got[0].Name() != "secret.jsonl" {
		t.Errorf("List after a skipped look-ahead: %v", got)
	}
	c.EndPass()
}

// TestDirCacheTrustedPass: a trusted pass lists again only the folders it is
// told changed and takes the others' cached listings, unchanged even though
// they did change; Linked says when a cached listing holds a symlink.
func TestDirCacheTrustedPass(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, p := range []string{filepath.Join(a, "1.jsonl"), filepath.Join(b, "2.jsonl")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func(ls []Listed) string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Name())
		}
		return strings.Join(out, ",")
	}
	c := NewDirCache()
	c.BeginPass()
	c.List(root)
	c.List(a)
	c.List(b)
	c.EndPass()
	for _, p := range []string{filepath.Join(a, "3.jsonl"), filepath.Join(b, "4.jsonl")} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c.BeginTrustedPass(map[string]bool{a: true})
	gotRoot, gotA, gotB := names(c.List(root)), names(c.List(a)), names(c.List(b))
	c.EndPass()
	if gotRoot != "a,b" || gotA != "1.jsonl,3.jsonl" || gotB != "2.jsonl" {
		t.Errorf("trusted pass: root %q, a %q, b %q; want a,b / 1.jsonl,3.jsonl / 2.jsonl (b as cached)", gotRoot, gotA, gotB)
	}
	c.BeginPass()
	if got := names(c.List(b)); got != "2.jsonl,4.jsonl" {
		t.Errorf("a pass after it lists b again: %q", got)
	}
	c.EndPass()
	if c.Linked() {
		t.Error("Linked with no symlink listed")
	}
	if runtime.GOOS == "windows" {
		return // symlinks need a privilege there
	}
	if err := os.Symlink(a, filepath.Join(b, "link")); err != nil {
		t.Fatal(err)
	}
	c.BeginPass()
	c.List(b)
	c.EndPass()
	if !c.Linked() {
		t.Error("a listing holds a symlink, but not Linked")
	}
	if err := os.Remove(filepath.Join(b, "link")); err != nil {
		t.Fatal(err)
	}
	c.BeginPass()
	c.List(b)
	c.EndPass()
	if c.Linked() {
		t.Error("the symlink is gone from the listing, but still Linked")
	}
}
