package logs

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// Recap is the raw material of a handoff note for one session. Text is raw
// (unredacted) and clipped; the tools layer redacts and bounds it.
type Recap struct {
	mainUUIDs       map[uint64]bool // the main file's line uuids, to tell a worker's copied prefix
	EndedOnAPIError bool            // the last reply of the main thread is an API error (the ended_on_error outcome a line decided)
	Prompts         []string        // every human prompt of the main thread, oldest first (clipped, at most the last 6 kept)
	PromptCount     int
	FinalText       string // the last assistant text on the main thread
	Files           []FileChange
	Commands        []Command // the last Bash/PowerShell commands, oldest first
	CommandTotal    int
	Todos           []Todo // open items of the last todo list
	TodoSource      string // "TodoWrite", "tasks" or ""
	Summaries       []string
	Compactions     int
	Subagents       []SubagentRecap
	PRLinks         []string
	Failing         []Call                 // the newest failing calls, oldest first
	FailingTotal    int                    // all failing calls
	Details         map[uint64]*CallDetail // excerpts of the failing, shell, outcome and recovery calls, by Call.Key
	Outcomes        []Outcome
	Recoveries      []Recovery
	TodoID          string // the tool_use id of the call that last changed the todo list
	APIErrorText    string // the text of the last API error written as a reply (main thread)
	PRLinkTime      int64  // the time of the main file's first pr-link line
}

// FileChange is a file edited or written in a session.
type FileChange struct {
	Path  string
	Tools []string
	Count int
	Last  int64
}

// Command is a shell command run by a session.
type Command struct {
	ToolUseID string
	Text      string
	Outcome   string
	Time      int64
	Sidechain bool
}

// Todo is one open item of a todo list.
type Todo struct {
	Text   string
	Status string
}

// SubagentRecap describes one subagent file.
type SubagentRecap struct {
	File        string // relative to the log root
	AgentID     string
	AgentType   string
	Description string
	FirstPrompt string
	Usage       Tally
}

const maxRecapCommands = 20

// Recap gathers the handoff material of s: one pass over its files for the
// commands' and failing calls' text, one over its main file for prompts and
// todos, the first prompt of each subagent file, and the summaries in memory.
// maxFailing bounds the failing calls kept.
func (snap *Snapshot) Recap(ctx context.Context, s *Session, maxFailing int) (*Recap, error) {
	live := snap.IsLive(s)
	r := &Recap{}
	// Files changed and commands come from every file of the session.
	files := map[string]*FileChange{}
	var shellIDs []Call
	for _, c := range s.Calls() {
		for path, action := range c.Touches() {
			if action != ActionEdit && action != ActionWrite {
				continue
			}
			fc := files[path]
			if fc == nil {
				fc = &FileChange{Path: path}
				files[path] = fc
			}
			fc.Count++
			if !slices.Contains(fc.Tools, c.Name()) {
				fc.Tools = append(fc.Tools, c.Name())
			}
			if c.Time > fc.Last {
				fc.Last = c.Time
			}
		}
		if isShellTool(c.Name()) {
			shellIDs = append(shellIDs, *c)
		}
	}
	for _, f := range s.Files() {
		r.PRLinks = append(r.PRLinks, f.PRLinks...)
	}
	for _, fc := range files {
		r.Files = append(r.Files, *fc)
	}
	sort.Slice(r.Files, func(i, j int) bool {
		if r.Files[i].Last != r.Files[j].Last {
			return r.Files[i].Last > r.Files[j].Last
		}
		return r.Files[i].Path < r.Files[j].Path
	})
	sort.SliceStable(shellIDs, func(i, j int) bool { return shellIDs[i].Time < shellIDs[j].Time })
	r.CommandTotal = len(shellIDs)
	if len(shellIDs) > maxRecapCommands {
		shellIDs = shellIDs[len(shellIDs)-maxRecapCommands:]
	}
	r.Failing, r.FailingTotal = FailingCalls(s, live, maxFailing)
	ids := map[uint64]bool{}
	for _, c := range shellIDs {
		ids[c.Key] = true
	}
	for _, c := range r.Failing {
		ids[c.Key] = true
	}
	r.Outcomes, r.Recoveries = snap.Outcomes(s), snap.Recoveries(s)
	for _, o := range r.Outcomes {
		if o.Call != nil {
			ids[o.Call.Key] = true
		}
		// ended_on_error decided by a line, not a call: the last reply is an API error.
		r.EndedOnAPIError = r.EndedOnAPIError || (o.Kind == OutcomeEndedOnError && o.Call == nil)
	}
	for _, rc := range r.Recoveries {
		ids[rc.Failed.Key], ids[rc.Recovered.Key] = true, true
	}
	details, err := snap.CallDetails(ctx, s, ids)
	if err != nil {
		return nil, err
	}
	r.Details = details
	for _, c := range shellIDs {
		cmd := Command{Outcome: c.Outcome(live), Time: c.Time, Sidechain: c.Sidechain}
		if d := details[c.Key]; d != nil {
			cmd.ToolUseID, cmd.Text = d.ID, d.Command
		}
		r.Commands = append(r.Commands, cmd)
	}

	if s.Main != nil {
		r.Compactions = s.Main.Compactions
		if s.Main.CustomTitle != "" {
			r.Summaries = append(r.Summaries, "title: "+s.Main.CustomTitle)
		}
		if s.Main.AITitle != "" {
			r.Summaries = append(r.Summaries, "ai-title: "+s.Main.AITitle)
		}
		for _, sl := range s.Main.Summaries {
			if s.Main.HasUUID(sl.Leaf) {
				r.Summaries = append(r.Summaries, "summary: "+sl.Text)
			}
		}
		if len(s.Subagents) > 0 {
			r.mainUUIDs = map[uint64]bool{}
		}
		if err := r.readMain(ctx, s.Main); err != nil {
			return nil, unreadable(s, err)
		}
	}
	// The subagents' usage, by the file's number: the main file's
	// responses are not priced for it.
	usageByFile := map[uint32]*Tally{}
	if len(s.Subagents) > 0 {
		var mainNo uint32 // no file's number, for a session without a main file
		if s.Main != nil {
			mainNo = s.Main.no
		}
		for i := range s.responses {
			resp := &s.responses[i]
			if resp.file == mainNo {
				continue
			}
			t := usageByFile[resp.file]
			if t == nil {
				t = &Tally{}
				usageByFile[resp.file] = t
			}
			t.addResponse(s, resp)
		}
	}
	for _, f := range s.Subagents {
		sr := SubagentRecap{File: relPath(f.Root.Path, f.Path), AgentID: f.AgentID}
		sr.AgentType, sr.Description = f.SubagentMeta()
		sr.FirstPrompt, _ = firstUserText(ctx, f, r.mainUUIDs)
		if sr.FirstPrompt == "" {
			sr.FirstPrompt = sr.Description // a worker that only replayed its parent: its task as the sidecar says
		}
		if t := usageByFile[f.no]; t != nil {
			sr.Usage = *t
		}
		r.Subagents = append(r.Subagents, sr)
	}
	return r, nil
}

func isShellTool(name string) bool {
	n := name
	if i := strings.LastIndex(n, "__"); i >= 0 && strings.HasPrefix(n, "mcp__") {
		n = n[i+2:]
	}
	switch n {
	case "Bash", "PowerShell", // Claude Code
		"shell_command", "exec_command", "shell", "local_shell": // Codex (its code-mode exec runs JavaScript)
		return true
	}
	return false
}

// readMain collects prompts, the final assistant text and the last todo list.
func (r *Recap) readMain(ctx context.Context, f *FileSummary) error {
	var tasks []Todo
	taskIdx := map[string]int{}
	err := f.eachEntry(ctx, transcript.WantProse|transcript.WantInputs, func(l *transcript.Entry) bool {
		if r.mainUUIDs != nil && l.UUID != "" {
			r.mainUUIDs[idHash(l.UUID)] = true
		}
		if l.Sidechain {
			return true
		}
		if l.PRURL != "" && r.PRLinkTime == 0 {
			r.PRLinkTime = l.Time
		}
		switch l.Role {
		case transcript.RoleUser:
			if l.HasPrompt {
				r.PromptCount++
				r.Prompts = append(r.Prompts, transcript.Clip(l.Prompt, 1000))
				if len(r.Prompts) > 6 {
					r.Prompts = r.Prompts[1:]
				}
			}
		case transcript.RoleAssistant:
			// An API error written as a reply is never what the model said last.
			if l.Response != nil && l.Response.APIError {
				r.EndedOnAPIError = true
				r.APIErrorText = transcript.Clip(l.Text, 1000)
			} else if l.Text != "" {
				r.FinalText = transcript.Clip(l.Text, 4000)
				r.EndedOnAPIError = false
			}
			for _, c := range l.Calls {
				switch c.Name {
				case "TodoWrite":
					r.Todos, r.TodoSource, r.TodoID = nil, "TodoWrite", strings.Clone(c.ID)
					for _, td := range c.Input.Todos {
						if td.Status != "completed" {
							r.Todos = append(r.Todos, Todo{Text: transcript.Clip(td.Content, 300), Status: transcript.Clip(td.Status, 40)})
						}
					}
				case "TaskCreate":
					id := strconv.Itoa(len(tasks) + 1)
					taskIdx[id] = len(tasks)
					tasks = append(tasks, Todo{Text: transcript.Clip(c.Input.TaskSubject, 300), Status: "pending"})
					r.TodoSource, r.TodoID = "tasks", strings.Clone(c.ID)
				case "TaskUpdate":
					if i, ok := taskIdx[c.Input.TaskID]; ok && c.Input.TaskStatus != "" {
						tasks[i].Status = transcript.Clip(c.Input.TaskStatus, 40)
						if r.TodoSource == "tasks" {
							r.TodoID = strings.Clone(c.ID)
						}
					}
				}
			}
		}
		return true
	})
	// The open items of whichever list came last: a TodoWrite replaced r.Todos
	// as it was read; a task list is folded here, once.
	if r.TodoSource == "tasks" {
		r.Todos = nil
		for _, t := range tasks {
			if t.Status != "completed" && t.Status != "deleted" {
				r.Todos = append(r.Todos, t)
			}
		}
	}
	return err
}

// firstUserText returns the text of the first user line of a subagent file
// that is not a copy of a main-thread line: workers (acompact, aside_question,
// forks) begin with a verbatim copy of the parent's lines, whose first prompt
// is the parent's, not theirs.
func firstUserText(ctx context.Context, f *FileSummary, copied map[uint64]bool) (string, error) {
	var out string
	err := f.eachEntry(ctx, transcript.WantProse, func(l *transcript.Entry) bool {
		if l.Type != "user" || l.UserText == "" || len(l.Results) > 0 || (l.UUID != "" && copied[idHash(l.UUID)]) {
			return true
		}
		out = transcript.Clip(l.UserText, 1000)
		return false
	})
	return out, err
}

func relPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.Base(path)
}
