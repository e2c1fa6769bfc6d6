package claudecode

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/agent-activity/agent-activity/transcript"
)

// readBoth decodes one line by the fast path and by sonic alone and renders
// both entries (every optional part filled) for comparison; ok says whether
// the line decoded at all.
func readBoth(line []byte) (fast, slow string, fastOK, slowOK, declined bool) {
	render := func(useFast bool) (string, bool, bool) {
		r := NewReader(context.Background(), bytes.NewReader(line), 0, 0)
		defer r.Close()
		if !useFast {
			r.fast = nil
		}
		if !r.Scan() {
			return "", false, false
		}
		e, ok := r.Entry(transcript.WantText | transcript.WantInputs)
		tookFast := r.fast != nil && r.line == &r.fast.line
		if !ok {
			return "", false, tookFast
		}
		c := *e
		var resp string
		if c.Response != nil {
			resp = fmt.Sprintf("%+v", *c.Response)
		}
		c.Response = nil
		return fmt.Sprintf("%+v\nresponse %s", c, resp), true, tookFast
	}
	fast, fastOK, tookFast := render(true)
	slow, slowOK, _ = render(false)
	return fast, slow, fastOK, slowOK, !tookFast
}

// corpusLines is every non-blank line of the JSONL files under the public
// corpus and the repository's fixture trees.
func corpusLines(t testing.TB) [][]byte {
	return treeLines(t, []string{"../../shared/corpus/public", "../testdata"}, 0)
}

// treeLines is the non-blank lines of the JSONL files under roots, the files
// read until about max bytes (0: all of them).
func treeLines(t testing.TB, roots []string, max int) [][]byte {
	var lines [][]byte
	n := 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("corpus %s: %v", root, err)
		}
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return err
			}
			if max > 0 && n >= max {
				return filepath.SkipAll
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n += len(b)
			for _, l := range bytes.Split(b, []byte("\n")) {
				if len(bytes.TrimSpace(l)) > 0 {
					lines = append(lines, l)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return lines
}

// TestFastLineAgrees holds the fast path to sonic's answers on every real
// line we have, and checks that it takes nearly all of them.
func TestFastLineAgrees(t *testing.T) {
	lines := corpusLines(t)
	declined := 0
	for i, l := range lines {
		fast, slow, fastOK, slowOK, dec := readBoth(l)
		if fastOK != slowOK || fast != slow {
			t.Fatalf("line %d (%.200s): fast ok=%v, sonic ok=%v\nfast:  %.2000s\nsonic: %.2000s", i, l, fastOK, slowOK, fast, slow)
		}
		if dec {
			declined++
		}
	}
	if len(lines) < 8000 {
		t.Fatalf("only %d corpus lines", len(lines))
	}
	// The corpus holds cost-state lines, torn lines and drifted shapes, which
	// sonic decides; every other line must take the fast path.
	if declined*100 > len(lines) {
		t.Errorf("fast path declined %d of %d lines", declined, len(lines))
	}
	t.Logf("%d lines, %d declined to sonic", len(lines), declined)
}

func TestFastLineShapes(t *testing.T) {
	for _, tc := range []struct {
		line     string
		declined bool
	}{
		{`{"type":"user","message":{"role":"user","content":"hi \"there\"\n"}}`, false},
		{`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"a\u00e9\ud83d\ude00"}],"usage":{"input_tokens":3,"cache_creation":{"ephemeral_5m_input_tokens":1},"iterations":[{"type":"advisor_message","model":"x","input_tokens":2}],"speed":"fast"}}}`, false},
		{`{"type":"assistant","message":{"usage":{"input_tokens":1.5}}}`, true},
		{`{"type":"assistant","message":{"usage":{"input_tokens":"1"}}}`, true},
		{`{"type":"assistant","message":{"usage":{"input_tokens":99999999999999999999}}}`, true},
		{`{"type":"a","type":"b"}`, true},
		{`{"ty\u0070e":"user"}`, true},
		{`{"type":"user","message":{"content":[{"type":"text","text":"\x"}]}}`, true},
		{`{"type":"user","message":{"content":[1]}}`, true},
		{`{"type":"user","x":[1,]}`, true},
		{`{"type":"user","x":01}`, true},
		{`{"type":"user","x":"\q","y":{"z":[true,false,null,-1.5e+3]}}`, false},
		{`{"type":"user"} x`, true},
		{`{"type":"user"`, true},
		{`{"type":"cost-state","modelUsage":{"m":{"inputTokens":1,"outputTokens":2,"cacheReadInputTokens":3,"cacheCreationInputTokens":4,"webSearchRequests":0}},"totalCostUSD":0.5}`, false},
		{`{"type":"cost-state","modelUsage":{"m":{"inputTokens":1},"m":{"inputTokens":2}}}`, true},
		{`{"type":"cost-state","modelUsage":{"m":{"inputTokens":1}},"totalCostUSD":1e400}`, true},
		{`{"type":"cost-state","totalCostUSD":"0.5"}`, true},
		{`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"TodoWrite","input":{"todos":[{"content":"a\nb","status":"pending","activeForm":"x"}],"file_path":"/a\"b"}}]}}`, false},
		{`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":5}}]}}`, false},
		{`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":[{"type":"text","text":"one"},{"type":"image"},{"type":"text","text":"tw\u006f"}]}]}}`, false},
		{`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":[{"type":"text","text":5}]}]}}`, false},
		{`null`, true},
		{`{"type":null,"isMeta":null,"message":null}`, false},
		{`{"isMeta":nul}`, true},
		{`{"type":"user","message":{"content":"a\\"}}`, false},
		{`{"type":"user","cwd":"C:\\Users\\x","message":{"content":"\ud800\u0041 \ud83d\ude00 \udc00 \ud800\ud800\udc00 \u0000 \/\b\f\r\t \u00E9"}}`, false},
		{"{\"type\":\"user\",\"message\":{\"content\":\"\xff\xed\xa0\x80\\n\"}}", false},
		{`{"type":"user","message":{"content":"bad \u12"}}`, true},
		{`{"type":"user","message":{"content":"a\\\"b"}}`, false},
	} {
		fast, slow, fastOK, slowOK, dec := readBoth([]byte(tc.line))
		if fastOK != slowOK || fast != slow {
			t.Errorf("%s: fast ok=%v, sonic ok=%v\nfast:  %s\nsonic: %s", tc.line, fastOK, slowOK, fast, slow)
		}
		if dec != tc.declined {
			t.Errorf("%s: declined %v, want %v", tc.line, dec, tc.declined)
		}
	}
}

// TestFastLineQuoteList: lines long enough for a quote list (64 bytes or
// more) where the decoder meets something other than the list's next
// quote: a key that is not a string (the list's next entry is a later
// string's), a quote after a backslash outside any string (escaped in the
// list), a string no quote closes; and strings whose escapes sit at the
// list's 64-byte block edges.
func TestFastLineQuoteList(t *testing.T) {
	pad := strings.Repeat("p", 70)
	for _, tc := range []struct {
		line     string
		declined bool
	}{
		{`{1:2,"` + pad + `":3}`, true},
		{`{"type":"user",` + pad + `:1}`, true},
		{`{"type":"user","x":\"y","` + pad + `":1}`, true},
		{`{"type":"user","` + pad + `":"open}`, true},
		{`{"type":"user","message":{"content":"` + strings.Repeat("a", 26) + `\"` + strings.Repeat(`\\`, 20) + `\"b"},"x":"` + pad + `"}`, false},
		{`{"type":"user","` + strings.Repeat("k", 44) + `\"k":1,"uuid":"u"}`, true}, // an escaped key: sonic decides
		{`{"type":"user","uuid":"` + strings.Repeat("u", 39) + `\\","cwd":"` + pad + `"}`, false},
	} {
		if len(tc.line) < 64 {
			t.Fatalf("%s: shorter than a block", tc.line)
		}
		fast, slow, fastOK, slowOK, dec := readBoth([]byte(tc.line))
		if fastOK != slowOK || fast != slow {
			t.Errorf("%s: fast ok=%v, sonic ok=%v\nfast:  %s\nsonic: %s", tc.line, fastOK, slowOK, fast, slow)
		}
		if dec != tc.declined {
			t.Errorf("%s: declined %v, want %v", tc.line, dec, tc.declined)
		}
	}
}

// FuzzFastLine: whatever the line, the fast path and sonic give the same
// entry, or the fast path declines and sonic decides.
func FuzzFastLine(f *testing.F) {
	lines := corpusLines(f)
	for i := 0; i < len(lines); i += max(1, len(lines)/200) {
		if len(lines[i]) < 4096 {
			f.Add(lines[i])
		}
	}
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":3,"cache_creation":{"ephemeral_5m_input_tokens":1,"ephemeral_1h_input_tokens":2},"iterations":[{"type":"advisor_message","model":"x","input_tokens":2}]}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return // one line at a time
		}
		fast, slow, fastOK, slowOK, _ := readBoth(line)
		if fastOK != slowOK || fast != slow {
			t.Fatalf("%q: fast ok=%v, sonic ok=%v\nfast:  %s\nsonic: %s", line, fastOK, slowOK, fast, slow)
		}
	})
}

// FuzzUnquote: a string with escapes reads as sonic reads it, or both
// reject it.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`a\nb`, `\ud800\u0041`, `\ud83d\ude00`, "\xff\\n", `\udc00`, `\ud800\ud800\udc00`, `\u0000`, `\x`, `\u12`, `tab\there \"q\" \\ \/`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		if bytes.IndexByte(s, '\\') < 0 {
			return // only strings with escapes are unquoted
		}
		quoted := append(append([]byte{'"'}, s...), '"')
		var d fastDecoder
		d.b = quoted
		inside, _, ok := d.quoted()
		if !ok || d.i != len(quoted) {
			return // the quote closes early: not one string
		}
		got, ok := transcript.Unquote(inside)
		var want string
		wantOK := unmarshal(quoted, &want) == nil
		if ok != wantOK || ok && got != want {
			t.Fatalf("%q: unquote %q %v, sonic %q %v", s, got, ok, want, wantOK)
		}
	})
}

// TestRecycledReaderReadsAlike: a reader taken from the pool after other
// files were read (their decoders' lists dirty) gives the entries a new
// reader gives, line numbers and all.
func TestRecycledReaderReadsAlike(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "projects", "*", "*.jsonl"))
	if len(files) < 3 {
		t.Fatalf("%d fixture files", len(files))
	}
	render := func(b []byte, r *Reader) string {
		defer r.Close()
		var out strings.Builder
		for r.Scan() {
			e, ok := r.Entry(transcript.WantText | transcript.WantInputs)
			if !ok {
				fmt.Fprintf(&out, "line %d: no entry\n", r.Lines().Number())
				continue
			}
			c := *e
			if c.Response != nil {
				fmt.Fprintf(&out, "response %+v\n", *c.Response)
			}
			c.Response = nil
			fmt.Fprintf(&out, "%+v\n", c)
		}
		return out.String()
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fresh := render(b, &Reader{lines: transcript.NewLines(context.Background(), bytes.NewReader(b), 0, 0), fast: &fastDecoder{}, sub: &fastDecoder{}})
		for _, q := range files { // dirty the pooled readers
			qb, _ := os.ReadFile(q)
			render(qb, NewReader(context.Background(), bytes.NewReader(qb), 0, 0))
		}
		if again := render(b, NewReader(context.Background(), bytes.NewReader(b), 0, 0)); again != fresh {
			t.Fatalf("%s: a recycled reader read\n%s\na new one\n%s", filepath.Base(p), again, fresh)
		}
	}
}

// TestPromptTextBorrowed: a prompt with escapes, read by the fast path, is
// unquoted onto the reader's buffer, not into a string of its own; it stays
// whole while the same line's other texts are borrowed after it (WantText),
// and is the text sonic reads.
func TestPromptTextBorrowed(t *testing.T) {
	prompt := func(text string) string {
		return `{"type":"user","uuid":"u","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":[{"type":"text","text":"` + text + `"}]}}`
	}
	lines := []string{
		prompt(`fix the \"parser\"\nplease`),
		prompt(`<command-name>/clear</command-name>`),
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":"boom\nfailed"}]}}`,
		`{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"done \"ok\""}]}}`,
		prompt(`  \u00a0second caf\u00e9 prompt\t`),
	}
	want := []struct {
		has    bool
		prompt string
	}{{true, "fix the \"parser\"\nplease"}, {false, ""}, {false, ""}, {false, ""}, {true, "second café prompt"}}
	for _, useFast := range []bool{true, false} {
		r := NewReader(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), 0, 0)
		if !useFast {
			r.fast = nil
		}
		for i := 0; r.Scan(); i++ {
			e, ok := r.Entry(0)
			if !ok {
				t.Fatalf("line %d does not decode", i+1)
			}
			if useFast && r.line != &r.fast.line {
				t.Fatalf("line %d: the fast path declined it", i+1)
			}
			got := strings.Clone(e.Prompt)
			if e, _ = r.Entry(transcript.WantText); e.HasPrompt != want[i].has || e.Prompt != want[i].prompt || e.Prompt != got {
				t.Errorf("fast %v, line %d: prompt %v %q (%q before the line's other texts), want %v %q", useFast, i+1, e.HasPrompt, e.Prompt, got, want[i].has, want[i].prompt)
			}
		}
		if useFast && len(r.sub.textBuf) > len("  \u00a0second café prompt\t") {
			t.Errorf("the reader's buffer holds %d bytes after the last line: not one line's texts", len(r.sub.textBuf))
		}
		r.Close()
	}
	// Through the fast path the prompt is in the reader's buffer, not a
	// string sonic made for it.
	r := NewReader(context.Background(), strings.NewReader(lines[0]+"\n"), 0, 0)
	defer r.Close()
	if !r.Scan() {
		t.Fatal("no line")
	}
	e, _ := r.Entry(0)
	buf := r.sub.textBuf
	if p := uintptr(unsafe.Pointer(unsafe.StringData(e.Prompt))); len(buf) == 0 || p < uintptr(unsafe.Pointer(&buf[0])) || p >= uintptr(unsafe.Pointer(&buf[0]))+uintptr(len(buf)) {
		t.Errorf("the prompt %q is not in the reader's buffer (%d bytes)", e.Prompt, len(buf))
	}
}

// TestErrorTextBorrowed: the text of a failed tool result, which every pass
// reads to classify the failure, is unquoted onto the reader's buffer and
// stays whole while a pass borrows the line's other result texts after it
// (WantText).
func TestErrorTextBorrowed(t *testing.T) {
	line := `{"type":"user","message":{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"a","is_error":true,"content":"exit 1\n\"boom\" failed"},` +
		`{"type":"tool_result","tool_use_id":"b","content":"ok\n\"fine\" and more text"},` +
		`{"type":"tool_result","tool_use_id":"c","is_error":true,"content":[{"type":"text","text":"list \"err\"\nx"}]}]}}`
	r := NewReader(context.Background(), strings.NewReader(line+"\n"), 0, 0)
	defer r.Close()
	if !r.Scan() {
		t.Fatal("no line")
	}
	e, ok := r.Entry(0)
	if !ok || r.line != &r.fast.line || len(e.Results) != 3 {
		t.Fatalf("the fast path did not read the line: %v %v", ok, e)
	}
	const failed = "exit 1\n\"boom\" failed"
	buf := r.sub.textBuf
	for i, want := range map[int]string{0: failed, 2: "list \"err\"\nx"} { // a string content, and a list's text
		if p := uintptr(unsafe.Pointer(unsafe.StringData(e.Results[i].Text))); e.Results[i].Text != want || len(buf) == 0 ||
			p < uintptr(unsafe.Pointer(&buf[0])) || p >= uintptr(unsafe.Pointer(&buf[0]))+uintptr(len(buf)) {
			t.Fatalf("the failed result's text %q is not %q in the reader's buffer", e.Results[i].Text, want)
		}
	}
	e, _ = r.Entry(transcript.WantText)
	if e.Results[0].Text != failed || e.Results[1].Text != "ok\n\"fine\" and more text" {
		t.Errorf("after the line's other texts were borrowed: %q, %q", e.Results[0].Text, e.Results[1].Text)
	}
}
