package logs

import (
	"cmp"
	"hash/maphash"
	"slices"
	"sort"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// This file decides a session's outcomes and recoveries (SPEC §7, "Outcomes")
// from the summaries in memory alone: every call was classified once, when its
// file was read (classifyCall, called by the summary fold), so a list of
// sessions gets its outcome kinds without opening a file. Only the evidence
// excerpts (a command, a commit message, an error) need a re-read, and only the
// session recap and summarize_work ask for them.

// CommandKinds is a set of CommandKind.
type CommandKinds uint8

// Has reports whether k holds kind.
func (k CommandKinds) Has(kind CommandKind) bool { return k&(1<<kind) != 0 }

func kindSet(kinds []CommandKind) CommandKinds {
	var k CommandKinds
	for _, kind := range kinds {
		k |= 1 << kind
	}
	return k
}

// classifyCall returns what a call's shell command does and the key of the
// call's target, by which two calls of one tool are "the same call again"
// (a failure and its recovery): for a call with a command (Bash, PowerShell)
// the command's CommandTarget; for Edit, Write, MultiEdit and NotebookEdit the
// file; for any other tool its whole input. The key is never 0.
func classifyCall(c *transcript.Call) (CommandKinds, uint64) {
	if cmd := c.Input.Command; cmd != "" {
		return classifyShell(cmd)
	}
	if c.Action == ActionEdit || c.Action == ActionWrite {
		return 0, idHash("@ " + c.Path)
	}
	return 0, maphash.Bytes(idSeed, c.Input.Raw) | 1
}

// classifyShell returns the kinds of cmd (ClassifyCommand) and the key of
// its CommandTarget, hashed as it is written (never built). A command of
// plain words alone, the most common kind (`go test ./...`, `ls -la src`,
// `npm run build`), is one simple command whose words are its fields: it
// skips the lexer. TestClassifyShellFastPath holds the two paths equal.
func classifyShell(cmd string) (CommandKinds, uint64) {
	words, ok := plainWords(cmd)
	if !ok {
		return classifyParts(commandParts(cmd))
	}
	var h maphash.Hash
	h.SetSeed(idSeed)
	h.WriteString("$ ")
	kinds, argv := classifyArgv(words)
	if len(kinds) == 0 {
		argv = words
	}
	// Plain words need no quotes (writeWords would write them as they are).
	for i, w := range argv {
		if i > 0 {
			h.WriteByte(' ')
		}
		h.WriteString(w)
	}
	return kindSet(kinds), h.Sum64() | 1
}

// classifyParts is classifyShell for a command the lexer split.
func classifyParts(parts []commandPart) (CommandKinds, uint64) {
	var h maphash.Hash
	h.SetSeed(idSeed)
	h.WriteString("$ ")
	writeTarget(&h, parts)
	return kindSet(kindsOf(parts)), h.Sum64() | 1
}

// plainWords returns the words of a command made only of the characters the
// lexer reads as literal text (letters, digits, _@%+:,./-=) and blanks, when
// it is one simple command the lexer would read word for word: its first word
// is no assignment, no reserved word and no shell (`bash -c x` runs x).
func plainWords(cmd string) ([]string, bool) {
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("_@%+:,./-= \t", c) >= 0:
		default:
			return nil, false
		}
	}
	words := strings.Fields(cmd)
	if len(words) == 0 || strings.IndexByte(words[0], '=') >= 0 || slices.Contains(shReserved, words[0]) {
		return nil, false
	}
	if _, isShell := shellScript([]string{words[0], "-c", ""}); isShell {
		return nil, false
	}
	return words, true
}

// OutcomeKind is one kind of outcome a session can have.
type OutcomeKind string

// The outcome kinds, in the order answers list them.
const (
	OutcomeFilesChanged   OutcomeKind = "files_changed"   // an ok Edit/Write/MultiEdit/NotebookEdit
	OutcomeCommitObserved OutcomeKind = "commit_observed" // an ok `git commit` (not --dry-run)
	OutcomePushed         OutcomeKind = "pushed"          // an ok `git push`
	OutcomePROpened       OutcomeKind = "pr_opened"       // a pr-link line, or an ok `gh pr create`
	OutcomeTestsPassed    OutcomeKind = "tests_passed"    // the session's last test command that ran passed
	OutcomeTestsFailed    OutcomeKind = "tests_failed"    // ... failed
	OutcomeBuildPassed    OutcomeKind = "build_passed"    // the session's last build command that ran passed
	OutcomeBuildFailed    OutcomeKind = "build_failed"    // ... failed
	OutcomeEndedOnError   OutcomeKind = "ended_on_error"  // the last reply is an API error, or the last call failed and nothing followed
)

// OutcomeKinds lists every kind in answer order.
var OutcomeKinds = []OutcomeKind{OutcomeFilesChanged, OutcomeCommitObserved, OutcomePushed, OutcomePROpened,
	OutcomeTestsPassed, OutcomeTestsFailed, OutcomeBuildPassed, OutcomeBuildFailed, OutcomeEndedOnError}

// ParseOutcomeKind checks an outcome argument; "" is no filter.
func ParseOutcomeKind(v string) (OutcomeKind, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", nil
	}
	for _, k := range OutcomeKinds {
		if string(k) == v {
			return k, nil
		}
	}
	names := make([]string, len(OutcomeKinds))
	for i, k := range OutcomeKinds {
		names[i] = string(k)
	}
	return "", InvalidArgument("outcome", "outcome must be one of %s; got %q", strings.Join(names, ", "), clipArg(v))
}

// Outcome is one outcome of a session and what decided it: a call (the last
// one of its kind), or a line (a pr-link URL, the API error the session ended
// on) when Call is nil.
type Outcome struct {
	Kind  OutcomeKind
	Call  *Call  // the deciding call; nil when a line decided
	Time  int64  // the deciding call's or line's time (0 for a pr-link line: the summary keeps no time)
	PRURL string // pr_opened from a pr-link line
}

// sessionCalls returns the calls of s in the order they were made (by time;
// ties in file order, main file first), each once: a copy of a call in
// another file of the session (a worker replaying its parent's prefix) is the
// same call and stays where it first appeared. The calls point into the
// summaries, which are never mutated.
func sessionCalls(s *Session) []*Call {
	out := make([]*Call, 0, s.numCalls)
	for _, c := range s.Calls() { // each call once across the history (SPEC §3)
		out = append(out, c)
	}
	byTime := func(a, b *Call) int { return cmp.Compare(a.Time, b.Time) }
	if !slices.IsSortedFunc(out, byTime) { // a single file mostly is
		slices.SortStableFunc(out, byTime)
	}
	return out
}

// ran reports whether a call ran to a result that says how it went: ok or
// error. A rejected call never ran; a pending one says nothing yet.
func ran(c *Call) bool { return c.Result == transcript.ResultOK || c.Result == transcript.ResultError }

// Outcomes returns the outcomes of s in OutcomeKinds order, each with the call
// or line that decided it. It reads only the summaries.
func (snap *Snapshot) Outcomes(s *Session) []Outcome {
	return sessionOutcomes(s, sessionCalls(s), snap.IsLive(s))
}

// OutcomeKindsOf returns the kinds of Outcomes(s).
func (snap *Snapshot) OutcomeKindsOf(s *Session) []OutcomeKind {
	outs := snap.Outcomes(s)
	kinds := make([]OutcomeKind, len(outs))
	for i, o := range outs {
		kinds[i] = o.Kind
	}
	return kinds
}

// HasOutcome reports whether s has an outcome of kind k.
func (snap *Snapshot) HasOutcome(s *Session, k OutcomeKind) bool {
	for _, o := range snap.Outcomes(s) {
		if o.Kind == k {
			return true
		}
	}
	return false
}

func sessionOutcomes(s *Session, calls []*Call, live bool) []Outcome {
	var edit, commit, push, pr, test, build *Call
	for _, c := range calls {
		ok := c.Result == transcript.ResultOK
		if ok && (c.Action == ActionEdit || c.Action == ActionWrite) {
			edit = c
		}
		if ok && c.Kinds.Has(CommandCommit) {
			commit = c
		}
		if ok && c.Kinds.Has(CommandPush) {
			push = c
		}
		if ok && c.Kinds.Has(CommandPROpen) {
			pr = c
		}
		if ran(c) && c.Kinds.Has(CommandTest) {
			test = c
		}
		if ran(c) && c.Kinds.Has(CommandBuild) {
			build = c
		}
	}
	var out []Outcome
	add := func(k OutcomeKind, c *Call) {
		if c != nil {
			out = append(out, Outcome{Kind: k, Call: c, Time: c.Time})
		}
	}
	add(OutcomeFilesChanged, edit)
	add(OutcomeCommitObserved, commit)
	add(OutcomePushed, push)
	if pr != nil {
		add(OutcomePROpened, pr)
	} else if url := firstPRLink(s); url != "" {
		out = append(out, Outcome{Kind: OutcomePROpened, PRURL: url})
	}
	if test != nil {
		add(passFail(test, OutcomeTestsPassed, OutcomeTestsFailed), test)
	}
	if build != nil {
		add(passFail(build, OutcomeBuildPassed, OutcomeBuildFailed), build)
	}
	if o, ok := endedOnError(s, live); ok {
		out = append(out, o)
	}
	return out
}

func passFail(c *Call, passed, failed OutcomeKind) OutcomeKind {
	if c.Result == transcript.ResultOK {
		return passed
	}
	return failed
}

func firstPRLink(s *Session) string {
	for _, f := range s.Files() {
		if len(f.PRLinks) > 0 {
			return f.PRLinks[0]
		}
	}
	return ""
}

// endedOnError decides ended_on_error from the main thread, in file order:
// the last reply is an API error written as a reply; or the last call ended in
// error and no reply came after it. A live session has not ended: a failed
// last call there is only where it stands now (an API error still counts).
func endedOnError(s *Session, live bool) (Outcome, bool) {
	if s.Main == nil {
		return Outcome{}, false
	}
	last := s.Main.lastReply
	if last.ok && last.synthetic {
		return Outcome{Kind: OutcomeEndedOnError, Time: last.time}, true
	}
	var call *Call
	for i := range s.Main.Calls {
		if c := &s.Main.Calls[i]; !c.Sidechain {
			call = c
		}
	}
	if live || call == nil || call.Result != transcript.ResultError || (last.ok && last.line > call.Line) {
		return Outcome{}, false
	}
	return Outcome{Kind: OutcomeEndedOnError, Call: call, Time: call.Time}, true
}

// Recovery is a failing call followed later in the same session by an ok call
// of the same tool on the same target; Steps counts the calls in between.
type Recovery struct {
	Failed, Recovered Call
	Steps             int
}

// Recoveries returns the recoveries of s, in the order of the failing calls.
func (snap *Snapshot) Recoveries(s *Session) []Recovery {
	rec, _ := recoveriesIn(sessionCalls(s))
	return rec
}

// Unresolved returns the failing calls of s that no later ok call of the same
// tool on the same target followed, in the order they were made.
func (snap *Snapshot) Unresolved(s *Session) []Call {
	calls := sessionCalls(s)
	_, left := recoveriesIn(calls)
	out := make([]Call, len(left))
	for i, j := range left {
		out[i] = *calls[j]
	}
	return out
}

// recoveriesIn pairs every failing call (an error; a rejection is the user's
// choice, not a failure) of calls, which are in the order they were made,
// with the first later ok call of the same tool on the same target. Failures
// left without one are returned as unresolved: their indexes, in order.
func recoveriesIn(calls []*Call) (rec []Recovery, unresolved []int) {
	type key struct {
		name   string
		target uint64
	}
	waiting := map[key][]int{}
	for i, c := range calls {
		k := key{c.Name(), c.Target}
		switch c.Result {
		case transcript.ResultError:
			waiting[k] = append(waiting[k], i)
		case transcript.ResultOK:
			for _, j := range waiting[k] {
				rec = append(rec, Recovery{Failed: *calls[j], Recovered: *c, Steps: i - j - 1})
			}
			delete(waiting, k)
		}
	}
	sort.SliceStable(rec, func(a, b int) bool { return rec[a].Failed.Time < rec[b].Failed.Time })
	for _, js := range waiting {
		unresolved = append(unresolved, js...)
	}
	sort.Ints(unresolved)
	return rec, unresolved
}
