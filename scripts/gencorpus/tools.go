package main

import (
	"strconv"
	"strings"
)

// Tool calls: inputs, results and outcomes.

type toolKind int

const (
	tBash toolKind = iota
	tRead
	tEdit
	tWrite
	tGrep
	tGlob
	tTodo
	tMCP
	tWebFetch
	tWebSearch
	tAgent
)

var mainToolWeights = []float64{30, 25, 12, 4, 8, 5, 4, 7, 2, 1}
var exploreToolWeights = []float64{20, 40, 0, 0, 25, 15, 0, 0, 0, 0}

type outcome int

const (
	outOK outcome = iota
	outError
	outRejected
	outPending // no result: the log stops before it
)

type toolCall struct {
	id            string
	kind          toolKind
	name          string
	input         []byte
	path          string
	outcome       outcome
	assistantUUID string
	mcp           *mcpTool
	rare          bool
	agentType     string
	description   string
	prompt        string
}

type mcpTool struct {
	name   string
	server string
	tool   string
	input  string
	image  bool
}

var mcpTools = []mcpTool{
	{"mcp__github__get_issue", "github", "get_issue", `{"owner":"dev","repo":"%R","issue_number":%N}`, false},
	{"mcp__github__create_pull_request", "github", "create_pull_request", `{"owner":"dev","repo":"%R","title":"Fix flaky %R tests","head":"fix/flaky-tests","base":"main"}`, false},
	{"mcp__playwright__browser_navigate", "playwright", "browser_navigate", `{"url":"http://localhost:%N/"}`, false},
	{"mcp__playwright__browser_take_screenshot", "playwright", "browser_take_screenshot", `{}`, true},
	{"mcp__serena__find_symbol", "serena", "find_symbol", `{"name_path":"Handler","relative_path":"src","include_body":true}`, false},
	{"mcp__context7__get-library-docs", "context7", "get-library-docs", `{"context7CompatibleLibraryID":"/vercel/next.js","topic":"routing","tokens":5000}`, false},
	{"mcp__linear__list_issues", "linear", "list_issues", `{"team":"ENG","limit":%N}`, false},
}

var bashCommands = []struct{ cmd, desc string }{
	{"go test ./...", "Run all Go tests"},
	{"go build ./... && go vet ./...", "Build and vet"},
	{"npm run build", "Build the frontend"},
	{"npm test -- --run", "Run unit tests"},
	{"git status", "Show working tree status"},
	{"git diff --stat", "Show diff summary"},
	{"git log --oneline -20", "Show recent commits"},
	{"pytest -q tests/", "Run Python tests"},
	{"cargo build --release", "Build release binary"},
	{"ls -la src", "List source directory"},
	{"make lint", "Run linters"},
	{"docker compose up -d db", "Start the database"},
	{"rg -n \"TODO\" src | head -50", "Find TODOs"},
	{"kubectl get pods -n staging", "List staging pods"},
	{"cat package.json | jq .scripts", "Show npm scripts"},
}

var srcDirs = []string{"src", "internal/server", "pkg/api", "cmd/app", "tests", "docs", "lib", "web/components", "scripts", "migrations"}
var srcExts = []string{".go", ".ts", ".tsx", ".py", ".rs", ".md", ".sql", ".json", ".yaml"}

func (s *sess) relPath() string {
	return pick(s.r, srcDirs) + "/" + pick(s.r, identWords) + "_" + pick(s.r, identWords) + pick(s.r, srcExts)
}

func (s *sess) absPath(rel string) string {
	if s.p.proj.windows {
		return s.cwd + `\` + strings.ReplaceAll(rel, "/", `\`)
	}
	return s.cwd + "/" + rel
}

// newCall builds the tool_use input for a call of the given kind.
func (s *sess) newCall(t *thread, kind toolKind) *toolCall {
	r := s.r
	c := &toolCall{id: randB62(r, "toolu_01", 22), kind: kind}
	b := s.ib[:0]
	switch kind {
	case tBash:
		c.name = "Bash"
		bc := pick(r, bashCommands)
		b = append(b, `{"command":`...)
		b = appendJSON(b, bc.cmd)
		b = append(b, `,"description":`...)
		b = appendJSON(b, bc.desc)
		if chance(r, 0.1) {
			b = append(b, `,"timeout":120000`...)
		}
		b = append(b, '}')
	case tRead:
		c.name = "Read"
		c.path = s.absPath(s.relPath())
		b = append(b, `{"file_path":`...)
		b = appendJSON(b, c.path)
		if chance(r, 0.2) {
			b = append(b, `,"offset":`...)
			b = appendInt(b, int64(rint(r, 1, 400)))
			b = append(b, `,"limit":200`...)
		}
		b = append(b, '}')
	case tEdit:
		c.name = "Edit"
		c.path = s.absPath(s.relPath())
		b = append(b, `{"file_path":`...)
		b = appendJSON(b, c.path)
		b = append(b, `,"old_string":`...)
		b = appendJSON(b, take(r, s.g.pools.code, rint(r, 40, 700)))
		b = append(b, `,"new_string":`...)
		b = appendJSON(b, take(r, s.g.pools.code, rint(r, 40, 900)))
		b = append(b, `,"replace_all":false}`...)
		s.touch(c.path)
	case tWrite:
		c.name = "Write"
		c.path = s.absPath(s.relPath())
		b = append(b, `{"file_path":`...)
		b = appendJSON(b, c.path)
		b = append(b, `,"content":`...)
		b = appendJSON(b, take(r, s.g.pools.code, int(logUniform(r, 300, 16000))))
		b = append(b, '}')
		s.touch(c.path)
	case tGrep:
		c.name = "Grep"
		b = append(b, `{"pattern":`...)
		b = appendJSON(b, pick(r, identWords)+"(Handler|Config)?")
		b = append(b, `,"path":`...)
		b = appendJSON(b, s.absPath(pick(r, srcDirs)))
		if c.rare || chance(r, 0.3) {
			b = append(b, `,"output_mode":"content","-n":true`...)
		} else {
			b = append(b, `,"output_mode":"files_with_matches"`...)
		}
		b = append(b, '}')
	case tGlob:
		c.name = "Glob"
		b = append(b, `{"pattern":`...)
		b = appendJSON(b, "**/*"+pick(r, srcExts))
		b = append(b, '}')
	case tTodo:
		c.name = "TodoWrite"
		b = append(b, `{"todos":`...)
		b = s.appendTodos(b)
		b = append(b, '}')
	case tMCP:
		m := &mcpTools[r.IntN(len(mcpTools))]
		c.mcp = m
		c.name = m.name
		in := strings.ReplaceAll(m.input, "%R", s.p.proj.name)
		in = strings.ReplaceAll(in, "%N", strconv.Itoa(rint(r, 10, 4000)))
		b = append(b, in...)
	case tWebFetch:
		c.name = "WebFetch"
		b = append(b, `{"url":"https://docs.example.dev/`...)
		b = append(b, pick(r, identWords)...)
		b = append(b, `","prompt":"Summarize the configuration options"}`...)
	case tWebSearch:
		c.name = "WebSearch"
		b = append(b, `{"query":`...)
		b = appendJSON(b, pick(r, identWords)+" "+pick(r, identWords)+" best practices 2026")
		b = append(b, '}')
	case tAgent:
		if s.v.atLeast("2.1.63") {
			c.name = "Agent"
		} else {
			c.name = "Task"
		}
		c.agentType = pick(r, []string{"Explore", "Explore", "general-purpose", "Plan"})
		c.description = "Explore " + pick(r, identWords) + " " + pick(r, identWords) + " code"
		c.prompt = string(take(r, s.g.pools.prose, rint(r, 150, 700)))
		b = append(b, `{"description":`...)
		b = appendJSON(b, c.description)
		b = append(b, `,"prompt":`...)
		b = appendJSON(b, c.prompt)
		b = append(b, `,"subagent_type":`...)
		b = appendJSON(b, c.agentType)
		b = append(b, '}')
	}
	s.ib = b
	c.input = append([]byte(nil), b...)
	return c
}

func (s *sess) appendTodos(b []byte) []byte {
	n := rint(s.r, 2, 6)
	b = append(b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		w := pick(s.r, identWords)
		b = append(b, `{"content":`...)
		b = appendJSON(b, "Update "+w+" handling and tests")
		b = append(b, `,"status":`...)
		b = appendJSON(b, pick(s.r, []string{"pending", "in_progress", "completed"}))
		b = append(b, `,"activeForm":`...)
		b = appendJSON(b, "Updating "+w+" handling")
		b = append(b, '}')
	}
	return append(b, ']')
}

func (s *sess) touch(path string) {
	for _, p := range s.edited {
		if p == path {
			return
		}
	}
	if len(s.edited) < 8 {
		s.edited = append(s.edited, path)
	}
}

func (c *toolCall) blockJSON() []byte {
	b := make([]byte, 0, len(c.input)+96)
	b = append(b, `{"type":"tool_use","id":"`...)
	b = append(b, c.id...)
	b = append(b, `","name":`...)
	b = appendJSON(b, c.name)
	b = append(b, `,"input":`...)
	b = append(b, c.input...)
	return append(b, '}')
}

// resultSize draws a tool output size: mostly small, a long tail to 200 KB.
func (s *sess) resultSize() int {
	r := s.r
	switch v := r.Float64(); {
	case v < 0.50:
		return rint(r, 30, 1500)
	case v < 0.85:
		return rint(r, 1500, 8000)
	case v < 0.97:
		return rint(r, 8000, 40000)
	case v < 0.995:
		return rint(r, 40000, 100000)
	default:
		return rint(r, 100000, 200000)
	}
}

// numbered renders text like `cat -n` output, as Read results are.
func numbered(b []byte, text []byte) []byte {
	line := int64(1)
	start := true
	for _, c := range text {
		if start {
			s := strconv.AppendInt(nil, line, 10)
			for i := len(s); i < 6; i++ {
				b = append(b, ' ')
			}
			b = append(b, s...)
			b = append(b, '\t')
			line++
			start = false
		}
		b = append(b, c)
		if c == '\n' {
			start = true
		}
	}
	return b
}

const rejectText = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."
const rejectFeedback = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n"
const rejectTake = "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed."
const interruptForTool = "[Request interrupted by user for tool use]"

// result writes the tool_result line for c (running the subagent first for
// Agent/Task calls) and records the outcome.
func (t *thread) result(c *toolCall) {
	s := t.s
	r := s.r
	g := s.g
	if c.kind == tAgent {
		s.runAgent(t, c)
		return
	}
	content := s.cb[:0] // JSON value of tool_result.content
	var tur []byte      // JSON value of toolUseResult, nil for none
	isErr := ""         // "", "false" or "true"
	var raw []byte      // text size that enters the context
	switch c.outcome {
	case outRejected:
		isErr = "true"
		txt := rejectText
		switch v := r.IntN(10); {
		case v < 2 && c.kind == tBash:
			txt = "Exit code 137\n" + interruptForTool
			tur = []byte(`"Interrupted by user"`)
		case v < 4:
			txt = rejectFeedback + string(take(r, g.pools.prose, rint(r, 20, 200)))
		case v < 5:
			txt = rejectTake
		}
		content = appendJSON(content, txt)
		if tur == nil {
			tur = []byte(`"User rejected tool use"`)
		}
	case outError:
		isErr = "true"
		var txt string
		switch c.kind {
		case tBash:
			code := pick(r, []string{"1", "1", "1", "2", "127"})
			txt = "Exit code " + code + "\n" + string(take(r, g.pools.logs, rint(r, 80, 2500)))
		case tRead:
			txt = "File does not exist. Note: your current working directory is " + s.cwd + "."
		case tEdit:
			txt = "<tool_use_error>String to replace not found in file.\nString: " + string(take(r, g.pools.code, rint(r, 40, 300))) + "</tool_use_error>"
		case tWrite:
			txt = "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"
		case tMCP, tWebFetch:
			txt = "Error: Request failed with status code " + pick(r, []string{"404", "403", "500"})
		default:
			txt = "<tool_use_error>Sibling tool call errored</tool_use_error>"
		}
		content = appendJSON(content, txt)
		tur = appendJSON(nil, "Error: "+txt)
		raw = []byte(txt)
	default:
		isErr, raw, tur = t.okResult(c, &content)
	}
	if !t.tur || c.rare {
		tur = nil
	}
	t.addContext(len(raw) + 40)

	// progress lines before the result (2.1.12–2.1.81 main threads)
	ts := s.tick(50, 3000)
	if c.kind == tBash && len(raw) > 0 {
		s.spend(len(raw))
		ts = s.tick(5, 50)
	}
	if t.progress {
		switch {
		case c.kind == tBash && (chance(r, 0.35) || g.truth.Notes["out_of_order_progress_lines"] == 0):
			n := rint(r, 1, 3)
			for i := 0; i < n; i++ {
				pts := ts - int64((n-1-i)*rint(r, 500, 2000))
				if i == n-1 {
					pts = ts + int64(rint(r, 1, 6)) // written just before, stamped just after
				}
				out := take(r, g.pools.logs, rint(r, 20, 300))
				d := s.db[:0]
				d = append(d, `{"type":"bash_progress","output":`...)
				d = appendJSON(d, out)
				d = append(d, `,"fullOutput":`...)
				d = appendJSON(d, out)
				d = append(d, `,"elapsedTimeSeconds":`...)
				d = appendInt(d, int64(i+2))
				d = append(d, `,"totalLines":`...)
				d = appendInt(d, int64(rint(r, 1, 80)))
				d = append(d, '}')
				s.db = d
				t.progressLine(d, "bash-progress-"+strconv.Itoa(i), c.id, pts)
			}
			s.g.truth.Notes["out_of_order_progress_lines"]++
		case c.kind == tMCP:
			d := append(s.db[:0], `{"type":"mcp_progress","status":"started","serverName":`...)
			d = appendJSON(d, c.mcp.server)
			d = append(d, `,"toolName":`...)
			d = appendJSON(d, c.mcp.tool)
			d = append(d, '}')
			s.db = d
			t.progressLine(d, c.id, c.id, ts-int64(rint(r, 100, 2000)))
		}
	}

	x := s.xb[:0]
	if tur != nil {
		x = append(x, `,"toolUseResult":`...)
		x = append(x, tur...)
	}
	if s.v.atLeast("2.1.0") && c.assistantUUID != "" {
		x = append(x, `,"sourceToolAssistantUUID":"`...)
		x = append(x, c.assistantUUID...)
		x = append(x, '"')
	}
	s.xb = x

	m := s.mb[:0]
	m = append(m, `[{"tool_use_id":"`...)
	m = append(m, c.id...)
	m = append(m, `","type":"tool_result","content":`...)
	m = append(m, content...)
	if isErr != "" {
		m = append(m, `,"is_error":`...)
		m = append(m, isErr...)
	}
	m = append(m, `}]`...)
	s.mb = m
	s.cb = content

	if c.rare {
		s.rarePlace(t.f, "tool_result")
	}
	t.userLine(m, x, ts)
	switch c.outcome {
	case outOK:
		t.f.results.OK++
	case outError:
		t.f.results.Error++
	case outRejected:
		t.f.results.Rejected++
	}
	g.countCall(c.name, c.outcome)
	if t.progress && chance(r, 0.3) {
		d := append(s.db[:0], `{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:`...)
		d = append(d, c.name...)
		d = append(d, `","command":"callback"}`...)
		s.db = d
		t.progressLine(d, c.id, c.id, s.tick(1, 40))
	}
}

// okResult fills a successful result's content and returns is_error, the
// text that enters the context, and toolUseResult.
func (t *thread) okResult(c *toolCall, contentp *[]byte) (string, []byte, []byte) {
	s := t.s
	r := s.r
	g := s.g
	content := *contentp
	var raw, tur []byte
	isErr := ""
	switch c.kind {
	case tBash:
		isErr = "false"
		if s.p.persisted && !s.didPersist {
			s.didPersist = true
			return "false", t.persisted(c, contentp), nil
		}
		raw = take(r, g.pools.logs, s.resultSize())
		content = appendJSON(content, raw)
		tur = append(tur, `{"stdout":`...)
		tur = appendJSON(tur, raw)
		tur = append(tur, `,"stderr":"","interrupted":false,"isImage":false}`...)
	case tRead:
		src := take(r, g.pools.code, s.resultSize())
		raw = numbered(s.nb[:0], src)
		s.nb = raw
		content = appendJSON(content, raw)
		nl := int64(strings.Count(string(src), "\n") + 1)
		tur = append(tur, `{"type":"text","file":{"filePath":`...)
		tur = appendJSON(tur, c.path)
		tur = append(tur, `,"content":`...)
		tur = appendJSON(tur, src)
		tur = append(tur, `,"numLines":`...)
		tur = appendInt(tur, nl)
		tur = append(tur, `,"startLine":1,"totalLines":`...)
		tur = appendInt(tur, nl)
		tur = append(tur, `}}`...)
	case tEdit:
		snip := numbered(s.nb[:0], take(r, g.pools.code, rint(r, 200, 1500)))
		s.nb = snip
		raw = append([]byte("The file "+c.path+" has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"), snip...)
		content = appendJSON(content, raw)
		tur = append(tur, `{"filePath":`...)
		tur = appendJSON(tur, c.path)
		tur = append(tur, `,"oldString":`...)
		tur = appendJSON(tur, take(r, g.pools.code, rint(r, 40, 400)))
		tur = append(tur, `,"newString":`...)
		tur = appendJSON(tur, take(r, g.pools.code, rint(r, 40, 400)))
		tur = append(tur, `,"originalFile":`...)
		tur = appendJSON(tur, take(r, g.pools.code, rint(r, 500, 6000)))
		tur = append(tur, `,"structuredPatch":[{"oldStart":`...)
		st := int64(rint(r, 1, 300))
		tur = appendInt(tur, st)
		tur = append(tur, `,"oldLines":3,"newStart":`...)
		tur = appendInt(tur, st)
		tur = append(tur, `,"newLines":4,"lines":[" }","-\treturn nil","+\tif err != nil {","+\t\treturn err"," }"]}],"userModified":false,"replaceAll":false}`...)
	case tWrite:
		raw = []byte("File created successfully at: " + c.path)
		content = appendJSON(content, raw)
		tur = append(tur, `{"type":"create","filePath":`...)
		tur = appendJSON(tur, c.path)
		tur = append(tur, `,"content":"(see input)","structuredPatch":[]}`...)
	case tGrep:
		n := rint(r, 1, 12)
		var sb strings.Builder
		if c.rare {
			sb.WriteString("docs/notes.md:12:the " + RareWord + " flag stays off until the migration lands\n")
			for i := 0; i < n; i++ {
				sb.WriteString(s.relPath() + ":" + strconv.Itoa(rint(r, 1, 900)) + ":" + string(take(r, g.pools.code, 60)) + "\n")
			}
		} else {
			sb.WriteString("Found " + strconv.Itoa(n) + " files\n")
			for i := 0; i < n; i++ {
				sb.WriteString(s.absPath(s.relPath()) + "\n")
			}
		}
		raw = []byte(sb.String())
		content = appendJSON(content, raw)
		tur = append(tur, `{"mode":"files_with_matches","numFiles":`...)
		tur = appendInt(tur, int64(n))
		tur = append(tur, '}')
	case tGlob:
		n := rint(r, 0, 40)
		var sb strings.Builder
		fn := []byte(`[`)
		for i := 0; i < n; i++ {
			p := s.absPath(s.relPath())
			sb.WriteString(p + "\n")
			if i > 0 {
				fn = append(fn, ',')
			}
			fn = appendJSON(fn, p)
		}
		fn = append(fn, ']')
		if n == 0 {
			sb.WriteString("No files found")
		}
		raw = []byte(sb.String())
		content = appendJSON(content, raw)
		tur = append(tur, `{"filenames":`...)
		tur = append(tur, fn...)
		tur = append(tur, `,"durationMs":`...)
		tur = appendInt(tur, int64(rint(r, 3, 400)))
		tur = append(tur, `,"numFiles":`...)
		tur = appendInt(tur, int64(n))
		tur = append(tur, `,"truncated":false}`...)
	case tTodo:
		raw = []byte("Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable")
		content = appendJSON(content, raw)
		tur = append(tur, `{"oldTodos":[],"newTodos":`...)
		tur = s.appendTodos(tur)
		tur = append(tur, '}')
	case tMCP:
		if c.mcp.image {
			if s.p.image && !s.didImage {
				s.didImage = true
				data := g.pools.base64(r, s.imageSize())
				content = append(content, `[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`...)
				content = append(content, data...)
				content = append(content, `"}}]`...)
				raw = []byte("[image]")
				g.truth.Notes["lines_with_base64_image"]++
				break
			}
			raw = []byte("Took the screenshot of the current page (saved to /tmp/playwright/page-" + strconv.Itoa(rint(r, 1000, 9999)) + ".png)")
			content = appendJSON(content, raw)
			break
		}
		raw = take(r, g.pools.prose, s.resultSize())
		if chance(r, 0.5) {
			content = append(content, `[{"type":"text","text":`...)
			content = appendJSON(content, raw)
			content = append(content, `}]`...)
		} else {
			content = appendJSON(content, raw)
			tur = appendJSON(tur, raw)
		}
	case tWebFetch:
		raw = take(r, g.pools.prose, rint(r, 500, 12000))
		content = appendJSON(content, raw)
		tur = append(tur, `{"bytes":`...)
		tur = appendInt(tur, int64(len(raw)*4))
		tur = append(tur, `,"code":200,"codeText":"OK","result":`...)
		tur = appendJSON(tur, raw)
		tur = append(tur, `,"durationMs":`...)
		tur = appendInt(tur, int64(rint(r, 200, 9000)))
		tur = append(tur, `,"url":"https://docs.example.dev/"}`...)
	case tWebSearch:
		raw = append([]byte("Web search results for query: \"best practices\"\n\n"), take(r, g.pools.prose, rint(r, 800, 5000))...)
		content = appendJSON(content, raw)
		tur = append(tur, `{"query":"best practices","results":[],"durationSeconds":2.4}`...)
	}
	*contentp = content
	return isErr, raw, tur
}

// persisted writes a large Bash output to tool-results/<id>.txt and returns
// the <persisted-output> preview put on the line.
func (t *thread) persisted(c *toolCall, contentp *[]byte) []byte {
	s := t.s
	r := s.r
	full := take(r, s.g.pools.logs, rint(r, 40000, 150000))
	rel := "projects/" + s.p.proj.folder + "/" + s.p.id + "/tool-results/" + c.id + ".txt"
	s.g.writeSidecar(rel, full, s.clock)
	var home string
	if s.p.proj.windows {
		home = `C:\Users\dev\.claude\projects\` + s.p.proj.folder + `\` + s.p.id + `\tool-results\` + c.id + ".txt"
	} else {
		home = "/home/dev/.claude/projects/" + s.p.proj.folder + "/" + s.p.id + "/tool-results/" + c.id + ".txt"
	}
	prev := full[:2048]
	for len(prev) > 0 && prev[len(prev)-1] != '\n' && prev[len(prev)-1] != ' ' {
		prev = prev[:len(prev)-1]
	}
	txt := "<persisted-output>\nOutput too large (" + strconv.FormatFloat(float64(len(full))/1024, 'f', 1, 64) +
		"KB). Full output saved to: " + home + "\n\nPreview (first 2KB):\n" + string(prev) + "\n...\n</persisted-output>"
	*contentp = appendJSON(*contentp, txt)
	s.g.truth.Notes["persisted_outputs"]++
	return []byte(txt)
}

func (s *sess) imageSize() int {
	if s.p.imageBytes > 0 {
		return s.p.imageBytes
	}
	return int(logUniform(s.r, 100<<10, 2<<20))
}
