package pricing

import (
	"os"
	"strings"
	"testing"
)

const testTable = `{
  "claude-opus-4":     {"input": 15, "output": 75, "cache_write": 18.75, "cache_write_1h": 30, "cache_read": 1.5, "checked": "2026-11-01"},
  "claude-opus-4-5":   {"input": 5, "output": 25, "cache_write": 6.25, "cache_write_1h": 10, "cache_read": 0.5, "checked": "2026-11-30"},
  "claude-opus-4-6":   {"input": 5, "output": 25, "cache_write": 6.25, "cache_write_1h": 10, "cache_read": 0.5, "fast_multiplier": 6, "checked": "2026-11-30"},
  "claude-sonnet-4-5": {"input": 3, "output": 15, "cache_write": 3.75, "cache_write_1h": 6, "cache_read": 0.3,
                        "above_200k": {"input": 6, "output": 22.5, "cache_write": 7.5, "cache_write_1h": 12, "cache_read": 0.6}, "checked": "2026-11-30"},
  "claude-haiku-5-5":  {"input": 0.1, "output": 0.5, "cache_write": 0.125, "cache_write_1h": 0.2, "cache_read": 0.01,
                        "above_200k": {"input": 0.5, "output": 2.5, "cache_write": 0.625, "cache_write_1h": 1, "cache_read": 0.05},
                        "long_context_threshold": 100000, "checked": "2026-11-30"},
  "claude-3-5-sonnet": {"input": 3, "output": 15, "cache_write": 3.75, "cache_read": 0.3, "checked": "2026-11-30"}
}`

func mustLoad(t *testing.T, builtin, override string) *Table {
	t.Helper()
	var over []byte
	if override != "" {
		over = []byte(override)
	}
	tab, err := Load([]byte(builtin), over, "/tmp/p.json")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return tab
}

func TestLookup(t *testing.T) {
	tab := mustLoad(t, testTable, "")
	tests := []struct {
		model, wantKey string
		wantOK         bool
	}{
		{"claude-opus-4-5", "claude-opus-4-5", true},
		{"claude-opus-4-5-20251101", "claude-opus-4-5", true},
		{"claude-opus-4-20250514", "claude-opus-4", true},
		{"claude-opus-4", "claude-opus-4", true},
		{"claude-opus-4.6-1m", "claude-opus-4-6", true},
		{"claude-opus-4.6-fast", "claude-opus-4-6", true},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5", true},
		{"claude-sonnet-4-5@20250929", "claude-sonnet-4-5", true},
		{"claude-3-5-sonnet-latest", "claude-3-5-sonnet", true},
		{"<synthetic>", "<synthetic>", true},
		// A minor version the table lacks is unpriced, not priced as its family.
		{"claude-opus-4-9", "", false},
		{"claude-opus-4-9-20270101", "", false},
		{"claude-opus-4-0", "", false},
		{"claude-opus", "", false},
		{"claude", "", false},
		{"gpt-4o", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		_, key, ok := tab.Lookup(tt.model)
		if key != tt.wantKey || ok != tt.wantOK {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.model, key, ok, tt.wantKey, tt.wantOK)
		}
	}
	// Memoized answers are the same the second time.
	if _, key, _ := tab.Lookup("claude-opus-4-5-20251101"); key != "claude-opus-4-5" {
		t.Errorf("second Lookup = %q", key)
	}
	e, _, _ := tab.Lookup("<synthetic>")
	if e.Rates != (Rates{}) {
		t.Errorf("<synthetic> rates = %+v, want zero", e.Rates)
	}
}

func TestParseDefaultsAndExtras(t *testing.T) {
	m, err := Parse([]byte(`{"m": {"input": 1, "output": 2, "cache_write": 1.25, "note": "extra fields are fine", "name": "M", "source": "x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := m["m"]
	want := Entry{Rates: Rates{Input: 1, Output: 2, CacheWrite: 1.25, CacheWrite1h: 1.25}, LongContextThreshold: 200000, Name: "M", Source: "x"}
	if e.Rates != want.Rates || e.Above200k != nil || e.LongContextThreshold != want.LongContextThreshold ||
		e.Name != want.Name || e.Source != want.Source || e.FastMultiplier != 0 {
		t.Errorf("got %+v, want %+v", e, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", ``, `pricing: invalid JSON: empty input`},
		{"invalid JSON", `{"m": {"input": 1,`, `pricing: invalid JSON: unexpected end of JSON input`},
		{"array top level", `[{"input": 1}]`, `pricing: top level must be an object mapping model ids to rates`},
		{"null top level", `null`, `pricing: top level must be an object mapping model ids to rates`},
		{"non-object entry", `{"claude-x": 3}`, `pricing: "claude-x": must be an object, got 3`},
		{"missing input", `{"claude-x": {"output": 1}}`, `pricing: "claude-x": missing "input"`},
		{"missing output", `{"claude-x": {"input": 1}}`, `pricing: "claude-x": missing "output"`},
		{"negative", `{"claude-x": {"input": -1, "output": 1}}`, `pricing: "claude-x": input: must be a number from 0 to 1000000 (USD per million tokens), got -1`},
		{"string rate", `{"claude-x": {"input": "3", "output": 1}}`, `pricing: "claude-x": input: must be a number from 0 to 1000000 (USD per million tokens), got "3"`},
		{"null rate", `{"claude-x": {"input": 1, "output": 1, "cache_read": null}}`, `pricing: "claude-x": cache_read: must be a number from 0 to 1000000 (USD per million tokens), got null`},
		{"bad above_200k", `{"claude-x": {"input": 1, "output": 2, "above_200k": {"input": 2}}}`, `pricing: "claude-x": above_200k: missing "output"`},
		{"above_200k not object", `{"claude-x": {"input": 1, "output": 2, "above_200k": 5}}`, `pricing: "claude-x": above_200k: must be an object, got 5`},
		{"zero fast multiplier", `{"claude-x": {"input": 1, "output": 2, "fast_multiplier": 0}}`, `pricing: "claude-x": fast_multiplier: must be a positive number up to 1000, got 0`},
		{"fractional threshold", `{"claude-x": {"input": 1, "output": 2, "long_context_threshold": 1.5}}`, `pricing: "claude-x": long_context_threshold: must be a positive whole number of tokens, got 1.5`},
		{"non-string name", `{"claude-x": {"input": 1, "output": 2, "name": 7}}`, `pricing: "claude-x": name: must be a string, got 7`},
		{"empty key", `{"": {"input": 1, "output": 2}}`, `pricing: empty model id`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: Parse error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestLoadOverride(t *testing.T) {
	base := mustLoad(t, testTable, "")
	if got, want := base.Source(), "built-in (checked 2026-11-30)"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}

	// Replacement is whole: the override gives no cache_read, no cache_write_1h
	// and no above_200k, so cache reads cost 0, 1h writes fall back to the 5m
	// rate and the long-context tier is gone.
	tab := mustLoad(t, testTable, `{"claude-sonnet-4-5": {"input": 1, "output": 2, "cache_write": 3}, "claude-opus-4.6": {"input": 7, "output": 8}}`)
	if got, want := tab.Source(), "built-in (checked 2026-11-30) + override /tmp/p.json (2 entries)"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}
	e, _, _ := tab.Lookup("claude-sonnet-4-5-20250929")
	if want := (Rates{Input: 1, Output: 2, CacheWrite: 3, CacheWrite1h: 3}); e.Rates != want || e.Above200k != nil || e.Checked != "" {
		t.Errorf("overridden entry = %+v, want rates %+v, no above_200k, no checked", e, want)
	}
	// A dotted override key replaces the dashed built-in key.
	e, key, _ := tab.Lookup("claude-opus-4-6")
	if key != "claude-opus-4-6" || e.Input != 7 || e.FastMultiplier != 0 {
		t.Errorf("dotted override: key %q entry %+v", key, e)
	}
	// Keys the override does not name keep their defaults.
	e, _, _ = tab.Lookup("claude-opus-4-5")
	if want := (Rates{5, 25, 6.25, 10, 0.5}); e.Rates != want {
		t.Errorf("untouched entry = %+v, want %+v", e.Rates, want)
	}

	one := mustLoad(t, testTable, `{"claude-new-1": {"input": 1, "output": 2}}`)
	if got, want := one.Source(), "built-in (checked 2026-11-30) + override /tmp/p.json (1 entry)"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, builtin, override, want string }{
		{"bad override", testTable, `{"claude-x": {"input": -2, "output": 1}}`,
			`override /tmp/p.json: pricing: "claude-x": input: must be a number from 0 to 1000000 (USD per million tokens), got -2`},
		{"empty override", testTable, ` `, `override /tmp/p.json: pricing: invalid JSON: empty input`},
		{"bad builtin", `[]`, ``, `built-in table: pricing: top level must be an object mapping model ids to rates`},
		{"keys that collide", `{"claude-opus-4.6": {"input": 1, "output": 2}, "claude-opus-4-6": {"input": 1, "output": 2}}`, ``,
			`built-in table: pricing: "claude-opus-4-6" and "claude-opus-4.6" name the same model "claude-opus-4-6"`},
	}
	for _, tt := range tests {
		var over []byte
		if tt.override != "" {
			over = []byte(tt.override)
		}
		_, err := Load([]byte(tt.builtin), over, "/tmp/p.json")
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: Load error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestBuiltinPricingFile(t *testing.T) {
	data, err := os.ReadFile("../pricing.json")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Parse(data)
	if err != nil {
		t.Fatalf("pricing.json does not parse: %v", err)
	}
	tab, err := Load(data, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tab.Source(), "built-in (checked 2026-11-30)"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}
	families := []string{
		"claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1", "claude-fable-5", "claude-mythos-5",
		"claude-opus-5-5", "claude-opus-5", "claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5",
		"claude-opus-4-1", "claude-opus-4", "claude-sonnet-5-5", "claude-sonnet-5", "claude-sonnet-4-6", "claude-sonnet-4-5",
		"claude-sonnet-4", "claude-haiku-5-5", "claude-haiku-4-5",
		"claude-3-7-sonnet", "claude-3-5-sonnet", "claude-3-5-haiku", "claude-3-opus", "claude-3-haiku",
	}
	for _, k := range families {
		if _, key, ok := tab.Lookup(k); !ok || key != k {
			t.Errorf("pricing.json lacks %q (lookup gave %q)", k, key)
		}
	}
	for key, e := range entries {
		if Normalize(key) != key {
			t.Errorf("%q: key is not a plain API id (normalizes to %q)", key, Normalize(key))
		}
		if len(e.Checked) != len("2026-11-30") || !strings.HasPrefix(e.Checked, "20") {
			t.Errorf("%q: checked = %q, want a YYYY-MM-DD date", key, e.Checked)
		}
		if e.Name == "" || e.Source == "" {
			t.Errorf("%q: name %q, source %q: both wanted", key, e.Name, e.Source)
		}
		for _, r := range []*Rates{&e.Rates, e.Above200k} {
			if r == nil {
				continue
			}
			if !(r.CacheRead < r.Input && r.Input < r.Output) {
				t.Errorf("%q: want cache_read < input < output, got %+v", key, *r)
			}
			if !(r.Input < r.CacheWrite && r.CacheWrite <= r.CacheWrite1h) {
				t.Errorf("%q: want input < cache_write <= cache_write_1h, got %+v", key, *r)
			}
		}
	}
	// Rates the spec names, and the default model of current Claude Code.
	for _, tt := range []struct {
		model string
		want  Rates
	}{
		{"claude-sonnet-4-5-20250929", Rates{Input: 3, Output: 15, CacheWrite: 3.75, CacheWrite1h: 6, CacheRead: 0.3}},
		{"claude-opus-5-5", Rates{Input: 4, Output: 20, CacheWrite: 5, CacheWrite1h: 8, CacheRead: 0.2}},
		{"claude-fable-5-1", Rates{Input: 10, Output: 50, CacheWrite: 12.5, CacheWrite1h: 20, CacheRead: 0.25}},
	} {
		if e, _, _ := tab.Lookup(tt.model); e.Rates != tt.want {
			t.Errorf("%s: rates %+v, want %+v", tt.model, e.Rates, tt.want)
		}
	}
}
