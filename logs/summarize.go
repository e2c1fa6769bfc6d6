package logs

import (
	"context"
	"regexp"
	"slices"
	"sort"

	"github.com/agent-activity/agent-activity/transcript"
)

// WorkQuery is summarize_work's question: what happened in these sessions.
type WorkQuery struct {
	// Sessions are every session of the window, most recently active first.
	// The merged lists cover all of them, each session whole.
	Sessions []*Session
	// Page are the sessions whose texts are shown (their final texts).
	Page []*Session
	// How many of the newest commits, test and build results and unresolved
	// failures get their text (a re-read of the files that hold them).
	MaxCommits, MaxChecks, MaxUnresolved int
}

// Work is the raw material of summarize_work. Text is raw (unredacted) and
// clipped; the tools layer redacts and bounds it.
type Work struct {
	Page        []WorkSession
	Files       []WorkFile  // every file an ok edit or write changed, most recently changed first
	Commits     []WorkCall  // every git commit call (any outcome), newest first
	PRs         []WorkPR    // pull requests opened, newest session first
	Checks      []WorkCheck // the last run of each distinct test or build command, newest first
	Unresolved  []WorkCall  // failing calls no later ok call of the same tool on the same target followed, newest first
	TodoSession *Session    // the newest session with a task list; nil when none has one
	TodoID      string      // the call that last changed that list
	Todos       []Todo      // its open items
	Usage       Tally       // the sessions' usage, summed
}

// WorkSession is one session of the page.
type WorkSession struct {
	Session   *Session
	FinalText string // the last real model text of the main thread
}

// WorkFile is a file changed in the window, merged across sessions.
type WorkFile struct {
	Path     string
	Sessions []*Session // the sessions that changed it, most recently active first
	Edits    int        // ok Edit/Write/MultiEdit/NotebookEdit calls on it
	Last     int64
}

// WorkCall is a call of a session of the window with its text; the text is
// empty beyond the Max counts of the query.
type WorkCall struct {
	Session *Session
	Call    Call
	ID      string // the tool_use id; "" when its text was not read
	Command string // a shell call's command
	Message string // a commit's message (CommitMessage), when the command carries one
	Input   string // compact JSON of the input
	Result  string // the result text of a failed call, or of a `gh pr create` (its output names the PR)
}

// WorkCheck is the last run of one distinct test or build command.
type WorkCheck struct {
	WorkCall
	Target string // the command as CommandTarget writes it
}

// WorkPR is a pull request a session opened.
type WorkPR struct {
	URL     string
	Session *Session
	ID      string // the `gh pr create` tool_use id, when a call opened it
}

// workCall is a call and the session it belongs to.
type workCall struct {
	s *Session
	c Call
}

// windowCalls returns the calls of the sessions in the order they were made,
// each once: a call copied into several sessions (a resumed session replays
// its parent) belongs to the one that started first (ties to the smaller id).
func windowCalls(sessions []*Session) []workCall {
	byStart := append([]*Session(nil), sessions...)
	sort.SliceStable(byStart, func(i, j int) bool {
		if byStart[i].Start != byStart[j].Start {
			return byStart[i].Start < byStart[j].Start
		}
		return byStart[i].ID < byStart[j].ID
	})
	var out []workCall
	seen := map[uint64]bool{}
	for _, s := range byStart {
		for _, c := range sessionCalls(s) {
			if !seen[c.Key] {
				seen[c.Key] = true
				out = append(out, workCall{s, c})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].c.Time < out[j].c.Time })
	return out
}

// prURL finds a pull request's address in `gh pr create`'s output.
var prURL = regexp.MustCompile(`https?://[^\s"'<>()]+/pull/[0-9]+`)

// FindPRURL returns the first pull request address in text, "" when none.
func FindPRURL(text string) string { return prURL.FindString(text) }

// SummarizeWork merges what the sessions of q did. It re-reads the main file
// of each page session (for its final text), the main file of the newest
// session with a task list, and the files holding the calls whose text is
// shown; everything else comes from the summaries.
func (snap *Snapshot) SummarizeWork(ctx context.Context, q WorkQuery) (*Work, error) {
	w := &Work{}
	order := map[*Session]int{}
	for i, s := range q.Sessions {
		order[s] = i
		w.Usage.Merge(s.Usage.Total)
	}
	calls := windowCalls(q.Sessions)

	files := map[string]*WorkFile{}
	var pending []*WorkCall // calls whose text is read below
	var prCalls []workCall
	checks := map[uint64]int{} // target -> index in w.Checks
	for _, wc := range calls {
		c := wc.c
		ok := c.Result == transcript.ResultOK
		if ok && (c.Action == ActionEdit || c.Action == ActionWrite) {
			f := files[c.Path]
			if f == nil {
				f = &WorkFile{Path: c.Path}
				files[c.Path] = f
			}
			f.Edits++
			f.Last = max(f.Last, c.Time)
			if !slices.Contains(f.Sessions, wc.s) {
				f.Sessions = append(f.Sessions, wc.s)
			}
		}
		if c.Kinds.Has(CommandCommit) {
			w.Commits = append(w.Commits, WorkCall{Session: wc.s, Call: c})
		}
		if ok && c.Kinds.Has(CommandPROpen) {
			prCalls = append(prCalls, wc)
		}
		if ran(&c) && (c.Kinds.Has(CommandTest) || c.Kinds.Has(CommandBuild)) {
			check := WorkCheck{WorkCall: WorkCall{Session: wc.s, Call: c}}
			if i, seen := checks[c.Target]; seen {
				w.Checks[i] = check
			} else {
				checks[c.Target] = len(w.Checks)
				w.Checks = append(w.Checks, check)
			}
		}
	}
	for _, f := range files {
		sort.SliceStable(f.Sessions, func(i, j int) bool { return order[f.Sessions[i]] < order[f.Sessions[j]] })
		w.Files = append(w.Files, *f)
	}
	sort.Slice(w.Files, func(i, j int) bool {
		if w.Files[i].Last != w.Files[j].Last {
			return w.Files[i].Last > w.Files[j].Last
		}
		return w.Files[i].Path < w.Files[j].Path
	})
	slices.Reverse(w.Commits)
	sort.SliceStable(w.Checks, func(i, j int) bool { return w.Checks[i].Call.Time > w.Checks[j].Call.Time })
	plain := make([]Call, len(calls))
	for i, wc := range calls {
		plain[i] = wc.c
	}
	_, unresolved := recoveriesIn(plain)
	owner := map[uint64]*Session{}
	for _, wc := range calls {
		owner[wc.c.Key] = wc.s
	}
	for i := len(unresolved) - 1; i >= 0; i-- {
		w.Unresolved = append(w.Unresolved, WorkCall{Session: owner[unresolved[i].Key], Call: unresolved[i]})
	}

	// The calls whose text is shown.
	for i := range w.Commits[:min(len(w.Commits), q.MaxCommits)] {
		pending = append(pending, &w.Commits[i])
	}
	for i := range w.Checks[:min(len(w.Checks), q.MaxChecks)] {
		pending = append(pending, &w.Checks[i].WorkCall)
	}
	for i := range w.Unresolved[:min(len(w.Unresolved), q.MaxUnresolved)] {
		pending = append(pending, &w.Unresolved[i])
	}
	prDetails := make([]*WorkCall, len(prCalls))
	for i, wc := range prCalls {
		prDetails[i] = &WorkCall{Session: wc.s, Call: wc.c}
		pending = append(pending, prDetails[i])
	}
	if err := snap.readWorkCalls(ctx, pending); err != nil {
		return nil, err
	}
	for i := range w.Checks {
		if cmd := w.Checks[i].Command; cmd != "" {
			w.Checks[i].Target = CommandTarget(cmd)
		}
	}
	w.PRs = workPRs(q.Sessions, prDetails, order)

	// Texts: the page's final texts, the newest task list.
	texts := map[*Session]*Recap{}
	readMain := func(s *Session) (*Recap, error) {
		if r := texts[s]; r != nil || s.Main == nil {
			return r, nil
		}
		r := &Recap{}
		if err := r.readMain(ctx, s.Main); err != nil {
			return nil, unreadable(s, err)
		}
		texts[s] = r
		return r, nil
	}
	for _, s := range q.Page {
		r, err := readMain(s)
		if err != nil {
			return nil, err
		}
		ws := WorkSession{Session: s}
		if r != nil {
			ws.FinalText = r.FinalText
		}
		w.Page = append(w.Page, ws)
	}
	for _, s := range q.Sessions {
		if s.Main == nil || s.Main.ToolCounts["TodoWrite"]+s.Main.ToolCounts["TaskCreate"] == 0 {
			continue
		}
		r, err := readMain(s)
		if err != nil {
			return nil, err
		}
		if r.TodoSource != "" {
			w.TodoSession, w.TodoID, w.Todos = s, r.TodoID, r.Todos
			break
		}
	}
	return w, nil
}

// readWorkCalls fills the text of the calls, one pass over each session's
// files for all of that session's calls.
func (snap *Snapshot) readWorkCalls(ctx context.Context, calls []*WorkCall) error {
	bySession := map[*Session][]*WorkCall{}
	var order []*Session
	for _, wc := range calls {
		if bySession[wc.Session] == nil {
			order = append(order, wc.Session)
		}
		bySession[wc.Session] = append(bySession[wc.Session], wc)
	}
	for _, s := range order {
		ids := map[uint64]bool{}
		for _, wc := range bySession[s] {
			ids[wc.Call.Key] = true
		}
		details, err := snap.CallDetails(ctx, s, ids)
		if err != nil {
			return err
		}
		for _, wc := range bySession[s] {
			d := details[wc.Call.Key]
			if d == nil {
				continue
			}
			wc.ID, wc.Command, wc.Input = d.ID, d.Command, d.Input
			if wc.Call.Result != transcript.ResultOK || wc.Call.Kinds.Has(CommandPROpen) {
				wc.Result = d.ResultText
			}
			if wc.Call.Kinds.Has(CommandCommit) {
				wc.Message, _ = CommitMessage(d.Command)
			}
		}
	}
	return nil
}

// workPRs lists the pull requests of the sessions, newest session first: the
// pr-link lines and the addresses `gh pr create` printed, each once.
func workPRs(sessions []*Session, calls []*WorkCall, order map[*Session]int) []WorkPR {
	var out []WorkPR
	at := map[string]int{}
	for _, wc := range calls {
		url := FindPRURL(wc.Result)
		if url == "" {
			continue
		}
		if _, seen := at[url]; !seen {
			at[url] = len(out)
			out = append(out, WorkPR{URL: url, Session: wc.Session, ID: wc.ID})
		}
	}
	for _, s := range sessions {
		for _, f := range s.Files() {
			for _, url := range f.PRLinks {
				if _, seen := at[url]; !seen {
					at[url] = len(out)
					out = append(out, WorkPR{URL: url, Session: s})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return order[out[i].Session] < order[out[j].Session] })
	return out
}
