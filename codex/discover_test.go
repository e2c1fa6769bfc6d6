package codex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/transcript"
)

// discoverFiles lists the rollouts under root as logs does: Agent.Discover,
// then one file per identity (a file reached twice through symlinks counts
// once).
func discoverFiles(root string) []transcript.File {
	dirs := transcript.NewDirCache()
	dirs.BeginPass()
	defer dirs.EndPass()
	var out []transcript.File
	for _, f := range (Agent{}).Discover(transcript.NewRoot(root, ""), dirs, nil) {
		if st := transcript.Stat(f.Path); st.Regular && dirs.FirstVisit(st.ID) {
			out = append(out, f)
		}
	}
	return out
}

func TestDiscoverFixtures(t *testing.T) {
	files := discoverFiles(fixtureHome)
	if len(files) != 12 {
		t.Fatalf("%d files, want 12", len(files))
	}
	var archived []string
	for _, f := range files {
		if f.Root.Path != fixtureHome || f.SessionID == "" || f.Kind != transcript.MainFile || f.ProjectDir != filepath.Dir(f.Path) ||
			strings.HasSuffix(f.Path, ".zst") {
			t.Errorf("file %+v", f)
		}
		if f.Project == "archived_sessions" {
			archived = append(archived, f.SessionID)
		}
	}
	if !reflect.DeepEqual(archived, []string{"01900000-0010-7000-8000-000000000010"}) {
		t.Errorf("archived %v", archived)
	}
}

func TestDiscoverMissingRoot(t *testing.T) {
	for _, root := range []string{filepath.Join(t.TempDir(), "nope"), t.TempDir()} {
		if files := discoverFiles(root); len(files) != 0 {
			t.Errorf("%s: %v", root, files)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if files := discoverFiles(file); len(files) != 0 {
		t.Errorf("a file as root: %v", files)
	}
}

func TestSessionOf(t *testing.T) {
	for name, want := range map[string]string{
		rolloutName: "01900000-0001-7000-8000-000000000001",
		"rollout-2026-01-02T10-00-00-01900000-0001-7000-8000-000000000001.jsonl.zst":                                  "01900000-0001-7000-8000-000000000001",
		"rollout-2026-09-02T10-00-00-01900000-0001-7000-8000-000000000001_01900000-0002-7000-8000-000000000002.jsonl": "01900000-0001-7000-8000-000000000001_01900000-0002-7000-8000-000000000002",
		"rollout-custom.jsonl": "custom",
	} {
		if got := sessionOf(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

const rolloutName = "rollout-2026-01-02T10-00-00-01900000-0001-7000-8000-000000000001.jsonl"

// symlinkTree builds a root with a rollout, and outside it another rollout
// and a folder, reached from inside only through symlinks.
func symlinkTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "codex"), filepath.Join(base, "outside")
	day := filepath.Join(root, "sessions", "2026", "01", "02")
	mkdirAll(t, day, filepath.Join(outside, "2026", "01", "03"), filepath.Join(root, "archived_sessions"))
	body := []byte(metaLine + "\n")
	os.WriteFile(filepath.Join(day, rolloutName), body, 0o644)
	secret := filepath.Join(outside, "rollout-2026-01-02T10-00-00-01900000-0002-7000-8000-000000000002.jsonl")
	os.WriteFile(secret, body, 0o644)
	os.WriteFile(filepath.Join(outside, "2026", "01", "03", "rollout-2026-01-03T10-00-00-01900000-0003-7000-8000-000000000003.jsonl"), body, 0o644)
	links := map[string]string{
		filepath.Join(day, "rollout-2026-01-02T11-00-00-01900000-0002-7000-8000-000000000002.jsonl"): secret,                          // file out
		filepath.Join(root, "sessions", "2025"):                                                      filepath.Join(outside, "2026"),  // folder out
		filepath.Join(root, "archived_sessions", rolloutName):                                        filepath.Join(day, rolloutName), // file in: a duplicate
		filepath.Join(root, "sessions", "again"):                                                     day,                             // folder in: duplicates
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
	return root, outside
}

func TestDiscoverSymlinks(t *testing.T) {
	root, _ := symlinkTree(t)
	files := discoverFiles(root)
	if len(files) != 1 || files[0].SessionID != "01900000-0001-7000-8000-000000000001" {
		t.Fatalf("files %+v", files)
	}
}

// Every open goes through transcript.Root: a symlink out of the root, a
// path outside it and a folder are refused.
func TestContainment(t *testing.T) {
	root, outside := symlinkTree(t)
	r := transcript.NewRoot(root, "")
	day := filepath.Join(root, "sessions", "2026", "01", "02")
	in := filepath.Join(day, rolloutName)
	out := filepath.Join(day, "rollout-2026-01-02T11-00-00-01900000-0002-7000-8000-000000000002.jsonl")
	for _, p := range []string{out, filepath.Join(outside, "2026", "01", "03", "x.jsonl"), filepath.Join(root, "..", "outside", "2026")} {
		if _, err := SummarizeFile(context.Background(), transcript.File{Root: r, Path: p}); err == nil {
			t.Errorf("%s opened", p)
		}
	}
	if _, err := SummarizeFile(context.Background(), transcript.File{Root: r, Path: out}); !errors.Is(err, transcript.ErrOutside) {
		t.Errorf("summarize through a symlink out: %v", err)
	}
	if _, err := Summarize(context.Background(), out); !errors.Is(err, transcript.ErrOutside) {
		t.Errorf("summarize a symlink out of its folder: %v", err)
	}
	if _, err := SummarizeFile(context.Background(), transcript.File{Root: r, Path: day}); err == nil {
		t.Errorf("a folder opened as a rollout")
	}
	if r, err := Summarize(context.Background(), in); err != nil || r.ID != "01900000-0000-7000-8000-000000000001" {
		t.Errorf("summarize inside: %v %+v", err, r)
	}
}

func mkdirAll(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
