package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/redact"
	"github.com/parquet-go/parquet-go"
)

// exportCommand writes the history's two tables (SPEC §11) into --out:
// responses and tool_calls, as NDJSON or Parquet, for an engine to query.
// Rows come from logs.Snapshot.ExportResponses and ExportToolCalls, so they
// count exactly as the tools do; every string passes redact.Output; no
// transcript text is written. Nothing goes to stdout; stderr gets a
// progress line while a long export runs and one closing line.
func exportCommand(ctx context.Context, a *app, args []string, stderr io.Writer) int {
	fset := flag.NewFlagSet("export", flag.ContinueOnError)
	fset.SetOutput(stderr)
	out := fset.String("out", "", "the folder to write responses.<format> and tool_calls.<format> into (required; made if missing)")
	format := fset.String("format", "ndjson", "ndjson (one JSON object a line; ClickHouse JSONEachRow) or parquet")
	since := fset.String("since", "", "only rows at or after this time: RFC 3339, a date, today, yesterday, or a duration back from now (30d)")
	until := fset.String("until", "", "only rows before this time; same forms as since (a date means through that day)")
	machine := fset.String("machine", "", "only this machine's history (a label of AGENT_ACTIVITY_LOG_ROOT, local when unlabelled)")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "Usage: agent-activity export --out DIR [--format ndjson|parquet] [--since 30d] [--until T] [--machine M]")
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(stderr, "agent-activity export: "+format+"\n", args...)
		return code
	}
	switch {
	case fset.NArg() > 0:
		return fail(2, "unexpected argument %q; see --help", fset.Arg(0))
	case *out == "":
		return fail(2, "--out DIR is required: the folder to write the tables into")
	case *format != "ndjson" && *format != "parquet":
		return fail(2, "--format must be ndjson or parquet, not %q", *format)
	}
	cfg := a.cfg
	tr, err := logs.ParseTimeRange(*since, *until, cfg.Now(), cfg.Location)
	if err != nil {
		return fail(2, "%v", err)
	}
	dir, err := filepath.Abs(expandHome(*out))
	if err != nil {
		return fail(2, "--out %q: %v", *out, err)
	}
	var roots []string
	for _, src := range cfg.Sources {
		roots = append(roots, src.Roots...)
	}
	if root := rootHolding(append(roots, cfg.Roots...), dir); root != "" {
		return fail(2, "--out %s is inside the log root %s, which is never written to; choose another folder", dir, root)
	}

	start := time.Now()
	prog := &progressLine{w: stderr, start: start}
	snap, err := a.store.Snapshot(ctx, func(done, total int) { prog.say("reading transcripts: %d of %d files", done, total) })
	if err != nil {
		return fail(1, "reading the logs: %v", err)
	}
	if snap, err = snap.OnMachine(*machine); err != nil {
		return fail(2, "--machine: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(1, "cannot make %s: %v", dir, err)
	}
	red := redactor{}
	nResp, err := writeTable(ctx, filepath.Join(dir, "responses."+*format), *format, snap.ExportResponses(tr),
		func(r logs.ResponseRow) responseRecord { return red.response(r) }, prog, "responses")
	if err != nil {
		return fail(1, "%v", err)
	}
	nCalls, err := writeTable(ctx, filepath.Join(dir, "tool_calls."+*format), *format, snap.ExportToolCalls(tr),
		func(r logs.ToolCallRow) toolCallRecord { return red.toolCall(r) }, prog, "tool calls")
	if err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(stderr, "agent-activity export: %d responses and %d tool calls written to %s (%s) in %s\n",
		nResp, nCalls, dir, *format, durationString(time.Since(start)))
	return 0
}

// rowHead is where both tables' rows start: when, where, who, which session.
// Time is RFC 3339 in NDJSON and a UTC millisecond timestamp in Parquet;
// null when the line had none.
type rowHead struct {
	Time      *string `json:"time" parquet:"-"`
	TimeMs    *int64  `json:"-" parquet:"time,optional,timestamp(millisecond)"`
	Machine   string  `json:"machine" parquet:"machine,dict"`
	Agent     string  `json:"agent" parquet:"agent,dict"`
	SessionID string  `json:"session_id" parquet:"session_id,dict"`
	Repo      string  `json:"repo" parquet:"repo,dict"`
}

// responseRecord is a row of the responses table.
type responseRecord struct {
	rowHead
	Model         string  `json:"model" parquet:"model,dict"`
	Input         int64   `json:"input_tokens" parquet:"input_tokens"`
	Output        int64   `json:"output_tokens" parquet:"output_tokens"`
	CacheCreation int64   `json:"cache_creation_tokens" parquet:"cache_creation_tokens"`
	CacheRead     int64   `json:"cache_read_tokens" parquet:"cache_read_tokens"`
	Cost          float64 `json:"cost" parquet:"cost"`
	CostStatus    string  `json:"cost_status" parquet:"cost_status,dict"`
}

// toolCallRecord is a row of the tool_calls table.
type toolCallRecord struct {
	rowHead
	Tool    string `json:"tool" parquet:"tool,dict"`
	Outcome string `json:"outcome" parquet:"outcome,dict"`
	Source  string `json:"source" parquet:"source,dict"`
}

// redactor passes every string of a row through redact.Output, once per
// distinct value: the columns repeat a few values over many rows.
type redactor map[string]string

func (r redactor) s(v string) string {
	out, ok := r[v]
	if !ok {
		out = redact.Output(v)
		r[v] = out
	}
	return out
}

func (r redactor) head(ms int64, machine, agent, sessionID, repo string) rowHead {
	h := rowHead{Machine: r.s(machine), Agent: r.s(agent), SessionID: r.s(sessionID), Repo: r.s(repo)}
	if ms != 0 {
		t := time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
		h.Time, h.TimeMs = &t, &ms
	}
	return h
}

func (r redactor) response(x logs.ResponseRow) responseRecord {
	return responseRecord{rowHead: r.head(x.Time, x.Machine, x.Agent, x.SessionID, x.Repo), Model: r.s(x.Model),
		Input: x.Input, Output: x.Output, CacheCreation: x.CacheCreation, CacheRead: x.CacheRead,
		Cost: x.Cost, CostStatus: r.s(x.CostStatus)}
}

func (r redactor) toolCall(x logs.ToolCallRow) toolCallRecord {
	return toolCallRecord{rowHead: r.head(x.Time, x.Machine, x.Agent, x.SessionID, x.Repo),
		Tool: r.s(x.Tool), Outcome: r.s(x.Outcome), Source: r.s(x.Source)}
}

// writeTable writes rows to path in format, through a temporary file renamed
// into place at the end, so a reader never sees half a table. It returns how
// many rows it wrote.
func writeTable[R, T any](ctx context.Context, path, format string, rows iter.Seq[R], conv func(R) T, prog *progressLine, what string) (int, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return 0, fmt.Errorf("cannot write in %s: %v", filepath.Dir(path), err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	var sink tableSink[T]
	if format == "parquet" {
		sink = &parquetSink[T]{w: parquet.NewGenericWriter[T](tmp, parquet.Compression(&parquet.Zstd),
			parquet.CreatedBy("agent-activity", version(), ""))}
	} else {
		sink = newNDJSONSink[T](tmp)
	}
	n := 0
	for r := range rows {
		if err := sink.write(conv(r)); err != nil {
			tmp.Close()
			return n, fmt.Errorf("writing %s: %v", path, err)
		}
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				tmp.Close()
				return n, err
			}
			prog.say("writing %s: %d rows", what, n)
		}
	}
	if err := sink.close(); err != nil {
		tmp.Close()
		return n, fmt.Errorf("writing %s: %v", path, err)
	}
	if err := tmp.Close(); err != nil {
		return n, fmt.Errorf("writing %s: %v", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil { // CreateTemp made it 0600
		return n, fmt.Errorf("writing %s: %v", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return n, fmt.Errorf("cannot put %s in place: %v", path, err)
	}
	return n, nil
}

// tableSink is one table's encoder.
type tableSink[T any] interface {
	write(T) error
	close() error
}

type ndjsonSink[T any] struct {
	buf *bufio.Writer
	enc *json.Encoder
}

func newNDJSONSink[T any](w io.Writer) *ndjsonSink[T] {
	buf := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return &ndjsonSink[T]{buf: buf, enc: enc}
}

func (s *ndjsonSink[T]) write(v T) error { return s.enc.Encode(v) }
func (s *ndjsonSink[T]) close() error    { return s.buf.Flush() }

// parquetSink hands rows to parquet-go in batches.
type parquetSink[T any] struct {
	w     *parquet.GenericWriter[T]
	batch []T
}

func (s *parquetSink[T]) write(v T) error {
	s.batch = append(s.batch, v)
	if len(s.batch) < 4096 {
		return nil
	}
	return s.flush()
}

func (s *parquetSink[T]) flush() error {
	_, err := s.w.Write(s.batch)
	s.batch = s.batch[:0]
	return err
}

func (s *parquetSink[T]) close() error {
	if err := s.flush(); err != nil {
		return err
	}
	return s.w.Close()
}

// progressLine says how a long export is going: nothing in its first second,
// then at most one line a second.
type progressLine struct {
	w     io.Writer
	start time.Time
	last  time.Time
	now   func() time.Time // time.Now when nil
}

func (p *progressLine) say(format string, args ...any) {
	now := time.Now()
	if p.now != nil {
		now = p.now()
	}
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < time.Second {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "agent-activity export: "+format+"\n", args...)
}

// rootHolding returns the configured log root that dir is inside of (with
// symlinks resolved as far as dir exists), or "".
func rootHolding(roots []string, dir string) string {
	real := resolveExisting(dir)
	for _, r := range roots {
		rr := resolveExisting(r)
		for _, pair := range [][2]string{{r, dir}, {rr, real}} {
			if rel, err := filepath.Rel(pair[0], pair[1]); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return r
			}
		}
	}
	return ""
}

// resolveExisting resolves the symlinks of p's longest existing prefix and
// joins the rest back on.
func resolveExisting(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
