package tools

import (
	"reflect"
	"testing"
)

// TestScanSecretsColdAnswersAsWarm: an unfiltered scan on a cold store takes
// its findings, and its sessions, from the one look that read the files; a
// scan on the warm store after it reads the files again, and a scan
// narrowed to the agent of every session of the fixture (claude-code) goes
// through the filtered path. All three must give the same answer for every
// since.
func TestScanSecretsColdAnswersAsWarm(t *testing.T) {
	for _, since := range []string{"", "2026-11-29", "30d", "2026-01-01T00:00:00Z", "2030-01-01"} {
		args := `{"max_findings":1000}`
		if since != "" {
			args = `{"max_findings":1000,"since":"` + since + `"}`
		}
		answers := coldWarmNarrowed(t, "scan_secrets", args)
		summary := answers[0]["summary"].(map[string]any)
		t.Logf("since %q: %v findings in %v files", since, summary["findings"], summary["files_scanned"])
		if since == "" && summary["findings"].(float64) == 0 {
			t.Fatal("the fixture's scan finds nothing: the comparison says nothing")
		}
		if since == "2030-01-01" && summary["findings"].(float64) != 0 {
			t.Errorf("since 2030: %v findings, want 0", summary["findings"])
		}
	}
}

// TestSearchColdAnswersAsWarm is the same for search_transcripts: a cold
// store's search runs in its read, a warm store's searches the snapshot of
// its one look, a narrowed one goes through scope.
func TestSearchColdAnswersAsWarm(t *testing.T) {
	for _, window := range []string{``, `,"since":"2026-11-29"`, `,"since":"30d","until":"2026-11-29T12:00:00Z"`, `,"until":"2020-01-01"`} {
		answers := coldWarmNarrowed(t, "search_transcripts", `{"query":"the","limit":200`+window+`}`)
		t.Logf("%s: %v matches", window, answers[0]["total_matches"])
		if window == `` && answers[0]["total_matches"].(float64) < 10 {
			t.Fatalf("the fixture's search finds %v: the comparison says little", answers[0]["total_matches"])
		}
	}
}

// coldWarmNarrowed asks tool with args (a JSON object) of a fresh fixture
// store, then again, then narrowed to agent claude-code, fails unless the
// three answers are equal, and returns them.
func coldWarmNarrowed(t *testing.T, tool, args string) []map[string]any {
	t.Helper()
	_, _, specs := fixtureSpecs(t)
	var answers []map[string]any
	for _, a := range []string{args, args, args[:len(args)-1] + `,"agent":"claude-code"}`} {
		out, err := callJSON(t, specs, tool, a)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, out)
	}
	for i, name := range []string{"", "warm", "narrowed to claude-code"} {
		if i > 0 && !reflect.DeepEqual(answers[i], answers[0]) {
			t.Errorf("%s %s: the cold store answered\n%v\nthe %s one\n%v", tool, args, answers[0], name, answers[i])
		}
	}
	return answers
}
