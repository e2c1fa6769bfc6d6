package pricing

// FuzzParse feeds arbitrary pricing files to Parse and Load. Crashers land in
// testdata/fuzz/FuzzParse/ and are committed (see scripts/fuzz.sh).

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzParse properties: no panic; when Parse accepts a file, Load accepts it
// as an override too, except for the two documented refusals (two keys naming
// one model, a key that normalizes to nothing); then every key of the file
// looks up to exactly its own rates, and costs of realistic usage are finite
// and non-negative; a key marked unpriced prices nothing, neither under its
// own name nor under a longer one.
func FuzzParse(f *testing.F) {
	builtin, err := os.ReadFile(filepath.Join("..", "pricing.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(builtin)
	for _, s := range []string{
		`{"claude-sonnet-4-5": {"input": 3, "output": 15, "cache_write": 3.75, "cache_write_1h": 6, "cache_read": 0.3}}`,
		`{"claude-x": {"input": 1, "output": 2, "above_200k": {"input": 2, "output": 4}, "long_context_threshold": 100000, "fast_multiplier": 6}}`,
		`{"claude-x": {"input": "cheap"}}`, `{"claude-x": {"input": -1, "output": 1}}`, `{"claude-x": {"input": 1e308, "output": 1e308}}`,
		`{"claude-x": {"input": 1}}`, `{"": {"input": 1, "output": 1}}`, `{"<synthetic>": {"input": 1, "output": 1}}`,
		`{"anthropic/claude-x": {"input": 1, "output": 1}, "claude-x": {"input": 2, "output": 2}}`,
		`{"us.anthropic.claude-x-v1:0": {"input": 1, "output": 1}}`, `{"claude-x@20250101": {"input": 1, "output": 1}}`,
		`[]`, `null`, ``, `{}`, `{"a": null}`, `{"a": []}`, `{"a": {"input": 1, "output": 1, "name": 5}}`,
		`{"a": {"input": 1, "output": 1, "long_context_threshold": 1.5}}`, `{"a": {"input": 1, "output": 1, "fast_multiplier": 0}}`,
		`{"gpt-5-3-codex-spark": {"unpriced": true}}`, `{"claude-opus-4-5": {"unpriced": true, "input": 1}}`, `{"a": {"unpriced": "yes"}}`,
		`{"a": {"input": 1, "output": 1}} {"b": 1}`, `{"a": {"input": 01, "output": 1}}`, "{\"\xff\": {\"input\": 1, \"output\": 1}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := Parse(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		table, err := Load(builtin, data, "fuzz.json")
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "name the same model") && !strings.Contains(msg, "not a usable model id") {
				t.Fatalf("Parse accepted the file but Load refused it: %v", err)
			}
			return
		}
		usages := []Usage{
			{Input: 1_000_000, Output: 1_000_000, CacheCreate5m: 1_000_000, CacheCreate1h: 1_000_000, CacheRead: 1_000_000},
			{Input: 300_000, Output: 1, Fast: true},
		}
		for key, want := range entries {
			if Normalize(key) == SyntheticModel {
				continue // any spelling of the marker is no API call: zero rates, whatever the file says
			}
			got, _, ok := table.Lookup(key)
			if want.Unpriced {
				// An unpriced entry prices nothing, under its own name or longer ones.
				// Longer names are built on the key as the table holds it
				// (normalized: a key's stray spaces are trimmed, a name's inner
				// ones are not).
				nk := Normalize(key)
				for _, name := range []string{key, nk + "-20260101", nk + "-fast"} {
					if name != key && slices.Contains(table.Keys(), Normalize(name)) {
						continue // a key of its own
					}
					if _, _, ok := table.Lookup(name); ok {
						t.Fatalf("%q looks up although its entry %q is unpriced", name, key)
					}
					if usd, ok := table.Cost(name, usages[0]); ok || usd != 0 {
						t.Fatalf("%q costs %v (ok %v) although its entry %q is unpriced", name, usd, ok, key)
					}
				}
				continue
			}
			if !ok {
				t.Fatalf("key %q of the override does not look up", key)
			}
			if got.Rates != want.Rates {
				t.Fatalf("key %q looks up to %+v, want %+v", key, got.Rates, want.Rates)
			}
			for _, u := range usages {
				usd, ok := table.Cost(key, u)
				if !ok || math.IsNaN(usd) || math.IsInf(usd, 0) || usd < 0 {
					t.Fatalf("cost of %+v under %q = %v (ok %v): not a finite non-negative price", u, key, usd, ok)
				}
			}
		}
	})
}
