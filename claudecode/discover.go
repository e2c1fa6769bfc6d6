package claudecode

import (
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// Agent is Claude Code's format. The zero value is ready to use.
type Agent struct{}

// Name is "claude-code".
func (Agent) Name() string { return "claude-code" }

// NewReader reads a Claude Code transcript.
func (Agent) NewReader(ctx context.Context, r io.Reader, offset int64, lines int) transcript.EntryReader {
	return NewReader(ctx, r, offset, lines)
}

// SpillPath is <project>/<sessionId>/tool-results/<id>.txt; "" for an id that
// could name another path.
func (a Agent) SpillPath(f *transcript.File, toolUseID string) string {
	if toolUseID == "" || strings.ContainsAny(toolUseID, `/\`) || strings.Contains(toolUseID, "..") || f.SessionID == "" {
		return ""
	}
	return filepath.Join(a.SpillDir(f), toolUseID+".txt")
}

// SubagentMeta reads agent-<id>.meta.json beside a subagent's transcript
// (a subagent folder's file only), through the root's containment check.
// Discovery does not: only a recap shows what it says, and most files are
// never recapped (a history of 4 GB holds 1,600 of them).
func (Agent) SubagentMeta(f *transcript.File) (agentType, description string) {
	if f.Kind != transcript.SubagentFile || f.Root == nil {
		return "", ""
	}
	b, err := f.Root.ReadSmall(filepath.Join(filepath.Dir(f.Path), "agent-"+f.AgentID+".meta.json"), 64<<10, nil)
	if err != nil {
		return "", ""
	}
	m, ok := decodeAgentMeta(b)
	if !ok {
		return "", ""
	}
	return transcript.Clip(m.AgentType, 100), transcript.Clip(m.Description, 300)
}

// SpillDir is <project>/<sessionId>/tool-results.
func (Agent) SpillDir(f *transcript.File) string {
	if f.SessionID == "" {
		return ""
	}
	return filepath.Join(f.ProjectDir, f.SessionID, "tool-results")
}

// Discover lists the transcripts under a Claude Code projects root:
// <project>/<sessionId>.jsonl, <project>/agent-*.jsonl (2.0.x) and
// <project>/<sessionId>/subagents/**/agent-*.jsonl (2.1.x) with their
// agent-*.meta.json sidecars. Anything else is ignored.
func (Agent) Discover(root *transcript.Root, dirs *transcript.DirCache, out []transcript.File) []transcript.File {
	if !root.Exists() {
		return out
	}
	projects := dirs.List(root.Path)
	prefetchDirs(dirs, projects, "")
	for _, p := range projects {
		if isDir, ok := root.Admit(p.Full, p); ok && isDir {
			out = discoverProject(root, dirs, out, p.Full, p.Name())
		}
	}
	return out
}

func discoverProject(root *transcript.Root, dirs *transcript.DirCache, out []transcript.File, pdir, project string) []transcript.File {
	entries := dirs.List(pdir)
	prefetchDirs(dirs, entries, "")
	prefetchDirs(dirs, entries, "subagents")
	for _, e := range entries {
		name, full := e.Name(), e.Full
		isDir, ok := root.Admit(full, e)
		if !ok {
			continue
		}
		if strings.HasSuffix(name, ".jsonl") {
			stem := strings.TrimSuffix(name, ".jsonl")
			f := transcript.File{Root: root, Path: full, ProjectDir: pdir, Project: project}
			if strings.HasPrefix(stem, "agent-") {
				f.Kind, f.AgentID = transcript.LegacyAgentFile, strings.TrimPrefix(stem, "agent-")
			} else {
				f.Kind, f.SessionID = transcript.MainFile, stem
			}
			out = append(out, f)
			continue
		}
		if !isDir {
			continue
		}
		for _, se := range dirs.List(full) {
			if se.Name() != "subagents" {
				continue
			}
			if subDir, ok := root.Admit(se.Full, se); ok && subDir {
				out = walkSubagents(root, dirs, out, pdir, project, name, se.Full, 0)
			}
		}
	}
	return out
}

// prefetchDirs starts listing the folders among entries (or, with sub, the
// sub folder of each), which the walk lists next when they are there.
func prefetchDirs(dirs *transcript.DirCache, entries []transcript.Listed, sub string) {
	for _, e := range entries {
		if e.IsDir() { // a symlink is listed only once Admit has followed it
			if sub == "" {
				dirs.Prefetch(e.Full)
			} else {
				dirs.Prefetch(filepath.Join(e.Full, sub))
			}
		}
	}
}

// walkSubagents finds agent-*.jsonl under a session's subagents folder, at
// any depth (workflows nest them).
func walkSubagents(root *transcript.Root, dirs *transcript.DirCache, out []transcript.File, pdir, project, sessionID, dir string, depth int) []transcript.File {
	if depth > 8 {
		return out
	}
	for _, e := range dirs.List(dir) {
		name, full := e.Name(), e.Full
		isDir, ok := root.Admit(full, e)
		if !ok {
			continue
		}
		if strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl") {
			id := strings.TrimSuffix(strings.TrimPrefix(name, "agent-"), ".jsonl")
			out = append(out, transcript.File{Root: root, Path: full, ProjectDir: pdir, Project: project,
				Kind: transcript.SubagentFile, SessionID: sessionID, AgentID: id})
			continue
		}
		if isDir {
			out = walkSubagents(root, dirs, out, pdir, project, sessionID, full, depth+1)
		}
	}
	return out
}

var _ transcript.Agent = Agent{}
