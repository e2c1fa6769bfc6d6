package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

var testNow = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

func TestGenerateIsDeterministicAndTruthMatchesNaiveRecount(t *testing.T) {
	_, _, dir := checkCorpus(t, 5<<20, 7, false)
	data, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"round2"`, `"tool_calls_by_tool"`, `"advisor_inferences"`, "worker_"} {
		if bytes.Contains(data, []byte(key)) {
			t.Errorf("truth.json without Round2 mentions %s: round one's output must not change", key)
		}
	}
}

// checkCorpus generates twice, compares the trees byte for byte, and checks
// truth.json against an independent recount by the SPEC §3 rules and the
// list of required shapes. It returns the truth, the recount and the tree.
func checkCorpus(t *testing.T, size, seed int64, round2 bool) (Truth, recounted, string) {
	d1, d2 := t.TempDir(), t.TempDir()
	opts := Options{Out: d1, Size: size, Seed: seed, Now: testNow, Round2: round2}
	tr1, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Out = d2
	if _, err := Generate(opts); err != nil {
		t.Fatal(err)
	}
	compareTrees(t, d1, d2)

	again, err := Generate(Options{Out: d1, Size: size, Seed: seed, Now: testNow, Round2: round2})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Reused {
		t.Errorf("second Generate into %s: Reused = false, want true", d1)
	}
	other, err := Generate(Options{Out: d2, Size: size, Seed: seed, Now: testNow, Round2: !round2})
	if err != nil {
		t.Fatal(err)
	}
	if other.Reused {
		t.Errorf("Generate with Round2 %v reused a tree written with Round2 %v", !round2, round2)
	}

	var onDisk Truth
	data, err := os.ReadFile(filepath.Join(d1, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &onDisk); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(onDisk.Totals, tr1.Totals) {
		t.Errorf("truth.json totals %+v differ from returned %+v", onDisk.Totals, tr1.Totals)
	}

	rc := recount(t, d1)
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: recount %+v, truth %+v", name, got, want)
		}
	}
	check("totals", rc.totals, onDisk.Totals)
	check("by_model", rc.byModel, onDisk.ByModel)
	check("by_day_utc", rc.byDay, onDisk.ByDayUTC)
	check("api_errors", rc.apiErrors, onDisk.APIErrors)
	check("tool_calls", rc.tools, onDisk.ToolCalls)
	check("tool_calls_in_files", rc.toolsInFiles, onDisk.ToolCallsInFiles)
	if round2 {
		check("tool_calls_by_tool", rc.byTool, onDisk.ToolCallsByTool)
	}
	check("files", rc.files, onDisk.Files)
	check("sessions", rc.sessions, onDisk.Sessions)
	check("subagent_files", rc.subagentFiles, onDisk.SubagentFiles)
	check("lines", rc.lines, onDisk.Lines)
	check("bytes", rc.bytes, onDisk.Bytes)
	check("first_timestamp", rc.first, onDisk.FirstTimestamp)
	check("last_timestamp", rc.last, onDisk.LastTimestamp)
	sortPlaces(onDisk.RareWord.Places)
	check("rare word places", rc.rare, onDisk.RareWord.Places)
	if onDisk.RareWord.Count != 3 || len(rc.rare) != 3 {
		t.Errorf("rare word: truth count %d, found on %d lines, want 3", onDisk.RareWord.Count, len(rc.rare))
	}

	// Every shape the reader must survive is present even at 5 MB.
	for _, f := range []string{
		"nested subagent", "nested meta.json", "legacy sibling agent", "inline sidechain",
		"acompact worker", "proxy model", "synthetic", "growing output", "identical output",
		"out-of-order timestamps", "agent_progress with usage", "toolUseResult usage",
		"replayed message", "base64 image", "persisted output", "windows cwd", "pending call",
		"rejected call", "errored call", "no cache_creation split",
	} {
		if !rc.features[f] {
			t.Errorf("corpus lacks %q", f)
		}
	}
	for _, f := range round2Features {
		if rc.features[f] != round2 {
			t.Errorf("Round2 %v: corpus has %q = %v", round2, f, rc.features[f])
		}
	}
	if rc.oldest < testNow.Add(-30*24*time.Hour).UnixMilli() || rc.newest > testNow.Add(-time.Hour).UnixMilli() {
		t.Errorf("timestamps %s..%s outside the 30 days before now minus an hour", rc.first, rc.last)
	}
	if onDisk.Bytes < size*7/10 || onDisk.Bytes > size*14/10 {
		t.Errorf("size %d bytes, want about %d", onDisk.Bytes, size)
	}
	return onDisk, rc, d1
}

// round2Features are the shapes only Round2 writes.
var round2Features = []string{
	"relay responses under one id", "relay all-zero copy", "relay split copy",
	"advisor iteration", "unpriced advisor", "2.1.152 cache line",
	"worker acompact", "worker aside_question", "worker fork", "full resume",
}

// TestRound2TruthCountsCopiesOnce checks, on a small round-two corpus, that
// the truth counts by the SPEC rules where simpler rules would count
// otherwise: checkCorpus has already compared it with the SPEC recount.
func TestRound2TruthCountsCopiesOnce(t *testing.T) {
	tr, rc, _ := checkCorpus(t, 5<<20, 11, true)
	if !tr.Round2 {
		t.Error("truth.round2 = false")
	}
	if rc.idOnlyResponses >= int(tr.Totals.Responses) {
		t.Errorf("distinct message ids %d, responses %d: the relays' responses share one id and must stay apart",
			rc.idOnlyResponses, tr.Totals.Responses)
	}
	if rc.topLevelCacheCreation >= tr.Totals.CacheCreationTokens {
		t.Errorf("cache_creation_input_tokens alone %d, truth %d: the 2.1.152 split must add to it",
			rc.topLevelCacheCreation, tr.Totals.CacheCreationTokens)
	}
	if n := tr.Totals.AdvisorInferences; n == 0 || n != tr.Notes["advisor_inferences"] {
		t.Errorf("advisor inferences: totals %d, notes %d", n, tr.Notes["advisor_inferences"])
	}
	if a := tr.ByModel[unpricedAdvice]; a.AdvisorInferences == 0 || a.Responses != 0 || a.InputTokens == 0 {
		t.Errorf("by_model[%s] = %+v: want advisor usage of its own, no responses", unpricedAdvice, a)
	}
	copied := callsTotal(tr.ToolCallsInFiles) - callsTotal(tr.ToolCalls)
	if w := tr.Notes["worker_copied_calls"]; w == 0 || copied < w {
		t.Errorf("calls counted per file exceed distinct calls by %d; workers copied %d", copied, w)
	}
	for _, k := range workerKinds {
		if tr.SubagentLayouts["worker_"+k] == 0 {
			t.Errorf("no %s worker", k)
		}
	}
	var sum ToolCalls
	for _, v := range tr.ToolCallsByTool {
		sum.add(v)
	}
	if sum != tr.ToolCalls {
		t.Errorf("tool_calls_by_tool sums to %+v, tool_calls %+v", sum, tr.ToolCalls)
	}
}

func callsTotal(tc ToolCalls) int64 { return tc.OK + tc.Error + tc.Rejected + tc.Pending }

func TestGenerateRefusesForeignTree(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "projects", "-home-me-repo", "s.jsonl")
	if err := os.MkdirAll(filepath.Dir(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(foreign, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(Options{Out: dir, Size: 1 << 20, Seed: 1}); err == nil {
		t.Fatal("Generate over a projects/ tree it did not write: no error")
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Fatalf("foreign file was touched: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"50MB": 50 << 20, "1GB": 1 << 30, "1.5gib": 3 << 29, "300k": 300 << 10, "4096": 4096} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1MB", "lots"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
}

func compareTrees(t *testing.T, a, b string) {
	t.Helper()
	list := func(root string) map[string]string {
		m := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			m[rel] = info.ModTime().UTC().Format(time.RFC3339Nano) + "\x00" + string(data)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ma, mb := list(a), list(b)
	if len(ma) != len(mb) {
		t.Fatalf("trees differ: %d files vs %d", len(ma), len(mb))
	}
	for k, v := range ma {
		if mb[k] != v {
			t.Fatalf("file %s differs between two runs with the same seed", k)
		}
	}
}

// --- an independent, naive recount ------------------------------------------

type rcTokens struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreation            *struct {
		E5m int64 `json:"ephemeral_5m_input_tokens"`
		E1h int64 `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
}

type rcUsage struct {
	rcTokens
	Iterations []struct {
		rcTokens
		Type  string `json:"type"`
		Model string `json:"model"`
	} `json:"iterations"`
}

// cache is the cache creation of a usage object by SPEC §3: a split with a
// non-zero sum is authoritative, else everything is 5-minute.
func (u rcTokens) cache() (c5, c1 int64) {
	if cc := u.CacheCreation; cc != nil && cc.E5m+cc.E1h > 0 {
		return cc.E5m, cc.E1h
	}
	return u.CacheCreationInputTokens, 0
}

func (u rcTokens) zero() bool {
	c5, c1 := u.cache()
	return u.InputTokens == 0 && u.OutputTokens == 0 && u.CacheReadInputTokens == 0 && c5+c1 == 0 && u.CacheCreationInputTokens == 0
}

// rcKey is a response's identity (SPEC §3 "What makes two lines copies of one
// response"): message.id, requestId (absent = empty) and the input side.
type rcKey struct {
	id, req    string
	in, cc, cr int64
}

type rcLine struct {
	Type              string          `json:"type"`
	Timestamp         string          `json:"timestamp"`
	Cwd               string          `json:"cwd"`
	IsSidechain       bool            `json:"isSidechain"`
	IsAPIErrorMessage bool            `json:"isApiErrorMessage"`
	RequestID         *string         `json:"requestId"`
	ToolUseResult     json.RawMessage `json:"toolUseResult"`
	Data              json.RawMessage `json:"data"`
	Snapshot          *struct {
		Timestamp string `json:"timestamp"`
	} `json:"snapshot"`
	Message *struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *rcUsage        `json:"usage"`
	} `json:"message"`
}

type rcBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   *bool           `json:"is_error"`
	Content   json.RawMessage `json:"content"`
	Text      string          `json:"text"`
	Source    *struct {
		Data string `json:"data"`
	} `json:"source"`
}

type rcBest struct {
	u     rcUsage
	model string
	day   string
	file  string
}

// rcAssistant is one assistant line with usage, before copies are grouped.
type rcAssistant struct {
	key  rcKey
	zero bool
	best rcBest
}

type recounted struct {
	totals                         Usage
	byModel, byDay                 map[string]Usage
	apiErrors                      int64
	tools, toolsInFiles            ToolCalls
	byTool                         map[string]ToolCalls
	idOnlyResponses                int   // distinct message ids: what keying on the id alone finds
	topLevelCacheCreation          int64 // cache_creation_input_tokens alone, on the counted copies
	files, sessions, subagentFiles int
	lines, bytes                   int64
	first, last                    string
	oldest, newest                 int64
	rare                           []RarePlace
	features                       map[string]bool
}

func recount(t *testing.T, out string) recounted {
	t.Helper()
	rc := recounted{features: map[string]bool{}, oldest: 1<<63 - 1}
	best := map[rcKey]*rcBest{}
	outputs := map[rcKey]map[int64]bool{}
	ids := map[string]bool{}
	synthetic := map[string]bool{}
	outcomes := map[string]string{} // distinct tool_use id → outcome
	toolName := map[string]string{}
	var files []string
	err := filepath.WalkDir(filepath.Join(out, "projects"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".meta.json") {
			rc.features["nested meta.json"] = true
		}
		if strings.Contains(p, "/tool-results/") {
			rc.features["persisted output"] = true
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	for _, path := range files {
		rel, _ := filepath.Rel(out, path)
		base := filepath.Base(path)
		isAgent := strings.HasPrefix(base, "agent-")
		rc.files++
		if isAgent {
			rc.subagentFiles++
			switch {
			case strings.Contains(rel, "/subagents/agent-acompact-"):
				rc.features["acompact worker"] = true
			case strings.Contains(rel, "/subagents/"):
				rc.features["nested subagent"] = true
			default:
				rc.features["legacy sibling agent"] = true
			}
		} else {
			rc.sessions++
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := f.Stat()
		rd := bufio.NewReader(f)
		calls := map[string]bool{}
		results := map[string]string{}
		var assistants []rcAssistant
		var maxTS, maxSnap, prevTS int64
		var lineNo int64
		for {
			raw, err := rd.ReadBytes('\n')
			if len(raw) == 0 && err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v (last line without newline?)", rel, err)
			}
			lineNo++
			rc.lines++
			rc.bytes += int64(len(raw))
			if bytes.Contains(raw, []byte(RareWord)) {
				rc.rare = append(rc.rare, RarePlace{File: rel, Line: lineNo})
			}
			var l rcLine
			if err := json.Unmarshal(raw, &l); err != nil {
				t.Fatalf("%s:%d: %v", rel, lineNo, err)
			}
			if l.Timestamp != "" {
				ts, err := time.Parse(time.RFC3339Nano, l.Timestamp)
				if err != nil {
					t.Fatalf("%s:%d: %v", rel, lineNo, err)
				}
				ms := ts.UnixMilli()
				maxTS = max(maxTS, ms)
				if ms < prevTS && l.Type == "user" {
					rc.features["out-of-order timestamps"] = true
				}
				prevTS = ms
				if ms < rc.oldest {
					rc.oldest, rc.first = ms, l.Timestamp
				}
				if ms > rc.newest {
					rc.newest, rc.last = ms, l.Timestamp
				}
			} else if l.Snapshot != nil {
				ts, _ := time.Parse(time.RFC3339Nano, l.Snapshot.Timestamp)
				maxSnap = max(maxSnap, ts.UnixMilli())
			}
			if strings.HasPrefix(l.Cwd, `C:\`) {
				rc.features["windows cwd"] = true
			}
			if l.IsSidechain && !isAgent {
				rc.features["inline sidechain"] = true
			}
			if l.Type == "progress" {
				if bytes.Contains(l.Data, []byte(`"agent_progress"`)) && bytes.Contains(l.Data, []byte(`"output_tokens"`)) {
					rc.features["agent_progress with usage"] = true
				}
				continue // never counted
			}
			if bytes.Contains(l.ToolUseResult, []byte(`"totalTokens"`)) && bytes.Contains(l.ToolUseResult, []byte(`"usage"`)) {
				rc.features["toolUseResult usage"] = true
			}
			if l.Message == nil {
				continue
			}
			var blocks []rcBlock
			if len(l.Message.Content) > 0 && l.Message.Content[0] == '[' {
				if err := json.Unmarshal(l.Message.Content, &blocks); err != nil {
					t.Fatalf("%s:%d: content: %v", rel, lineNo, err)
				}
			}
			for _, b := range blocks {
				switch b.Type {
				case "tool_use":
					calls[b.ID] = true
					toolName[b.ID] = b.Name
				case "tool_result":
					results[b.ToolUseID] = outcomeOf(b)
				case "image":
					if b.Source != nil && len(b.Source.Data) >= 100<<10 {
						rc.features["base64 image"] = true
					}
				}
				for _, inner := range innerBlocks(b) {
					if inner.Type == "image" && inner.Source != nil && len(inner.Source.Data) >= 100<<10 {
						rc.features["base64 image"] = true
					}
				}
			}
			if l.Type != "assistant" || l.Message.ID == "" {
				continue
			}
			id := l.Message.ID
			if l.Message.Model == "<synthetic>" || l.IsAPIErrorMessage {
				synthetic[id] = true
				rc.features["synthetic"] = true
				continue
			}
			if l.Message.Model == modelProxy && l.RequestID == nil {
				rc.features["proxy model"] = true
			}
			u := l.Message.Usage
			if u == nil {
				t.Fatalf("%s:%d: assistant line without usage", rel, lineNo)
			}
			if u.CacheCreation == nil && u.CacheCreationInputTokens > 0 {
				rc.features["no cache_creation split"] = true
			}
			if c5, c1 := u.cache(); u.CacheCreationInputTokens == 0 && c5+c1 > 0 {
				rc.features["2.1.152 cache line"] = true
			}
			ids[id] = true
			a := rcAssistant{zero: u.zero(), best: rcBest{u: *u, model: l.Message.Model, day: l.Timestamp[:10], file: rel}}
			a.key = rcKey{id: id, in: u.InputTokens, cc: u.CacheCreationInputTokens, cr: u.CacheReadInputTokens}
			if l.RequestID != nil {
				a.key.req = *l.RequestID
			}
			assistants = append(assistants, a)
		}
		f.Close()
		// An all-zero copy joins the next copy of its id in the file that has
		// usage, else the nearest one before it.
		for i := range assistants {
			a := &assistants[i]
			if !a.zero {
				continue
			}
			found := false
			for j := i + 1; j < len(assistants) && !found; j++ {
				if b := assistants[j]; !b.zero && b.key.id == a.key.id {
					a.key, found = b.key, true
				}
			}
			for j := i - 1; j >= 0 && !found; j-- {
				if b := assistants[j]; !b.zero && b.key.id == a.key.id {
					a.key, found = b.key, true
				}
			}
		}
		for _, a := range assistants {
			u := a.best.u
			if outputs[a.key] == nil {
				outputs[a.key] = map[int64]bool{}
			}
			outputs[a.key][u.OutputTokens] = true
			if b := best[a.key]; b != nil && b.file != rel {
				rc.features["replayed message"] = true
			}
			if b := best[a.key]; b == nil || u.OutputTokens >= b.u.OutputTokens {
				nb := a.best
				best[a.key] = &nb
			}
		}
		for _, a := range assistants {
			if a.key.id == relayID && a.zero {
				rc.features["relay all-zero copy"] = true
			}
		}
		if maxTS == 0 {
			maxTS = maxSnap // a file of snapshots only: its mtime is the newest snapshot
		}
		if maxTS > 0 && !info.ModTime().Equal(time.UnixMilli(maxTS)) {
			t.Errorf("%s: mtime %s, newest line %s", rel, info.ModTime().UTC(), time.UnixMilli(maxTS).UTC())
		}
		for id := range calls {
			o, ok := results[id]
			if !ok {
				o = "pending"
			}
			addOutcome(&rc.toolsInFiles, o)
			if prev, seen := outcomes[id]; !seen || prev == "pending" {
				outcomes[id] = o
			}
		}
	}
	rc.byTool = map[string]ToolCalls{}
	for id, o := range outcomes {
		addOutcome(&rc.tools, o)
		tc := rc.byTool[toolName[id]]
		addOutcome(&tc, o)
		rc.byTool[toolName[id]] = tc
	}
	rc.features["pending call"] = rc.tools.Pending > 0
	rc.features["rejected call"] = rc.tools.Rejected > 0
	rc.features["errored call"] = rc.tools.Error > 0
	for _, o := range outputs {
		if len(o) > 1 {
			rc.features["growing output"] = true
		} else {
			rc.features["identical output"] = true
		}
	}

	rc.byModel, rc.byDay = map[string]Usage{}, map[string]Usage{}
	add := func(x Usage, u rcTokens, response bool) Usage {
		c5, c1 := u.cache()
		x.InputTokens += u.InputTokens
		x.OutputTokens += u.OutputTokens
		x.CacheCreationTokens += c5 + c1
		x.CacheReadTokens += u.CacheReadInputTokens
		x.CacheCreation5m += c5
		x.CacheCreation1h += c1
		if response {
			x.Responses++
		} else {
			x.AdvisorInferences++
		}
		return x
	}
	for _, b := range best {
		rc.totals = add(rc.totals, b.u.rcTokens, true)
		rc.byModel[b.model] = add(rc.byModel[b.model], b.u.rcTokens, true)
		rc.byDay[b.day] = add(rc.byDay[b.day], b.u.rcTokens, true)
		rc.topLevelCacheCreation += b.u.CacheCreationInputTokens
		for _, it := range b.u.Iterations {
			if it.Type != "advisor_message" {
				continue
			}
			rc.features["advisor iteration"] = true
			if it.Model == unpricedAdvice {
				rc.features["unpriced advisor"] = true
			}
			rc.totals = add(rc.totals, it.rcTokens, false)
			rc.byModel[it.Model] = add(rc.byModel[it.Model], it.rcTokens, false)
			rc.byDay[b.day] = add(rc.byDay[b.day], it.rcTokens, false)
		}
	}
	rc.idOnlyResponses = len(ids)
	relays := 0
	for k, o := range outputs {
		if k.id == relayID {
			relays++
			if len(o) > 1 {
				rc.features["relay split copy"] = true
			}
		}
	}
	rc.features["relay responses under one id"] = relays > 1
	copyFeatures(t, files, rc.features)
	rc.apiErrors = int64(len(synthetic))

	// rare places: fill in session and kind from truth-independent facts
	for i := range rc.rare {
		p := &rc.rare[i]
		p.Session = strings.TrimSuffix(filepath.Base(p.File), ".jsonl")
		p.Kind = rareKind(t, filepath.Join(out, p.File), p.Line)
	}
	sortPlaces(rc.rare)
	return rc
}

func innerBlocks(b rcBlock) []rcBlock {
	var inner []rcBlock
	if len(b.Content) > 0 && b.Content[0] == '[' {
		_ = json.Unmarshal(b.Content, &inner)
	}
	return inner
}

func outcomeOf(b rcBlock) string {
	var text string
	if len(b.Content) > 0 && b.Content[0] == '"' {
		_ = json.Unmarshal(b.Content, &text)
	} else {
		for _, in := range innerBlocks(b) {
			text += in.Text
		}
	}
	switch {
	case b.IsError == nil || !*b.IsError:
		return "ok"
	case strings.HasPrefix(text, "The user doesn't want to proceed with this tool use"),
		strings.HasPrefix(text, "The user doesn't want to take this action"),
		strings.Contains(text, "[Request interrupted by user for tool use]"):
		return "rejected"
	default:
		return "error"
	}
}

func addOutcome(tc *ToolCalls, o string) {
	switch o {
	case "ok":
		tc.OK++
	case "error":
		tc.Error++
	case "rejected":
		tc.Rejected++
	default:
		tc.Pending++
	}
}

func rareKind(t *testing.T, path string, line int64) string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := bufio.NewReader(f)
	for i := int64(1); ; i++ {
		raw, err := rd.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		if i < line {
			continue
		}
		switch {
		case bytes.Contains(raw, []byte(`"type":"tool_result"`)):
			return "tool_result"
		case bytes.Contains(raw, []byte(`"type":"assistant"`)):
			return "assistant_text"
		default:
			return "user_prompt"
		}
	}
}

func sortPlaces(ps []RarePlace) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
}

// copyFeatures finds round two's copies: worker files that begin with lines
// of their parent's main file and then go on with their own, and main files
// that begin with another session's conversation.
func copyFeatures(t *testing.T, files []string, features map[string]bool) {
	type rcLineID struct {
		UUID        string `json:"uuid"`
		Type        string `json:"type"`
		IsSidechain bool   `json:"isSidechain"`
	}
	read := func(path string) []rcLineID {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []rcLineID
		for _, raw := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			var l rcLineID
			if err := json.Unmarshal(raw, &l); err != nil {
				t.Fatal(err)
			}
			if l.UUID != "" {
				out = append(out, l)
			}
		}
		return out
	}
	mains := map[string][]rcLineID{}
	for _, p := range files {
		if !strings.HasPrefix(filepath.Base(p), "agent-") {
			mains[p] = read(p)
		}
	}
	firsts := map[string]string{} // first uuid → main file
	for p, ls := range mains {
		if len(ls) == 0 {
			continue
		}
		if q, ok := firsts[ls[0].UUID]; ok && q != p {
			features["full resume"] = true
		}
		firsts[ls[0].UUID] = p
	}
	for _, p := range files {
		dir, base := filepath.Split(p)
		if !strings.HasPrefix(base, "agent-") || filepath.Base(dir) != "subagents" {
			continue
		}
		sessDir := filepath.Dir(filepath.Dir(p))
		parent := map[string]bool{}
		for _, l := range mains[sessDir+".jsonl"] {
			parent[l.UUID] = true
		}
		ls := read(p)
		k := 0
		for k < len(ls) && ls[k].IsSidechain && parent[ls[k].UUID] {
			k++
		}
		if k < 2 || k == len(ls) {
			continue
		}
		var kind string
		switch {
		case strings.HasPrefix(base, "agent-acompact-"), strings.HasPrefix(base, "agent-aside_question-"):
			kind = strings.SplitN(strings.TrimPrefix(base, "agent-"), "-", 2)[0]
			if ls[k].Type != "user" {
				continue // its own part starts with its own prompt
			}
		default:
			meta, err := os.ReadFile(strings.TrimSuffix(p, ".jsonl") + ".meta.json")
			if err != nil || !bytes.Contains(meta, []byte(`"agentType":"fork"`)) {
				continue
			}
			kind = "fork"
		}
		for _, l := range ls[k:] {
			if l.Type == "assistant" {
				features["worker "+kind] = true
			}
		}
	}
}
