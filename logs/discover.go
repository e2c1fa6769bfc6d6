package logs

import (
	"slices"
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
	// In a trusted discovery (discoverTrusted): the file was in the last
	// discovery (known), and its stat was taken now rather than kept (stated).
	known, stated bool
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
	out, infos := list(dirs, cfg, out)
	return statAll(dirs, out, nil), infos
}

// discoverTrusted is discover for a caller that knows which folders' entries
// changed (relist) and which files' stats it holds (keep fills d.Info and
// reports true for such a file): the other folders' listings come from the
// cache without a stat, and only the files keep declines are stated.
func discoverTrusted(dirs *transcript.DirCache, cfg Config, out []discovered, relist map[string]bool, keep func(d *discovered) bool) ([]discovered, []RootInfo) {
	dirs.BeginTrustedPass(relist)
	defer dirs.EndPass()
	out, infos := list(dirs, cfg, out)
	return statAll(dirs, out, keep), infos
}

// listBufs recycles list's buffer of an agent's files: a look of a 4 GB
// history grew one to 15,000 files (1.5 MB, copied as it doubled) only to
// drop it.
var listBufs sync.Pool // *[]transcript.File

// list is the files of every source's roots, not yet stated.
func list(dirs *transcript.DirCache, cfg Config, out []discovered) ([]discovered, []RootInfo) {
	out = out[:0]
	var infos []RootInfo
	bp, _ := listBufs.Get().(*[]transcript.File)
	if bp == nil {
		bp = new([]transcript.File)
	}
	files := *bp
	defer func() {
		clear(files[:cap(files)]) // keeps no roots or paths alive
		*bp = files[:0]
		listBufs.Put(bp)
	}()
	for _, src := range cfg.sources() {
		for _, path := range src.Roots {
			root := transcript.NewRoot(path, cfg.RootLabels[path])
			infos = append(infos, RootInfo{Path: path, Agent: src.Agent.Name(), Machine: machineOf(root), Exists: root.Exists()})
			files = src.Agent.Discover(root, dirs, files[:0])
			out = slices.Grow(out, len(files)) // once per root, not doubling as it fills
			for _, f := range files {
				out = append(out, discovered{File: f, agent: src.Agent})
			}
		}
	}
	return out, infos
}

// statAll stats the found files in parallel (stat is most of a refresh),
// keeping regular files seen for the first time in this pass, in order.
// keep, when not nil, fills the stats it holds: only the rest are taken.
func statAll(dirs *transcript.DirCache, found []discovered, keep func(d *discovered) bool) []discovered {
	var at []int // the files keep declined; nil: every file
	if keep != nil {
		at = []int{}
		for i := range found {
			if !keep(&found[i]) {
				found[i].stated = true
				at = append(at, i)
			}
		}
	}
	statEach(found, at)
	out := found[:0]
	for _, d := range found {
		if d.Info.Regular && dirs.FirstVisit(d.Info.ID) {
			out = append(out, d)
		}
	}
	return out
}

// statEach stats the files of found at the indexes at (nil: every file), in
// parallel when there are many.
func statEach(found []discovered, at []int) {
	n, index := len(at), func(k int) int { return at[k] }
	if at == nil {
		n, index = len(found), func(k int) int { return k }
	}
	stat := func(from, step int) {
		for k := from; k < n; k += step {
			d := &found[index(k)]
			d.Info = transcript.Stat(d.Path)
		}
	}
	if n < 64 {
		stat(0, 1)
		return
	}
	var wg sync.WaitGroup
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			stat(w, workers)
		}(w)
	}
	wg.Wait()
}
