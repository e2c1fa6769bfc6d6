package logs

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// setModel names the response's model (the builds number it as they claim
// messages; tests set it directly).
func (r *Response) setModel(name string) { r.model = nameID(name) }

// TestResponseUsageRoundTrip: a usage reads back as it was set, whether its
// counts fit the int32s or go to the session's wide list.
func TestResponseUsageRoundTrip(t *testing.T) {
	s := &Session{}
	for _, c := range []struct {
		u    Usage
		wide bool
	}{
		{Usage{Input: 3, Output: 1200, CacheCreate5m: 20385, CacheCreate1h: 1, CacheRead: 96000, Reasoning: 5, Fast: true}, false},
		{Usage{Input: math.MaxInt32, Output: math.MinInt32}, false},
		{Usage{Input: -7}, false}, // a mistyped count stays what it was
		{Usage{Output: math.MaxInt32 + 1}, true},
		{Usage{CacheRead: 4_000_000_000_000, Fast: true}, true},
		{Usage{Reasoning: math.MinInt32 - 1}, true},
		{Usage{Input: math.MaxInt64, Output: math.MinInt64, CacheCreate1h: 9}, true},
	} {
		r := Response{}
		r.setUsage(s, c.u)
		if got := s.UsageOf(&r); got != c.u {
			t.Errorf("usage %+v read back as %+v", c.u, got)
		}
		if r.has(respWide) != c.wide {
			t.Errorf("usage %+v: wide %v, want %v", c.u, r.has(respWide), c.wide)
		}
		r.setUsage(s, Usage{Output: 1}) // a later copy replaces it, whatever its form
		if got := s.UsageOf(&r); got != (Usage{Output: 1}) || r.has(respWide) {
			t.Errorf("after %+v, a narrow usage reads back as %+v (wide %v)", c.u, got, r.has(respWide))
		}
	}
	if got := len(*s.wide); got != 4 {
		t.Errorf("%d wide usages kept, want 4", got)
	}
}

// TestWideUsageCountsExactly: counts past an int32 are summed and priced
// exactly, also when the copy that wins is the wide one.
func TestWideUsageCountsExactly(t *testing.T) {
	const model = "claude-sonnet-4-5-20250929"
	main := asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", model, textBlock, 10, 40, 100, 1000, "") +
		asst(sidA, "u2", "2026-11-28T10:00:01.000Z", "msg_1", model, textBlock, 10, 5_000_000_000, 100, 1000, "") +
		asst(sidA, "u3", "2026-11-28T10:00:02.000Z", "msg_2", model, textBlock, 3_000_000_000, 7, 0, 9_000_000_000_000, "") +
		asst(sidA, "u4", "2026-11-28T10:00:03.000Z", "msg_3", model, textBlock, 1, 2, 3, 4, "")
	sn := snap(t, writeTree(t, map[string]string{"-home-dev-proj/" + sidA + ".jsonl": main}, old))
	want := Usage{Input: 3_000_000_011, Output: 5_000_000_009, CacheCreate5m: 103, CacheRead: 9_000_000_001_004}
	if got := totalOf(sn); got != want {
		t.Fatalf("usage = %+v, want %+v", got, want)
	}
	s := sn.Sessions[0]
	if got := s.Usage.Total.Usage; got != want {
		t.Errorf("session tally = %+v, want %+v", got, want)
	}
	var cost float64
	for _, u := range []Usage{
		{Input: 10, Output: 5_000_000_000, CacheCreate5m: 100, CacheRead: 1000},
		{Input: 3_000_000_000, Output: 7, CacheRead: 9_000_000_000_000},
		{Input: 1, Output: 2, CacheCreate5m: 3, CacheRead: 4},
	} {
		usd, ok := sn.Pricing.Cost(model, u)
		if !ok {
			t.Fatalf("%s is not priced", model)
		}
		cost += usd
	}
	if got := s.Usage.Total.Cost.Cost; got != cost {
		t.Errorf("session cost = %v, want %v", got, cost)
	}
}

// TestResponseSize: a Response is 56 bytes with no pointer in it (a history
// holds hundreds of thousands, which the collector then never scans), and
// its model number reads back as the name.
func TestResponseSize(t *testing.T) {
	if n := unsafe.Sizeof(Response{}); n != 56 {
		t.Errorf("Response is %d bytes, want 56", n)
	}
	if p := pointerField(reflect.TypeFor[Response]()); p != "" {
		t.Errorf("Response holds a pointer: %s", p)
	}
	if p := pointerField(reflect.TypeFor[struct{ n [2]struct{ s []int } }]()); p != "n" {
		t.Errorf("the pointer check found %q in a struct with a slice in an array", p)
	}
	var r Response
	if r.Model() != "" {
		t.Errorf("zero response's model %q", r.Model())
	}
	for i := range 3 * nameChunk { // across chunks
		name := fmt.Sprintf("model-%d", i)
		r.setModel(name)
		if got := r.Model(); got != name {
			t.Fatalf("model %q reads back as %q", name, got)
		}
	}
	a, b := nameID("claude-opus-4-5"), nameID(strings.Clone("claude-opus-4-5"))
	if a != b || a == 0 {
		t.Errorf("one name, two numbers: %d %d", a, b)
	}
}

// TestManyModelsTally: a session naming more models than its list walks
// (modelsListed) tallies each once, in the order of first use, the same as
// one with few.
func TestManyModelsTally(t *testing.T) {
	s := &Session{}
	const models = 3 * modelsListed
	for i := range 4 * models {
		r := Response{Time: int64(i)}
		r.setModel(fmt.Sprintf("many-%d", i%models))
		r.setUsage(s, Usage{Input: int64(i%models + 1), Output: 1})
		s.responses = append(s.responses, r)
	}
	s.tallyFrom(nil, time.UTC, 0)
	if len(s.Usage.ByModel) != models {
		t.Fatalf("%d models tallied, want %d", len(s.Usage.ByModel), models)
	}
	for i := range models {
		name := fmt.Sprintf("many-%d", i)
		if s.Usage.ByModel[i].Model != name {
			t.Fatalf("model %d is %q, want %q (first use)", i, s.Usage.ByModel[i].Model, name)
		}
		if tl := s.Usage.Model(name); tl == nil || tl.Input != int64(4*(i+1)) || tl.Output != 4 {
			t.Fatalf("%s: %+v, want input %d output 4", name, tl, 4*(i+1))
		}
	}
	if s.Usage.Total.Input != 4*models*(models+1)/2 {
		t.Errorf("total input %d", s.Usage.Total.Input)
	}
}

// TestWideUsageExtension: a snapshot extended with a second response whose
// counts do not fit an int32 keeps the first snapshot's wide list as it was
// (the extension's list is its own once it adds one), and both read their
// usages back exactly.
func TestWideUsageExtension(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	sid := "5e2f1c1a-0000-4000-8000-0000000wide"
	p := filepath.Join(root, "-home-dev-wide", sid+".jsonl")
	writeFile(t, p, asst(sid, "a-1", "2026-11-29T10:00:00.000Z", "msg_1", "claude-sonnet-4-5", textBlock, 3_000_000_000, 7, 0, 0, ""))
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)})
	first, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	appendLine(t, p, asst(sid, "a-2", "2026-11-29T10:01:00.000Z", "msg_2", "claude-sonnet-4-5", textBlock, 5_000_000_000, 9, 0, 0, ""))
	second, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	inputs := func(snap *Snapshot) (wide int, in []int64) {
		s := snap.Sessions[0]
		if s.wide != nil {
			wide = len(*s.wide)
		}
		for _, r := range s.Responses() {
			in = append(in, s.UsageOf(&r).Input)
		}
		return wide, in
	}
	if w, in := inputs(first); w != 1 || !slices.Equal(in, []int64{3_000_000_000}) {
		t.Errorf("the first snapshot after the extension: %d wide, inputs %v", w, in)
	}
	if w, in := inputs(second); w != 2 || !slices.Equal(in, []int64{3_000_000_000, 5_000_000_000}) {
		t.Errorf("the extended snapshot: %d wide, inputs %v", w, in)
	}
}

// TestLastName: a pass's memo of the last name numbered gives nameID's
// number for every name, "" included, in any order.
func TestLastName(t *testing.T) {
	var l lastName
	for _, name := range []string{"", "claude-opus-4-5", "claude-opus-4-5", "claude-haiku-4-5", "", "claude-opus-4-5"} {
		if got, want := l.of(name), nameID(name); got != want {
			t.Errorf("%q: %d, want %d", name, got, want)
		}
	}
	if nameID("claude-opus-4-5") == nameID("claude-haiku-4-5") {
		t.Fatal("two names with one number")
	}
}

// pointerField names a field of t (a struct) that is or holds a pointer the
// collector follows, "" when none does.
func pointerField(t reflect.Type) string {
	for i := range t.NumField() {
		if f := t.Field(i); holdsPointer(f.Type) {
			return f.Name
		}
	}
	return ""
}

func holdsPointer(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct:
		return pointerField(t) != ""
	case reflect.Array:
		return holdsPointer(t.Elem())
	case reflect.Pointer, reflect.UnsafePointer, reflect.Slice, reflect.Map, reflect.String, reflect.Interface, reflect.Chan, reflect.Func:
		return true
	}
	return false
}
