// Command bench measures agent-activity against the targets of SPEC §9 on
// generated corpora, side by side in one run with interleaved rounds:
//
//	go run ./scripts/bench                        # 1 GB corpus under the system temp dir
//	go run ./scripts/bench -sizes 1GB,4GB         # both, side by side, and the growth between them
//	go run ./scripts/bench -size 30MB -rounds 1   # a quick check (CI adds -round2)
//	go run ./scripts/bench -size 50MB -round2     # with gencorpus -round2
//	go run ./scripts/bench -sizes 1GB,4GB -tool-peaks   # what each tool adds to a server's peak
//
// For each size and measure it prints the median wall time and the peak RSS
// beside SPEC §9's round-two target at that size (report.go says how the
// targets scale with size), then the ratio to ccusage, the ratio of a fresh
// scan_secrets to a fresh usage_report, the peak RSS per GB of history and,
// with several sizes, the growth from each size to the next. The peak RSS of
// the warm server is read after it has answered every tool once. At every
// size it checks our totals against the generator's ground truth and, when
// ccusage is installed (npm i -g ccusage@20.0.24, the native build), runs
// `ccusage daily --json --offline` on the same files and prints its totals.
// It exits non-zero when a total disagrees with the ground truth, or with
// -strict when a target is missed; without -strict a miss is printed as
// MISSED and the exit status is 0. With -round2 the corpus also holds the
// round-two shapes (workers and resumed sessions that replay earlier lines,
// relays, advisor iterations, 2.1.152 cache lines) and the check adds the
// per-model totals and the calls per tool. With -tool-peaks it measures
// nothing else: the server of the answer sizes answers every tool in order,
// at its defaults and then with every bound at its maximum, and the peak RSS
// (VmHWM, Linux) is printed after its first scan and after each answer.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agent-activity/agent-activity/internal/benchcalls"
	"github.com/agent-activity/agent-activity/internal/stdiotest"
	"github.com/mark3labs/mcp-go/mcp"
)

// A measure is one row of the report at one size.
type measure struct {
	name   string
	target func(size int64) time.Duration // the time target at a corpus size in bytes; nil: none
	growth bool                           // its growth from one size to the next has a target
	ours   bool                           // an agent-activity process: counts in the peak RSS
	warm   bool                           // asked of the warm server: its RSS is that server's
	run    func() (time.Duration, int64, error)
	times  []time.Duration
	rss    int64 // KB, the largest seen
}

// config is what the flags ask for.
type config struct {
	sizes   []string
	dir     string
	rounds  int
	ccusage string
	strict  bool
	round2  bool
	peaks   bool // -tool-peaks: the peak after each tool's answers, and nothing else
}

func main() {
	size := flag.String("size", "1GB", "corpus size (gencorpus units)")
	sizes := flag.String("sizes", "", "comma-separated corpus sizes, measured one after another and printed side by side with the growth between them, e.g. 1GB,4GB (instead of -size)")
	dir := flag.String("dir", "", "corpus directory, with one size only (default: <tmp>/agent-activity-bench-<size>)")
	rounds := flag.Int("rounds", 3, "interleaved rounds; medians are reported")
	ccusage := flag.String("ccusage", "", "ccusage binary (default: ccusage on PATH, if any)")
	strict := flag.Bool("strict", false, "exit 1 when a target is missed")
	round2 := flag.Bool("round2", false, "generate the corpus with gencorpus -round2 and check per-model totals and calls per tool too")
	peaks := flag.Bool("tool-peaks", false, "only print a server's peak RSS after its first scan and after each tool's answers (Linux)")
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	cfg := config{dir: *dir, rounds: *rounds, ccusage: *ccusage, strict: *strict, round2: *round2, peaks: *peaks}
	var err error
	if cfg.sizes, err = sizeList(*size, *sizes, set["size"], *dir); err == nil {
		err = run(cfg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// sizeList is the sizes to measure: -sizes when given, else -size.
func sizeList(size, sizes string, sizeSet bool, dir string) ([]string, error) {
	if sizes == "" {
		return []string{size}, nil
	}
	if sizeSet {
		return nil, errors.New("give -size or -sizes, not both")
	}
	var list []string
	for _, s := range strings.Split(sizes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			list = append(list, s)
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("-sizes %q names no size", sizes)
	}
	if dir != "" && len(list) > 1 {
		return nil, errors.New("-dir takes one size: leave it out to use <tmp>/agent-activity-bench-<size> for each")
	}
	return list, nil
}

// tokens are the four token kinds, as truth.json and usage blocks name them.
type tokens struct {
	Input       int64 `json:"input_tokens"`
	Output      int64 `json:"output_tokens"`
	CacheCreate int64 `json:"cache_creation_tokens"`
	CacheRead   int64 `json:"cache_read_tokens"`
}

type truth struct {
	SizeBytes int64             `json:"size_bytes"`
	Files     int               `json:"files"`
	Sessions  int               `json:"sessions"`
	Totals    tokens            `json:"totals"`
	ByModel   map[string]tokens `json:"by_model"`
	// ToolCallsByTool is written with -round2 only.
	ToolCallsByTool map[string]struct {
		OK       int64 `json:"ok"`
		Error    int64 `json:"error"`
		Rejected int64 `json:"rejected"`
		Pending  int64 `json:"pending"`
	} `json:"tool_calls_by_tool"`
	RareWord struct {
		Word  string `json:"word"`
		Count int    `json:"count"`
	} `json:"rare_word"`
	Bytes int64  `json:"bytes"`
	Now   string `json:"now"`
}

func run(cfg config) error {
	tmp, err := os.MkdirTemp("", "agent-activity-bench-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Printf("bench: building agent-activity and gencorpus (GOMAXPROCS=%d)\n", runtime.GOMAXPROCS(0))
	bin, err := stdiotest.Build(".", tmp)
	if err != nil {
		return err
	}
	gen := filepath.Join(tmp, "gencorpus")
	if out, err := exec.Command("go", "build", "-o", gen, "./scripts/gencorpus").CombinedOutput(); err != nil {
		return fmt.Errorf("build gencorpus: %v: %s", err, out)
	}
	if cfg.ccusage == "" {
		cfg.ccusage, _ = exec.LookPath("ccusage")
	}
	if cfg.peaks {
		for _, size := range cfg.sizes {
			if err := toolPeaks(os.Stdout, cfg, bin, gen, size); err != nil {
				return fmt.Errorf("%s: %w", size, err)
			}
		}
		return nil
	}
	var results []*sizeResult
	for _, size := range cfg.sizes {
		r, err := benchSize(cfg, bin, gen, size)
		if err != nil {
			return fmt.Errorf("%s: %w", size, err)
		}
		results = append(results, r)
	}
	missed := report(os.Stdout, results)
	if cfg.ccusage == "" {
		fmt.Println("ccusage not found: install it with `npm i -g ccusage@20.0.24` to compare")
	}
	if missed > 0 && cfg.strict {
		return fmt.Errorf("%d targets missed", missed)
	}
	return nil
}

// sizeResult is everything measured on the corpus of one size.
type sizeResult struct {
	label      string // the size as asked, e.g. "1GB"
	size       int64  // the size asked, in bytes
	history    int64  // the bytes of JSONL the corpus holds
	sessions   int
	measures   []*measure
	answers    []answerSize
	answersRSS int64    // KB, the peak RSS of the server that answered them
	resident   [3]int64 // KB, the warm server's RSS now: after its first scan, after every tool, and the file pages of that (RssFile)
	session    string   // the session the session tools read
	sessionMB  int64
}

// benchSize generates (or reuses) the corpus of one size, checks our totals
// against its ground truth and runs every measure on it.
func benchSize(cfg config, bin, gen, size string) (*sizeResult, error) {
	dir, tr, err := corpus(cfg, gen, size)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, "projects")
	files := jsonlFiles(root)
	fmt.Printf("bench: %d files, %d sessions, %.1f MB of JSONL\n\n", len(files), tr.Sessions, float64(tr.Bytes)/1e6)
	env := benchEnv(root)

	// Correctness first: the totals must equal the ground truth.
	var ur struct {
		Totals struct {
			Usage struct {
				tokens
				Cost float64 `json:"cost"`
			} `json:"usage"`
		} `json:"totals"`
	}
	if err := callInto(bin, env, &ur, "usage_report", "group_by=month"); err != nil {
		return nil, err
	}
	u := ur.Totals.Usage
	fmt.Printf("totals   ours:  input %d output %d cache_creation %d cache_read %d cost $%.2f\n", u.Input, u.Output, u.CacheCreate, u.CacheRead, u.Cost)
	fmt.Printf("         truth: input %d output %d cache_creation %d cache_read %d\n", tr.Totals.Input, tr.Totals.Output, tr.Totals.CacheCreate, tr.Totals.CacheRead)
	if u.tokens != tr.Totals {
		err := fmt.Errorf("usage_report totals differ from the ground truth")
		if cfg.round2 { // say what else differs before stopping
			if err2 := checkRound2(bin, env, tr); err2 != nil {
				err = fmt.Errorf("%w; %w", err, err2)
			}
		}
		return nil, err
	}
	var sr struct {
		Total int `json:"total_matches"`
	}
	out, err := callOnce(bin, env, "search_transcripts", "query="+tr.RareWord.Word, "limit=5")
	if err != nil {
		return nil, err
	}
	json.Unmarshal(out, &sr)
	if sr.Total != tr.RareWord.Count {
		return nil, fmt.Errorf("search %q: %d matches, truth %d", tr.RareWord.Word, sr.Total, tr.RareWord.Count)
	}
	fmt.Printf("         search %q: %d matches (truth %d)\n", tr.RareWord.Word, sr.Total, tr.RareWord.Count)
	if cfg.round2 {
		if err := checkRound2(bin, env, tr); err != nil {
			return nil, err
		}
	}

	fresh := func(tool string, args ...string) func() (time.Duration, int64, error) {
		return func() (time.Duration, int64, error) {
			return timeProcess(bin, env, append([]string{"call", tool}, args...)...)
		}
	}
	ms := []*measure{
		{name: rowFloor, run: func() (time.Duration, int64, error) { return readAll(files), 0, nil }},
		{name: rowUsage, target: fullHistory(360 * time.Millisecond), growth: true, ours: true, run: fresh("usage_report", "group_by=day")},
		{name: "fresh: coverage_stats", target: fullHistory(360 * time.Millisecond), growth: true, ours: true, run: fresh("coverage_stats")},
		{name: "fresh: list_recent_sessions", target: everySize(150 * time.Millisecond), ours: true, run: fresh("list_recent_sessions", "limit=20")},
		{name: "fresh: search_transcripts", target: fullHistory(600 * time.Millisecond), growth: true, ours: true, run: fresh("search_transcripts", "query="+tr.RareWord.Word)},
		{name: rowScan, growth: true, ours: true, run: fresh("scan_secrets")},
	}
	if cfg.ccusage != "" {
		ccEnv := append(os.Environ(), "CLAUDE_CONFIG_DIR="+dir)
		ms = append(ms, &measure{name: rowCcusage, run: func() (time.Duration, int64, error) {
			return timeProcess(cfg.ccusage, ccEnv, "daily", "--json", "--offline")
		}})
	}
	warm, err := newWarmServer(bin, env, root)
	if err != nil {
		return nil, err
	}
	defer warm.close()
	quick := everySize(2 * time.Millisecond)
	ms = append(ms,
		&measure{name: "warm: usage_report again", target: quick, ours: true, warm: true, run: warm.again("usage_report", map[string]any{"group_by": "day"})},
		&measure{name: "warm: coverage_stats again", target: quick, ours: true, warm: true, run: warm.again("coverage_stats", map[string]any{})},
		&measure{name: "warm: list_recent_sessions again", target: quick, ours: true, warm: true, run: warm.again("list_recent_sessions", map[string]any{"limit": 20})},
		&measure{name: "after append: usage_report", target: quick, ours: true, warm: true, run: warm.appendThen("usage_report", map[string]any{"group_by": "day"})},
		&measure{name: "after append: list_recent_sessions", target: quick, ours: true, warm: true, run: warm.appendThen("list_recent_sessions", map[string]any{"limit": 20})},
		&measure{name: "after call+result: usage_report", target: quick, ours: true, warm: true, run: warm.appendCallThen("usage_report", map[string]any{"group_by": "day"})},
		&measure{name: "after a new subagent: usage_report", ours: true, warm: true, run: warm.newFileThen("usage_report", map[string]any{"group_by": "day"})},
		&measure{name: "warm: search_transcripts", target: fullHistory(200 * time.Millisecond), growth: true, ours: true, warm: true, run: warm.call("search_transcripts", map[string]any{"query": tr.RareWord.Word})},
	)
	if cfg.ccusage != "" {
		if err := ccusageTotals(cfg.ccusage, dir); err != nil {
			fmt.Println("ccusage totals:", err)
		}
	}
	fmt.Println()
	for r := 0; r < cfg.rounds; r++ {
		for _, m := range ms {
			d, rss, err := m.run()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m.name, err)
			}
			m.times = append(m.times, d)
			m.rss = max(m.rss, rss)
		}
	}
	session, sessionSize := largestSession(root)
	calls := benchcalls.Order(session)
	if err := warm.everyTool(calls); err != nil {
		return nil, err
	}
	warmRSS := warm.peakRSS()
	resident := [3]int64{warm.residentAfterScan, warm.statusKB("VmRSS:"), warm.statusKB("RssFile:")}
	for _, m := range ms {
		if m.warm {
			m.rss = warmRSS
		}
	}
	warm.close() // the live session gets its size back before the answers are measured
	// The sizes are measured at the corpus' own "now", so windows that end
	// now (summarize_work, pacing_window) hold its last day.
	answers, peaks, err := answerSizes(bin, append(env, "AGENT_ACTIVITY_NOW="+tr.Now), root, calls)
	if err != nil {
		return nil, err
	}
	answersRSS := peaks.last()
	return &sizeResult{
		label: size, size: tr.SizeBytes, history: tr.Bytes, sessions: tr.Sessions,
		measures: ms, answers: answers, answersRSS: answersRSS, resident: resident,
		session: session, sessionMB: sessionSize >> 20,
	}, nil
}

// largestSession is the id and size of the largest main transcript.
func largestSession(root string) (string, int64) {
	var session string
	var largest int64
	for _, p := range jsonlFiles(root) {
		if st, err := os.Stat(p); err == nil && !strings.HasPrefix(filepath.Base(p), "agent-") && st.Size() > largest {
			largest, session = st.Size(), strings.TrimSuffix(filepath.Base(p), ".jsonl")
		}
	}
	return session, largest
}

// answerSize is the length of one tool's answer (the JSON text a client
// receives) with default arguments and with every bound at its maximum
// (-1: the tool has no bounds).
type answerSize struct {
	tool      string
	def, most int
}

// answerSizes asks every tool of calls with its defaults and with every
// bound at its maximum and returns the sizes of the answers and the peak RSS
// of the server that gave them, after its first scan and after each answer:
// a server of its own, so the warm server's memory stays that of a server
// asked every tool once.
func answerSizes(bin string, env []string, root string, calls []benchcalls.Call) ([]answerSize, answerPeaks, error) {
	var peaks answerPeaks
	w, err := newWarmServer(bin, env, root)
	if err != nil {
		return nil, peaks, err
	}
	defer w.close()
	peaks.first = w.peakRSS()
	size := func(tool, label string, args map[string]any) (int, error) {
		out, isErr, err := w.srv.Call(w.ctx, tool, args)
		if err == nil && isErr {
			err = fmt.Errorf("error result %v", out)
		}
		if err != nil {
			return 0, fmt.Errorf("%s %v: %w", tool, args, err)
		}
		peaks.after = append(peaks.after, toolPeak{tool, label, w.peakRSS()})
		b, _ := json.Marshal(out) // the text content: the same JSON, as mcp-go writes it
		return len(b), nil
	}
	var sizes []answerSize
	for _, c := range calls {
		a := answerSize{tool: c.Tool, most: -1}
		if a.def, err = size(c.Tool, "defaults", c.Defaults); err != nil {
			return nil, peaks, err
		}
		if c.Max != nil {
			if a.most, err = size(c.Tool, "at max", c.Max); err != nil {
				return nil, peaks, err
			}
		}
		sizes = append(sizes, a)
	}
	return sizes, peaks, nil
}

// answerPeaks is the peak RSS (KB) of the server answerSizes asked: after
// its first scan, and after each answer.
type answerPeaks struct {
	first int64
	after []toolPeak
}

// last is the server's peak once it has answered everything.
func (p answerPeaks) last() int64 {
	if len(p.after) == 0 {
		return p.first
	}
	return p.after[len(p.after)-1].kb
}

// checkRound2 compares the per-model totals (usage_report group_by=model,
// where advisor usage shows under its own model) and the calls per tool
// (coverage_stats top_tools, each call counted once) with the ground truth.
func checkRound2(bin string, env []string, tr truth) error {
	var ur struct {
		Rows []struct {
			Model string `json:"model"`
			Usage tokens `json:"usage"`
		} `json:"rows"`
	}
	if err := callInto(bin, env, &ur, "usage_report", "group_by=model"); err != nil {
		return err
	}
	ours := map[string]tokens{}
	for _, r := range ur.Rows {
		ours[r.Model] = r.Usage
	}
	var bad []string
	for m, want := range tr.ByModel {
		if got := ours[m]; got != want {
			bad = append(bad, fmt.Sprintf("%s: ours %+v, truth %+v", m, got, want))
		}
	}
	for m := range ours {
		if _, ok := tr.ByModel[m]; !ok {
			bad = append(bad, fmt.Sprintf("%s: ours %+v, not in the truth", m, ours[m]))
		}
	}
	var cs struct {
		TopTools   map[string]int64 `json:"top_tools"`
		ToolsTotal int              `json:"tools_total"`
	}
	if err := callInto(bin, env, &cs, "coverage_stats"); err != nil {
		return err
	}
	var calls, wantCalls int64
	for name, tc := range tr.ToolCallsByTool {
		want := tc.OK + tc.Error + tc.Rejected + tc.Pending
		wantCalls += want
		if got := cs.TopTools[name]; got != want {
			bad = append(bad, fmt.Sprintf("calls of %s: ours %d, truth %d", name, got, want))
		}
	}
	for _, n := range cs.TopTools {
		calls += n
	}
	if cs.ToolsTotal != len(tr.ToolCallsByTool) {
		bad = append(bad, fmt.Sprintf("distinct tools: ours %d, truth %d", cs.ToolsTotal, len(tr.ToolCallsByTool)))
	}
	fmt.Printf("         round two: %d models, %d tool calls (truth %d)\n", len(ours), calls, wantCalls)
	if len(bad) > 0 {
		sort.Strings(bad)
		for _, b := range bad {
			fmt.Println("         differs:", b)
		}
		return fmt.Errorf("round two: %d figures differ from the ground truth", len(bad))
	}
	return nil
}

func ccusageTotals(bin, dir string) error {
	c := exec.Command(bin, "daily", "--json", "--offline")
	c.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+dir)
	out, err := c.Output()
	if err != nil {
		return err
	}
	var v struct {
		Totals struct {
			Input       int64   `json:"inputTokens"`
			Output      int64   `json:"outputTokens"`
			CacheCreate int64   `json:"cacheCreationTokens"`
			CacheRead   int64   `json:"cacheReadTokens"`
			Cost        float64 `json:"totalCost"`
		} `json:"totals"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return err
	}
	t := v.Totals
	fmt.Printf("         ccusage: input %d output %d cache_creation %d cache_read %d cost $%.2f\n", t.Input, t.Output, t.CacheCreate, t.CacheRead, t.Cost)
	return nil
}

// callInto runs one tool and decodes its answer into v.
func callInto(bin string, env []string, v any, args ...string) error {
	out, err := callOnce(bin, env, args...)
	if err != nil {
		return err
	}
	return json.Unmarshal(out, v)
}

func callOnce(bin string, env []string, args ...string) ([]byte, error) {
	c := exec.Command(bin, append([]string{"call"}, args...)...)
	c.Env = env
	c.Stderr = os.Stderr
	return c.Output()
}

// timeProcess runs a command to completion, returning wall time and peak RSS (KB).
func timeProcess(bin string, env []string, args ...string) (time.Duration, int64, error) {
	c := exec.Command(bin, args...)
	c.Env = env
	c.Stdout = io.Discard
	var stderr strings.Builder
	c.Stderr = &stderr
	start := time.Now()
	if err := c.Run(); err != nil {
		return 0, 0, fmt.Errorf("%v: %s", err, stderr.String())
	}
	d := time.Since(start)
	return d, peakRSS(c.ProcessState), nil
}

func jsonlFiles(root string) []string {
	var out []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// readAll reads every file with one goroutine per core: the floor.
func readAll(files []string) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	ch := make(chan string)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 1<<20)
			for p := range ch {
				f, err := os.Open(p)
				if err != nil {
					continue
				}
				for {
					if _, err := f.Read(buf); err != nil {
						break
					}
				}
				f.Close()
			}
		}()
	}
	for _, p := range files {
		ch <- p
	}
	close(ch)
	wg.Wait()
	return time.Since(start)
}

type warmServer struct {
	srv    *stdiotest.Server
	ctx    context.Context
	cancel context.CancelFunc
	live   string // a session file that gets lines appended
	n      int

	liveSize          int64 // restored on close, so the corpus stays equal to its ground truth
	liveMtime         time.Time
	made              []string  // files and folders newFileThen made, removed on close (folders last)
	projectMtime      time.Time // the live session's folder's, restored on close
	residentAfterScan int64     // KB, VmRSS a second after the first scan
}

func newWarmServer(bin string, env []string, root string) (*warmServer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	var extra []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "AGENT_ACTIVITY_") {
			extra = append(extra, kv)
		}
	}
	srv, _, err := stdiotest.Start(ctx, bin, extra)
	if err != nil {
		cancel()
		return nil, err
	}
	w := &warmServer{srv: srv, ctx: ctx, cancel: cancel}
	// The newest main file plays the live session.
	var newest time.Time
	for _, p := range jsonlFiles(root) {
		if strings.Contains(filepath.Base(p), "agent-") {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.ModTime().After(newest) {
			newest, w.live = st.ModTime(), p
		}
	}
	if st, err := os.Stat(w.live); err == nil {
		w.liveSize, w.liveMtime = st.Size(), st.ModTime()
	}
	// The first call pays for the first scan. What the server holds once
	// its warm-up is over is read a second later.
	if _, _, err := srv.Call(ctx, "coverage_stats", map[string]any{}); err != nil {
		return nil, err
	}
	time.Sleep(time.Second)
	w.residentAfterScan = w.statusKB("VmRSS:")
	return w, nil
}

// again asks once untimed (so the server has caught up with the disk), then
// times the same question asked again with nothing changed.
func (w *warmServer) again(tool string, args map[string]any) func() (time.Duration, int64, error) {
	return func() (time.Duration, int64, error) {
		if _, _, err := w.call(tool, args)(); err != nil {
			return 0, 0, err
		}
		return w.call(tool, args)()
	}
}

// call times one tools/call round trip as the wire sees it: from the
// request to the arrival of the answer's last byte. The client's decoding
// of the answer is not part of the server's time (mcp-go's client parses an
// answer several times, about 2 ms for a 12 KB one; a host's JSON.parse
// takes a few dozen µs), nor are the checks that stdiotest.Call adds.
func (w *warmServer) call(tool string, args map[string]any) func() (time.Duration, int64, error) {
	return func() (time.Duration, int64, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		start := time.Now()
		res, err := w.srv.Client.CallTool(w.ctx, req)
		d := w.srv.LastLineAt().Sub(start)
		if err == nil && res.IsError {
			err = fmt.Errorf("error result")
		}
		if err == nil && d <= 0 {
			err = fmt.Errorf("no answer line arrived after the request")
		}
		return d, 0, err
	}
}

// appendSamples is how many appends a round of an after-append row times,
// appendPause apart; the round's figure is their median. One answer a round
// let a single cost that is not the append's decide a row: a garbage
// collection overlapping the answer, or the first touch of pages this
// machine paged out while the server sat idle (docs/choices.md).
const (
	appendSamples = 5
	appendPause   = 100 * time.Millisecond
)

// medianOfAppends runs one timed append appendSamples times.
func medianOfAppends(one func() (time.Duration, error)) (time.Duration, int64, error) {
	var ds []time.Duration
	for i := 0; i < appendSamples; i++ {
		if i > 0 {
			time.Sleep(appendPause)
		}
		d, err := one()
		if err != nil {
			return 0, 0, err
		}
		ds = append(ds, d)
	}
	return median(ds), 0, nil
}

// appendThen appends one assistant line to the live session, then asks.
func (w *warmServer) appendThen(tool string, args map[string]any) func() (time.Duration, int64, error) {
	return func() (time.Duration, int64, error) {
		return medianOfAppends(func() (time.Duration, error) {
			w.n++
			if err := w.appendLine(`{"type":"assistant","sessionId":%q,"uuid":"bench-%[2]d","timestamp":%[3]q,"message":{"id":"msg_bench_%[2]d","model":"claude-opus-4-5","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"output_tokens":5}}}`); err != nil {
				return 0, err
			}
			d, _, err := w.call(tool, args)()
			return d, err
		})
	}
}

// appendCallThen appends a tool call and asks, then appends its result (which
// changes a call the server already holds) and asks again; the second
// answer is timed.
func (w *warmServer) appendCallThen(tool string, args map[string]any) func() (time.Duration, int64, error) {
	return func() (time.Duration, int64, error) {
		return medianOfAppends(func() (time.Duration, error) {
			w.n++
			if err := w.appendLine(`{"type":"assistant","sessionId":%q,"uuid":"bench-%[2]d","timestamp":%[3]q,"message":{"id":"msg_bench_%[2]d","model":"claude-opus-4-5","role":"assistant","content":[{"type":"tool_use","id":"toolu_bench_%[2]d","name":"Bash","input":{"command":"go test ./..."}}],"usage":{"input_tokens":3,"output_tokens":5}}}`); err != nil {
				return 0, err
			}
			if _, _, err := w.call(tool, args)(); err != nil {
				return 0, err
			}
			if err := w.appendLine(`{"type":"user","sessionId":%q,"uuid":"bench-r-%[2]d","timestamp":%[3]q,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_bench_%[2]d","content":"ok"}]}}`); err != nil {
				return 0, err
			}
			d, _, err := w.call(tool, args)()
			return d, err
		})
	}
}

// newFileThen writes the transcript of a new subagent of the live session
// (a subagent starting, as every Task call does), then asks. Its folder is
// made before the first timed file, and the server asked twice untimed, so
// that a round times files appearing in a folder the server watches, not a
// new folder's full sweep.
func (w *warmServer) newFileThen(tool string, args map[string]any) func() (time.Duration, int64, error) {
	return func() (time.Duration, int64, error) {
		sid := strings.TrimSuffix(filepath.Base(w.live), ".jsonl")
		dir := filepath.Join(filepath.Dir(w.live), sid, "subagents")
		if _, err := os.Stat(dir); err != nil {
			if st, err := os.Stat(filepath.Dir(w.live)); err == nil {
				w.projectMtime = st.ModTime()
			}
			for _, d := range []string{filepath.Dir(dir), dir} {
				if _, err := os.Stat(d); err != nil {
					if err := os.Mkdir(d, 0o755); err != nil {
						return 0, 0, err
					}
					w.made = append(w.made, d)
				}
			}
			for i := 0; i < 2; i++ { // the sweep that finds the folder, and the one after its watch
				if _, _, err := w.call(tool, args)(); err != nil {
					return 0, 0, err
				}
			}
		}
		return medianOfAppends(func() (time.Duration, error) {
			w.n++
			agent := fmt.Sprintf("bench%d", w.n)
			p := filepath.Join(dir, "agent-"+agent+".jsonl")
			line := fmt.Sprintf(`{"type":"assistant","isSidechain":true,"agentId":%q,"sessionId":%q,"uuid":"bench-%d","timestamp":%q,"message":{"id":"msg_bench_%[3]d","model":"claude-haiku-4-5","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"output_tokens":5}}}`+"\n",
				agent, sid, w.n, time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
			if err := os.WriteFile(p, []byte(line), 0o644); err != nil {
				return 0, err
			}
			w.made = append(w.made, p)
			d, _, err := w.call(tool, args)()
			return d, err
		})
	}
}

// appendLine appends a line to the live session: format takes the session
// id, the append's number and the time. The file is put back only when the
// bench ends: truncating it here would turn the next look into a rewrite,
// which real logs never do.
func (w *warmServer) appendLine(format string) error {
	sid := strings.TrimSuffix(filepath.Base(w.live), ".jsonl")
	line := fmt.Sprintf(format, sid, w.n, time.Now().UTC().Format("2006-01-02T15:04:05.000Z")) + "\n"
	f, err := os.OpenFile(w.live, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// everyTool asks every tool the server lists once, with its default
// arguments from calls, so that the peak RSS read afterwards is that of a
// server that has answered everything. A listed tool missing from calls is
// an error: a new tool must join benchcalls.Order.
func (w *warmServer) everyTool(calls []benchcalls.Call) error {
	res, err := w.srv.Client.ListTools(w.ctx, mcp.ListToolsRequest{})
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	args := map[string]map[string]any{}
	for _, c := range calls {
		args[c.Tool] = c.Defaults
	}
	for _, t := range res.Tools {
		a, ok := args[t.Name]
		if !ok {
			return fmt.Errorf("the server lists %s, which the bench does not call: add it to benchcalls.Order", t.Name)
		}
		if _, _, err := w.call(t.Name, a)(); err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
	}
	return nil
}

// peakRSS is the server's peak resident set so far in KB (Linux; 0 elsewhere).
func (w *warmServer) peakRSS() int64 { return w.statusKB("VmHWM:") }

// statusKB is a field of the server's /proc status in KB (Linux; 0
// elsewhere): VmHWM, its peak resident set, VmRSS, the one it has now, or
// RssFile, the part of that which is pages of files (the program's own).
func (w *warmServer) statusKB(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", w.srv.Pid()))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, field) {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, field), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// close ends the server and puts the live session back; a second close does nothing.
func (w *warmServer) close() {
	if w.srv == nil {
		return
	}
	w.srv.Close()
	w.srv = nil
	w.cancel()
	if w.live != "" && w.n > 0 {
		os.Truncate(w.live, w.liveSize)
		os.Chtimes(w.live, w.liveMtime, w.liveMtime)
	}
	for i := len(w.made) - 1; i >= 0; i-- { // files, then their folders
		os.Remove(w.made[i])
	}
	if !w.projectMtime.IsZero() {
		os.Chtimes(filepath.Dir(w.live), w.projectMtime, w.projectMtime)
	}
}

// corpus generates (or reuses) the corpus of one size and reads its ground
// truth.
func corpus(cfg config, gen, size string) (string, truth, error) {
	dir := cfg.dir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "agent-activity-bench-"+size)
		if cfg.round2 {
			dir += "-round2"
		}
	}
	start := time.Now()
	genArgs := []string{"-out", dir, "-size", size, "-seed", "1", "-q"}
	if cfg.round2 {
		genArgs = append(genArgs, "-round2")
	}
	cmd := exec.Command(gen, genArgs...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", truth{}, fmt.Errorf("gencorpus: %w", err)
	}
	fmt.Printf("bench: corpus %s ready in %s\n", dir, time.Since(start).Round(time.Millisecond))
	var tr truth
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err == nil {
		err = json.Unmarshal(b, &tr)
	}
	return dir, tr, err
}

// benchEnv is the environment of every agent-activity process the bench
// starts on root. Codex is off: the corpus is Claude Code's, and a real
// ~/.codex must not count.
func benchEnv(root string) []string {
	return append(os.Environ(), "AGENT_ACTIVITY_LOG_ROOT="+root, "AGENT_ACTIVITY_CODEX_ROOT=", "AGENT_ACTIVITY_TIMEZONE=UTC")
}

// toolPeak is a server's peak RSS (KB) after one answer.
type toolPeak struct {
	tool, args string // args: "defaults" or "at max"
	kb         int64
}

// toolPeaks prints, for the corpus of one size, the peaks of the server
// answerSizes asks: after its first scan and after each answer.
func toolPeaks(w io.Writer, cfg config, bin, gen, size string) error {
	dir, tr, err := corpus(cfg, gen, size)
	if err != nil {
		return err
	}
	root := filepath.Join(dir, "projects")
	session, _ := largestSession(root)
	_, peaks, err := answerSizes(bin, append(benchEnv(root), "AGENT_ACTIVITY_NOW="+tr.Now), root, benchcalls.Order(session))
	if err != nil {
		return err
	}
	writeToolPeaks(w, size, peaks.first, peaks.after)
	return nil
}

// writeToolPeaks prints the peaks toolPeaks read: after the first scan, then
// after each answer with what it added to the peak before it. MB are 1,024
// KB, as in the bench's report.
func writeToolPeaks(w io.Writer, size string, first int64, rows []toolPeak) {
	fmt.Fprintf(w, "%s: a server's peak RSS (VmHWM) after each answer, in the bench's order\n", size)
	fmt.Fprintf(w, "  %-34s %8.1f MB\n", "first scan (coverage_stats)", float64(first)/1024)
	prev := first
	for _, r := range rows {
		fmt.Fprintf(w, "  %-22s %-11s %8.1f MB  %+5.1f\n", r.tool, r.args, float64(r.kb)/1024, float64(r.kb-prev)/1024)
		prev = max(prev, r.kb)
	}
}
