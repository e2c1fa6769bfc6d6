package logs

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"

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
	// MaxFiles is how many of the most recently changed files Work lists.
	MaxFiles int
}

// Work is the raw material of summarize_work. Text is raw (unredacted) and
// clipped; the tools layer redacts and bounds it.
type Work struct {
	Page        []WorkSession
	Files       []WorkFile  // the MaxFiles files an ok edit or write changed last, most recently changed first
	FilesTotal  int         // how many files ok edits and writes changed
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

// callAt is a call of the window and where it stands in the order calls
// were made: by time, then the session's place in start order, the file's
// place in its session (main first), the call's place in its file.
type callAt struct {
	s               *Session
	c               *Call
	rank, file, idx int32
}

func (a *callAt) before(b *callAt) bool {
	switch {
	case a.c.Time != b.c.Time:
		return a.c.Time < b.c.Time
	case a.rank != b.rank:
		return a.rank < b.rank
	case a.file != b.file:
		return a.file < b.file
	}
	return a.idx < b.idx
}

// targetKey is "the same tool on the same target": the tool by its name's
// number (nameID), 16 bytes a key where the name was 32.
type targetKey struct {
	name   uint32
	target uint64
}

// windowCalls hands show the calls of the sessions that the merged lists
// show (ok edits and writes, commits, ok PR creations, test and build runs,
// and failures), each once: a call copied into several files or sessions (a
// worker or a resumed session replaying its parent) belongs where it first
// appeared, the session that started first (ties to the smaller id), main
// file first. It returns the failures no later ok call of the same tool on
// the same target followed anywhere in the sessions. Neither comes in the
// order the calls were made: only a few calls of a window need an order, so
// show keeps what its lists need and sorts those (a list of every shown call
// was 17 MB of a month's 65 MB at 4 GB).
func windowCalls(sessions []*Session, show func(at callAt)) (unresolved []callAt) {
	byStart := append([]*Session(nil), sessions...)
	sort.SliceStable(byStart, func(i, j int) bool {
		if byStart[i].Start != byStart[j].Start {
			return byStart[i].Start < byStart[j].Start
		}
		return byStart[i].ID < byStart[j].ID
	})
	// owned is the calls the session at hand owns: a copy of another
	// session's call in its files is not its own. One set serves every
	// session, emptied for the next (clear keeps its table): a set per
	// session and pass was 24,000 sets to drop over a month at 4 GB (16 MB).
	// The sets here hold no value (struct{}): a set of keys with a bool
	// beside each was twice the table.
	owned := map[*Call]struct{}{}
	each := func(fn func(at callAt)) {
		for r, s := range byStart {
			clear(owned)
			for _, c := range s.Calls() {
				owned[c] = struct{}{}
			}
			for fi, f := range s.Files() {
				for ci := range f.Calls {
					if _, ok := owned[&f.Calls[ci]]; ok {
						fn(callAt{s, &f.Calls[ci], int32(r), int32(fi), int32(ci)})
					}
				}
			}
		}
	}
	seen := map[uint64]struct{}{}
	var failed []callAt
	failing := map[targetKey]struct{}{}
	each(func(at callAt) {
		c := at.c
		ok := c.Result == transcript.ResultOK
		shows := ok && (c.Action == ActionEdit || c.Action == ActionWrite || c.Kinds.Has(CommandPROpen)) ||
			c.Kinds.Has(CommandCommit) || (ran(c) && (c.Kinds.Has(CommandTest) || c.Kinds.Has(CommandBuild))) ||
			c.Result == transcript.ResultError
		if !shows {
			return
		}
		if _, dup := seen[c.Key]; dup {
			return
		}
		seen[c.Key] = struct{}{}
		show(at)
		if c.Result == transcript.ResultError {
			failed = append(failed, at)
			failing[targetKey{c.name, c.Target}] = struct{}{}
		}
	})
	lastOK := map[targetKey]callAt{}
	each(func(at callAt) {
		c := at.c
		if c.Result != transcript.ResultOK {
			return
		}
		k := targetKey{c.name, c.Target}
		if _, ok := failing[k]; !ok {
			return
		}
		if last, ok := lastOK[k]; !ok || last.before(&at) {
			lastOK[k] = at
		}
	})
	for _, f := range failed {
		if last, ok := lastOK[targetKey{f.c.name, f.c.Target}]; !ok || !f.before(&last) {
			unresolved = append(unresolved, f)
		}
	}
	return unresolved
}

// newestFiles is the n files changed last (ties: by path), newest first.
func newestFiles(files map[string]*WorkFile, n int) []WorkFile {
	newer := func(a, b *WorkFile) int {
		if a.Last != b.Last {
			return cmp.Compare(b.Last, a.Last)
		}
		return strings.Compare(a.Path, b.Path)
	}
	var top []*WorkFile // sorted, at most n
	for _, f := range files {
		if len(top) == n && (n == 0 || newer(f, top[n-1]) > 0) {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, f, newer)
		if len(top) == n {
			top = top[:n-1]
		}
		top = slices.Insert(top, i, f)
	}
	out := make([]WorkFile, len(top))
	for i, f := range top {
		out[i] = *f
	}
	return out
}

// workCalls copies the calls at ats, in their order; nil when there are none.
func workCalls(ats []callAt) []WorkCall {
	if len(ats) == 0 {
		return nil
	}
	out := make([]WorkCall, len(ats))
	for i, at := range ats {
		out[i] = WorkCall{Session: at.s, Call: *at.c}
	}
	return out
}

// prURL finds a pull request's address in `gh pr create`'s output.
var prURL = regexp.MustCompile(`https?://[^\s"'<>()]+/pull/[0-9]+`)

// FindPRURL returns the first pull request address in text, "" when none.
func FindPRURL(text string) string { return prURL.FindString(text) }

// SummarizeWork merges what the sessions of q did. It re-reads the main file
// of each page session (decoding only assistant text, for its final text),
// the main file of the newest session with a task list, and the files
// holding the calls whose text is shown; everything else comes from the
// summaries.
func (snap *Snapshot) SummarizeWork(ctx context.Context, q WorkQuery) (*Work, error) {
	w := &Work{}
	order := map[*Session]int{}
	for i, s := range q.Sessions {
		order[s] = i
		w.Usage.Merge(s.Usage.Total)
	}
	// What the lists need of the shown calls, kept as they come: a file's
	// last change is its newest edit's time, a check is the newest run of
	// its target, and the commits and PR creations are sorted below. Every
	// changed file is tallied in chunks of records (not an object each),
	// and only the newest MaxFiles are copied out, not a list of all of
	// them (some 40,000 over a month at 4 GB).
	files := map[string]*WorkFile{}
	room := chunks[WorkFile]{size: 1024}
	var commits, prCalls []callAt
	checks := map[uint64]callAt{} // by target
	unresolved := windowCalls(q.Sessions, func(at callAt) {
		c := at.c
		ok := c.Result == transcript.ResultOK
		if ok && (c.Action == ActionEdit || c.Action == ActionWrite) {
			f := files[c.Path()]
			if f == nil {
				f = room.next()
				f.Path = c.Path()
				files[c.Path()] = f
			}
			f.Edits++
			f.Last = max(f.Last, c.Time)
			if !slices.Contains(f.Sessions, at.s) {
				f.Sessions = append(f.Sessions, at.s)
			}
		}
		if c.Kinds.Has(CommandCommit) {
			commits = append(commits, at)
		}
		if ok && c.Kinds.Has(CommandPROpen) {
			prCalls = append(prCalls, at)
		}
		if ran(c) && (c.Kinds.Has(CommandTest) || c.Kinds.Has(CommandBuild)) {
			if last, seen := checks[c.Target]; !seen || last.before(&at) {
				checks[c.Target] = at
			}
		}
	})
	newestFirst := func(xs []callAt) {
		sort.Slice(xs, func(i, j int) bool { return xs[j].before(&xs[i]) })
	}
	w.FilesTotal = len(files)
	w.Files = newestFiles(files, q.MaxFiles)
	for i := range w.Files {
		if f := &w.Files[i]; len(f.Sessions) > 1 { // sort.Slice's swapper was 1 MB over a month at 4 GB
			slices.SortFunc(f.Sessions, func(a, b *Session) int { return order[a] - order[b] })
		}
	}
	newestFirst(commits)
	w.Commits = workCalls(commits)
	runs := make([]callAt, 0, len(checks))
	for _, at := range checks {
		runs = append(runs, at)
	}
	newestFirst(runs)
	if len(runs) > 0 {
		w.Checks = make([]WorkCheck, len(runs))
		for i, at := range runs {
			w.Checks[i].WorkCall = WorkCall{Session: at.s, Call: *at.c}
		}
	}
	newestFirst(unresolved)
	w.Unresolved = workCalls(unresolved)
	newestFirst(prCalls)

	// The calls whose text is shown.
	var pending []*WorkCall
	for i := range w.Commits[:min(len(w.Commits), q.MaxCommits)] {
		pending = append(pending, &w.Commits[i])
	}
	for i := range w.Checks[:min(len(w.Checks), q.MaxChecks)] {
		pending = append(pending, &w.Checks[i].WorkCall)
	}
	for i := range w.Unresolved[:min(len(w.Unresolved), q.MaxUnresolved)] {
		pending = append(pending, &w.Unresolved[i])
	}
	prDetails := workCalls(prCalls)
	for i := range prDetails {
		pending = append(pending, &prDetails[i])
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
	for _, s := range q.Page {
		ws := WorkSession{Session: s}
		if s.Main != nil {
			text, err := finalText(ctx, s.Main)
			if err != nil {
				return nil, unreadable(s, err)
			}
			ws.FinalText = text
		}
		w.Page = append(w.Page, ws)
	}
	for _, s := range q.Sessions {
		if s.Main == nil || s.Main.ToolCount("TodoWrite")+s.Main.ToolCount("TaskCreate") == 0 {
			continue
		}
		r := &Recap{}
		if err := r.readMain(ctx, s.Main); err != nil {
			return nil, unreadable(s, err)
		}
		if r.TodoSource != "" {
			w.TodoSession, w.TodoID, w.Todos = s, r.TodoID, r.Todos
			break
		}
	}
	return w, nil
}

// finalText returns the last real model text of a main file's main thread
// (what Recap.FinalText is), decoding the text of assistant lines only.
func finalText(ctx context.Context, f *FileSummary) (string, error) {
	var out string
	err := f.eachEntryLazy(ctx, func(er transcript.EntryReader, e *transcript.Entry) bool {
		if e.Sidechain || e.Role != transcript.RoleAssistant || (e.Response != nil && e.Response.APIError) {
			return true
		}
		if e, _ = er.Entry(transcript.WantProse); e.Text != "" {
			out = transcript.Clip(e.Text, 1000)
		}
		return true
	})
	return out, err
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
func workPRs(sessions []*Session, calls []WorkCall, order map[*Session]int) []WorkPR {
	var out []WorkPR
	at := map[string]int{}
	for i := range calls {
		wc := &calls[i]
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
