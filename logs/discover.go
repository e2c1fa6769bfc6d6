package logs

import (
	"sync"

	"github.com/agent-activity/agent-activity/transcript"
)

// discovered is one transcript file found under a root, with the agent
// whose format it is and its stat. (The stat is not part of transcript.File,
// which every summary embeds: a summary keeps the stat of its last read.)
type discovered struct {
	transcript.File
	agent transcript.Agent
	Info  transcript.FileInfo
}

// RootInfo says what a configured log root is and whose history it holds.
type RootInfo struct {
	Path    string
	Agent   string // the agent read under it ("claude-code", "codex")
	Machine string // the root's label, LocalMachine when it has none
	Exists  bool
}

// discover lists every transcript file of each source's agent under its
// roots, each root labelled with its machine. Unreadable folders and
// anything that is not a transcript are skipped: discovery never fails.
func discover(dirs *transcript.DirCache, cfg Config, out []discovered) ([]discovered, []RootInfo) {
	dirs.BeginPass()
	defer dirs.EndPass()
	out = out[:0]
	var infos []RootInfo
	var files []transcript.File
	for _, src := range cfg.sources() {
		for _, path := range src.Roots {
			root := transcript.NewRoot(path, cfg.RootLabels[path])
			infos = append(infos, RootInfo{Path: path, Agent: src.Agent.Name(), Machine: machineOf(root), Exists: root.Exists()})
			files = src.Agent.Discover(root, dirs, files[:0])
			for _, f := range files {
				out = append(out, discovered{File: f, agent: src.Agent})
			}
		}
	}
	return statAll(dirs, out), infos
}

// statAll stats the found files in parallel (stat is most of a refresh),
// keeping regular files seen for the first time in this pass, in order.
func statAll(dirs *transcript.DirCache, found []discovered) []discovered {
	var wg sync.WaitGroup
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(found); i += workers {
				found[i].Info = transcript.Stat(found[i].Path)
			}
		}(w)
	}
	wg.Wait()
	out := found[:0]
	for _, d := range found {
		if d.Info.Regular && dirs.FirstVisit(d.Info.ID) {
			out = append(out, d)
		}
	}
	return out
}
