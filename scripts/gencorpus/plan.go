package main

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// The plan fixes, before any line is written, every session's project,
// Claude Code version, size target, start time and special role. Sizes are
// skewed (lognormal around ~150 KB, a few 10–50 MB, one ≥100 MB per GB) and
// every special shape is forced at least once so small corpora cover them.

const gib = 1 << 30

type project struct {
	name    string
	cwd     string
	folder  string
	windows bool
	branch  []string
}

var posixRepos = []string{
	"spacepilot", "api-gateway", "billing-service", "web-dashboard", "mobile-app",
	"infra-terraform", "data-pipeline", "ml_experiments", "auth-service", "search-indexer",
	"docs-site", "cli-tools", "payments-core", "notification-hub", "analytics-etl",
	"design-system", "k8s-manifests", "chat-backend", "image-resizer", "rust-parser",
	"go-microkit", "pytorch-lab", "edge-proxy", "game-engine", "blog-engine",
	"crm-portal", "inventory-api", "ledger", "recipe-app", "weather-bot",
	"homelab", "dotfiles", "video-transcoder", "event-bus", "feature-flags", "status.page",
}

var windowsRepos = []string{"desktop-client", "excel-addin", "unity-game", "wpf-tools"}

// encodeFolder is Claude Code's folder encoding: every byte outside
// [A-Za-z0-9] becomes '-'.
func encodeFolder(cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

func makeProjects() []*project {
	var ps []*project
	for _, n := range posixRepos {
		cwd := "/home/dev/" + n
		ps = append(ps, &project{name: n, cwd: cwd, folder: encodeFolder(cwd)})
	}
	for _, n := range windowsRepos {
		cwd := `C:\Users\dev\` + n
		ps = append(ps, &project{name: n, cwd: cwd, folder: encodeFolder(cwd), windows: true})
	}
	for _, p := range ps {
		p.branch = []string{"main", "main", "main", "feature/" + strings.Split(p.name, "-")[0] + "-v2", "fix/flaky-tests", "HEAD"}
	}
	return ps
}

type era int

const (
	eraV1   era = iota // 1.0.x: inline isSidechain subagents, Task
	eraV20             // 2.0.x: legacy sibling agent-*.jsonl, growing output
	eraV21a            // 2.1.12–2.1.49: progress lines, Task, identical output
	eraV21b            // 2.1.63–2.1.81: progress lines, Agent, growing output
	eraV21c            // 2.1.87–2.1.96: growing output, ai-title
	eraV21d            // 2.1.97–2.1.150: identical main output, growing in subagents
	eraV21e            // 2.1.328: claude-opus-5-5 by default
)

var eraWeights = []float64{2, 12, 26, 20, 8, 22, 10}

var eraVersions = [][]string{
	{"1.0.51", "1.0.72", "1.0.128"},
	{"2.0.14", "2.0.31", "2.0.57", "2.0.58", "2.0.64", "2.0.71"},
	{"2.1.12", "2.1.19", "2.1.22", "2.1.27", "2.1.31", "2.1.38", "2.1.41", "2.1.45", "2.1.49"},
	{"2.1.63", "2.1.66", "2.1.70", "2.1.74", "2.1.79", "2.1.81"},
	{"2.1.87", "2.1.90", "2.1.92", "2.1.96"},
	{"2.1.97", "2.1.110", "2.1.119", "2.1.128", "2.1.143", "2.1.150"},
	{"2.1.328"},
}

var eraModels = [][]string{
	{"claude-sonnet-4-5-20250929"},
	{"claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929"},
	{"claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929", "claude-opus-4-6"},
	{"claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-5-20251101"},
	{"claude-opus-4-6", "claude-sonnet-4-6"},
	{"claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-6"},
	{"claude-opus-5-5", "claude-opus-5-5", "claude-sonnet-4-6"},
}

const (
	modelHaiku = "claude-haiku-4-5-20251001"
	modelProxy = "claude-opus-4.6-1m"
)

type version [3]int

func parseVersion(s string) version {
	var v version
	for i, part := range strings.SplitN(s, ".", 3) {
		v[i], _ = strconv.Atoi(part)
	}
	return v
}

func (v version) atLeast(s string) bool {
	w := parseVersion(s)
	for i := range v {
		if v[i] != w[i] {
			return v[i] > w[i]
		}
	}
	return true
}

func (v version) atMost(s string) bool { return !v.atLeast(s) || v == parseVersion(s) }

type tinyKind int

const (
	notTiny tinyKind = iota
	tinySnapshots
	tinySystem
	tinySummary
)

type sessPlan struct {
	idx     int
	id      string
	proj    *project
	era     era
	version string
	model   string
	proxy   bool
	target  int64
	mainMin bool // the target applies to the main file alone (the ≥100 MB one)
	startMs int64
	msPerB  float64 // clock advance per written byte
	tiny    tinyKind

	nAgents    int  // Agent/Task subagents (layout from the era)
	warmup     bool // 2.0.x warm-up agent file
	compact    bool // force one compaction
	acompact   bool // write an acompact-* worker at the first compaction
	image      bool
	imageBytes int // length of the base64 image line payload
	persisted  bool
	pendingEnd bool
	synthetic  bool // force one <synthetic> API error
	reject     bool // force one rejection
	cwdMove    bool // cwd changes to a subfolder mid-session
	rare       int  // 1 prompt, 2 assistant text, 3 tool result

	replaySrc  bool // turns 1..4 are recorded for a later session
	replayFrom int  // index of the source session, or -1

	// Round two (round2.go).
	fullCopy bool     // with replaySrc: the whole conversation is recorded, not turns 1..4
	workers  []string // special workers that replay the main file so far: acompact, aside_question, fork
	relay    bool     // with proxy: every response has message.id "ocgo"
	advisor  string   // model consulted through advisor_message iterations
	v152     bool     // 2.1.152: cache_creation_input_tokens 0 beside a non-zero split
}

func (g *gen) plan() []*sessPlan {
	r := g.newRand(0x706c616e)
	size := g.opts.Size
	scale := float64(size) / gib
	n := int(math.Round(3000 * scale))
	if n < 14 {
		n = 14
	}
	projects := makeProjects()
	var extra []*sessPlan
	var extraBytes float64
	if g.opts.Round2 {
		extra, extraBytes = g.planRound2(n, projects)
	}
	pw := make([]float64, len(projects))
	for i, j := range r.Perm(len(projects)) {
		pw[j] = 1 / math.Pow(float64(i+1), 0.8)
	}

	plans := make([]*sessPlan, n)
	for i := range plans {
		p := &sessPlan{idx: i, replayFrom: -1}
		p.id = newUUID(r)
		p.proj = projects[pickWeighted(r, pw)]
		p.era = era(pickWeighted(r, eraWeights))
		plans[i] = p
	}
	// Make sure every project folder exists when there are enough sessions.
	if n >= 4*len(projects) {
		for i, j := range r.Perm(n)[:len(projects)] {
			plans[j].proj = projects[i]
		}
	}

	// Sizes: one huge, a few big, a few tiny, the rest lognormal.
	budget := float64(size) - extraBytes
	order := r.Perm(n)
	k := 0
	take := func() *sessPlan { p := plans[order[k]]; k++; return p }
	var huge *sessPlan
	if size >= gib {
		huge = take()
		huge.target = 100<<20 + rint64(r, 1<<20, 8<<20)
		huge.mainMin = true
		huge.era = eraV21d
		budget -= float64(huge.target)
	}
	var bigs []*sessPlan
	nBig := int(10 * scale)
	for i := 0; i < nBig && budget > float64(size)*0.45; i++ {
		p := take()
		p.target = int64(logUniform(r, 10<<20, 50<<20))
		if p.era == eraV1 {
			p.era = eraV21b
		}
		budget -= float64(p.target)
		bigs = append(bigs, p)
	}
	nTiny := n / 100
	if nTiny < 1 {
		nTiny = 1
	}
	for i := 0; i < nTiny; i++ {
		p := take()
		p.tiny = tinyKind(1 + i%3)
		if p.tiny == tinySummary {
			p.era = eraV20
		} else if p.era == eraV1 {
			p.era = eraV21a
		}
		p.target = 1000
		budget -= 1000
	}
	normal := make([]*sessPlan, 0, n-k)
	var wsum float64
	ws := make([]float64, 0, n-k)
	for k < n {
		p := take()
		w := math.Exp(r.NormFloat64() * 0.75)
		ws = append(ws, w)
		wsum += w
		normal = append(normal, p)
	}
	budget *= sizeFudge
	for i, p := range normal {
		p.target = int64(budget * ws[i] / wsum)
		if p.target < 6000 {
			p.target = 6000
		}
	}

	// Forced roles on distinct normal sessions with room for several turns,
	// in random order.
	var roles []*sessPlan
	for _, j := range r.Perm(len(normal)) {
		if normal[j].target >= 80<<10 {
			roles = append(roles, normal[j])
		}
	}
	for _, j := range r.Perm(len(normal)) {
		if normal[j].target < 80<<10 {
			roles = append(roles, normal[j])
		}
	}
	ri := 0
	next := func() *sessPlan {
		p := roles[ri%len(roles)]
		ri++
		return p
	}
	pair := func(a, b *sessPlan) {
		if a.idx > b.idx {
			a, b = b, a
		}
		a.replaySrc = true
		b.replayFrom = a.idx
	}
	src, dst := next(), next()
	pair(src, dst)
	forced := []*sessPlan{src, dst}

	nested := next()
	nested.era, nested.version, nested.nAgents = eraV21b, "2.1.74", 2
	legacy := next()
	legacy.era, legacy.version, legacy.nAgents, legacy.warmup = eraV20, "2.0.58", 1, true
	inline := next()
	inline.era, inline.nAgents = eraV1, 1
	ac := next()
	ac.era, ac.version, ac.compact, ac.acompact = eraV21a, "2.1.45", true, true
	px := next()
	px.proxy = true
	forced = append(forced, nested, legacy, inline, ac, px)

	// Content flags and rare words go on sessions that are not part of a
	// replay, so each lands in exactly one file.
	var free []*sessPlan
	for _, p := range roles {
		if !p.replaySrc && p.replayFrom < 0 {
			free = append(free, p)
		}
	}
	fi := r.IntN(len(free))
	nextFree := func() *sessPlan { p := free[fi%len(free)]; fi++; return p }
	nextFree().image = true
	nextFree().persisted = true
	nextFree().pendingEnd = true
	nextFree().synthetic = true
	nextFree().reject = true
	for i := 1; i <= 3; i++ {
		p := nextFree()
		for p.rare != 0 {
			p = nextFree()
		}
		p.rare = i
	}

	// Probabilistic features everywhere else.
	isForced := map[*sessPlan]bool{}
	for _, p := range forced {
		isForced[p] = true
	}
	for _, p := range plans {
		if p.tiny != notTiny {
			continue
		}
		if !isForced[p] {
			switch p.era {
			case eraV1:
				if chance(r, 0.3) {
					p.nAgents = rint(r, 1, 2)
				}
			case eraV20:
				if chance(r, 0.2) {
					p.nAgents = rint(r, 1, 2)
				}
				p.warmup = chance(r, 0.2)
			default:
				if chance(r, 0.14) {
					p.nAgents = pick(r, []int{1, 1, 1, 2, 2, 3})
				}
			}
			if p.target >= 400<<10 && chance(r, 0.06) {
				p.compact = true
			}
		}
		if p.target >= 10<<20 && !p.mainMin {
			p.nAgents = int(p.target/(6<<20)) + 1
		}
		if !p.replaySrc && p.replayFrom < 0 {
			p.image = p.image || chance(r, 0.025)
			p.persisted = p.persisted || chance(r, 0.01)
			p.pendingEnd = p.pendingEnd || chance(r, 0.03)
		}
		p.cwdMove = chance(r, 0.04)
	}
	for _, p := range bigs {
		if p.era == eraV20 && p.nAgents > 3 {
			p.nAgents = 3
		}
	}
	// A few more proxy sessions and replay pairs as the corpus grows.
	extraProxy := int(math.Round(4*scale)) - 1
	extraReplay := int(math.Round(15*scale)) - 1
	for i := 0; i < extraProxy && ri < len(roles); i++ {
		p := next()
		if !isForced[p] && p.rare == 0 {
			p.proxy = true
		}
	}
	for i := 0; i < extraReplay && ri+1 < len(roles); i++ {
		a, b := next(), next()
		if isForced[a] || isForced[b] || a.rare != 0 || b.rare != 0 || a.proxy || b.proxy ||
			a.pendingEnd || a.persisted || a.replaySrc || b.replaySrc || a.replayFrom >= 0 || b.replayFrom >= 0 {
			continue
		}
		pair(a, b)
	}

	for _, p := range plans {
		if p.replaySrc && p.era == eraV1 {
			p.era = eraV21b
		}
	}
	// Images: 100 KB – 2 MB of base64 on one line, paid for out of the
	// normal sessions' budget so the corpus keeps its size.
	var imgSum, normSum float64
	for _, p := range plans {
		if p.image && p.tiny == notTiny {
			p.imageBytes = int(logUniform(r, 100<<10, 2<<20))
			imgSum += float64(p.imageBytes)
		}
	}
	for _, p := range normal {
		normSum += float64(p.target)
	}
	if imgSum > 0.3*normSum { // small corpora: shrink the images, not the sessions
		f := 0.3 * normSum / imgSum
		imgSum = 0
		for _, p := range plans {
			if p.imageBytes > 0 {
				p.imageBytes = max(int(float64(p.imageBytes)*f), 100<<10)
				imgSum += float64(p.imageBytes)
			}
		}
	}
	if f := (normSum - imgSum) / normSum; imgSum > 0 && f > 0.3 {
		for _, p := range normal {
			p.target = max(int64(float64(p.target)*f), 6000)
		}
	}
	for _, p := range plans {
		p.target += int64(p.imageBytes)
	}
	// Windows: make sure one session runs in a C:\ folder.
	nested.proj = projects[len(posixRepos)+r.IntN(len(windowsRepos))]

	// Versions and models.
	for _, p := range plans {
		if p.proxy {
			p.era = eraV21d
			p.nAgents, p.warmup, p.compact, p.acompact = 0, false, false, false
		}
		if p.version == "" {
			vs := eraVersions[p.era]
			if p.era == eraV20 && (p.nAgents > 0 || p.warmup) {
				vs = vs[2:]
			}
			p.version = pick(r, vs)
		}
		v := parseVersion(p.version)
		if p.compact && v.atLeast("2.1.38") && v.atMost("2.1.49") {
			p.acompact = true
		}
		p.model = pick(r, eraModels[p.era])
		if p.proxy {
			p.model = modelProxy
		}
	}
	// A replayed session is a resume of its source: same CLI and project.
	for _, p := range plans {
		if p.replayFrom >= 0 {
			s := plans[p.replayFrom]
			p.proj, p.era, p.version, p.model = s.proj, s.era, s.version, s.model
			p.proxy = false
		}
	}

	// Time: spread starts over the 30 days before now, leaving room for the
	// session's estimated duration so nothing ends within the last hour.
	windowStart := g.nowMs - 30*24*int64(time.Hour/time.Millisecond)
	for _, p := range plans {
		var dur float64
		switch {
		case p.target >= 10<<20:
			p.msPerB = logUniform(r, 0.0006, 0.0015)
		default:
			p.msPerB = logUniform(r, 0.004, 0.04)
		}
		dur = estDuration(p)
		lo := float64(windowStart + 5*60*1000)
		hi := float64(g.liveCut-10*60*1000) - dur
		switch {
		case p.replaySrc:
			hi = lo + (hi-lo)*0.4
		case p.replayFrom >= 0:
			lo = lo + (hi-lo)*0.55
		}
		if hi < lo {
			hi = lo
		}
		p.startMs = int64(lo + r.Float64()*(hi-lo))
	}
	return append(plans, extra...)
}

// sizeFudge corrects for the overshoot of the last turn of each session.
const sizeFudge = 0.85

// estDuration is an upper estimate of a session's wall time in ms.
func estDuration(p *sessPlan) float64 {
	t := float64(p.target)
	lines := t / 1500
	turns := t/40000 + 1
	return t*p.msPerB + lines*200 + turns*120000
}
