package redact

import (
	"bufio"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameAsDecoded fails unless FindJSON(line), the pre-checked path, finds
// exactly what the straightforward path finds: decode the line, then Find.
func sameAsDecoded(t testing.TB, line string) []Finding {
	t.Helper()
	want := findDecoded([]byte(line))
	got := FindJSON([]byte(line))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("FindJSON(%.300q)\n got %+v\nwant %+v", line, got, want)
	}
	return want
}

func TestDecodeJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain`, `plain`},
		{`a\nb\tc\rd`, "a\nb\tc\rd"},
		{`\"q\" \\ \/`, `"q" \ /`},
		{`\u0041\u00e9\u4e2d`, "Aé中"},
		{`\ud83d`, "\uFFFD"},
		{`\u12`, `\u12`},
		{`\uZZZZ`, `\uZZZZ`},
		{`\x \b \f`, `\x \b \f`},
		{`end\`, `end\`},
	} {
		if got := string(decodeJSON(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("decodeJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPrecheckTriggersOneMatcher keeps the pre-check's switch simple: a
// pair of bytes selects at most one matcher.
func TestPrecheckTriggersOneMatcher(t *testing.T) {
	for p := 0; p < 256; p++ {
		for c := 0; c < 256; c++ {
			if h := rawTrigger[c] & rawAfter[p]; h&(h-1) != 0 {
				t.Fatalf("pair %q%q selects %b", byte(p), byte(c), h)
			}
		}
	}
}

// corpusLines calls fn with every line of every file of the public corpora.
func corpusLines(t *testing.T, fn func(line string)) {
	t.Helper()
	n := 0
	for _, dir := range []string{"public", "public-codex"} {
		root := filepath.Join("..", "..", "shared", "corpus", dir)
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			br := bufio.NewReaderSize(f, 1<<20)
			for {
				line, err := br.ReadString('\n')
				if line != "" {
					fn(strings.TrimSuffix(line, "\n"))
					n++
				}
				if err != nil {
					return nil
				}
			}
		})
	}
	if n == 0 {
		t.Skip("public corpus not found")
	}
}

func TestFindJSONMatchesDecodedOnCorpus(t *testing.T) {
	lines, cleared, found := 0, 0, 0
	corpusLines(t, func(line string) {
		lines++
		if jsonClean(line) {
			cleared++
		}
		found += len(sameAsDecoded(t, line))
	})
	t.Logf("%d lines, %d cleared by the pre-check, %d findings", lines, cleared, found)
}

// jsonContexts wraps a text the ways a transcript line holds one: as a JSON
// string, as JSON inside a JSON string (escaped twice), and with the escapes
// of other encoders (\/, \u for non-ASCII and control bytes).
func jsonContexts(text string) []string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	once := q(text)
	twice := q(`{"command":` + once + `}`)
	slashes := strings.ReplaceAll(once, "/", `\/`)
	var ascii strings.Builder // non-ASCII as \uXXXX, as Python writes it
	for _, r := range once {
		if r < 0x80 {
			ascii.WriteRune(r)
		} else {
			ascii.WriteString(quoteRune(r))
		}
	}
	line := func(v string) string {
		return `{"type":"user","uuid":"0b7d1a1e-5c3f-4a5e-9c1e-2f8e6a7b9c0d","message":{"role":"user","content":[{"type":"text","text":` + v + `}]},"timestamp":"2026-11-13T16:26:22.218Z"}`
	}
	return []string{text, once, line(once), line(twice), line(slashes), ascii.String()}
}

func quoteRune(r rune) string {
	const hex = "0123456789abcdef"
	if r > 0xffff {
		return "\\ufffd"
	}
	return `\u` + string([]byte{hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15]})
}

func TestFindJSONPlanted(t *testing.T) {
	for _, tc := range truePositives() {
		for k, in := range jsonContexts(tc.in) {
			fs := sameAsDecoded(t, in)
			if k == 1 || k == 2 { // once escaped: the planted secrets are found
				if len(fs) < len(tc.secrets) {
					t.Errorf("%s: %q: %d findings, want %d", tc.name, in, len(fs), len(tc.secrets))
				}
			}
		}
	}
	for _, in := range falsePositives() {
		for _, v := range jsonContexts(in.in) {
			sameAsDecoded(t, v)
		}
	}
}

// TestFindJSONRandom plants true positives and near misses among JSON
// punctuation and escapes of every kind.
func TestFindJSONRandom(t *testing.T) {
	var pieces []string
	for _, tc := range truePositives() {
		pieces = append(pieces, tc.in, tc.in[:len(tc.in)/2], tc.in[len(tc.in)/2:])
	}
	for _, fp := range falsePositives() {
		pieces = append(pieces, fp.in)
	}
	pieces = append(pieces, jsonNoise...)
	r := rand.New(rand.NewSource(2))
	for trial := 0; trial < 20000; trial++ {
		var b strings.Builder
		for k := 0; k < 1+r.Intn(8); k++ {
			p := pieces[r.Intn(len(pieces))]
			if r.Intn(3) == 0 {
				p = jsonContexts(p)[r.Intn(6)]
			}
			if r.Intn(4) == 0 && len(p) > 2 {
				i := r.Intn(len(p))
				p = p[:i] + jsonNoise[r.Intn(len(jsonNoise))] + p[i:]
			}
			b.WriteString(p)
		}
		sameAsDecoded(t, b.String())
	}
}

// jsonNoise is what sits around and inside secrets in raw JSON lines.
var jsonNoise = []string{`\n`, `\t`, `\r`, `\"`, `\\`, `\/`, `\\n`, `\\"`, `\\\"`, `\u0009`, `\u0020`, `\u003d`,
	`\u003a`, `\u005f`, `\u002d`, `\u0041`, `\u001b[0m`, `\u00e9`, `\ud83d\ude00`, `\b`, `\f`, `\x`, `\`, `"`, `":"`,
	`":`, `: `, `=`, ` = `, `:=`, `=>`, `\":\"`, `{`, `}`, `[`, `]`, `,`, ` `, "\t", `'`, "`", `?`, `@`, `://`, `:\/\/`,
	`password`, `token`, `api_key`, `Bearer `, `Basic `, `bearer\t`, `-----BEGIN PRIVATE KEY-----`, `eyJ`, `AKIA`, `sk-`, `ghp_`,
	`hooks.slack.com`, `SG.`, `SK`, `x`, `é`, "\xff"}

func FuzzFindJSON(f *testing.F) {
	for _, tc := range truePositives() {
		for _, in := range jsonContexts(tc.in) {
			f.Add(in)
		}
	}
	for _, n := range jsonNoise {
		f.Add("password" + n + genericValue)
		f.Add("Bearer" + n + bearerTok)
		f.Add("https:" + n + "u:" + urlPassword + "@h")
	}
	f.Fuzz(func(t *testing.T, in string) {
		sameAsDecoded(t, in)
	})
}

// TestFindJSONEscapesAroundAssignments puts every escape of jsonNoise
// before, inside and after the name of a secret assignment, names up to the
// longest that counts, and values of every kind.
func TestFindJSONEscapesAroundAssignments(t *testing.T) {
	long := "database_password_for_the_" + strings.Repeat("x", 80)
	var names []string
	for _, n := range []string{"password", "api_key", "AWS_SECRET_ACCESS_KEY", "tokenId", "pwd"} {
		names = append(names, n)
	}
	for _, k := range []int{70, 76, 78, 79, 80, 81} {
		names = append(names, long[:k], "secret"+strings.Repeat("x", k-6))
	}
	values := []string{genericValue, awsSecret, `"` + genericValue + `"`, `\"` + genericValue + `\"`, `'` + awsSecret + `'`,
		"changeme", `"changeme"`, "Zq8vK2m=", `"Zq8vK2m="`, "Zq8vK2m", "Zq8vK2m=,"}
	for _, name := range names {
		for _, op := range []string{"=", ":", ": ", " = ", ":=", "=>", `":`, `\":`} {
			for _, n := range jsonNoise {
				for _, v := range values {
					sameAsDecoded(t, n+name+op+v)
					sameAsDecoded(t, name+n+op+v)
					sameAsDecoded(t, name+n+n+op+v)
					sameAsDecoded(t, name+`"`+strings.Repeat(n, 4)+op+v)
					sameAsDecoded(t, name+op+n+v)
					sameAsDecoded(t, name[:len(name)/2]+n+name[len(name)/2:]+op+v)
				}
			}
		}
	}
}
