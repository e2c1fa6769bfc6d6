package logs

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestWatcherAgreesWithSweep applies a fixed-seed random sequence of appends,
// new files, new folders, truncations, renames and deletions, and after each
// compares the snapshot of a store that trusts its change watcher with the
// one of a store that sweeps every time: they must be identical.
func TestWatcherAgreesWithSweep(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watcher is used on Linux only")
	}
	root := t.TempDir()
	rng := rand.New(rand.NewSource(7))
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	watched, cfg := watchedStore(t, root, now)
	swept := NewStore(cfg)
	var files []string
	line := func(sid string, n int) string {
		return asst(sid, fmt.Sprintf("u%d", n), fmt.Sprintf("2026-11-29T10:%02d:%02d.000Z", n/60%60, n%60), fmt.Sprintf("msg_%d", n),
			"claude-sonnet-4-5", toolUse(fmt.Sprintf("toolu_%d", n), "Bash", `{"command":"ls"}`), 10, int64(n%50+1), 0, 100, "")
	}
	n := 0
	newSession := func(project string) {
		sid := fmt.Sprintf("%08x-0000-4000-8000-%012x", rng.Uint32(), n)
		p := filepath.Join(root, project, sid+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		n++
		if err := os.WriteFile(p, []byte(line(sid, n)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	newSession("-p-a")
	check := func(step int, what string) {
		t.Helper()
		// No waiting for the watcher: a look reads its queue to the end.
		a, err := watched.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := swept.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if da, db := digest(a), digest(b); da != db {
			t.Fatalf("step %d (%s): watcher and sweep disagree\nwatcher:\n%s\nsweep:\n%s", step, what, da, db)
		}
	}
	check(0, "start")
	check(0, "again")
	for step := 1; step <= 90; step++ {
		what := ""
		if step == 80 { // a symlinked folder: trusted listings are off from here on
			os.Symlink(filepath.Join(root, "-p-a"), filepath.Join(root, "-p-link"))
			check(step, "symlink")
		}
		switch k := rng.Intn(11); {
		case k <= 2 && len(files) > 0: // append, the common case
			p := files[rng.Intn(len(files))]
			sid := strings.TrimSuffix(filepath.Base(p), ".jsonl")
			n++
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err == nil {
				f.WriteString(line(sid, n))
				f.Close()
			}
			what = "append"
		case k == 3:
			newSession("-p-a")
			what = "new file"
		case k == 4:
			newSession(fmt.Sprintf("-p-%d", step))
			what = "new folder"
		case k == 5 && len(files) > 0:
			p := files[rng.Intn(len(files))]
			if b, err := os.ReadFile(p); err == nil && len(b) > 2 {
				os.WriteFile(p, b[:len(b)/2], 0o644) // truncated (and torn)
			}
			what = "truncate"
		case k == 6 && len(files) > 0:
			i := rng.Intn(len(files))
			sid := fmt.Sprintf("%08x-1111-4000-8000-%012x", rng.Uint32(), step)
			np := filepath.Join(filepath.Dir(files[i]), sid+".jsonl")
			if os.Rename(files[i], np) == nil {
				files[i] = np
			}
			what = "rename"
		case k == 8 && len(files) > 0: // a subagent of a session: its folders the first time, a file in them next
			p := files[rng.Intn(len(files))]
			sid := strings.TrimSuffix(filepath.Base(p), ".jsonl")
			n++
			sp := filepath.Join(filepath.Dir(p), sid, "subagents", fmt.Sprintf("agent-a%d.jsonl", n))
			if err := os.MkdirAll(filepath.Dir(sp), 0o755); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(sp, []byte(strings.Replace(line(sid, n), `"isSidechain":false`, `"isSidechain":true`, 1)), 0o644)
			what = "subagent"
		case k == 9 && len(files) > 0: // another file under the same name
			p := files[rng.Intn(len(files))]
			sid := strings.TrimSuffix(filepath.Base(p), ".jsonl")
			os.Remove(p)
			n++
			os.WriteFile(p, []byte(line(sid, n)+line(sid, n+1000)), 0o644)
			what = "replace"
		case k == 10 && len(files) > 1: // a file moved to another project's folder
			i := rng.Intn(len(files))
			np := filepath.Join(filepath.Dir(files[rng.Intn(len(files))]), fmt.Sprintf("%08x-2222-4000-8000-%012x.jsonl", rng.Uint32(), step))
			if os.Rename(files[i], np) == nil {
				files[i] = np
			}
			what = "move"
		case k == 7 && len(files) > 1:
			i := rng.Intn(len(files))
			os.Remove(files[i])
			files = append(files[:i], files[i+1:]...)
			what = "delete"
		default:
			continue
		}
		check(step, what)
	}
	// The property proves something only if the watcher's own paths ran.
	if watched.restats < 10 || watched.narrows < 10 || watched.sweeps >= swept.sweeps {
		t.Errorf("watched store: %d looks by the watcher's word, %d narrow ones, %d sweeps (the sweeping store: %d)", watched.restats, watched.narrows, watched.sweeps, swept.sweeps)
	}
	t.Logf("watched: %d restats, %d narrow, %d sweeps, %d quiet; swept: %d sweeps", watched.restats, watched.narrows, watched.sweeps, watched.quiet, swept.sweeps)
}

// watchedStore is a store of root that trusts its change watcher (closed
// when the test ends; the test is skipped where there is no inotify), and
// the configuration without the watcher, for a store that sweeps.
func watchedStore(t *testing.T, root string, now time.Time) (*Store, Config) {
	t.Helper()
	cfg := Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return now }, Pricing: testPricing(t)}
	wcfg := cfg
	wcfg.Watch = true
	watched := NewStore(wcfg)
	t.Cleanup(watched.Close)
	if watched.watch == nil {
		t.Skip("no inotify here")
	}
	return watched, cfg
}

// TestWatcherQuietLookDoesNoWork: with nothing changed, a watched store
// answers from its last snapshot without a sweep; a disabled watcher sweeps.
func TestWatcherQuietLookDoesNoWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watcher is used on Linux only")
	}
	root := writeTree(t, map[string]string{"p/" + sidA + ".jsonl": asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", "m", textBlock, 1, 2, 0, 0, "")}, old)
	for _, watch := range []bool{true, false} {
		st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Watch: watch})
		for i := 0; i < 3; i++ {
			if _, err := st.Snapshot(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
		}
		// Two sweeps (the first look, and the one after the watches were
		// added), then the watcher vouches; without it every look sweeps.
		_, _, _, ok := st.look()
		if watch && st.watch != nil && ok {
			t.Errorf("watched store: a quiet look still looked at the disk")
		}
		if !watch && !ok {
			t.Errorf("store without watcher: a look did not sweep")
		}
		st.Close()
	}
}

// TestWatcherNeverStale: a question asked right after a line is written is
// answered with that line, on every try (a watcher that delivers events from
// a goroutine of its own answered most of these from the snapshot before).
func TestWatcherNeverStale(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watcher is used on Linux only")
	}
	root := t.TempDir()
	p := filepath.Join(root, "-p-a", sidA+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	line := func(n int) string {
		return asst(sidA, fmt.Sprintf("u%d", n), "2026-11-28T10:00:00.000Z", fmt.Sprintf("msg_%d", n), "m", textBlock, 1, 1, 0, 0, "")
	}
	if err := os.WriteFile(p, []byte(line(0)), 0o644); err != nil {
		t.Fatal(err)
	}
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Watch: true})
	defer st.Close()
	if st.watch == nil {
		t.Skip("no inotify here")
	}
	for i := 0; i < 3; i++ { // the first looks sweep, then the watcher vouches
		if _, err := st.Snapshot(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	for n := 1; n <= 200; n++ {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(line(n))
		f.Close()
		snap, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := snap.Sessions[0].Usage.Total.Output; got != int64(n+1) {
			t.Fatalf("after append %d: output %d, want %d (a stale answer)", n, got, n+1)
		}
	}
	if st.restats < 190 {
		t.Errorf("only %d of 200 looks were the watcher's", st.restats)
	}
}

// TestWatcherFolderMovedAndRecreated: a project folder renamed away and a
// new one made under its old name are both watched: an append in either is
// seen at once.
func TestWatcherFolderMovedAndRecreated(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watcher is used on Linux only")
	}
	root := t.TempDir()
	line := func(n int) string {
		return asst(sidA, fmt.Sprintf("u%d", n), "2026-11-28T10:00:00.000Z", fmt.Sprintf("msg_%d", n), "m", textBlock, 1, 1, 0, 0, "")
	}
	write := func(p string, n int) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(line(n))
		f.Close()
	}
	a := filepath.Join(root, "-p-a", sidA+".jsonl")
	write(a, 1)
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Watch: true})
	defer st.Close()
	if st.watch == nil {
		t.Skip("no inotify here")
	}
	output := func() int64 {
		t.Helper()
		snap, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, s := range snap.Sessions {
			n += s.Usage.Total.Output
		}
		return n
	}
	for i := 0; i < 3; i++ {
		output()
	}
	if err := os.Rename(filepath.Join(root, "-p-a"), filepath.Join(root, "-p-b")); err != nil {
		t.Fatal(err)
	}
	output()
	b := filepath.Join(root, "-p-b", sidA+".jsonl")
	write(filepath.Join(root, "-p-a", sidB+".jsonl"), 10) // a new folder under the old name
	output()
	output()
	want := int64(2)
	for n := 20; n < 25; n++ {
		write(filepath.Join(root, "-p-a", sidB+".jsonl"), n)
		write(b, n+100)
		want += 2
		if got := output(); got != want {
			t.Fatalf("after appends in the new and the moved folder: output %d, want %d", got, want)
		}
	}
}

// TestWatcherAfterFailedLook: a look that sweeps, finds a new file and fails
// (here cancelled) leaves the store's summaries behind its discovery; the
// next look, a restat of one appended file, must still take in the new file.
func TestWatcherAfterFailedLook(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watcher is used on Linux only")
	}
	root := t.TempDir()
	pa := filepath.Join(root, "-p-a", sidA+".jsonl")
	pb := filepath.Join(root, "-p-a", sidB+".jsonl")
	if err := os.MkdirAll(filepath.Dir(pa), 0o755); err != nil {
		t.Fatal(err)
	}
	line := func(sid string, n int) string {
		return asst(sid, fmt.Sprintf("u%s%d", sid[:4], n), "2026-11-28T10:00:00.000Z", fmt.Sprintf("msg_%s_%d", sid[:4], n), "m", textBlock, 1, 1, 0, 0, "")
	}
	if err := os.WriteFile(pa, []byte(line(sidA, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Watch: true})
	defer st.Close()
	if st.watch == nil {
		t.Skip("no inotify here")
	}
	for i := 0; i < 3; i++ {
		if _, err := st.Snapshot(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(pb, []byte(line(sidB, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.Snapshot(cancelled, nil); err == nil {
		t.Fatal("a cancelled look succeeded")
	}
	appendLine(t, pa, line(sidA, 1))
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Sessions) != 2 {
		t.Fatalf("%d sessions after the failed look, want 2 (the new file is lost)", len(snap.Sessions))
	}
	if st.restats == 0 {
		t.Error("the last look was not a restat: the case is not exercised")
	}
}

// TestNarrowLook: files that appear in a watched folder are found by a look
// that lists only that folder again, also when another file is written in
// the same look; a symlinked folder makes every later such look sweep,
// since a link can be pointed elsewhere without an event under its path. A
// store that sweeps every time is the reference.
func TestNarrowLook(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watcher is used on Linux only")
	}
	root := t.TempDir()
	ts := "2026-11-29T10:00:00.000Z"
	line := func(sid string, n int) string {
		return asst(sid, fmt.Sprintf("u%d", n), ts, fmt.Sprintf("msg_%d", n), "claude-sonnet-4-5", textBlock, 1, int64(n), 0, 0, "")
	}
	sid := func(n int) string { return fmt.Sprintf("%08x-0000-4000-8000-000000000000", n) }
	write := func(p, content string) { writeFile(t, p, content) }
	a, b := filepath.Join(root, "-p-a"), filepath.Join(root, "-p-b")
	write(filepath.Join(a, sid(1)+".jsonl"), line(sid(1), 1))
	write(filepath.Join(b, sid(2)+".jsonl"), line(sid(2), 2))
	// Two folders no other path lists, for a link to point at.
	hidden1, hidden2 := filepath.Join(a, sid(1), "deep1"), filepath.Join(a, sid(1), "deep2")
	write(filepath.Join(hidden1, sid(3)+".jsonl"), line(sid(3), 3))
	write(filepath.Join(hidden2, sid(4)+".jsonl"), line(sid(4), 4)+line(sid(4), 5))
	watched, cfg := watchedStore(t, root, testNow)
	check := func(what string, narrow bool) {
		t.Helper()
		narrows := watched.narrows
		got, err := watched.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewStore(cfg).Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := digest(got), digest(want); g != w {
			t.Fatalf("%s: watcher and sweep disagree\nwatcher:\n%s\nsweep:\n%s", what, g, w)
		}
		if did := watched.narrows > narrows; did != narrow {
			t.Errorf("%s: a narrow look %v, want %v", what, did, narrow)
		}
	}
	check("start", false)
	check("after the watches were added", false)
	write(filepath.Join(a, sid(5)+".jsonl"), line(sid(5), 6))
	check("a new file", true)
	appendLine(t, filepath.Join(a, sid(5)+".jsonl"), line(sid(5), 7))
	write(filepath.Join(b, sid(6)+".jsonl"), line(sid(6), 8))
	check("an append and a new file in another folder", true)
	os.Remove(filepath.Join(b, sid(6)+".jsonl"))
	write(filepath.Join(b, sid(6)+".jsonl"), line(sid(6), 9)+line(sid(6), 10))
	check("another file under a known name", true)
	tmp := filepath.Join(b, "next.tmp") // written aside, then renamed over a known file, as editors save
	write(tmp, line(sid(6), 13)+line(sid(6), 14)+line(sid(6), 15))
	if err := os.Rename(tmp, filepath.Join(b, sid(6)+".jsonl")); err != nil {
		t.Fatal(err)
	}
	check("a file renamed over a known one", true)
	link := filepath.Join(root, "-p-link")
	if err := os.Symlink(hidden1, link); err != nil {
		t.Fatal(err)
	}
	check("a symlinked folder", true) // the look that finds the link lists it, and its folder is watched
	appendLine(t, filepath.Join(hidden1, sid(3)+".jsonl"), line(sid(3), 12))
	check("an append behind the new link", false) // the sweep after a new watch
	os.Remove(link)
	if err := os.Symlink(hidden2, link); err != nil {
		t.Fatal(err)
	}
	check("the link pointed elsewhere", false)
	write(filepath.Join(a, sid(7)+".jsonl"), line(sid(7), 11))
	check("a new file while a link is there", false)
}
