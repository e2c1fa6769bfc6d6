package tools

import (
	"encoding/json"
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
		_, store := fixtureStore(t)
		specs := map[string]Spec{}
		for _, s := range All(Deps{Store: store}) {
			specs[s.Tool.Name] = s
		}
		cold, err := callJSON(t, specs, "scan_secrets", args)
		if err != nil {
			t.Fatal(err)
		}
		warm, err := callJSON(t, specs, "scan_secrets", args)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := jsonString(t, cold), jsonString(t, warm); a != b {
			t.Errorf("since %q: the cold scan answered\n%s\nthe warm one\n%s", since, a, b)
		}
		narrowed, err := callJSON(t, specs, "scan_secrets", args[:len(args)-1]+`,"agent":"claude-code"}`)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := jsonString(t, cold), jsonString(t, narrowed); a != b {
			t.Errorf("since %q: the cold scan answered\n%s\nthe one narrowed to claude-code\n%s", since, a, b)
		}
		summary := cold["summary"].(map[string]any)
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
		args := `{"query":"the","limit":200` + window + `}`
		_, store := fixtureStore(t)
		specs := map[string]Spec{}
		for _, s := range All(Deps{Store: store}) {
			specs[s.Tool.Name] = s
		}
		var answers []string
		for _, a := range []string{args, args, args[:len(args)-1] + `,"agent":"claude-code"}`} {
			out, err := callJSON(t, specs, "search_transcripts", a)
			if err != nil {
				t.Fatal(err)
			}
			answers = append(answers, jsonString(t, out))
			if len(answers) == 1 {
				t.Logf("%s: %v matches", window, out["total_matches"])
				if window == `` && out["total_matches"].(float64) < 10 {
					t.Fatalf("the fixture's search finds %v: the comparison says little", out["total_matches"])
				}
			}
		}
		for i, name := range []string{"", "warm", "narrowed to claude-code"} {
			if i > 0 && answers[i] != answers[0] {
				t.Errorf("%s: the cold search answered\n%s\nthe %s one\n%s", window, answers[0], name, answers[i])
			}
		}
	}
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
