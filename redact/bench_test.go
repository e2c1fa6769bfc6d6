package redact

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// proseCorpus returns about n bytes of ordinary transcript text: prose,
// code, JSON, URLs, ids and hashes, with no secret in it.
func proseCorpus(n int) string {
	lines := []string{
		"I'll start by reading the configuration file to understand how the server is wired.",
		"The API key is stored in the env, so the handler never sees it directly.",
		`func (s *Server) Handle(ctx context.Context, req *Request) (*Response, error) {`,
		`	if err := s.validate(req); err != nil { return nil, fmt.Errorf("validate: %w", err) }`,
		`	resp, err := s.client.Do(ctx, req.URL, map[string]string{"Accept": "application/json"})`,
		`{"type":"text","text":"Done. The tests pass.","usage":{"input_tokens":1234,"output_tokens":567}}`,
		`"cache_read_input_tokens": 86789, "cache_creation_input_tokens": 0, "max_tokens: 4096"`,
		"See https://github.com/anthropics/claude-code/issues/1234 and https://go.dev/doc/effective_go#names.",
		"session 0b7d1a1e-5c3f-4a5e-9c1e-2f8e6a7b9c0d, commit 3f786850e387550fdab836ed7e6dc881de23001b",
		`{"id":"msg_01XyZ3abCdEfGhIjKlMnOpQrSt","tool_use_id":"toolu_01ABCdefGHIjklMNOpqrSTUv"}`,
		"- Bullet: use `token_count=12345` only for display; password: \"\" means unset.",
		"x := y + 1; for i := 0; i < len(s); i++ { total += s[i] }",
		"Summary: refactored the parser, renamed Foo to Bar, and updated README.md.",
		"export PATH=$HOME/go/bin:$PATH && go test ./... -run TestParse -count=1",
		"Bearer tokens are described in RFC 6750; Basic auth in RFC 7617.",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	return b.String()
}

func base64Corpus(n int) string {
	s := "iVBORw0KGgoAAAANSUhEUgAA" + base64.StdEncoding.EncodeToString(pseudoRandom(n*3/4, 7))
	return s[:n]
}

func benchString(b *testing.B, in string) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		String(in)
	}
}

func BenchmarkStringProse(b *testing.B)  { benchString(b, proseCorpus(1<<20)) }
func BenchmarkStringBase64(b *testing.B) { benchString(b, base64Corpus(2<<20)) }

// BenchmarkStringWithSecrets is prose with a secret every 4 KB or so.
func BenchmarkStringWithSecrets(b *testing.B) {
	var sb strings.Builder
	chunk := proseCorpus(4 << 10)
	for i := 0; sb.Len() < 1<<20; i++ {
		sb.WriteString(chunk)
		sb.WriteString("GH_TOKEN=ghp_" + fill(36, i) + "\n")
	}
	benchString(b, sb.String())
}

func TestCorporaAreClean(t *testing.T) {
	for name, in := range map[string]string{"prose": proseCorpus(1 << 16), "base64": base64Corpus(1 << 20)} {
		if fs := Find(in); fs != nil {
			t.Errorf("%s corpus has findings: %+v", name, fs[0])
		}
	}
}

// BenchmarkStringHostile feeds shapes built to defeat a naive scanner:
// triggers repeated inside one long run, nested assignments, unterminated
// blocks. Each must stay linear.
func BenchmarkStringHostile(b *testing.B) {
	const n = 2 << 20
	rep := func(unit string) string { return strings.Repeat(unit, n/len(unit)) }
	shapes := []struct{ name, in string }{
		{"sk-dash", rep("sk-")},
		{"token-colon", rep("token:")},
		{"password-eq", rep("password=")},
		{"jwt-heads", rep("-eyJ")},
		{"pem-begins", rep("-----BEGIN PRIVATE KEY-----")},
		{"pem-unterminated", "-----BEGIN PRIVATE KEY-----\n" + rep("A")},
		{"bearer", rep("Bearer ")},
		{"url-schemes", rep("a://")},
		{"same-secret", rep("T=ghp_" + fill(36, 1) + " ")},
	}
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) { benchString(b, sh.in) })
	}
}

// BenchmarkFindJSONHostile feeds FindJSON raw lines built against the
// pre-check: operators after escapes, names and values that pass its cheap
// tests, URLs, and escapes that send the line to the full detector.
func BenchmarkFindJSONHostile(b *testing.B) {
	const n = 2 << 20
	rep := func(unit string) []byte { return []byte(strings.Repeat(unit, n/len(unit))) }
	shapes := []struct {
		name string
		in   []byte
	}{
		{"token-colon", rep("token:")},
		{"secret-names", rep(`\"password\": \"` + fill(8, 1) + `\", `)},
		{"escaped-tab-eq", rep(`x\t=`)},
		{"long-names", rep(strings.Repeat("n", 79) + `\t: `)},
		{"url-schemes", rep("a://" + fill(40, 2) + " ")},
		{"ascii-escapes", rep(`\u0041`)},
		{"pem-begins", rep("-----BEGIN PRIVATE KEY-----\\n")},
	}
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			b.SetBytes(int64(len(sh.in)))
			for b.Loop() {
				FindJSON(sh.in)
			}
		})
	}
}

// BenchmarkTextClip is an excerpt as tools cut one: a few KB of prose
// wrapped, redacted and clipped to 300 runes.
func BenchmarkTextClip(b *testing.B) {
	in := proseCorpus(4<<10) + " GH_TOKEN=ghp_" + fill(36, 1)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		FromLog(in).Clip(300)
	}
}

// BenchmarkPathRedacted is a cwd under a home directory.
func BenchmarkPathRedacted(b *testing.B) {
	in := "/home/dev/src/github.com/agent-activity/agent-activity"
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		_ = FromLogPath(in).Redacted()
	}
}

// benchLines returns up to 64 MB of transcript lines: the public corpus, or
// the files under AGENT_ACTIVITY_BENCH_ROOT (a generated corpus). Up to
// AGENT_ACTIVITY_BENCH_MB megabytes instead, when set: a few fit in the
// processor's cache, as a line being scanned does.
func benchLines(b *testing.B) ([][]byte, int64) {
	var lines [][]byte
	var n int64
	limit := int64(64 << 20)
	if mb, err := strconv.Atoi(os.Getenv("AGENT_ACTIVITY_BENCH_MB")); err == nil && mb > 0 {
		limit = int64(mb) << 20
	}
	add := func(line string) {
		if n < limit {
			lines = append(lines, []byte(line))
			n += int64(len(line)) + 1
		}
	}
	if root := os.Getenv("AGENT_ACTIVITY_BENCH_ROOT"); root != "" {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && n < limit {
				data, _ := os.ReadFile(p)
				for _, l := range strings.Split(string(data), "\n") {
					add(l)
				}
			}
			return nil
		})
	} else {
		corpusLines(&testing.T{}, add)
	}
	if n == 0 {
		b.Skip("no corpus")
	}
	return lines, n
}

// BenchmarkFindJSON is scan_secrets' work per line: the pre-check, and
// the full detector on the lines it does not clear.
func BenchmarkFindJSON(b *testing.B) { benchLineFinder(b, FindJSON) }

// BenchmarkFindDecoded is the same work without the pre-check: decode
// every line, then Find.
func BenchmarkFindDecoded(b *testing.B) { benchLineFinder(b, findDecoded) }

// BenchmarkJSONClean is the pre-check alone, as FindJSON runs it; with
// AGENT_ACTIVITY_BENCH_ROOT naming a generated history it reads that.
func BenchmarkJSONClean(b *testing.B) { benchLineCheck(b, jsonClean) }

// BenchmarkJSONCleanPairs is the pre-check without the vector classifier:
// the loop of every platform but amd64.
func BenchmarkJSONCleanPairs(b *testing.B) { benchLineCheck(b, jsonCleanPairs) }

func benchLineCheck(b *testing.B, clean func(string) bool) {
	lines, n := benchLines(b)
	strs := make([]string, len(lines))
	for k, l := range lines {
		strs[k] = string(l)
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range strs {
			clean(l)
		}
	}
}

func benchLineFinder(b *testing.B, find func([]byte) []Finding) {
	lines, n := benchLines(b)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			find(l)
		}
	}
}
