package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/redact"
)

// TestPlaintextBoundary is the plaintext-boundary proof of SPEC §1 ("no
// plaintext secrets out"): it plants a distinct fake secret of every redactor
// rule in every place a transcript can hold text, calls every tool through the
// real binary with arguments that would surface them, and walks every answer
// (keys, values, error messages) and the server's stderr for any secret or
// the middle 8 bytes of one. Positive checks (exact scan_secrets counts, search
// hits, [REDACTED:...] markers) keep it from passing vacuously.
//
// Every secret is built at run time from a seeded generator, so no committed
// line looks like a credential, and every (rule, place) pair has its own
// value, so a leak names the place it came from.
func TestPlaintextBoundary(t *testing.T) {
	fx := newBoundaryFixture(t)
	fx.build()
	fx.checkDetectable()
	expected := fx.expectedFindings()

	var e *testServer
	obs := &bndObserver{t: t}
	// Registered before startE2E so it runs after the server has been closed
	// (cleanups run last-in first-out): stderr is then complete.
	t.Cleanup(func() {
		if e == nil {
			return
		}
		stderr := e.srv.Stderr()
		for _, h := range newBndLeakDetector(fx.plants).find(stderr) {
			t.Errorf("LEAK on stderr: %s secret of place %q (%s)", h.p.rule, h.p.place, h.excerpt)
		}
		t.Logf("server stderr: %d bytes checked", len(stderr))
	})
	start := time.Now()
	e = startE2E(t, fx.root)

	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		out := e.call(tool, args)
		obs.observe(tool, args, out)
		return out
	}
	callErr := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		out := e.callErr(tool, args)
		obs.observe(tool, args, out)
		if out["error"] != "invalid_argument" {
			t.Errorf("%s: error %v, want invalid_argument", tool, out["error"])
		}
		return out
	}

	// --- every tool over the planted history ---------------------------------
	ls := call("list_recent_sessions", map[string]any{"limit": 200})
	if got := num(ls["total_matched"]); got != fmt.Sprint(len(fx.sessions)) {
		t.Errorf("list_recent_sessions: total_matched %s, want %d", got, len(fx.sessions))
	}
	listed := map[string]map[string]any{}
	for _, s := range ls["sessions"].([]any) {
		m := s.(map[string]any)
		listed[m["session_id"].(string)] = m
	}
	for _, s := range fx.sessions {
		if s.kind != "plain" {
			continue
		}
		m := listed[s.id]
		for _, field := range []string{"first_prompt", "title"} {
			if v, _ := m[field].(string); !strings.Contains(v, "[REDACTED:"+s.rule+"]") {
				t.Errorf("list_recent_sessions %s (%s): %s %q has no [REDACTED:%s]", s.id, s.kind, field, v, s.rule)
			}
		}
	}

	for _, s := range fx.sessions {
		tail := call("tail_agent_log", map[string]any{"session": s.id, "limit": 1000})
		recap := call("session_recap", map[string]any{"session": s.id})
		sum := call("summarize_tool_calls", map[string]any{"session": s.id})
		if s.kind != "full" {
			continue
		}
		marker := "[REDACTED:" + s.rule + "]"
		if n := bndCountIn(tail, marker); n < 5 {
			t.Errorf("tail_agent_log %s: %d %s markers, want at least 5 (texts, error excerpts)", s.id, n, marker)
		}
		if n := bndCountIn(recap, marker); n < 10 {
			t.Errorf("session_recap %s: %d %s markers, want at least 10", s.id, n, marker)
		}
		if fc := sum["failing_calls"].([]any); len(fc) != 3 {
			t.Errorf("summarize_tool_calls %s: %d failing calls, want 3 (Bash, Edit, subagent Bash)", s.id, len(fc))
		} else if n := bndCountIn(sum, marker); n < 4 {
			t.Errorf("summarize_tool_calls %s: %d %s markers in failing calls, want at least 4", s.id, n, marker)
		}
	}

	for _, r := range fx.rules {
		p := fx.byPlace[r]["prompt"]
		// The secret's first 8 characters, literally.
		s := call("search_transcripts", map[string]any{"query": p.secret[:8], "limit": 200})
		if num(s["total_matches"]) == "0" {
			t.Errorf("search %s prefix %q: no match", r, "(first 8)")
		}
		// A regex matching the whole secret of the prompt.
		s = call("search_transcripts", map[string]any{"query": regexp.QuoteMeta(p.secret), "regex": true, "limit": 200})
		if num(s["total_matches"]) == "0" {
			t.Errorf("search %s regex for the whole secret: no match", r)
		}
		// The word planted right before every secret of this rule: the
		// snippet around it would hold the secret.
		s = call("search_transcripts", map[string]any{"query": p.nbr, "limit": 200})
		want := fx.searchable[r]
		if got := num(s["total_matches"]); got != fmt.Sprint(want) {
			t.Errorf("search %s neighbour word %s: total_matches %s, want %d", r, p.nbr, got, want)
		}
		if n := bndCountIn(s, "[REDACTED:"+r+"]"); n == 0 {
			t.Errorf("search %s neighbour word %s: no snippet shows [REDACTED:%s]", r, p.nbr, r)
		}
		// Restricted to one session and role, with a regex spanning word and secret.
		call("search_transcripts", map[string]any{"query": regexp.QuoteMeta(p.nbr) + `\s+\S+`, "regex": true,
			"session": fx.sessionOf(r, "full").id, "roles": []string{"user", "assistant", "tool_result"}})
	}

	fa := call("file_activity", map[string]any{"path": "**/*", "limit": 500})
	if got, want := num(fa["total_touches"]), fmt.Sprint(fx.touches); got != want {
		t.Errorf("file_activity **/*: total_touches %s, want %s", got, want)
	}
	if bndCountIn(fa, "[REDACTED:") == 0 {
		t.Errorf("file_activity: no file_path shows a [REDACTED:...] marker")
	}
	for _, g := range []string{"session", "model", "repo", "day", "day,model"} {
		call("usage_report", map[string]any{"group_by": g})
	}
	call("pacing_window", map[string]any{"hours": 168})
	call("coverage_stats", map[string]any{})

	// Every finding, over as many pages as the answer budget takes: the last
	// page's summary, every page's findings.
	scan := call("scan_secrets", map[string]any{"max_findings": 1000})
	findings := scan["findings"].([]any)
	for next := scan["next_cursor"]; next != nil; next = scan["next_cursor"] {
		scan = call("scan_secrets", map[string]any{"max_findings": 1000, "cursor": next})
		findings = append(findings, scan["findings"].([]any)...)
	}
	scan["findings"] = findings
	t.Run("scan_counts", func(t *testing.T) { fx.checkScan(t, scan, expected) })
	for _, s := range fx.sessions[:2] {
		call("scan_secrets", map[string]any{"session": s.id, "max_findings": 1000})
	}

	// --- error paths that carry the caller's text -----------------------------
	// These values are the caller's own arguments, not transcript text; they
	// are tracked as place "arg:*" so a leak here is told apart (see report).
	for _, r := range fx.rules {
		ctx := func(place string) string { return fx.newPlant(r, place).ctx }
		callErr("tail_agent_log", map[string]any{"session": ctx("arg:session")})
		callErr("scan_secrets", map[string]any{"session": ctx("arg:scan_session")})
		callErr("list_recent_sessions", map[string]any{"since": ctx("arg:since")})
		callErr("search_transcripts", map[string]any{"query": "(" + ctx("arg:regex"), "regex": true})
		callErr("search_transcripts", map[string]any{"query": "x", "roles": []string{ctx("arg:roles")}})
		callErr("usage_report", map[string]any{"group_by": ctx("arg:group_by")})
		callErr("file_activity", map[string]any{"path": ctx("arg:path") + "["})
		callErr("list_recent_sessions", map[string]any{ctx("arg:unknown_key"): 1})
	}
	obs.det = newBndLeakDetector(fx.plants) // now including the argument values
	obs.recheck()

	obs.report()
	t.Logf("planted %d secrets (%d rules) in %d sessions; %d tool calls, %d strings walked; expected %d scan findings; %s",
		len(fx.plants), len(fx.rules), len(fx.sessions), obs.calls, obs.strings, len(expected), time.Since(start).Round(time.Millisecond))
}

// ---------------------------------------------------------------------------
// Fake secrets

// bndPlant is one fake secret written in one place.
type bndPlant struct {
	rule, place string
	ctx         string // the text written (a secret with the context its rule needs)
	secret      string // what the redactor finds: must never come out
	nbr         string // a word written right before ctx, unique per rule
}

type bndSecretGen struct{ r *rand.Rand }

const (
	alnumChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	hexLowerCh = "0123456789abcdef"
	base32Ch   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

func (g bndSecretGen) from(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.Intn(len(alphabet))]
	}
	return string(b)
}

// alnum returns n random letters and digits with at least one of each kind,
// so assignment values are never mistaken for identifiers.
func (g bndSecretGen) alnum(n int) string {
	b := []byte(g.from(alnumChars, n))
	if n >= 3 {
		b[0] = alnumChars[g.r.Intn(26)]
		b[n/2] = alnumChars[52+g.r.Intn(10)]
		b[n-1] = alnumChars[26+g.r.Intn(26)]
	}
	return string(b)
}

func bndB64URL(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// bndSecretBuilders returns, per rule, a context and the secret inside it.
// Every rule of redact.Rules() must have one (checked).
var bndSecretBuilders = map[string]func(g bndSecretGen) (ctx, secret string){
	"anthropic_api_key": bndSelf(func(g bndSecretGen) string { return "sk-ant-api03-" + g.alnum(93) + "AA" }),
	"openai_api_key":    bndSelf(func(g bndSecretGen) string { return "sk-proj-" + g.alnum(60) + "T3BlbkFJ" + g.alnum(60) }),
	"github_token":      bndSelf(func(g bndSecretGen) string { return "ghp_" + g.alnum(36) }),
	"gitlab_token":      bndSelf(func(g bndSecretGen) string { return "glpat-" + g.alnum(20) }),
	"aws_access_key_id": bndSelf(func(g bndSecretGen) string { return "AKIA" + g.from(base32Ch, 16) }),
	"aws_secret_access_key": func(g bndSecretGen) (string, string) {
		v := g.alnum(30) + "/" + g.alnum(8) + "+"
		return "aws_secret_access_key = " + v, v
	},
	"google_api_key": bndSelf(func(g bndSecretGen) string { return "AIza" + g.alnum(33) + "-_" }),
	"slack_token": bndSelf(func(g bndSecretGen) string {
		return "xoxb-" + g.from("0123456789", 12) + "-" + g.from("0123456789", 13) + "-" + g.alnum(24)
	}),
	"stripe_key":        bndSelf(func(g bndSecretGen) string { return "sk_live_" + g.alnum(24) }),
	"npm_token":         bndSelf(func(g bndSecretGen) string { return "npm_" + g.alnum(36) }),
	"pypi_token":        bndSelf(func(g bndSecretGen) string { return "pypi-AgEIcHlwaS5vcmc" + g.alnum(70) }),
	"huggingface_token": bndSelf(func(g bndSecretGen) string { return "hf_" + g.alnum(34) }),
	"twilio_api_key":    bndSelf(func(g bndSecretGen) string { return "SK" + g.from(hexLowerCh, 32) }),
	"sendgrid_api_key":  bndSelf(func(g bndSecretGen) string { return "SG." + g.alnum(22) + "." + g.alnum(43) }),
	"jwt": bndSelf(func(g bndSecretGen) string {
		return bndB64URL(`{"alg":"HS256","typ":"JWT"}`) + "." + bndB64URL(`{"sub":"`+g.alnum(12)+`","name":"Test"}`) + "." + g.alnum(43)
	}),
	"private_key": bndSelf(func(g bndSecretGen) string {
		return "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + g.alnum(32) + "\n" + g.alnum(64) + "\n" +
			g.alnum(20) + "==\n-----END PRIVATE KEY-----"
	}),
	"bearer_token": func(g bndSecretGen) (string, string) {
		v := g.alnum(40) + "._-"
		return "Authorization: Bearer " + v, v
	},
	"basic_auth": func(g bndSecretGen) (string, string) {
		v := base64.StdEncoding.EncodeToString([]byte("alice:" + g.alnum(16)))
		return "Authorization: Basic " + v, v
	},
	"url_credentials": func(g bndSecretGen) (string, string) {
		v := g.alnum(20)
		return "postgres://app:" + v + "@db.internal:5432/app", v
	},
	"generic_secret": func(g bndSecretGen) (string, string) {
		v := g.alnum(20)
		return "DB_PASSWORD=" + v, v
	},
}

func bndSelf(f func(g bndSecretGen) string) func(g bndSecretGen) (string, string) {
	return func(g bndSecretGen) (string, string) { s := f(g); return s, s }
}

// text is how a plant is written in free text: its neighbour word, then the secret.
func (p *bndPlant) text() string { return p.nbr + " " + p.ctx }

// ---------------------------------------------------------------------------
// The fixture

type bndSession struct {
	id, rule, kind string // kind: full, plain, identifiers
}

type boundaryFixture struct {
	t       *testing.T
	root    string
	proj    string
	gen     bndSecretGen
	ids     *rand.Rand
	rules   []string
	plants  []*bndPlant
	byPlace map[string]map[string]*bndPlant // rule -> place -> bndPlant

	sessions   []bndSession
	searchable map[string]int // rule -> entries a search for its neighbour word must hit
	touches    int            // file tool calls (file_activity **/*)
	outTokens  int
	clock      time.Time
}

const boundaryCwd = "/home/dev/boundary"

func newBoundaryFixture(t *testing.T) *boundaryFixture {
	root := filepath.Join(t.TempDir(), "projects")
	fx := &boundaryFixture{t: t, root: root, proj: filepath.Join(root, "-home-dev-boundary"),
		gen: bndSecretGen{rand.New(rand.NewSource(20261130))}, ids: rand.New(rand.NewSource(7)),
		byPlace: map[string]map[string]*bndPlant{}, searchable: map[string]int{},
		clock: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)}
	fx.rules = redact.Rules()
	for _, r := range fx.rules {
		if bndSecretBuilders[r] == nil {
			t.Fatalf("rule %s has no fake-secret builder in boundary_test.go: add one", r)
		}
	}
	if err := os.MkdirAll(fx.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	return fx
}

func (fx *boundaryFixture) newPlant(rule, place string) *bndPlant {
	ctx, sec := bndSecretBuilders[rule](fx.gen)
	i := sort.SearchStrings(bndSortedCopy(fx.rules), rule)
	p := &bndPlant{rule: rule, place: place, ctx: ctx, secret: sec, nbr: fmt.Sprintf("wombat%02dq", i)}
	fx.plants = append(fx.plants, p)
	if fx.byPlace[rule] == nil {
		fx.byPlace[rule] = map[string]*bndPlant{}
	}
	fx.byPlace[rule][place] = p
	return p
}

func bndSortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

func (fx *boundaryFixture) sessionOf(rule, kind string) bndSession {
	for _, s := range fx.sessions {
		if s.rule == rule && s.kind == kind {
			return s
		}
	}
	fx.t.Fatalf("no %s session for %s", kind, rule)
	return bndSession{}
}

func (fx *boundaryFixture) uuid() string {
	r := fx.ids
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", r.Uint32(), r.Intn(1<<16), r.Intn(1<<12), 0x8000|r.Intn(1<<14), r.Int63()&(1<<48-1))
}

func (fx *boundaryFixture) id(prefix string, n int) string {
	return prefix + bndSecretGen{fx.ids}.from(alnumChars, n)
}

func (fx *boundaryFixture) build() {
	for _, r := range fx.rules {
		fx.buildFull(r)
		fx.buildPlain(r)
	}
	fx.buildIdentifiers()
}

// bndJSONLFile accumulates the lines of one transcript.
type bndJSONLFile struct {
	path   string
	buf    bytes.Buffer
	newest time.Time
}

func (f *bndJSONLFile) add(v map[string]any) {
	enc := json.NewEncoder(&f.buf)
	enc.SetEscapeHTML(false) // Claude Code writes <, > and & as they are
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	if ts, ok := v["timestamp"].(string); ok {
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil && t.After(f.newest) {
			f.newest = t
		}
	}
}

func bndWriteFile(t *testing.T, path string, data []byte, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func (f *bndJSONLFile) write(t *testing.T) { bndWriteFile(t, f.path, f.buf.Bytes(), f.newest) }

// session writes the lines of one session file with the common fields.
type bndSessionWriter struct {
	fx        *boundaryFixture
	f         *bndJSONLFile
	sid       string
	branch    string
	sidechain bool
	agentID   string
	parent    any
	now       time.Time
	model     string
}

func (w *bndSessionWriter) base(typ string) map[string]any {
	w.now = w.now.Add(time.Second)
	m := map[string]any{"parentUuid": w.parent, "isSidechain": w.sidechain, "userType": "external", "entrypoint": "cli",
		"cwd": boundaryCwd, "sessionId": w.sid, "version": "2.1.90", "gitBranch": w.branch, "type": typ,
		"uuid": w.fx.uuid(), "timestamp": w.now.Format("2006-01-02T15:04:05.000Z")}
	if w.agentID != "" {
		m["agentId"] = w.agentID
	}
	w.parent = m["uuid"]
	return m
}

func (w *bndSessionWriter) user(content any, extra map[string]any) string {
	m := w.base("user")
	m["message"] = map[string]any{"role": "user", "content": content}
	for k, v := range extra {
		m[k] = v
	}
	w.f.add(m)
	return m["uuid"].(string)
}

// assistant writes one line per block, repeating the message id with growing
// output_tokens, as Claude Code does.
func (w *bndSessionWriter) assistant(blocks ...map[string]any) string {
	msgID := w.fx.id("msg_01", 22)
	var uuid string
	for i, b := range blocks {
		w.fx.outTokens++
		m := w.base("assistant")
		m["requestId"] = w.fx.id("req_011C", 16)
		m["message"] = map[string]any{"model": w.model, "id": msgID, "type": "message", "role": "assistant",
			"content": []any{b}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 3, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000,
				"output_tokens": w.fx.outTokens * (i + 1), "service_tier": "standard"}}
		w.f.add(m)
		uuid = m["uuid"].(string)
	}
	return uuid
}

func bndTextBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func (w *bndSessionWriter) toolUse(name string, input map[string]any) (string, map[string]any) {
	id := w.fx.id("toolu_01", 22)
	return id, map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}

func (w *bndSessionWriter) result(id string, content any, isErr bool, tur any) {
	b := map[string]any{"tool_use_id": id, "type": "tool_result", "content": content}
	if isErr {
		b["is_error"] = true
	}
	extra := map[string]any{}
	if tur != nil {
		extra["toolUseResult"] = tur
	}
	w.user([]any{b}, extra)
}

func (fx *boundaryFixture) newSession(rule, kind string) (*bndSessionWriter, string) {
	sid := fx.uuid()
	fx.sessions = append(fx.sessions, bndSession{id: sid, rule: rule, kind: kind})
	fx.clock = fx.clock.Add(10 * time.Minute)
	return &bndSessionWriter{fx: fx, f: &bndJSONLFile{path: filepath.Join(fx.proj, sid+".jsonl")}, sid: sid, branch: "main",
		now: fx.clock, model: "claude-sonnet-4-5-20250929"}, sid
}

// filler returns n bytes of prose ending in a space (empty for n <= 0).
func bndFiller(n int) string {
	if n <= 0 {
		return ""
	}
	s := strings.Repeat("lorem ipsum dolor sit amet ", n/27+2)[:n-1]
	return s + " "
}

// bndStraddle returns text with p's secret placed so that cutting the text at
// cut runes keeps the secret's first half and its middle 8 bytes but not its
// end: a redactor that runs after such a cut no longer sees a whole secret.
// lost is how many more runes the tool's own label ("summary: ") will push
// past its final length limit.
func bndStraddle(prefix string, p *bndPlant, cut, lost int) string {
	off := strings.Index(p.ctx, p.secret)
	keep := min(len(p.secret)/2+6+lost, len(p.secret)-1)
	return prefix + bndFiller(cut-len([]rune(prefix))-off-keep) + p.ctx + " end of note"
}

// buildFull writes the session that plants one rule everywhere.
func (fx *boundaryFixture) buildFull(r string) {
	P := func(place string) *bndPlant { return fx.newPlant(r, place) }
	w, sid := fx.newSession(r, "full")

	// Summary lines come first in real files and point at a later line.
	finalUUID := fx.uuid()
	w.f.add(map[string]any{"type": "summary", "summary": P("summary").text(), "leafUuid": finalUUID})
	w.f.add(map[string]any{"type": "summary", "summary": bndStraddle("Summary: ", P("summary_clip"), 299, len("summary: ")), "leafUuid": finalUUID})

	w.user(P("first").text()+" — please deploy", nil)
	w.assistant(map[string]any{"type": "thinking", "thinking": "Think: " + P("thinking").text(), "signature": "c2lnbmF0dXJl"},
		bndTextBlock("Sure, I will use "+P("asst").text()+" for that."))

	id, tu := w.toolUse("Bash", map[string]any{"command": "curl -fsS https://api.internal/v1 # " + P("bash_err_cmd").text(), "description": "Call the API"})
	w.assistant(tu)
	w.result(id, "Exit code 1\ncurl: (22) 401 Unauthorized for "+P("bash_err_result").text(), true, "Error: Exit code 1")

	id, tu = w.toolUse("Bash", map[string]any{"command": "export " + P("bash_ok_cmd").text() + " && ./deploy.sh", "description": "Deploy"})
	w.assistant(tu)
	okOut := "deployed with " + P("bash_ok_result").text()
	w.result(id, []any{bndTextBlock(okOut)}, false, map[string]any{"stdout": okOut, "stderr": "", "interrupted": false, "isImage": false})

	// Edit that fails: its input shows up as the failing call's input excerpt.
	editPath := boundaryCwd + "/src/config.go"
	if p := fx.newPlantIf(r, "edit_path"); p != nil {
		editPath = boundaryCwd + "/secrets/" + p.secret + "/config.go"
	}
	id, tu = w.toolUse("Edit", map[string]any{"file_path": editPath, "old_string": "const key = \"\"", "new_string": "const key = `" + P("edit_new").text() + "`"})
	w.assistant(tu)
	w.result(id, "<tool_use_error>String to replace not found in file.\nString: const key = \"\"</tool_use_error>", true,
		"Error: String to replace not found in file.")
	fx.touches++

	writePath := boundaryCwd + "/.env"
	if p := fx.newPlantIf(r, "write_path"); p != nil {
		writePath = boundaryCwd + "/keys/" + p.secret + "/id.txt"
	}
	content := "# local settings\n" + P("write_content").text() + "\n"
	id, tu = w.toolUse("Write", map[string]any{"file_path": writePath, "content": content})
	w.assistant(tu)
	w.result(id, "File created successfully at: "+writePath, false, map[string]any{"type": "create", "filePath": writePath, "content": content})
	fx.touches++

	// A large output spilled to tool-results/<id>.txt.
	id, tu = w.toolUse("Bash", map[string]any{"command": "go test -v ./... 2>&1", "description": "Run the tests"})
	w.assistant(tu)
	spillPath := filepath.Join(fx.proj, sid, "tool-results", id+".txt")
	w.result(id, "<persisted-output>\nOutput too large (38.2KB). Full output saved to: "+spillPath+"\n\nPreview (first 2KB):\n=== RUN   TestDeploy\n"+
		P("spill_preview").text()+"\n...\n</persisted-output>", false, nil)
	bndWriteFile(fx.t, spillPath, []byte("=== RUN   TestDeploy\n    deploy_test.go:12: using "+P("spill_file").text()+"\n--- PASS: TestDeploy (0.10s)\nPASS\n"), w.now)

	todos := []any{
		map[string]any{"content": "Rotate " + P("todo").text(), "status": "pending", "activeForm": "Rotating"},
		map[string]any{"content": bndStraddle("Check ", P("todo_clip"), 299, 0), "status": "in_progress", "activeForm": "Checking"},
	}
	id, tu = w.toolUse("TodoWrite", map[string]any{"todos": todos})
	w.assistant(tu)
	w.result(id, "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.", false,
		map[string]any{"oldTodos": []any{}, "newTodos": todos})

	// A subagent (2.1.x layout) with its prompt, a failing tool call and a result.
	agentID := "a" + bndSecretGen{fx.ids}.from(hexLowerCh, 16)
	prompt, desc := P("agent_prompt").text(), "Check "+P("agent_desc").text()
	id, tu = w.toolUse("Agent", map[string]any{"description": desc, "prompt": prompt, "subagent_type": "general-purpose"})
	agentCallUUID := w.assistant(tu)
	sub := &bndSessionWriter{fx: fx, f: &bndJSONLFile{path: filepath.Join(fx.proj, sid, "subagents", "agent-"+agentID+".jsonl")}, sid: sid,
		branch: "main", sidechain: true, agentID: agentID, now: w.now, model: "claude-haiku-4-5-20251001"}
	sub.user(prompt, nil)
	subCall, subTU := sub.toolUse("Bash", map[string]any{"command": "vault read " + P("sub_cmd").text()})
	sub.assistant(bndTextBlock("Looking at "+P("sub_asst").text()), subTU)
	sub.result(subCall, "Error: permission denied for "+P("sub_result").text(), true, nil)
	sub.assistant(bndTextBlock("The vault path is not readable."))
	sub.f.write(fx.t)
	meta, _ := json.Marshal(map[string]any{"agentType": "general-purpose", "description": desc})
	bndWriteFile(fx.t, strings.TrimSuffix(sub.f.path, ".jsonl")+".meta.json", meta, sub.f.newest)

	pl := w.base("progress")
	pl["parentUuid"] = agentCallUUID
	pl["data"] = map[string]any{"message": map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}},
		"normalizedMessages": []any{}, "type": "agent_progress", "prompt": prompt, "agentId": agentID}
	pl["toolUseID"], pl["parentToolUseID"] = "agent_msg_"+id, id
	w.f.add(pl)
	w.now = sub.now
	agentOut := "Report: " + P("agent_result").text()
	w.result(id, []any{bndTextBlock(agentOut), bndTextBlock("agentId: " + agentID + "\n<usage>total_tokens: 999\ntool_uses: 1\nduration_ms: 10</usage>")}, false,
		map[string]any{"status": "completed", "prompt": prompt, "agentId": agentID, "content": []any{bndTextBlock(agentOut)}, "agentType": "general-purpose"})

	sys := w.base("system")
	sys["subtype"], sys["level"], sys["content"] = "local_command", "info", "<local-command-stdout>"+P("system").text()+"</local-command-stdout>"
	w.f.add(sys)
	w.user("<local-command-stdout>"+P("cmd_stdout").text()+"</local-command-stdout>", nil)
	w.user("This session is being continued from a previous conversation that ran out of context. Summary: "+P("compact_summary").text(),
		map[string]any{"isCompactSummary": true, "isVisibleInTranscriptOnly": true})
	w.user("One more thing: "+P("prompt").text(), nil)

	// Titles are clipped at 300 runes too; the AI title straddles that cut.
	w.f.add(map[string]any{"type": "ai-title", "sessionId": sid, "aiTitle": bndStraddle("Deploy ", P("ai_title_clip"), 299, len("ai-title: "))})
	w.f.add(map[string]any{"type": "custom-title", "sessionId": sid, "customTitle": "deploy " + P("custom_title").text()})
	if url := fx.prURL(r); url != "" {
		w.f.add(map[string]any{"type": "pr-link", "prNumber": 7, "prUrl": url, "prRepository": "dev/boundary",
			"timestamp": w.now.Format("2006-01-02T15:04:05.000Z"), "sessionId": sid})
	}
	last := w.base("assistant")
	last["uuid"] = finalUUID
	last["message"] = map[string]any{"model": w.model, "id": fx.id("msg_01", 22), "type": "message", "role": "assistant",
		"content": []any{bndTextBlock("Done. Remember to rotate " + P("final").text())}, "stop_reason": "end_turn",
		"usage": map[string]any{"input_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 500, "output_tokens": 20}}
	w.f.add(last)
	w.f.write(fx.t)

	// Entries a search for the rule's neighbour word hits (one per entry):
	// prompts first and prompt, assistant texts asst and final, results
	// bash_err_result, bash_ok_result, spill (full file), agent_result; in the
	// subagent: sub_asst, sub_result (the subagent's prompt is not a human prompt).
	fx.searchable[r] += 10
}

// newPlantIf plants a secret of rule r only when the rule's secret is its
// own context and has no whitespace, so that it can sit in a file path or be
// a URL password.
func (fx *boundaryFixture) newPlantIf(r, place string) *bndPlant {
	ctx, sec := bndSecretBuilders[r](bndSecretGen{rand.New(rand.NewSource(1))})
	if ctx != sec || strings.ContainsAny(sec, " \n") {
		return nil
	}
	return fx.newPlant(r, place)
}

// prURL returns a pr-link URL with credentials in it, when the rule's secret
// can be a URL password.
func (fx *boundaryFixture) prURL(r string) string {
	if r == "url_credentials" {
		p := fx.newPlant(r, "pr_link")
		p.ctx = "https://dev:" + p.secret + "@github.com/dev/boundary/pull/7"
		return p.ctx
	}
	if p := fx.newPlantIf(r, "pr_link"); p != nil {
		return "https://x-access-token:" + p.secret + "@github.com/dev/boundary/pull/7"
	}
	return ""
}

// buildPlain writes a session without titles: its first prompt is its title
// and first_prompt, and holds a second secret straddling the 400-rune cut of
// first prompts.
func (fx *boundaryFixture) buildPlain(r string) {
	w, _ := fx.newSession(r, "plain")
	a := fx.newPlant(r, "first_plain")
	b := fx.newPlant(r, "first_clip")
	w.user(bndStraddle(a.text()+" then ", b, 399, 0), nil)
	w.assistant(bndTextBlock("Deployed."))
	w.f.write(fx.t)
	fx.searchable[r] += 1
}

// buildIdentifiers writes one session whose short identifier-like fields
// (branch, todo status, subagent type, tool and model names) hold a GitHub
// token: fields the tools may pass through without redaction.
func (fx *boundaryFixture) buildIdentifiers() {
	const r = "github_token"
	w, sid := fx.newSession(r, "identifiers")
	w.branch = "feature/" + fx.newPlant(r, "id:git_branch").secret
	w.model = "claude-" + fx.newPlant(r, "id:model").secret
	w.user("Tidy up the branch", nil)
	todos := []any{map[string]any{"content": "Tidy", "status": fx.newPlant(r, "id:todo_status").secret, "activeForm": "Tidying"}}
	id, tu := w.toolUse("TodoWrite", map[string]any{"todos": todos})
	w.assistant(tu)
	w.result(id, "Todos have been modified successfully.", false, nil)
	id, tu = w.toolUse("mcp__vault__"+fx.newPlant(r, "id:tool_name").secret, map[string]any{"path": "kv/app"})
	w.assistant(tu)
	w.result(id, "ok", true, nil)
	agentID := "a" + bndSecretGen{fx.ids}.from(hexLowerCh, 16)
	sub := &bndSessionWriter{fx: fx, f: &bndJSONLFile{path: filepath.Join(fx.proj, sid, "subagents", "agent-"+agentID+".jsonl")}, sid: sid,
		branch: w.branch, sidechain: true, agentID: agentID, now: w.now, model: "claude-haiku-4-5-20251001"}
	sub.user("List the branches", nil)
	sub.assistant(bndTextBlock("Two branches."))
	sub.f.write(fx.t)
	meta, _ := json.Marshal(map[string]any{"agentType": fx.newPlant(r, "id:agent_type").secret, "description": "List branches"})
	bndWriteFile(fx.t, strings.TrimSuffix(sub.f.path, ".jsonl")+".meta.json", meta, sub.f.newest)
	w.now = sub.now
	w.assistant(bndTextBlock("Done."))
	w.f.write(fx.t)
}

// checkDetectable makes sure the redactor sees every planted secret where it
// was planted: otherwise a "leak" below would be a fixture mistake.
func (fx *boundaryFixture) checkDetectable() {
	for _, p := range fx.plants {
		in := p.text() + " end"
		if strings.HasPrefix(p.place, "id:") {
			in = "x " + p.secret + " x"
		}
		fs := redact.Find(in)
		if len(fs) != 1 || fs[0].Secret != p.secret || fs[0].Rule != p.rule {
			fx.t.Fatalf("fixture: redact.Find(%s/%s) = %+v, want one %s finding of the planted secret", p.rule, p.place, fs, p.rule)
		}
	}
}

// ---------------------------------------------------------------------------
// scan_secrets expectations

type bndFindingKey struct {
	file        string
	line        int
	fingerprint string
}

// expectedFindings lists, for every transcript line and spilled output, each
// planted secret on it once.
func (fx *boundaryFixture) expectedFindings() map[bndFindingKey]*bndPlant {
	out := map[bndFindingKey]*bndPlant{}
	err := filepath.Walk(fx.root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fx.root, path)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(path, ".jsonl"):
			for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
				var v any
				if err := json.Unmarshal(line, &v); err != nil {
					return fmt.Errorf("%s:%d: %v", rel, i+1, err)
				}
				var all strings.Builder
				bndWalkJSON(v, "", func(_, s string) { all.WriteString(s); all.WriteByte('\n') })
				for _, p := range fx.plants {
					if strings.Contains(all.String(), p.secret) {
						out[bndFindingKey{rel, i + 1, redact.Fingerprint(p.secret)}] = p
					}
				}
			}
		case strings.HasSuffix(path, ".txt"):
			text := string(data)
			for _, p := range fx.plants {
				if i := strings.Index(text, p.secret); i >= 0 {
					out[bndFindingKey{rel, 1 + strings.Count(text[:i], "\n"), redact.Fingerprint(p.secret)}] = p
				}
			}
		}
		return nil
	})
	if err != nil {
		fx.t.Fatal(err)
	}
	return out
}

func (fx *boundaryFixture) checkScan(t *testing.T, scan map[string]any, expected map[bndFindingKey]*bndPlant) {
	summary := scan["summary"].(map[string]any)
	if got := num(summary["findings"]); got != fmt.Sprint(len(expected)) {
		t.Errorf("scan_secrets: summary.findings %s, want exactly %d (one per planted secret per line)", got, len(expected))
	}
	if summary["truncated"] != false {
		t.Errorf("scan_secrets: truncated with max_findings 1000")
	}
	wantByRule := map[string]int{}
	for _, p := range expected {
		wantByRule[p.rule]++
	}
	byRule, _ := summary["by_rule"].(map[string]any)
	for _, r := range fx.rules {
		if got := num(byRule[r]); got != fmt.Sprint(wantByRule[r]) {
			t.Errorf("scan_secrets: by_rule[%s] = %s, want %d", r, got, wantByRule[r])
		}
	}
	seen := map[bndFindingKey]bool{}
	for _, f := range scan["findings"].([]any) {
		m := f.(map[string]any)
		line, _ := m["line"].(json.Number).Int64()
		// Paths leave with the home shown as "~", the encoded folder names too.
		file := strings.Replace(m["file"].(string), "~-", "-home-dev-", 1)
		k := bndFindingKey{file, int(line), m["fingerprint"].(string)}
		p := expected[k]
		switch {
		case seen[k]:
			t.Errorf("scan_secrets: duplicate finding %s:%d %s", k.file, k.line, m["rule"])
		case p == nil:
			t.Errorf("scan_secrets: unexpected finding %s at %s:%d (masked %q)", m["rule"], k.file, k.line, m["masked"])
		default:
			if m["rule"] != p.rule || m["masked"] != redact.Mask(p.secret) {
				t.Errorf("scan_secrets: %s:%d rule %v masked %q, want %s %q", k.file, k.line, m["rule"], m["masked"], p.rule, redact.Mask(p.secret))
			}
		}
		seen[k] = true
	}
	var missing []string
	for k, p := range expected {
		if !seen[k] {
			missing = append(missing, fmt.Sprintf("%s/%s at %s:%d", p.rule, p.place, k.file, k.line))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("scan_secrets: missed planted secret %s", m)
	}
}

// ---------------------------------------------------------------------------
// Leak detection

type bndLeakHit struct {
	p       *bndPlant
	excerpt string
}

// bndLeakDetector finds any planted secret, or the middle 8 bytes of one, in a
// string (also in JSON-escaped form, as in input excerpts).
type bndLeakDetector struct {
	mids  map[string][]*bndPlant
	short []*bndPlant // secrets under 16 bytes: matched whole
}

func newBndLeakDetector(plants []*bndPlant) *bndLeakDetector {
	d := &bndLeakDetector{mids: map[string][]*bndPlant{}}
	for _, p := range plants {
		forms := []string{p.secret}
		if esc := bndJSONEscape(p.secret); esc != p.secret {
			forms = append(forms, esc)
		}
		for _, s := range forms {
			if len(s) < 16 {
				d.short = append(d.short, p)
				continue
			}
			m := s[len(s)/2-4 : len(s)/2+4]
			d.mids[m] = append(d.mids[m], p)
		}
	}
	return d
}

func bndJSONEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func (d *bndLeakDetector) find(s string) []bndLeakHit {
	var hits []bndLeakHit
	seen := map[*bndPlant]bool{}
	add := func(p *bndPlant, at int) {
		if !seen[p] {
			seen[p] = true
			lo, hi := max(0, at-40), min(len(s), at+48)
			hits = append(hits, bndLeakHit{p, fmt.Sprintf("…%s…", strings.ToValidUTF8(s[lo:hi], "?"))})
		}
	}
	for i := 0; i+8 <= len(s); i++ {
		for _, p := range d.mids[s[i:i+8]] {
			add(p, i)
		}
	}
	for _, p := range d.short {
		if i := strings.Index(s, p.secret); i >= 0 {
			add(p, i)
		}
	}
	return hits
}

func bndWalkJSON(v any, path string, fn func(path, s string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			fn(path+"{key}", k)
			bndWalkJSON(val, path+"."+k, fn)
		}
	case []any:
		for i, val := range x {
			bndWalkJSON(val, fmt.Sprintf("%s[%d]", path, i), fn)
		}
	case string:
		fn(path, x)
	}
}

func bndCountIn(v any, sub string) int {
	n := 0
	bndWalkJSON(v, "", func(_, s string) { n += strings.Count(s, sub) })
	return n
}

type bndObserved struct {
	label string
	out   map[string]any
}

// bndObserver keeps every answer; recheck walks them all for leaks, grouped
// by category (see bndLeakCategory), tool, field and the place of the secret.
type bndObserver struct {
	t       *testing.T
	det     *bndLeakDetector
	seen    []bndObserved
	calls   int
	strings int
	leaks   map[string]map[string][]string // category -> group -> excerpts
}

var (
	bndIndexRE    = regexp.MustCompile(`\[\d+\]`)
	bndFieldKeyRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
	bndKnownArgs  = map[string]bool{"session": true, "limit": true, "query": true, "regex": true, "roles": true, "path": true,
		"group_by": true, "hours": true, "since": true, "max_findings": true}
)

func (o *bndObserver) observe(tool string, args map[string]any, out map[string]any) {
	var names []string
	for k := range args {
		if !bndKnownArgs[k] {
			k = "<unknown key>"
		}
		names = append(names, k)
	}
	sort.Strings(names)
	o.calls++
	o.seen = append(o.seen, bndObserved{tool + "(" + strings.Join(names, ",") + ")", out})
}

// bndLeakCategory tells transcript text (SPEC §1) from short identifier fields
// copied from transcripts (place "id:*") and the caller's own arguments echoed
// back (place "arg:*").
func bndLeakCategory(p *bndPlant) string {
	switch {
	case strings.HasPrefix(p.place, "arg:"):
		return "caller_arguments"
	case strings.HasPrefix(p.place, "id:"):
		return "identifier_fields"
	}
	return "transcript_text"
}

func (o *bndObserver) recheck() {
	o.leaks = map[string]map[string][]string{}
	o.strings = 0
	for _, ob := range o.seen {
		bndWalkJSON(ob.out, "", func(path, s string) {
			o.strings++
			for _, h := range o.det.find(s) {
				cat := bndLeakCategory(h.p)
				if o.leaks[cat] == nil {
					o.leaks[cat] = map[string][]string{}
				}
				g := fmt.Sprintf("%s %s <- %s/%s", ob.label, bndNormPath(path), h.p.place, h.p.rule)
				o.leaks[cat][g] = append(o.leaks[cat][g], h.excerpt)
			}
		})
	}
}

// bndNormPath drops list indexes and map keys that are data, not field names.
func bndNormPath(path string) string {
	path = bndIndexRE.ReplaceAllString(path, "[]")
	parts := strings.Split(path, ".")
	for i, p := range parts {
		name, suffix := p, ""
		if j := strings.IndexAny(p, "[{"); j >= 0 {
			name, suffix = p[:j], p[j:]
		}
		if name != "" && !bndFieldKeyRE.MatchString(name) {
			parts[i] = "*" + suffix
		}
	}
	return strings.Join(parts, ".")
}

func (o *bndObserver) report() {
	for _, cat := range []string{"transcript_text", "identifier_fields", "caller_arguments"} {
		groups := make([]string, 0, len(o.leaks[cat]))
		for g := range o.leaks[cat] {
			groups = append(groups, g)
		}
		sort.Strings(groups)
		o.t.Run(cat, func(t *testing.T) {
			for _, g := range groups {
				t.Errorf("LEAK %s (%d times), e.g. %q", g, len(o.leaks[cat][g]), o.leaks[cat][g][0])
			}
		})
	}
}
