package tools

import (
	"context"

	"github.com/agent-activity/agent-activity/logs"
)

// FileActivityArgs are the arguments of file_activity.
type FileActivityArgs struct {
	Path  string `json:"path" jsonschema:"a file path: exact (/home/me/app/src/api.ts), a path-segment suffix (api.ts, src/api.ts) or a glob (**/*.ts); Windows paths work too"`
	Limit *int   `json:"limit,omitempty" jsonschema:"how many touches to return, 1..500 (default 50)"`
	TimeRangeArgs
	RepoArg
	AgentArg
	MachineArg
}

// FileTouchOut is one read, edit or write of a matching file.
type FileTouchOut struct {
	SessionID string `json:"session_id"`
	ToolUseID string `json:"tool_use_id"`
	Repo      string `json:"repo"`
	Timestamp string `json:"timestamp"`
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
	LastTouch string `json:"last_touch"`
}

// FileActivityOut is the answer of file_activity.
type FileActivityOut struct {
	Touches           []FileTouchOut   `json:"touches"`
	TotalTouches      int              `json:"total_touches"`
	Truncated         bool             `json:"truncated"`
	Sessions          []FileSessionOut `json:"sessions" jsonschema:"every session with a matching touch, most recent first (at most 100)"`
	SessionsTotal     int              `json:"sessions_total"`
	SessionsTruncated bool             `json:"sessions_truncated"`
	CoverageFrom      string           `json:"coverage_from"`
}

const maxFileSessions = 100

// FileActivity is the file_activity tool.
func FileActivity(d Deps) Spec {
	return define("file_activity", "Which sessions touched a file",
		"Lists the tool calls (Read, Edit, Write, MultiEdit, NotebookEdit, MCP equivalents, and Codex apply_patch) that read, edited "+
			"or wrote files matching a path, newest first, with outcome, plus the sessions involved. Matches an "+
			"exact path, a path-segment suffix (api.ts matches src/api.ts but i.ts does not) or a glob (**/*.ts). "+
			"Files changed only through shell commands are not seen.",
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
			touches := snap.FileActivity(pm, sessions, tr)
			limit := *a.Limit
			out := FileActivityOut{Touches: []FileTouchOut{}, Sessions: []FileSessionOut{}, TotalTouches: len(touches),
				CoverageFrom: rfcTime(snap.CoverageFrom())}
			bySession := map[*logs.Session]*FileSessionOut{}
			var order []*logs.Session
			for i, t := range touches {
				if i < limit {
					out.Touches = append(out.Touches, FileTouchOut{SessionID: t.Session.ID, ToolUseID: t.Call.ID, Repo: t.Session.Repo,
						Timestamp: rfc(t.Call.Time), ToolName: name(t.Call.Name), Action: t.Call.Action.String(),
						FilePath: text(t.Call.Path, 500), Source: source(t.Call.Sidechain), Outcome: t.Call.Outcome(snap.IsLive(t.Session))})
				}
				fs := bySession[t.Session]
				if fs == nil {
					fs = &FileSessionOut{SessionID: t.Session.ID, Repo: t.Session.Repo, LastTouch: rfc(t.Call.Time)}
					bySession[t.Session] = fs
					order = append(order, t.Session)
				}
				fs.Touches++
			}
			out.Truncated = out.TotalTouches > len(out.Touches)
			out.SessionsTotal = len(order)
			for i, s := range order {
				if i == maxFileSessions {
					out.SessionsTruncated = true
					break
				}
				out.Sessions = append(out.Sessions, *bySession[s])
			}
			return out, nil
		})
}
