package logs

// Fuzz targets of the reader: the line decoder and the fold into a file
// summary, the line reader, the outcome classifier and the time-argument
// parser. `go test` runs the seeds; `go test -fuzz=^FuzzX$` explores; crashers
// land in testdata/fuzz/<Target>/ and are committed (see scripts/fuzz.sh).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // zones for FuzzParseTimeRange on machines without zoneinfo
	"unicode/utf8"

	"github.com/agent-activity/agent-activity/claudecode"
	"github.com/agent-activity/agent-activity/transcript"
)

// seedLines returns realistic lines: this package's test transcripts, the
// fixture tree and, when present, a few lines of every public corpus file.
// Lines are capped so the seed corpus stays quick to run.
func seedLines(tb testing.TB, maxLines int) [][]byte {
	tb.Helper()
	var out [][]byte
	add := func(b []byte) {
		if len(b) > 0 && len(b) <= 64<<10 && len(out) < maxLines {
			out = append(out, append([]byte(nil), b...))
		}
	}
	for _, l := range strings.Split(neighbourMain+neighbourAgent+hostileBody("\n"), "\n") {
		add([]byte(l))
	}
	readFirst := func(path string, n int) {
		f, err := os.Open(path)
		if err != nil {
			return
		}
		defer f.Close()
		r := bufio.NewReaderSize(f, 1<<20)
		for i := 0; i < n; i++ {
			line, err := r.ReadBytes('\n')
			add(bytes.TrimSuffix(line, []byte("\n")))
			if err != nil {
				return
			}
		}
	}
	for _, base := range []string{filepath.Join("..", "testdata", "projects"), filepath.Join("..", "..", "shared", "corpus", "public")} {
		perFile := 40
		if strings.Contains(base, "corpus") {
			perFile = 4
		}
		filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				readFirst(p, perFile)
			}
			return nil
		})
	}
	return out
}

// dumpSummary renders everything a summary holds, so two dumps differ when
// any kept string changed.
func dumpSummary(f *FileSummary) string {
	s := fmt.Sprintf("%+v", *f)
	if f.CostState != nil {
		s += fmt.Sprintf("%+v", *f.CostState)
	}
	return s
}

// FuzzDecodeLine feeds arbitrary bytes, split into lines, through decodeLine
// and fold for every file kind. Properties: no panic; the counts add up; and
// nothing the summary keeps aliases the line buffer (the decoder does not copy
// strings and the reader reuses its buffer).
func FuzzDecodeLine(f *testing.F) {
	lines := seedLines(f, 400)
	for _, l := range lines {
		f.Add(l)
	}
	// Multi-line seeds: a whole small session, split copies, orphan results.
	f.Add([]byte(neighbourMain))
	f.Add([]byte(hostileBody("\r\n")))
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"The user doesn't want to proceed with this tool use."}]}}` + "\n" +
		`{"type":"assistant","message":{"id":"m","usage":{"output_tokens":1},"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"rm"}}]}}`))
	f.Add([]byte(`{"type":"cost-state","modelUsage":{"claude-x":{"inputTokens":1,"outputTokens":2}}}`))
	f.Add([]byte(`{"type":"summary","summary":"s","leafUuid":"u"}` + "\n" + `{"type":"custom-title","customTitle":"t"}` + "\n" + `{"type":"pr-link","prUrl":"https://x/1"}`))
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":-1,"output_tokens":9223372036854775807,"cache_creation":{"ephemeral_1h_input_tokens":5}}}}`))
	f.Add([]byte("\xEF\xBB\xBF{}\n\x00\x00\n{\"type\":\"user\",\"message\":{\"content\":\"\xff\"}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		buf := append([]byte(nil), data...)
		for _, kind := range []FileKind{MainFile, SubagentFile, LegacyAgentFile} {
			fs := newFileSummary(discovered{File: transcript.File{Path: "/nonexistent/p/s.jsonl", ProjectDir: "/nonexistent/p", Project: "p", Kind: kind, SessionID: "s"}, agent: claudecode.Agent{}})
			fs.openIndexes()
			n := 0
			er := claudecode.NewReader(context.Background(), bytes.NewReader(buf), 0, 0)
			for er.Scan() {
				e, ok := er.Entry(transcript.WantText | transcript.WantInputs)
				if !ok {
					fs.Skipped++
					continue
				}
				n++
				fs.Lines++
				fs.fold(e)
			}
			er.Close()
			if fs.Entries != n {
				t.Fatalf("entries %d, want %d", fs.Entries, n)
			}
			calls := 0
			for _, c := range fs.tools {
				calls += int(c.n)
			}
			if calls != len(fs.Calls) {
				t.Fatalf("tool counts %d != calls %d", calls, len(fs.Calls))
			}
			for _, m := range fs.Messages() {
				if m.Usage.Input < 0 || m.Usage.Output < 0 || m.Usage.CacheRead < 0 || m.Usage.CacheCreate5m < 0 || m.Usage.CacheCreate1h < 0 {
					t.Fatalf("negative tokens kept: %+v", m.Usage)
				}
			}
			if !utf8.ValidString(fs.FirstPrompt) || !utf8.ValidString(fs.CustomTitle) || !utf8.ValidString(fs.AITitle) {
				t.Fatalf("kept text is not valid UTF-8: %q %q %q", fs.FirstPrompt, fs.CustomTitle, fs.AITitle)
			}
			before := dumpSummary(fs)
			scribble := append([]byte(nil), buf...)
			for i := range buf {
				buf[i] = '#'
			}
			if after := dumpSummary(fs); after != before {
				i := 0
				for i < len(before) && i < len(after) && before[i] == after[i] {
					i++
				}
				lo := max(0, i-120)
				t.Fatalf("the summary aliases the line buffer: it changed when the buffer was overwritten, at\nbefore …%s\nafter  …%s", before[lo:min(len(before), i+60)], after[lo:min(len(after), i+60)])
			}
			copy(buf, scribble)
		}
	})
}

// FuzzClassifyError decides outcomes of arbitrary result texts, alone and
// through the whole fold (a tool_use, then its tool_result as a string and as
// a list of blocks). Properties: no panic; an is_error result is error or
// rejected, never anything else; a result without is_error is ok; the five
// outcomes add up.
func FuzzClassifyError(f *testing.F) {
	for _, s := range []string{
		"The user doesn't want to proceed with this tool use. The tool use was rejected.",
		"The user doesn't want to take this action right now.",
		"Exit code 137\n[Request interrupted by user for tool use]",
		"Exit code 1\nFAIL",
		"<tool_use_error>File has not been read yet</tool_use_error>",
		"", "\x00", "\xff\xfe", "The user doesn't want to proceed",
	} {
		f.Add(s, true, false)
		f.Add(s, false, true)
	}
	f.Fuzz(func(t *testing.T, text string, isErr, sidechain bool) {
		enc, _ := json.Marshal(text)
		var round string
		json.Unmarshal(enc, &round) // what the transcript holds after JSON encoding
		for _, content := range []string{string(enc), `[{"type":"text","text":` + string(enc) + `}]`} {
			fs := newFileSummary(discovered{File: transcript.File{Path: "/nonexistent/s.jsonl", Kind: MainFile, SessionID: "s"}, agent: claudecode.Agent{}})
			fs.openIndexes()
			side := ""
			if sidechain {
				side = `"isSidechain":true,`
			}
			use := `{"type":"assistant",` + side + `"message":{"id":"m1","content":[{"type":"tool_use","id":"toolu_f","name":"Bash","input":{"command":"x"}}]}}`
			res := fmt.Sprintf(`{"type":"user",%s"message":{"content":[{"type":"tool_result","tool_use_id":"toolu_f","content":%s,"is_error":%v}]}}`, side, content, isErr)
			er := claudecode.NewReader(context.Background(), strings.NewReader(use+"\n"+res+"\n"), 0, 0)
			for er.Scan() {
				e, ok := er.Entry(0)
				if !ok || e.Drift {
					t.Fatalf("line %d does not decode: %s", er.Lines().Number(), er.Lines().Bytes())
				}
				fs.fold(e)
			}
			er.Close()
			if len(fs.Calls) != 1 {
				t.Fatalf("%d calls", len(fs.Calls))
			}
			got := fs.Calls[0].Outcome(false)
			want := OutcomeOK
			if isErr {
				want = OutcomeError
				if rejected(round) {
					want = OutcomeRejected
				}
			}
			if got != want {
				t.Fatalf("outcome %s, want %s (content %s)", got, want, content)
			}
			s := &Session{Main: fs}
			s.ownCalls(nil)
			st := CountCalls(s, false)
			if o := st.Total; o.OK+o.Error+o.Rejected+o.Pending+o.InProgress != o.Total || o.Total != 1 {
				t.Fatalf("outcomes do not add up: %+v", o)
			}
		}
	})
}

var fuzzZones = []string{"UTC", "America/Los_Angeles", "Asia/Kathmandu", "Pacific/Chatham", "Australia/Lord_Howe", "America/Santiago", "Pacific/Apia"}

// FuzzParseTimeRange parses arbitrary since/until values at arbitrary clock
// readings and zones. Properties: no panic; an error is invalid_argument
// naming since or until with a readable sentence (the tools layer bounds its
// length: see tools.FuzzToolCall); a success has
// since < until when both are set, and relative forms lie in the past.
func FuzzParseTimeRange(f *testing.F) {
	for _, v := range [][2]string{
		{"2026-11-28", "2026-11-28"}, {"2026-11-28T09:00:00Z", "2026-11-29T09:00:00+01:00"}, {"today", ""}, {"yesterday", "today"},
		{"24h", ""}, {"7d", "1d"}, {"2w", ""}, {"90m", "now"}, {"", "2026-02-30"}, {"last week", ""}, {"-5d", ""},
		{"999999d", ""}, {"1e308h", ""}, {"0.5d", ""}, {"NaNd", ""}, {"Infd", ""}, {" today ", ""}, {"TODAY", "Yesterday"},
		{"2026-11-28T09:00:00.123456789123Z", ""}, {"0000-01-01", "9999-12-31"}, {"1970-01-01T00:00:00Z", ""},
	} {
		f.Add(v[0], v[1], int64(1795000000), uint8(0))
		f.Add(v[0], v[1], int64(1774746000), uint8(6)) // a DST change day in Apia/elsewhere
	}
	f.Fuzz(func(t *testing.T, since, until string, nowSec int64, zone uint8) {
		loc, err := time.LoadLocation(fuzzZones[int(zone)%len(fuzzZones)])
		if err != nil {
			t.Skip(err)
		}
		if nowSec < 0 {
			nowSec = -nowSec
		}
		now := time.Unix(nowSec%7_000_000_000, 0) // 1970..2191
		r, err := ParseTimeRange(since, until, now, loc)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) || le.Code != CodeInvalidArgument || (le.Argument != "since" && le.Argument != "until") {
				t.Fatalf("error %#v is not invalid_argument naming since/until", err)
			}
			if le.Message == "" || !utf8.ValidString(le.Message) {
				t.Fatalf("message is empty or not valid UTF-8: %.200q", le.Message)
			}
			return
		}
		if r.Since != 0 && r.Until != 0 && r.Until <= r.Since {
			t.Fatalf("since %d >= until %d for %q, %q", r.Since, r.Until, since, until)
		}
		if _, ok := parseDurationArg(strings.TrimSpace(since)); ok && r.Since > now.UnixMilli() {
			t.Fatalf("since %q = %d lies after now %d", since, r.Since, now.UnixMilli())
		}
	})
}

// rejected is SPEC §3's rule for a result stopped by the user.
func rejected(text string) bool {
	return strings.HasPrefix(text, "The user doesn't want to proceed with this tool use") ||
		strings.HasPrefix(text, "The user doesn't want to take this action") ||
		strings.Contains(text, "[Request interrupted by user for tool use]")
}
