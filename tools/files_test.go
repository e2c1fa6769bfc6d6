package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/logs"
)

// touchesNewestFirst is every touch FileTouches yields, newest first (ties
// in its order): the list file_activity once paged, for the tests to check
// its answers against.
func touchesNewestFirst(snap *logs.Snapshot, pm *logs.PathMatcher, ss []*logs.Session) []logs.FileTouch {
	var out []logs.FileTouch
	for t := range snap.FileTouches(pm, ss, logs.TimeRange{}) {
		out = append(out, *t)
	}
	slices.SortStableFunc(out, func(a, b logs.FileTouch) int { return cmp.Compare(b.Call.Time, a.Call.Time) })
	return out
}

// TestFileActivitySessionsOrder: file_activity's sessions are in the order
// they first appear among the touches newest first, then by their last touch
// as shown: the rule of the list of every touch the tool once sorted, which
// the test applies to touchesNewestFirst's list. Two copies of a session under
// new ids (their own message and tool_use ids) touch the same files at the
// same times as it does, so three sessions tie on every last touch.
func TestFileActivitySessionsOrder(t *testing.T) {
	root, _ := fixtureStore(t)
	src := filepath.Join(root, "-home-dev-outcomes", "b86f27bf-78c6-43a8-9320-d1ee97d26b45.jsonl")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"0a000000-78c6-43a8-9320-d1ee97d26b45", "ff000000-78c6-43a8-9320-d1ee97d26b45"} {
		r := strings.NewReplacer("b86f27bf-78c6-43a8-9320-d1ee97d26b45", id, `"id":"msg_`, `"id":"msg_c`+string(rune('0'+i)), `"id":"toolu_`, `"id":"toolu_c`+string(rune('0'+i)),
			`"tool_use_id":"toolu_`, `"tool_use_id":"toolu_c`+string(rune('0'+i)))
		if err := os.WriteFile(filepath.Join(filepath.Dir(src), id+".jsonl"), []byte(r.Replace(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store := rootsStore(t, []string{root}, fixtureNow, time.UTC)
	snap, err := store.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := logs.CompilePath("**/*")
	if err != nil {
		t.Fatal(err)
	}
	// The rule, on the list of every touch newest first.
	var want []FileSessionOut
	at := map[string]int{}
	for _, tc := range touchesNewestFirst(snap, pm, snap.Sessions) {
		i, ok := at[tc.Session.ID]
		if !ok {
			i = len(want)
			at[tc.Session.ID] = i
			want = append(want, FileSessionOut{SessionID: tc.Session.ID, Repo: tc.Session.Repo, LastTouch: rfc(tc.Call.Time)})
		}
		want[i].Touches++
	}
	slices.SortStableFunc(want, func(a, b FileSessionOut) int { return strings.Compare(b.LastTouch, a.LastTouch) })
	ties := 0
	for i := 1; i < len(want); i++ {
		if want[i].LastTouch == want[i-1].LastTouch {
			ties++
		}
	}
	if ties < 2 {
		t.Fatalf("%d sessions tie with the one before on their last touch; the test needs the copies' two", ties)
	}
	out, err := FileActivity(Deps{Store: store}).Call(context.Background(), []byte(`{"path":"**/*","limit":500}`))
	if err != nil {
		t.Fatal(err)
	}
	var got FileActivityOut
	if err := json.Unmarshal(out.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Sessions, want) || got.SessionsTotal != len(want) {
		t.Errorf("sessions (%d):\n got %+v\nwant %+v", got.SessionsTotal, got.Sessions, want)
	}
}
