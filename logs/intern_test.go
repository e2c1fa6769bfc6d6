package logs

import (
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestIntern: intern gives one copy per distinct string, never a view of
// the reader's buffer it was given, and a right copy once the table is full.
func TestIntern(t *testing.T) {
	buf := []byte("feature/intern-test")
	a := intern(unsafe.String(&buf[0], len(buf)))
	buf[0] = 'X'
	if a != "feature/intern-test" {
		t.Fatalf("interned %q: a view of the buffer", a)
	}
	if b := intern(strings.Clone("feature/intern-test")); unsafe.StringData(b) != unsafe.StringData(a) {
		t.Error("the same string interned twice is two copies")
	}
	for i := range internMax + 10 {
		intern("fill-" + strconv.Itoa(i))
	}
	interned.mu.Lock()
	n := len(interned.m)
	interned.mu.Unlock()
	if n != internMax {
		t.Errorf("table has %d entries, want the cap %d", n, internMax)
	}
	long := strings.Repeat("x", internMaxLen+1)
	if got := intern(long); got != long || unsafe.StringData(got) == unsafe.StringData(long) {
		t.Error("a long string: want an equal copy")
	}
	if got := intern("past-the-cap"); got != "past-the-cap" {
		t.Errorf("past the cap: %q", got)
	}
}
