package logs

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/agent-activity/agent-activity/transcript"
)

func TestMessageLogRoundTrip(t *testing.T) {
	ms := []Message{
		{Key: 0x9e3779b97f4a7c15, Model: "claude-opus-4-5", Time: 1764547200123, Line: 7, HasUsage: true,
			Usage: Usage{Input: 3, Output: 1200, CacheCreate5m: 20385, CacheCreate1h: 1, CacheRead: 4_000_000_000_000, Reasoning: 5, Fast: true}},
		{Key: 0, Model: "", Time: 0, Line: 3, Sidechain: true, Synthetic: true}, // time and line go backwards
		{Key: 1, Model: "claude-opus-4-5", Time: math.MaxInt64, Line: math.MaxInt32, HasUsage: true,
			Usage: Usage{Input: math.MaxInt64}, Advisors: []transcript.Advisor{{Model: "claude-sonnet-4-5", Usage: Usage{Output: 9}}}},
		{Key: 3, Model: "gpt-5.1-codex", Time: -5, Line: 1, HasUsage: true},
	}
	l := packMessages(ms)
	if l.Len() != len(ms) {
		t.Fatalf("Len %d, want %d", l.Len(), len(ms))
	}
	if got := l.unpack(); !reflect.DeepEqual(got, ms) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, ms)
	}
	if empty := packMessages(nil); empty.Len() != 0 || empty.unpack() != nil {
		t.Errorf("empty log: %+v", empty)
	}
	// Two lists pack as their concatenation, advisors at their place in it.
	two := packMessages(ms[:1], nil, ms[1:])
	if got := two.unpack(); !reflect.DeepEqual(got, ms) {
		t.Errorf("two lists:\n got %+v\nwant %+v", got, ms)
	}
	// Unpacked into a recycled list, over what it held before.
	old := slices.Repeat([]Message{ms[2]}, 16)
	if got := l.unpackInto(old); !reflect.DeepEqual(got, ms) || &got[0] != &old[0] {
		t.Errorf("into a recycled list: %+v (same memory %v)", got, &got[0] == &old[0])
	}
}
