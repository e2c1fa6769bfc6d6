package redact

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Planted secrets for the tests of the types, from the fixtures of
// redact_test.go.
var (
	plantKey    = "export ANTHROPIC_API_KEY=" + anthropicKey
	plantGitHub = "GH_TOKEN=" + githubClassic + " gh pr list"
	plantBearer = "curl -H 'Authorization: Bearer " + bearerTok + "' https://api.example.com"
	plantURL    = "git clone https://bob:" + urlPassword + "@git.example.com/r.git"
)

func TestTextRedacted(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "nothing to see here", "nothing to see here"},
		{"anthropic key", plantKey, "export ANTHROPIC_API_KEY=[REDACTED:anthropic_api_key]"},
		{"github token", plantGitHub, "GH_TOKEN=[REDACTED:github_token] gh pr list"},
		{"bearer token", plantBearer, "curl -H 'Authorization: Bearer [REDACTED:bearer_token]' https://api.example.com"},
		{"credential url", plantURL, "git clone https://bob:[REDACTED:url_credentials]@git.example.com/r.git"},
		{"invalid utf-8", "a\xffb\xfe\xfdc", "a\uFFFDb\uFFFDc"},
		{"home is not rewritten in prose", "cd /home/dev/src", "cd /home/dev/src"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			txt := FromLog(tc.in)
			if got := txt.Redacted(); got != tc.want {
				t.Errorf("Redacted() = %q, want %q", got, tc.want)
			}
			if got := txt.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if got := txt.Clip(1000); got != tc.want {
				t.Errorf("Clip(1000) = %q, want %q", got, tc.want)
			}
			got, n := txt.ClipInfo(1000)
			if got != tc.want || n != utf8.RuneCountInString(tc.want) {
				t.Errorf("ClipInfo(1000) = %q, %d, want %q, %d", got, n, tc.want, utf8.RuneCountInString(tc.want))
			}
			if got := txt.IsZero(); got != (tc.in == "") {
				t.Errorf("IsZero() = %v, want %v", got, tc.in == "")
			}
		})
	}
}

func TestIDRedacted(t *testing.T) {
	long := strings.Repeat("ab", 300)
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"tool_use_id", "toolu_01A09q90qw90lq917835lq9", "toolu_01A09q90qw90lq917835lq9"},
		{"uuid", "5f3c2a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60", "5f3c2a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60"},
		{"model", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929"},
		{"token-shaped tool_use_id", githubClassic, "[REDACTED:github_token]"},
		{"anthropic key as id", anthropicKey, "[REDACTED:anthropic_api_key]"},
		{"branch with a key", "feature/" + anthropicKey, "feature/[REDACTED:anthropic_api_key]"},
		{"bounded", long, long[:maxID-1] + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := FromLogID(tc.in)
			if got := id.Redacted(); got != tc.want {
				t.Errorf("Redacted() = %q, want %q", got, tc.want)
			}
			if got := id.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if got := id.IsZero(); got != (tc.in == "") {
				t.Errorf("IsZero() = %v", got)
			}
		})
	}
}

// wayOut is one way a value can leave the process.
type wayOut struct {
	name string
	out  func(v any) string
}

func waysOut() []wayOut {
	verb := func(format string) wayOut {
		return wayOut{format, func(v any) string { return fmt.Sprintf(format, v) }}
	}
	marshal := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			return "error: " + err.Error()
		}
		return string(b)
	}
	slogWith := func(json bool) func(v any) string {
		return func(v any) string {
			var buf bytes.Buffer
			var h slog.Handler = slog.NewTextHandler(&buf, nil)
			if json {
				h = slog.NewJSONHandler(&buf, nil)
			}
			slog.New(h).Info("msg", "v", v, slog.Any("any", v), slog.Group("g", "v", v))
			return buf.String()
		}
	}
	ways := []wayOut{
		{"Sprint", func(v any) string { return fmt.Sprint(v) }},
		{"Sprintln", func(v any) string { return fmt.Sprintln("x", v) }},
		{"Errorf", func(v any) string { return fmt.Errorf("failed: %v", v).Error() }},
		{"json value", marshal},
		{"json in struct", func(v any) string { return marshal(struct{ F any }{v}) }},
		{"json in slice", func(v any) string { return marshal([]any{v, v}) }},
		{"slog text", slogWith(false)},
		{"slog json", slogWith(true)},
	}
	for _, f := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "% x", "%d", "%t", "%p",
		"%10s", "%#q", "%[1]v %[1]s", "%T"} {
		ways = append(ways, verb(f))
	}
	return ways
}

// TestEveryWayOutIsRedacted plants secrets in each type and checks every
// way a value can leave — fmt verbs, encoding/json, log/slog, a pointer, a
// map key — for the secret, its middle, or their hex.
func TestEveryWayOutIsRedacted(t *testing.T) {
	type planted struct {
		name   string
		v      any
		secret string
	}
	var values []planted
	for _, p := range []struct{ in, secret string }{
		{plantKey, anthropicKey}, {plantGitHub, githubClassic}, {plantBearer, bearerTok}, {plantURL, urlPassword},
	} {
		values = append(values,
			planted{"Text " + p.secret[:4], FromLog(p.in), p.secret},
			planted{"*Text " + p.secret[:4], ptr(FromLog(p.in)), p.secret},
			planted{"Path " + p.secret[:4], FromLogPath("/home/dev/" + p.in + "/x"), p.secret},
			planted{"ID " + p.secret[:4], FromLogID(p.in), p.secret},
			planted{"*ID " + p.secret[:4], ptr(FromLogID(p.in)), p.secret},
			planted{"map " + p.secret[:4], map[string]any{"t": FromLog(p.in), "p": FromLogPath(p.in), "i": FromLogID(p.in)}, p.secret},
			planted{"exported fields " + p.secret[:4], exported{FromLog(p.in), FromLogPath(p.in), FromLogID(p.in)}, p.secret},
			planted{"unexported fields " + p.secret[:4], unexported{FromLog(p.in), FromLogPath(p.in), FromLogID(p.in)}, p.secret},
			planted{"*unexported fields " + p.secret[:4], &unexported{FromLog(p.in), FromLogPath(p.in), FromLogID(p.in)}, p.secret},
		)
	}
	values = append(values, planted{"*Path", ptr(FromLogPath("/home/dev/" + anthropicKey)), anthropicKey})
	for _, pv := range values {
		for _, w := range waysOut() {
			got := w.out(pv.v)
			mid := pv.secret[(len(pv.secret)-8)/2:][:8]
			for _, leak := range []string{pv.secret, mid, hex.EncodeToString([]byte(mid)), strings.ToUpper(hex.EncodeToString([]byte(mid)))} {
				if strings.Contains(got, leak) {
					t.Errorf("%s through %s leaks %q: %s", pv.name, w.name, leak, got)
				}
			}
			// These show no marker: hex, bad verbs, types, and fields that
			// fmt or json cannot reach.
			switch w.name {
			case "%x", "%X", "% x", "%p", "%t", "%d", "%T":
				continue
			}
			if strings.HasPrefix(pv.name, "unexported") || strings.HasPrefix(pv.name, "*unexported") {
				continue
			}
			if !strings.Contains(got, "REDACTED") {
				t.Errorf("%s through %s shows no marker: %s", pv.name, w.name, got)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

type exported struct {
	T Text
	P Path
	I ID
}

// unexported holds the types the way an internal struct of another package
// would; fmt prints such fields by reflection, without their methods.
type unexported struct {
	t Text
	p Path
	i ID
}

func TestFormatVerbs(t *testing.T) {
	txt := FromLog("key " + anthropicKey)
	const red = "key [REDACTED:anthropic_api_key]"
	tests := []struct{ format, want string }{
		{"%v", red},
		{"%s", red},
		{"%+v", red},
		{"%q", `"` + red + `"`},
		{"%#v", `"` + red + `"`},
		{"%x", hex.EncodeToString([]byte(red))},
		{"%.3s", "key"},
		{"%6.3s|", "   key|"},
		{"%d", "%!d(string=" + red + ")"},
	}
	for _, tc := range tests {
		if got := fmt.Sprintf(tc.format, txt); got != tc.want {
			t.Errorf("Sprintf(%q) = %q, want %q", tc.format, got, tc.want)
		}
	}
	if got := fmt.Sprint(FromLogPath("/home/dev/x"), " ", FromLogID(githubClassic)); got != "~/x [REDACTED:github_token]" {
		t.Errorf("Sprint(Path, ID) = %q", got)
	}
}

func TestMarshalJSON(t *testing.T) {
	type out struct {
		Text  Text  `json:"text"`
		Path  Path  `json:"path"`
		ID    ID    `json:"id"`
		Ptr   *Text `json:"ptr"`
		Empty Text  `json:"empty"`
		Omit  Text  `json:"omit,omitzero"`
		Nil   *Text `json:"nil,omitempty"`
	}
	v := out{
		Text: FromLog("say \"hi\"\n" + plantGitHub),
		Path: FromLogPath(`C:\Users\dev\proj\` + anthropicKey),
		ID:   FromLogID(githubClassic),
		Ptr:  ptr(FromLog(plantURL)),
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"text":"say \"hi\"\nGH_TOKEN=[REDACTED:github_token] gh pr list",` +
		`"path":"~\\proj\\[REDACTED:anthropic_api_key]",` +
		`"id":"[REDACTED:github_token]",` +
		`"ptr":"git clone https://bob:[REDACTED:url_credentials]@git.example.com/r.git",` +
		`"empty":""}`
	if string(b) != want {
		t.Errorf("json.Marshal =\n %s\nwant\n %s", b, want)
	}
	m, err := json.Marshal(map[string]any{"t": FromLog(plantKey), "ids": []ID{FromLogID("toolu_1"), FromLogID(githubClassic)}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ids":["toolu_1","[REDACTED:github_token]"],"t":"export ANTHROPIC_API_KEY=[REDACTED:anthropic_api_key]"}`; string(m) != want {
		t.Errorf("map = %s, want %s", m, want)
	}
	if b, _ := FromLog(plantKey).MarshalText(); string(b) != "export ANTHROPIC_API_KEY=[REDACTED:anthropic_api_key]" {
		t.Errorf("MarshalText = %s", b)
	}
}

func TestZeroValues(t *testing.T) {
	var (
		txt Text
		p   Path
		id  ID
	)
	if !txt.IsZero() || !p.IsZero() || !id.IsZero() {
		t.Error("zero values are not IsZero")
	}
	if txt.Redacted() != "" || p.Redacted() != "" || id.Redacted() != "" || txt.Clip(10) != "" {
		t.Error("zero values are not empty")
	}
	if s, n := txt.ClipInfo(0); s != "" || n != 0 {
		t.Errorf("ClipInfo(0) = %q, %d", s, n)
	}
	if s := fmt.Sprint(txt) + fmt.Sprint(p) + fmt.Sprint(id); s != "" {
		t.Errorf("Sprint of zero values = %q", s)
	}
	for _, v := range []any{txt, p, id} {
		if b, err := json.Marshal(v); err != nil || string(b) != `""` {
			t.Errorf("json.Marshal(%T{}) = %s, %v", v, b, err)
		}
	}
	if !txt.Equal(FromLog("")) || !txt.ContainsFold("") {
		t.Error("zero Text is not the empty string")
	}
}

func TestClip(t *testing.T) {
	key := "key " + anthropicKey // redacted: "key [REDACTED:anthropic_api_key]", 32 runes
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"fits", "hello world", 11, "hello world"},
		{"fits in runes, not bytes", "héllo wörld", 11, "héllo wörld"},
		{"cut at a space", "hello world foo", 12, "hello world…"},
		{"cut just after a space", "hello world foo", 13, "hello world…"},
		{"space in the last third", "alpha beta gamma", 14, "alpha beta…"},
		{"no space near: mid-word, as truncate", "hello wonderful", 10, "hello won…"},
		{"one long word: as truncate", strings.Repeat("x", 50), 10, "xxxxxxxxx…"},
		{"runes, not bytes", "héllo wörld ünïcode", 13, "héllo wörld…"},
		{"trailing blanks trimmed", "abc    defghijk", 8, "abc…"},
		{"newline is a boundary", "first line\nsecond line", 16, "first line…"},
		{"marker is never cut", key, 15, "key…"},
		{"marker cut at its last byte", key, 31, "key…"},
		{"marker kept whole", key, 32, "key [REDACTED:anthropic_api_key]"},
		{"marker before the cut", key + " tail words", 36, "key [REDACTED:anthropic_api_key]…"},
		{"marker glued to a word", "x=" + anthropicKey + "abc", 20, "x=…"},
		{"max 1", "hello", 1, "…"},
		{"max 0", "hello", 0, ""},
		{"negative max", "hello", -5, ""},
		{"fake unterminated marker is text", "[REDACTED:" + strings.Repeat("a", 60), 20, "[REDACTED:aaaaaaaaa…"},
		{"invalid utf-8 counts as one rune", "ab\xffcdef", 4, "ab\uFFFD…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			txt := FromLog(tc.in)
			got := txt.Clip(tc.max)
			if got != tc.want {
				t.Errorf("Clip(%d) = %q, want %q", tc.max, got, tc.want)
			}
			if tc.max >= 0 && utf8.RuneCountInString(got) > tc.max {
				t.Errorf("Clip(%d) has %d runes", tc.max, utf8.RuneCountInString(got))
			}
			s, n := txt.ClipInfo(tc.max)
			if s != got || n != utf8.RuneCountInString(txt.Redacted()) {
				t.Errorf("ClipInfo(%d) = %q, %d", tc.max, s, n)
			}
		})
	}
}

// TestClipProperty plants secrets in random text and clips it at random
// lengths: the answer fits, is a prefix of the redacted text, holds only
// whole markers, and shows not even the first 8 bytes of a secret the
// redactor found (cutting before redacting would show them).
func TestClipProperty(t *testing.T) {
	cases := truePositives()
	rules := map[string]bool{}
	for _, r := range Rules() {
		rules[r] = true
	}
	r := rand.New(rand.NewSource(2))
	for trial := 0; trial < 3000; trial++ {
		var b strings.Builder
		for k := 0; k < 1+r.Intn(3); k++ {
			tc := cases[r.Intn(len(cases))]
			b.WriteString(noise(r, r.Intn(120)))
			b.WriteString([]string{" ", "\n", "\t", "", "="}[r.Intn(5)])
			b.WriteString(tc.in)
			b.WriteString([]string{" ", "\n", "", "."}[r.Intn(4)])
		}
		b.WriteString(noise(r, r.Intn(120)))
		txt := FromLog(b.String())
		found := Find(validUTF8(b.String()))
		if len(found) == 0 {
			continue // noise glued to the planted context can hide it
		}
		full := txt.Redacted()
		n := utf8.RuneCountInString(full)
		for k := 0; k < 8; k++ {
			max := 1 + r.Intn(n+8)
			got, total := txt.ClipInfo(max)
			fail := func(format string, args ...any) {
				t.Helper()
				t.Fatalf("trial %d, max %d: %s\n full: %q\n  got: %q", trial, max, fmt.Sprintf(format, args...), full, got)
			}
			if total != n {
				fail("ClipInfo length %d, want %d", total, n)
			}
			if utf8.RuneCountInString(got) > max {
				fail("%d runes", utf8.RuneCountInString(got))
			}
			kept := got
			if n > max {
				var ok bool
				if kept, ok = strings.CutSuffix(got, "…"); !ok {
					fail("cut without an ellipsis")
				}
			} else if got != full {
				fail("changed a text that fits")
			}
			if !strings.HasPrefix(full, kept) {
				fail("not a prefix of the redacted text")
			}
			checkWholeMarkers(t, kept, rules, fail)
			for _, f := range found {
				if len(f.Secret) < minRepeat {
					continue // a short password may occur elsewhere as text
				}
				if p := f.Secret[:minRepeat]; strings.Contains(got, p) {
					fail("shows %q, the start of %s secret %q", p, f.Rule, f.Secret)
				}
			}
		}
	}
}

// checkWholeMarkers fails when s holds a marker of an unknown rule or ends
// in the start of a marker.
func checkWholeMarkers(t *testing.T, s string, rules map[string]bool, fail func(string, ...any)) {
	t.Helper()
	for rest := s; ; {
		i := strings.Index(rest, markerPrefix)
		if i < 0 {
			break
		}
		rest = rest[i+len(markerPrefix):]
		e := strings.IndexByte(rest, ']')
		if e < 0 || !rules[rest[:e]] {
			fail("a cut marker")
		}
		rest = rest[e+1:]
	}
	for k := 2; k < len(markerPrefix); k++ {
		if strings.HasSuffix(s, markerPrefix[:k]) {
			fail("ends in the start of a marker")
		}
	}
	if i := strings.LastIndex(s, markerPrefix); i >= 0 && !strings.Contains(s[i:], "]") {
		fail("ends inside a marker")
	}
}

func TestContainsFold(t *testing.T) {
	tests := []struct {
		in, sub string
		want    bool
	}{
		{"Hello World", "world", true},
		{"Hello World", "WORLD", true},
		{"Hello World", "", true},
		{"", "", true},
		{"", "a", false},
		{"Hello World", "worlds", false},
		{"ÉCOLE normale", "école", true},
		{"\u212A", "k", true}, // Kelvin sign folds to k
		{"Straße", "STRASSE", false},
		{"a\xffb", "a\uFFFDb", true},
		// Secrets count as their markers: no guessing a key by substrings.
		{plantKey, anthropicKey[:20], false},
		{plantKey, "sk-ant", false},
		{plantKey, "export anthropic_api_key=", true},
		{plantKey, "[redacted:anthropic", true},
		{plantURL, "https://bob:", true},
		{plantURL, urlPassword, false},
	}
	for _, tc := range tests {
		if got := FromLog(tc.in).ContainsFold(tc.sub); got != tc.want {
			t.Errorf("FromLog(%q).ContainsFold(%q) = %v, want %v", tc.in, tc.sub, got, tc.want)
		}
	}
}

func TestEqual(t *testing.T) {
	if !FromLog("a b").Equal(FromLog("a b")) || FromLog("a").Equal(FromLog("A")) {
		t.Error("Text.Equal")
	}
	// Two different secrets redact alike but are not equal.
	other := "export ANTHROPIC_API_KEY=" + "sk-ant-api03-" + fill(93, 9) + "AA"
	if FromLog(plantKey).Redacted() != FromLog(other).Redacted() || FromLog(plantKey).Equal(FromLog(other)) {
		t.Error("Text.Equal compares redacted values")
	}
	if !FromLogID("x1").Equal(FromLogID("x1")) || FromLogID("x1").Equal(FromLogID("x2")) {
		t.Error("ID.Equal")
	}
	if !FromLogPath("/a").Equal(FromLogPath("/a")) || FromLogPath("/a").Equal(FromLogPath("/a/")) {
		t.Error("Path.Equal")
	}
	// Tests of other packages compare outputs with reflect.DeepEqual.
	if !reflect.DeepEqual(exported{FromLog("a"), FromLogPath("/b"), FromLogID("c")}, exported{FromLog("a"), FromLogPath("/b"), FromLogID("c")}) ||
		reflect.DeepEqual(FromLog("a"), FromLog("b")) {
		t.Error("reflect.DeepEqual does not compare raw values")
	}
}

func TestIDHasPrefixFold(t *testing.T) {
	tests := []struct {
		id, prefix string
		want       bool
	}{
		{"5F3C2A1E-8b7d", "5f3c", true},
		{"5f3c2a1e-8b7d", "5F3C2A1E-8B7D", true},
		{"5f3c2a1e", "", true},
		{"5f3c", "5f3c2", false},
		{"5f3c2a1e", "f3c", false},
		{githubClassic, "ghp_", false},
		{githubClassic, "[REDACTED", true},
	}
	for _, tc := range tests {
		if got := FromLogID(tc.id).HasPrefixFold(tc.prefix); got != tc.want {
			t.Errorf("FromLogID(%q).HasPrefixFold(%q) = %v, want %v", tc.id, tc.prefix, got, tc.want)
		}
	}
}
