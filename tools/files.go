package tools

import (
	"cmp"
	"context"
	"slices"

	"github.com/agent-activity/agent-activity/logs"
)

// FileActivityArgs are the arguments of file_activity.
type FileActivityArgs struct {
	Path  string `json:"path" jsonschema:"a file path: exact (/home/me/app/src/api.ts), a path-segment suffix (api.ts, src/api.ts) or a glob (**/*.ts); Windows paths work too"`
	Limit *int   `json:"limit,omitempty" jsonschema:"how many touches to return, 1..500 (default 50)"`
	TimeRangeArgs
	RepoArg
	CursorArg
	AgentArg
	MachineArg
}

// FileTouchOut is one read, edit or write of a matching file.
type FileTouchOut struct {
	SessionID string `json:"session_id"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Repo      string `json:"repo"`
	Timestamp string `json:"timestamp,omitempty"`
	ToolName  string `json:"tool_name"`
	Action    string `json:"action" jsonschema:"read, edit or write"`
	FilePath  string `json:"file_path"`
	Source    string `json:"source" jsonschema:"main or sidechain"`
	Outcome   string `json:"outcome"`
}

// FileSessionOut sums the touches of one session.
type FileSessionOut struct {
	SessionID string `json:"session_id"`
	Repo      string `json:"repo"`
	Touches   int    `json:"touches"`
	LastTouch string `json:"last_touch,omitempty"`
}

// FileActivityOut is the answer of file_activity.
type FileActivityOut struct {
	Touches           []FileTouchOut   `json:"touches"`
	TotalTouches      int              `json:"total_touches"`
	Truncated         bool             `json:"truncated" jsonschema:"true when more touches match than are listed: next_cursor continues"`
	NextCursor        string           `json:"next_cursor,omitempty"`
	Sessions          []FileSessionOut `json:"sessions,omitempty" jsonschema:"on the first page: the sessions with a matching touch, most recent first (at most limit, and at most 100)"`
	SessionsTotal     int              `json:"sessions_total"`
	SessionsTruncated bool             `json:"sessions_truncated,omitempty"`
	CoverageFrom      string           `json:"coverage_from"`

	page pager
}

func (o *FileActivityOut) cutLen() int { return max(len(o.Touches), len(o.Sessions)) }
func (o *FileActivityOut) keep(n int) {
	o.Touches, o.Truncated, o.NextCursor = firstN(o.Touches, n), true, o.page.after(n)
	if n < len(o.Sessions) {
		o.Sessions, o.SessionsTruncated = o.Sessions[:n], true
	}
}

const maxFileSessions = 100

// touchPos orders touches newest first.
func touchPos(t *logs.FileTouch) pos {
	return pos{N: []int64{-t.Call.Time, sessionTie(t.Session), hash63(t.Call.ID()), int64(t.Call.Line)}}
}

// FileActivity is the file_activity tool.
func FileActivity(d Deps) Spec {
	return define("file_activity", "Which sessions touched a file",
		"Lists the tool calls (Read, Edit, Write, MultiEdit, NotebookEdit, MCP equivalents, and Codex apply_patch) that read, edited "+
			"or wrote files matching a path, newest first, with outcome, plus the sessions involved; next_cursor "+
			"pages through the rest. Matches an exact path, a path-segment suffix (api.ts matches src/api.ts but "+
			"i.ts does not) or a glob (**/*.ts). Files changed only through shell commands are not seen.",
		[]bound{intBound[FileActivityArgs]("limit", 1, 500, 50, func(a *FileActivityArgs) **int { return &a.Limit })},
		func(ctx context.Context, a FileActivityArgs) (FileActivityOut, error) {
			pm, err := logs.CompilePath(a.Path)
			if err != nil {
				return FileActivityOut{}, err
			}
			if err := logs.CheckAgent(a.Agent); err != nil {
				return FileActivityOut{}, err
			}
			snap, sessions, tr, err := d.scope(ctx, "", a.Repo, a.Since, a.Until)
			if err != nil {
				return FileActivityOut{}, err
			}
			sessions = a.filter(sessions)
			// One pass over the touches: the page keeps its candidates, the
			// sessions are added up from every touch.
			type touched struct {
				FileSessionOut
				last int64 // the newest touch's time
				rank int   // the session's place among the touched ones, in sessions' order
			}
			bySession := map[*logs.Session]*touched{}
			var order []*touched
			total := 0
			touches := func(yield func(*logs.FileTouch) bool) {
				for t := range snap.FileTouches(pm, sessions, tr) {
					total++
					ts := bySession[t.Session]
					if ts == nil {
						ts = &touched{FileSessionOut: FileSessionOut{SessionID: t.Session.ID, Repo: clip(t.Session.Repo)}, last: t.Call.Time, rank: len(order)}
						bySession[t.Session] = ts
						order = append(order, ts)
					}
					ts.last = max(ts.last, t.Call.Time)
					ts.Touches++
					if !yield(t) {
						return
					}
				}
			}
			pg, pager, more := pageSeq(touches, touchPos, &a.CursorArg, *a.Limit)
			out := FileActivityOut{Touches: []FileTouchOut{}, TotalTouches: total, CoverageFrom: rfcTime(snap.CoverageFrom()), page: pager}
			for _, t := range pg {
				out.Touches = append(out.Touches, FileTouchOut{SessionID: t.Session.ID, ToolUseID: clip(t.Call.ID()), Repo: clip(t.Session.Repo),
					Timestamp: rfc(t.Call.Time), ToolName: name(t.Call.Name()), Action: t.Action.String(),
					FilePath: text(t.Path, 500), Source: source(t.Call.Sidechain), Outcome: t.Call.Outcome(snap.IsLive(t.Session))})
			}
			if more {
				out.Truncated, out.NextCursor = true, pager.after(len(pg))
			}
			// The sessions, newest last touch first, and of equal ones the one
			// listed first: the order they first appear in among the touches
			// newest first (a last touch is shown to the millisecond, UTC).
			slices.SortStableFunc(order, func(a, b *touched) int {
				if a.last != b.last {
					return -cmp.Compare(a.last, b.last)
				}
				return cmp.Compare(a.rank, b.rank)
			})
			for _, ts := range order {
				ts.LastTouch = rfc(ts.last)
			}
			out.SessionsTotal = len(order)
			if a.Cursor != "" {
				return out, nil // the first page listed them
			}
			for i, ts := range order {
				if i == min(maxFileSessions, *a.Limit) { // limit bounds both lists: limit=5 listed 100 sessions, 13,600 characters
					out.SessionsTruncated = true
					break
				}
				out.Sessions = append(out.Sessions, ts.FileSessionOut)
			}
			return out, nil
		}).withHints("file history which sessions touched edited read wrote file path glob changes", false)
}
