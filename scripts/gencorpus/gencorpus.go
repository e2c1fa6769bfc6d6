// Command gencorpus writes a deterministic synthetic Claude Code log tree
// (<out>/projects/<encoded-cwd>/<sessionId>.jsonl and friends) for benchmarks,
// together with <out>/truth.json: the exact answers the reader must give
// under SPEC §3 (usage counted once per response, echoes never counted).
// With -round2 it adds the sessions of round2.go, which the SPEC's copy
// rules are about, and truth.json says "round2": true and counts the calls
// per tool.
//
// Everything in this package except main.go is independent of flags and
// could move to an importable package unchanged.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// GeneratorVersion changes whenever the output for a given seed changes, so a
// stale truth.json is never reused.
const GeneratorVersion = "gencorpus/1"

// RareWord is the token placed in exactly three lines of every corpus.
const RareWord = "xylophone-quasar"

// Options says what to generate. Out and Size are required; Now defaults to
// 2026-11-30T00:00:00Z. Log, when set, receives progress lines. Round2 adds
// the sessions of round two (see round2.go); without it the output is the
// same, byte for byte, as before round two existed.
type Options struct {
	Out    string
	Size   int64
	Seed   int64
	Now    time.Time
	Log    io.Writer
	Round2 bool
}

// Usage is a token roll-up. Responses counts distinct responses (SPEC §3
// "What makes two lines copies of one response"); AdvisorInferences counts
// the advisor_message iterations whose tokens are included (they are usage
// of their own model, not responses).
type Usage struct {
	InputTokens         int64 `json:"input_tokens"`
	OutputTokens        int64 `json:"output_tokens"`
	CacheCreationTokens int64 `json:"cache_creation_tokens"`
	CacheReadTokens     int64 `json:"cache_read_tokens"`
	CacheCreation5m     int64 `json:"cache_creation_5m"`
	CacheCreation1h     int64 `json:"cache_creation_1h"`
	Responses           int64 `json:"responses"`
	AdvisorInferences   int64 `json:"advisor_inferences,omitempty"`
}

func (u *Usage) add(v usageT) {
	u.addTokens(v)
	u.Responses++
}

func (u *Usage) addTokens(v usageT) {
	u.InputTokens += v.in
	u.OutputTokens += v.out
	u.CacheCreationTokens += v.cc
	u.CacheReadTokens += v.cr
	if v.split {
		u.CacheCreation5m += v.c5
		u.CacheCreation1h += v.c1
	} else {
		u.CacheCreation5m += v.cc
	}
}

// ToolCalls counts tool_use blocks by outcome (SPEC §3 "Tool calls"). No file
// is live, so a call without a result is pending.
type ToolCalls struct {
	OK       int64 `json:"ok"`
	Error    int64 `json:"error"`
	Rejected int64 `json:"rejected"`
	Pending  int64 `json:"pending"`
}

func (t *ToolCalls) add(o ToolCalls) {
	t.OK += o.OK
	t.Error += o.Error
	t.Rejected += o.Rejected
	t.Pending += o.Pending
}

// RarePlace is one line holding the rare word.
type RarePlace struct {
	Session string `json:"session"`
	File    string `json:"file"` // relative to Out
	Line    int64  `json:"line"` // 1-based
	Kind    string `json:"kind"` // user_prompt, assistant_text, tool_result
}

// RareWordTruth records where RareWord was put.
type RareWordTruth struct {
	Word     string      `json:"word"`
	Count    int         `json:"count"`
	Sessions []string    `json:"sessions"`
	Places   []RarePlace `json:"places"`
}

// Truth is the expected answer for the generated tree, written to truth.json.
//
// Files, Lines and Bytes cover the .jsonl transcripts only (main and
// subagent); sidecars (.meta.json, tool-results/*.txt) are counted apart.
// ToolCalls counts distinct tool_use ids (a replayed copy is the same call);
// ToolCallsInFiles counts per file, so replayed copies count again there.
// ToolCallsByTool (round two only) splits ToolCalls by tool name.
type Truth struct {
	Generator        string               `json:"generator"`
	Seed             int64                `json:"seed"`
	SizeBytes        int64                `json:"size_bytes"`
	Now              string               `json:"now"`
	Round2           bool                 `json:"round2,omitempty"`
	Files            int                  `json:"files"`
	Sessions         int                  `json:"sessions"`
	SubagentFiles    int                  `json:"subagent_files"`
	SubagentLayouts  map[string]int       `json:"subagent_layouts"`
	SidecarFiles     int                  `json:"sidecar_files"`
	Projects         int                  `json:"projects"`
	Bytes            int64                `json:"bytes"`
	Lines            int64                `json:"lines"`
	FirstTimestamp   string               `json:"first_timestamp"`
	LastTimestamp    string               `json:"last_timestamp"`
	Totals           Usage                `json:"totals"`
	ByModel          map[string]Usage     `json:"by_model"`
	ByDayUTC         map[string]Usage     `json:"by_day_utc"`
	APIErrors        int64                `json:"api_errors"`
	ToolCalls        ToolCalls            `json:"tool_calls"`
	ToolCallsInFiles ToolCalls            `json:"tool_calls_in_files"`
	ToolCallsByTool  map[string]ToolCalls `json:"tool_calls_by_tool,omitempty"`
	RareWord         RareWordTruth        `json:"rare_word"`
	Notes            map[string]int64     `json:"notes"`

	// Reused is true when Generate found a matching truth.json and wrote nothing.
	Reused bool `json:"-"`
}

// ParseSize reads sizes like "50MB", "1GB", "1.5GiB", "300k" or "1048576".
// Units are binary: 1KB = 1024 bytes.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := float64(1)
	for _, u := range []struct {
		suf string
		m   float64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suf) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suf)), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad size %q: want a positive number with an optional KB/MB/GB unit", s)
	}
	return int64(v * mult), nil
}

// DefaultNow is the clock used when Options.Now is zero.
var DefaultNow = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// Generate writes the corpus under opts.Out (projects/ and truth.json) and
// returns its truth. When opts.Out/truth.json already describes the same
// generator, seed, size, now and round, it returns that truth with Reused set and
// touches nothing. Otherwise it removes opts.Out/projects and truth.json
// (nothing else, and only when opts.Out/.gencorpus shows it wrote them) and
// writes them again; truth.json is written last, so an
// interrupted run is never mistaken for a finished one.
func Generate(opts Options) (Truth, error) {
	if opts.Out == "" {
		return Truth{}, errors.New("gencorpus: Out is required")
	}
	if opts.Size <= 0 {
		return Truth{}, errors.New("gencorpus: Size must be positive")
	}
	if opts.Now.IsZero() {
		opts.Now = DefaultNow
	}
	opts.Now = opts.Now.UTC()
	nowStr := opts.Now.Format(time.RFC3339)
	truthPath := filepath.Join(opts.Out, "truth.json")

	if data, err := os.ReadFile(truthPath); err == nil {
		var old Truth
		if json.Unmarshal(data, &old) == nil && old.Generator == GeneratorVersion &&
			old.Seed == opts.Seed && old.SizeBytes == opts.Size && old.Now == nowStr && old.Round2 == opts.Round2 {
			old.Reused = true
			return old, nil
		}
	}
	// Only a tree this tool wrote may be replaced: never wipe a real
	// ~/.claude/projects passed by mistake.
	root := filepath.Join(opts.Out, "projects")
	marker := filepath.Join(opts.Out, ".gencorpus")
	if _, err := os.Stat(root); err == nil {
		if _, err := os.Stat(marker); err != nil {
			return Truth{}, fmt.Errorf("gencorpus: refusing to replace %s: it was not written by gencorpus (no %s)", root, marker)
		}
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return Truth{}, err
	}
	if err := os.WriteFile(marker, []byte(GeneratorVersion+"\n"), 0o644); err != nil {
		return Truth{}, err
	}
	if err := os.Remove(truthPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return Truth{}, err
	}
	if err := os.RemoveAll(root); err != nil {
		return Truth{}, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Truth{}, err
	}

	g := newGen(opts, root)
	g.truth.Now = nowStr
	if err := g.run(); err != nil {
		return Truth{}, err
	}
	t := g.finish()

	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return Truth{}, err
	}
	tmp := truthPath + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return Truth{}, err
	}
	if err := os.Rename(tmp, truthPath); err != nil {
		return Truth{}, err
	}
	for _, p := range []string{truthPath, marker} { // no wall-clock mtimes anywhere
		if err := os.Chtimes(p, opts.Now, opts.Now); err != nil {
			return Truth{}, err
		}
	}
	return t, nil
}

// gen is the state of one Generate call. Sessions are generated one after
// another in plan order; each has its own PCG stream, so the output depends
// only on (seed, size, now).
type gen struct {
	opts    Options
	out     string
	root    string
	pools   *pools
	nowMs   int64
	liveCut int64 // no timestamp may be newer than this

	truth    Truth
	byModel  map[string]*Usage
	byDay    map[string]*Usage
	byTool   map[string]*ToolCalls
	relayIn  map[int64]bool // input_tokens already used by a relay response
	firstTS  int64
	lastTS   int64
	plans    []*sessPlan
	chunks   map[int]*replayChunk
	projLeaf map[string]string // project folder → a uuid from its latest session
	err      error
}

func newGen(opts Options, root string) *gen {
	g := &gen{
		opts:     opts,
		out:      opts.Out,
		root:     root,
		pools:    newPools(),
		nowMs:    opts.Now.UnixMilli(),
		byModel:  map[string]*Usage{},
		byDay:    map[string]*Usage{},
		byTool:   map[string]*ToolCalls{},
		relayIn:  map[int64]bool{},
		chunks:   map[int]*replayChunk{},
		projLeaf: map[string]string{},
		firstTS:  1<<63 - 1,
	}
	g.liveCut = g.nowMs - int64(time.Hour/time.Millisecond)
	g.truth = Truth{
		Generator:       GeneratorVersion,
		Seed:            opts.Seed,
		SizeBytes:       opts.Size,
		Round2:          opts.Round2,
		SubagentLayouts: map[string]int{},
		Notes:           map[string]int64{},
		RareWord:        RareWordTruth{Word: RareWord},
	}
	return g
}

func (g *gen) logf(format string, args ...any) {
	if g.opts.Log != nil {
		fmt.Fprintf(g.opts.Log, format+"\n", args...)
	}
}

func (g *gen) run() error {
	g.plans = g.plan()
	projects := map[string]bool{}
	var done int64
	next := g.opts.Size / 10
	for _, p := range g.plans {
		projects[p.proj.folder] = true
		s := newSess(g, p)
		if err := s.run(); err != nil {
			return err
		}
		if g.err != nil {
			return g.err
		}
		done += s.bytes
		if done >= next {
			g.logf("gencorpus: %d%% (%d MB)", done*100/g.opts.Size, done>>20)
			next += g.opts.Size / 10
		}
	}
	g.truth.Projects = len(projects)
	return nil
}

// countResponse adds one distinct response to the totals.
func (g *gen) countResponse(model string, tsMs int64, u usageT) {
	g.eachUsage(model, tsMs, func(x *Usage) { x.add(u) })
}

// countAdvisor adds an advisor_message iteration: usage of its own model, at
// the time of the response that holds it (SPEC §3 "Advisor usage").
func (g *gen) countAdvisor(model string, tsMs int64, u usageT) {
	g.eachUsage(model, tsMs, func(x *Usage) {
		x.addTokens(u)
		x.AdvisorInferences++
	})
	g.truth.Notes["advisor_inferences"]++
}

// eachUsage applies add to the totals, the model's roll-up and the day's.
func (g *gen) eachUsage(model string, tsMs int64, add func(*Usage)) {
	add(&g.truth.Totals)
	m := g.byModel[model]
	if m == nil {
		m = &Usage{}
		g.byModel[model] = m
	}
	add(m)
	d := dayUTC(tsMs)
	du := g.byDay[d]
	if du == nil {
		du = &Usage{}
		g.byDay[d] = du
	}
	add(du)
}

// countCall adds one distinct tool call with its outcome.
func (g *gen) countCall(tool string, o outcome) {
	var tc ToolCalls
	switch o {
	case outOK:
		tc.OK = 1
	case outError:
		tc.Error = 1
	case outRejected:
		tc.Rejected = 1
	default:
		tc.Pending = 1
	}
	g.truth.ToolCalls.add(tc)
	bt := g.byTool[tool]
	if bt == nil {
		bt = &ToolCalls{}
		g.byTool[tool] = bt
	}
	bt.add(tc)
}

func (g *gen) finish() Truth {
	t := g.truth
	t.ByModel = map[string]Usage{}
	for k, v := range g.byModel {
		t.ByModel[k] = *v
	}
	t.ByDayUTC = map[string]Usage{}
	for k, v := range g.byDay {
		t.ByDayUTC[k] = *v
	}
	if g.opts.Round2 {
		t.ToolCallsByTool = map[string]ToolCalls{}
		for k, v := range g.byTool {
			t.ToolCallsByTool[k] = *v
		}
	}
	t.Files = t.Sessions + t.SubagentFiles
	if g.lastTS > 0 {
		t.FirstTimestamp = fmtTS(g.firstTS)
		t.LastTimestamp = fmtTS(g.lastTS)
	}
	sort.Strings(t.RareWord.Sessions)
	t.RareWord.Count = len(t.RareWord.Places)
	return t
}

// --- output files -----------------------------------------------------------

// jfile is one JSONL file being written. It tracks what truth.json needs:
// size, line count, newest timestamp (for the mtime) and per-file tool calls.
type jfile struct {
	g     *gen
	rel   string // relative to Out
	path  string
	f     *os.File
	w     *bufio.Writer
	n     int64
	lines int64
	maxTS int64

	calls   int64
	results ToolCalls
	rec     *replayChunk // when set, every line is also copied here
	prefix  *replayChunk // round two: likewise, for the workers that replay the file so far
	owner   *int64       // the session's byte counter
}

func (g *gen) create(rel string) *jfile {
	path := filepath.Join(g.out, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil && g.err == nil {
		g.err = err
	}
	f, err := os.Create(path)
	if err != nil {
		if g.err == nil {
			g.err = err
		}
		f = nil
	}
	jf := &jfile{g: g, rel: rel, path: path, f: f}
	if f != nil {
		jf.w = bufio.NewWriterSize(f, 1<<18)
	}
	return jf
}

// put writes one line (which must end in '\n'); ts is its timestamp in Unix
// ms, or 0 when the line has none.
func (f *jfile) put(line []byte, ts int64) {
	if f.w != nil {
		if _, err := f.w.Write(line); err != nil && f.g.err == nil {
			f.g.err = err
		}
	}
	f.n += int64(len(line))
	f.lines++
	if f.owner != nil {
		*f.owner += int64(len(line))
	}
	if ts > f.maxTS {
		f.maxTS = ts
	}
	if ts > 0 {
		if ts < f.g.firstTS {
			f.g.firstTS = ts
		}
		if ts > f.g.lastTS {
			f.g.lastTS = ts
		}
	}
	for _, rc := range [2]*replayChunk{f.rec, f.prefix} {
		if rc != nil {
			rc.lines = append(rc.lines, append([]byte(nil), line...))
			rc.ts = append(rc.ts, ts)
		}
	}
}

// close flushes the file, sets its mtime to its newest line (fallback when
// no line has a timestamp) and adds its counts to the truth.
func (f *jfile) close(fallback int64) {
	g := f.g
	if f.w != nil {
		if err := f.w.Flush(); err != nil && g.err == nil {
			g.err = err
		}
		if err := f.f.Close(); err != nil && g.err == nil {
			g.err = err
		}
		ts := f.maxTS
		if ts == 0 {
			ts = fallback
		}
		mt := time.UnixMilli(ts)
		if err := os.Chtimes(f.path, mt, mt); err != nil && g.err == nil {
			g.err = err
		}
	}
	g.truth.Bytes += f.n
	g.truth.Lines += f.lines
	tc := f.results
	tc.Pending = f.calls - tc.OK - tc.Error - tc.Rejected
	g.truth.ToolCallsInFiles.add(tc)
}

// writeSidecar writes a small non-JSONL file (meta.json, tool-results/*.txt).
func (g *gen) writeSidecar(rel string, data []byte, ts int64) {
	path := filepath.Join(g.out, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil && g.err == nil {
		g.err = err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil && g.err == nil {
		g.err = err
	}
	mt := time.UnixMilli(ts)
	if err := os.Chtimes(path, mt, mt); err != nil && g.err == nil {
		g.err = err
	}
	g.truth.SidecarFiles++
}

// newRand returns the PCG stream for one purpose of one session.
func (g *gen) newRand(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(g.opts.Seed)^0x5deece66d, stream))
}
