package logs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
)

// digest renders everything a tool reads from a snapshot, to compare an
// incrementally updated snapshot with a full build.
func digest(sn *Snapshot) string {
	var b strings.Builder
	var total Usage
	n := 0
	for r := range sn.AllResponses() {
		total.Add(r.Usage())
		n++
	}
	fmt.Fprintf(&b, "responses=%d total=%+v\n", n, total)
	for _, s := range sn.Sessions {
		fmt.Fprintf(&b, "%s %s %d-%d msgs=%d api=%d skip=%d %s title=%q total=%+v main=%+v side=%+v cost=%.6f calls=%+v\n",
			s.Key, s.Repo, s.Start, s.End, s.MessageCount, s.APIErrors, s.SkippedLines(false), s.SchemaStatus(), s.Title,
			s.Usage.Total.Usage, s.Usage.Main.Usage, s.Usage.Sidechain.Usage, s.Usage.Total.Cost.USD(), CountCalls(s, false).Total)
		for _, m := range sortedKeysOf(s.Usage.ByModel) {
			fmt.Fprintf(&b, "  %s %+v\n", m, s.Usage.ByModel[m].Usage)
		}
	}
	rep := sn.Report(ReportQuery{GroupBy: []string{"day", "model"}})
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "%v %d %+v %.6f\n", r.Keys, r.Sessions, r.Usage.Usage, r.Usage.Cost.USD())
	}
	return b.String()
}

func sortedKeysOf[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// TestIncrementalMatchesFullBuild appends lines of many kinds to files of the
// fixture tree, one look at a time, and checks that the store's incrementally
// extended snapshot always equals a fresh full build of the same disk.
func TestIncrementalMatchesFullBuild(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "projects"), root); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "torn") {
			files = append(files, p)
		}
		return nil
	})
	cfg := Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)}
	st := NewStore(cfg)
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	extended := 0
	for step := 0; step < 40; step++ {
		p := files[rng.IntN(len(files))]
		sid := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		ts := fmt.Sprintf("2026-11-29T%02d:%02d:00.000Z", 12+step/60, step%60)
		var line string
		switch rng.IntN(4) {
		case 0: // a new response
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_inc_%d", step), "claude-sonnet-4-5", textBlock, 10, int64(step), 100, 1000, "")
		case 1: // a later, larger copy of the previous new response
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_inc_%d", step-1), "claude-sonnet-4-5", textBlock, 10, int64(step*10), 100, 1000, "")
		case 2: // a tool call and its result
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_inc_%d", step), "claude-opus-4-5", toolUse(fmt.Sprintf("t_inc_%d", step), "Bash", `{"command":"ls"}`), 3, 4, 0, 0, "") +
				user(sid, fmt.Sprintf("inc-r-%d", step), ts, toolResult(fmt.Sprintf("t_inc_%d", step), "Exit code 1", yes), "")
		case 3: // a prompt
			line = user(sid, fmt.Sprintf("inc-%d", step), ts, `"keep going"`, "")
		}
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(line)
		f.Close()
		prev := st.snap
		got, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got != prev {
			extended++
		}
		full := NewStore(cfg)
		want, _ := full.Snapshot(context.Background(), nil)
		if g, w := digest(got), digest(want); g != w {
			t.Fatalf("step %d (%s): incremental snapshot differs from a full build\n got: %.2000s\nwant: %.2000s", step, filepath.Base(p), g, w)
		}
	}
	if extended == 0 {
		t.Fatal("no look was answered")
	}
	if st.extensions < 20 {
		t.Errorf("only %d of 40 looks were incremental (%d full builds)", st.extensions, st.fullBuilds)
	}
	t.Logf("%d incremental, %d full builds", st.extensions, st.fullBuilds)
}

// TestBuiltAfterFullBuilds: Config.Built is called after every full build and
// after nothing else (an append extends the snapshot; an unchanged disk
// returns it as it was).
func TestBuiltAfterFullBuilds(t *testing.T) {
	main := asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", "claude-sonnet-4-5-20250929", textBlock, 1, 2, 0, 0, "")
	root := writeTree(t, map[string]string{"-home-dev-proj/" + sidA + ".jsonl": main}, old)
	built := 0
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Built: func() { built++ }})
	look := func(want int) {
		t.Helper()
		if _, err := st.Snapshot(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if built != want || built != st.fullBuilds {
			t.Fatalf("Built called %d times after %d full builds, want %d", built, st.fullBuilds, want)
		}
	}
	look(1)
	look(1)
	p := filepath.Join(root, "-home-dev-proj", sidA+".jsonl")
	fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(asst(sidA, "u2", "2026-11-28T10:00:01.000Z", "msg_2", "claude-sonnet-4-5-20250929", textBlock, 1, 2, 0, 0, ""))
	fh.Close()
	look(1)
	if st.extensions != 1 {
		t.Fatalf("%d extensions, want 1", st.extensions)
	}
	if err := os.WriteFile(filepath.Join(root, "-home-dev-proj", sidB+".jsonl"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	look(2)
}
