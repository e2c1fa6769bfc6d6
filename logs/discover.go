package logs

import (
	"sync"

	"github.com/agent-activity/agent-activity/transcript"
)

// discovered is one transcript file found under a root, with the agent
// whose format it is.
type discovered struct {
	transcript.File
	agent transcript.Agent
}

// RootInfo says what a configured log root is.
type RootInfo struct {
	Path    string
	Machine string // the root's label, LocalMachine when it has none
	Exists  bool
}

// discover lists every transcript file of every agent under the configured
// roots, each root labelled with its machine. Unreadable folders and anything
// that is not a transcript are skipped: discovery never fails.
func discover(dirs *transcript.DirCache, cfg Config, out []discovered) ([]discovered, []RootInfo) {
	roots, agents := cfg.Roots, cfg.Agents
	dirs.BeginPass()
	defer dirs.EndPass()
	out = out[:0]
	infos := make([]RootInfo, 0, len(roots))
	var files []transcript.File
	for _, path := range roots {
		root := transcript.NewRoot(path, cfg.RootLabels[path])
		infos = append(infos, RootInfo{Path: path, Machine: machineOf(root), Exists: root.Exists()})
		for _, a := range agents {
			files = a.Discover(root, dirs, files[:0])
			for _, f := range files {
				out = append(out, discovered{File: f, agent: a})
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
