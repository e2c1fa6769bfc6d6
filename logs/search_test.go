package logs

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agent-activity/agent-activity/codex"
	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/redact"
)

// TestSearchWhileReadingMatchesSearch: the one-pass search of a cold store
// answers exactly like a search of the finished snapshot.
func TestSearchWhileReadingMatchesSearch(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "projects"), root); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)}
	for _, c := range []struct {
		pattern string
		regex   bool
		roles   map[string]bool
		rng     TimeRange
	}{
		{pattern: "the"},
		{pattern: "zanzibar-marker"},
		{pattern: `(?i)exit code \d+`, regex: true},
		{pattern: "test", roles: map[string]bool{RoleUser: true}},
		{pattern: "a", rng: TimeRange{Since: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC).UnixMilli()}},
	} {
		m, err := CompileSearch(c.pattern, c.regex)
		if err != nil {
			t.Fatal(err)
		}
		q := SearchQuery{Roles: c.roles, Range: c.rng, Limit: 7}
		st := NewStore(cfg)
		snap, one, err := st.SearchWhileReading(context.Background(), nil, q, m)
		if err != nil || one == nil {
			t.Fatalf("%q: cold store gave no one-pass result (%v)", c.pattern, err)
		}
		if _, again, _ := st.SearchWhileReading(context.Background(), nil, q, m); again != nil {
			t.Fatalf("%q: a warm store searched while reading", c.pattern)
		}
		q.Sessions = snap.Sessions
		two, err := snap.Search(context.Background(), q, m)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := renderSearch(*one), renderSearch(two); a != b {
			t.Errorf("%q: one pass\n%s\ntwo passes\n%s", c.pattern, a, b)
		}
		if one.Total == 0 && c.pattern != "a" {
			t.Errorf("%q: no hits; the comparison proves nothing", c.pattern)
		}
	}
}

// TestContainsFoldASCII checks the search pre-check against lower-casing.
func TestContainsFoldASCII(t *testing.T) {
	lines := []string{"", "a", "Hello World", `{"text":"XYLOPHONE-quasar here"}`, "xylophone-quasa", "quasar xylophone-QUASAR",
		"eeeeeeeeeeeeeeeeeeeee-quasar", "zz-ZZ-zz", "Error: exit code 1", "the end"}
	needles := []string{"xylophone-quasar", "quasar", "e", "zz-z", "exit code", "the", "d", "-", "1"}
	for _, l := range lines {
		for _, n := range needles {
			want := strings.Contains(strings.ToLower(l), n)
			if got := containsFoldASCII([]byte(l), []byte(n), pairOf([]byte(n))); got != want {
				t.Errorf("containsFoldASCII(%q, %q) = %v, want %v", l, n, got, want)
			}
		}
	}
}

// TestContainsFoldASCIIRandom compares the pre-check with lower-casing on
// random lines of few letters in both cases, where each case of the tested
// bytes comes many times, for every pair of the needle's positions.
func TestContainsFoldASCIIRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "qQaAzZ-"
	for round := 0; round < 20000; round++ {
		l := randomBytes(rng, rng.IntN(80), alphabet)
		n := randomBytes(rng, 1+rng.IntN(4), "qaz-")
		want := strings.Contains(strings.ToLower(string(l)), string(n))
		for p1 := range n {
			for p2 := p1; p2 < len(n); p2++ {
				p := pair{p1: p1, p2: p2}
				p.c1, p.m1 = foldTest(n[p1])
				p.c2, p.m2 = foldTest(n[p2])
				if got := containsFoldASCII(l, n, p); got != want {
					t.Fatalf("containsFoldASCII(%q, %q, %d, %d) = %v, want %v", l, n, p1, p2, got, want)
				}
			}
		}
	}
}

// TestASCIILowerRunes: İ and the Kelvin sign are the only runes above
// ASCII whose lower case holds an ASCII byte, as indexFold assumes.
func TestASCIILowerRunes(t *testing.T) {
	var got []rune
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		l := strings.ToLower(string(r))
		for i := 0; i < len(l); i++ {
			if l[i] < 0x80 {
				got = append(got, r)
				break
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint([]rune{0x130, 0x212a}) {
		t.Errorf("runes lowering to ASCII: %U", got)
	}
}

// TestIndexFoldLowersLikeToLower: the lower-casing into a reused buffer is
// strings.ToLower byte for byte (invalid UTF-8 reads as U+FFFD, letters whose
// lower case has another length), and finds what a search in
// strings.ToLower(s) finds.
func TestIndexFoldLowersLikeToLower(t *testing.T) {
	texts := []string{"", "ERROR", "Ünïcödé ERROR here", "\xff\xfeError\xc3", "İstanbul error", "KELVIN \u212a error", "ẞ STRASSE error",
		"ΣΊΣΥΦΟΣ error", "ȺȾ error", "tab\terror\x00", strings.Repeat("é", 300) + "ERROR", "no match at all ✓"}
	var scratch []byte
	for _, s := range texts {
		if got, want := string(appendLower(scratch[:0], s)), strings.ToLower(s); got != want {
			t.Errorf("appendLower(%q) = %q, want %q", s, got, want)
		}
		for _, q := range []string{"error", "k", "i̇s", "ss", "\ufffd"} {
			lower := strings.ToLower(q)
			ls := strings.ToLower(s)
			want := strings.Index(ls, lower)
			if want >= 0 && len(ls) != len(s) {
				want = min(want, len(s)-1)
			}
			if isASCII(lower) && !strings.ContainsAny(s, "\u0130\u212a") {
				// Found in s itself, where it is: s with ASCII letters lowered.
				b := []byte(s)
				for i, c := range b {
					if c >= 'A' && c <= 'Z' {
						b[i] = c + 'a' - 'A'
					}
				}
				want = strings.Index(string(b), lower)
			}
			if !isASCII(lower) || !isASCII(s) {
				n := newFoldNeedle(lower)
				if got := indexFold(s, &n, &scratch); got != want {
					t.Errorf("indexFold(%q, %q) = %d, want %d", s, lower, got, want)
				}
			}
		}
	}
}

// TestSearchKeepsWhatAllHitsWould: a search that redacts and cuts only the
// hits it may keep answers as one that keeps every hit and takes the first
// ones: the same total, hits, snippets and pages, for common words (almost
// every hit dropped) and rare ones, on the fixtures and the public corpus.
func TestSearchKeepsWhatAllHitsWould(t *testing.T) {
	roots := []string{filepath.Join("..", "testdata", "projects")}
	roots = append(roots, corpusRoots(t)...)
	cfg := Config{Agents: testAgents, Roots: roots, Now: func() time.Time { return testNow }, Pricing: testPricing(t)}
	snap, err := NewStore(cfg).Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	render := func(hs []SearchHit) string {
		var b strings.Builder
		for _, h := range hs {
			fmt.Fprintf(&b, "%s %d %d %s %s %q\n", h.Session.ID, h.Time, h.Tie, h.UUID, h.Role, h.Snippet)
		}
		return b.String()
	}
	dropped := 0
	for _, pattern := range []string{"the", "error", "test", "zanzibar-marker", "import"} {
		m, err := CompileSearch(pattern, false)
		if err != nil {
			t.Fatal(err)
		}
		all, err := snap.Search(context.Background(), SearchQuery{Sessions: snap.Sessions, Limit: 1 << 30, Redact: redact.String}, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int{1, 5, 21} {
			var after *HitPos
			for page := 0; page < 3; page++ {
				got, err := snap.Search(context.Background(), SearchQuery{Sessions: snap.Sessions, Limit: limit, After: after, Redact: redact.String}, m)
				if err != nil {
					t.Fatal(err)
				}
				if got.Total != all.Total {
					t.Fatalf("%q limit %d page %d: total %d, want %d", pattern, limit, page, got.Total, all.Total)
				}
				from := page * limit
				want := all.Hits[min(from, len(all.Hits)):min(from+limit, len(all.Hits))]
				if a, b := render(got.Hits), render(want); a != b {
					t.Fatalf("%q limit %d page %d:\n%s\nwant\n%s", pattern, limit, page, a, b)
				}
				dropped += max(0, got.Total-len(got.Hits))
				if len(got.Hits) < limit {
					break
				}
				p := got.Hits[len(got.Hits)-1].Pos()
				after = &p
			}
		}
	}
	if dropped == 0 {
		t.Fatal("no hit was dropped: the comparison proves nothing")
	}
}

// TestIsASCII: the word-wide test answers as the byte loop, a byte above
// 0x7f at every place of strings around the word sizes.
func TestIsASCII(t *testing.T) {
	for n := 0; n < 40; n++ {
		b := []byte(strings.Repeat("a", n))
		if !isASCII(string(b)) {
			t.Fatalf("%d ASCII bytes: not ASCII", n)
		}
		for i := range b {
			c := bytes.Clone(b)
			c[i] = 0x80 + byte(i)
			if isASCII(string(c)) {
				t.Fatalf("byte %#x at %d of %d: ASCII", c[i], i, n)
			}
		}
	}
}

// TestPreCheckTakesFoldingRunes: the raw-line pre-check never drops a line
// the matcher would find a hit in, when the hit is made by İ or the Kelvin
// sign lower-casing to ASCII letters; the runes are written as UTF-8, as
// the agents' JSON writers do. A needle with no i and no k costs the
// pre-check nothing more.
func TestPreCheckTakesFoldingRunes(t *testing.T) {
	texts := []string{"Temperature in \u212aelvin", "\u212a", "say \u0130 and \u0130i", "m\u0130gration", "ordinary kelvin", "nothing here"}
	checked := 0
	for _, q := range []string{"kelvin", "k", "in", "i", "\u0130", "migration", "nothing"} {
		m, err := CompileSearch(q, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			var scratch []byte
			if at, _ := m.find(text, &scratch); at < 0 {
				continue
			}
			line := []byte(`{"type":"user","message":{"content":"` + text + `"}}`)
			if !m.lineMayMatch(line) {
				t.Errorf("query %q: the pre-check drops %s, where the matcher finds a hit", q, line)
			}
			checked++
		}
	}
	if checked != 20 {
		t.Errorf("%d lines with a hit checked, want 20", checked)
	}
	m, _ := CompileSearch("nothing", false)
	if !m.foldsI || m.foldsK {
		t.Errorf("nothing: folds i %v, k %v", m.foldsI, m.foldsK)
	}
	m, _ = CompileSearch("sort", false)
	if m.foldsI || m.foldsK || m.lineMayMatch([]byte(`{"message":{"content":"\u0130 \u212a sor"}}`)) {
		t.Errorf("sort: folds i %v, k %v, or a line without it passes", m.foldsI, m.foldsK)
	}
}

// TestSearchSpillsKeepTheirOwnSnippets searches a file with two spilled
// outputs that both hold the needle: the searcher reads each into the
// buffer of the one before, and each hit keeps its own words.
func TestSearchSpillsKeepTheirOwnSnippets(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	const sid = "5b0c2f4e-1d7a-4c55-9e36-0f6a2b8d9c11"
	dir := filepath.Join(root, "-home-dev-twospills")
	line := func(uuid, at, id, preview string) string {
		return fmt.Sprintf(`{"type":"user","uuid":%q,"sessionId":%q,"cwd":"/home/dev/twospills","timestamp":"2026-11-29T11:00:%s.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"<persisted-output>\nOutput too large. Full output saved to: %s\n\nPreview (first 2KB):\n%s\n</persisted-output>"}]}}`,
			uuid, sid, at, id, filepath.ToSlash(filepath.Join(dir, sid, "tool-results", id+".txt")), preview)
	}
	body := line("u1", "01", "toolu_one", "preview one") + "\n" + line("u2", "02", "toolu_two", "preview two") + "\n"
	spills := map[string]string{
		"toolu_one": "first output: alpha QUOKKA-spill bravo, and more of the first",
		"toolu_two": "second: QUOKKA-spill zulu",
	}
	if err := os.MkdirAll(filepath.Join(dir, sid, "tool-results"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for id, text := range spills {
		if err := os.WriteFile(filepath.Join(dir, sid, "tool-results", id+".txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)})
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := CompileSearch("quokka-spill", false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := snap.Search(context.Background(), SearchQuery{Sessions: snap.Sessions, Limit: 10}, m)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, h := range res.Hits {
		got[h.UUID] = h.Snippet
	}
	want := map[string]string{"u1": spills["toolu_one"], "u2": spills["toolu_two"]}
	if res.Total != 2 || !maps.Equal(got, want) {
		t.Errorf("total %d, snippets %q; want 2, %q", res.Total, got, want)
	}
}

// TestSearchReadsEveryCodexLine: a warm search of a Codex rollout whose
// opening session_meta is longer than the read buffer (its instructions)
// finds what the one-pass search finds. The rollout is a fork's, whose copy
// of its parent's prompt is told apart by that first line: passed over
// unread, the copy would be a prompt of the fork's own.
func TestSearchReadsEveryCodexLine(t *testing.T) {
	home := t.TempDir()
	if err := fixture.CopyTree(filepath.Join("..", "codex", "testdata", "home"), home); err != nil {
		t.Fatal(err)
	}
	fork := filepath.Join(home, "sessions", "2026", "01", "02", "rollout-2026-01-02T10-06-48-019f0000-1000-7000-8000-00000000000b.jsonl")
	raw, err := os.ReadFile(fork)
	if err != nil {
		t.Fatal(err)
	}
	const at = `"payload":{`
	i := bytes.Index(raw, []byte(at)) + len(at)
	pad := `"base_instructions":{"text":"` + strings.Repeat("Be brief. ", 40<<10) + `"},`
	if err := os.WriteFile(fork, append(append(raw[:i:i], pad...), raw[i:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Sources: []Source{{Agent: codex.Agent{}, Roots: []string{home}}}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Location: time.UTC}
	m, err := CompileSearch("audit the timers", false)
	if err != nil {
		t.Fatal(err)
	}
	q := SearchQuery{Limit: 50}
	snap, one, err := NewStore(cfg).SearchWhileReading(context.Background(), nil, q, m)
	if err != nil || one == nil {
		t.Fatalf("no one-pass result (%v)", err)
	}
	q.Sessions = snap.Sessions
	two, err := snap.Search(context.Background(), q, m)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := renderSearch(*one), renderSearch(two); a != b {
		t.Errorf("one pass\n%s\nwarm\n%s", a, b)
	}
	if one.Total == 0 {
		t.Error("no hits; the comparison proves nothing")
	}
}

// renderSearch is a search's total and hits, a line each.
func renderSearch(r SearchResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "total=%d scanned=%d\n", r.Total, r.ScannedBytes)
	for _, h := range r.Hits {
		fmt.Fprintf(&b, "%s %d %s %s %q\n", h.Session.ID, h.Time, h.UUID, h.Role, h.Snippet)
	}
	return b.String()
}
