package logs

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/agent-activity/agent-activity/transcript"
)

// TestOwnCallsRuns: a session owns every call of a file whose responses it
// owns, and only the others' when some are copies, in file order, whichever
// calls the copies are.
func TestOwnCallsRuns(t *testing.T) {
	other := &FileSummary{no: 1}
	s := &Session{}
	s.home = &sessionHome{s: s}
	elsewhere := &Session{responses: []Response{{file: other.no}}}
	elsewhere.home = &sessionHome{s: elsewhere}
	index := newRespIndex(1, []*sessionHome{s.home, elsewhere.home})
	index.put(7, respRef{elsewhere.home, 0}) // response 7 is owned by another file
	for _, c := range []struct {
		msgs []uint64 // Msg of each call
		want []int    // the calls owned
	}{
		{[]uint64{0, 1, 2}, []int{0, 1, 2}},
		{[]uint64{7, 7, 1}, []int{2}},       // a copied prefix
		{[]uint64{1, 7, 2, 7}, []int{0, 2}}, // copies after owned calls
		{[]uint64{7}, nil},
		{nil, nil},
	} {
		f := &FileSummary{no: 2}
		for i, m := range c.msgs {
			f.Calls = append(f.Calls, Call{Key: uint64(i), Msg: m})
		}
		s.Main = f
		s.ownCalls(index)
		var got []int
		for cf, call := range s.Calls() {
			if cf != f {
				t.Fatalf("call of another file")
			}
			got = append(got, int(call.Key))
		}
		if !slices.Equal(got, c.want) || s.numCalls != len(c.want) {
			t.Errorf("calls with msgs %v: owned %v (numCalls %d), want %v", c.msgs, got, s.numCalls, c.want)
		}
	}
}

// TestCountTool: a file keeps one count and one string per tool name, also
// for names the clip changes (too long, invalid UTF-8) and the empty name.
func TestCountTool(t *testing.T) {
	long := strings.Repeat("mcp__server__tool_", 10)
	f := &FileSummary{}
	for _, n := range []string{"Bash", "Read", "Bash", long, "", long, "bad\xff", "Bash", "", "bad\xff"} {
		f.countTool(n)
	}
	want := map[string]int{"Bash": 3, "Read": 1, transcript.Clip(long, 120): 2, "": 2, transcript.Clip("bad\xff", 120): 2}
	if len(f.tools) != len(want) {
		t.Errorf("%d tools kept, want %d: %+v", len(f.tools), len(want), f.tools)
	}
	for name, n := range want {
		if got := f.ToolCount(name); got != n {
			t.Errorf("ToolCount(%q) = %d, want %d", name, got, n)
		}
	}
	if a, b := f.countTool("Read"), f.countTool("Read"); a != b || nameOf(a) != "Read" || unsafe.StringData(nameOf(a)) != unsafe.StringData(nameOf(b)) {
		t.Errorf("two calls of Read: numbers %d and %d, names %q and %q", a, b, nameOf(a), nameOf(b))
	}
	if a, b := f.countTool("Read"), f.countTool("Bash"); a == b {
		t.Errorf("Read and Bash have one number, %d", a)
	}
}

// TestCallFilesKeepID: a file call's tool_use id reads back as it was
// given, kept in place when it fits and beside it when not, and the record
// stays within a 64-byte object.
func TestCallFilesKeepID(t *testing.T) {
	if n := unsafe.Sizeof(callFiles{}); n > 64 {
		t.Errorf("callFiles is %d bytes, more than its 64-byte size class", n)
	}
	more := []transcript.CallFile{{Path: "b.go", Action: ActionEdit}}
	for _, tc := range []struct {
		id   string
		more []transcript.CallFile
	}{
		{"toolu_01ABCDEFGHJKLMNPQRSTUVWX", nil},  // 30 bytes: in place
		{"call_AbCdEfGhIjKlMnOpQrStUvWx", nil},   // 29
		{"toolu_01ABCDEFGHJKLMNPQRSTUVWXY", nil}, // 31: beside
		{"", nil},
		{"toolu_01ABCDEFGHJKLMNPQRSTUVWX", more}, // in place, with more files
		{strings.Repeat("x", 200), more},
	} {
		c := Call{files: newCallFiles(new(callFiles), "a.go", tc.id, tc.more)}
		if got := c.ID(); got != tc.id {
			t.Errorf("id %q reads back as %q", tc.id, got)
		}
		if got := c.More(); !slices.Equal(got, tc.more) {
			t.Errorf("id %q: more %v, want %v", tc.id, got, tc.more)
		}
		if c.Path() != "a.go" {
			t.Errorf("id %q: path %q", tc.id, c.Path())
		}
	}
}

// TestCallSize: a Call is 56 bytes, its tool a number (a history holds
// hundreds of thousands of calls, each in a session's list).
func TestCallSize(t *testing.T) {
	if n := unsafe.Sizeof(Call{}); n != 56 {
		t.Errorf("Call is %d bytes, want 56", n)
	}
	c := Call{name: nameID("mcp__github__create_issue")}
	if got := c.Name(); got != "mcp__github__create_issue" {
		t.Errorf("the call's tool reads back as %q", got)
	}
	if got := (&Call{}).Name(); got != "" {
		t.Errorf("a call without a tool reads %q", got)
	}
}

// TestSessionModTime: a session keeps the latest of its files' times to
// the nanosecond, before 1970 too, within the 768-byte size class.
func TestSessionModTime(t *testing.T) {
	// An object over 512 bytes with pointers carries an 8-byte header.
	if n := unsafe.Sizeof(Session{}); n+8 > 768 {
		t.Errorf("Session is %d bytes, with its header more than the 768-byte size class", n)
	}
	var s Session
	if !s.ModTime().IsZero() {
		t.Errorf("no file: ModTime %v", s.ModTime())
	}
	early := time.Date(1969, 7, 20, 20, 17, 40, 123456789, time.UTC)
	late := time.Date(2026, 12, 2, 2, 40, 0, 987654321, time.UTC)
	for _, mt := range []time.Time{{}, early, late, late.Add(-time.Nanosecond), {}} {
		s.noteModTime(mt)
	}
	if got := s.ModTime(); !got.Equal(late) {
		t.Errorf("ModTime %v, want %v", got, late)
	}
	var old Session
	old.noteModTime(early)
	if got := old.ModTime(); !got.Equal(early) {
		t.Errorf("a 1969 time reads back as %v", got)
	}
}

// TestCallTouchesAPatch: a call that touched several files (a patch) yields
// its Path first, then the further files in order, and stops when asked;
// a call with no action touches nothing.
func TestCallTouchesAPatch(t *testing.T) {
	more := []transcript.CallFile{{Path: "b.go", Action: ActionWrite}, {Path: "c.go", Action: ActionEdit}}
	c := Call{Action: ActionEdit, files: newCallFiles(&callFiles{}, "a.go", "call_1", more)}
	var got []string
	for p, a := range c.Touches() {
		got = append(got, p+" "+a.String())
	}
	if want := []string{"a.go edit", "b.go write", "c.go edit"}; !slices.Equal(got, want) {
		t.Fatalf("touches %q, want %q", got, want)
	}
	n := 0
	if c.eachTouch(func(string, FileAction) bool { n++; return n < 2 }) || n != 2 {
		t.Fatalf("a walk stopped at the second touch went to %d touches and reported it saw all", n)
	}
	if !(&Call{}).eachTouch(func(string, FileAction) bool { t.Fatal("a call with no action touched a file"); return true }) {
		t.Fatal("a call with no action reported a stopped walk")
	}
}
