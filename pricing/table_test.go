package pricing

import (
	"math"
	"os"
	"slices"
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
	if got, want := tab.Source(), "built-in (checked 2026-12-01)"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}
	families := []string{
		"gpt-5-5", "gpt-5-4", "gpt-5-4-mini", "gpt-5-4-nano", "gpt-5-3-codex", "gpt-5-2", "gpt-5-2-codex",
		"gpt-5-1", "gpt-5-1-codex", "gpt-5-1-codex-mini", "gpt-5", "gpt-5-codex", "gpt-5-mini", "gpt-5-nano",
		"codex-mini-latest",
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
		if e.Unpriced {
			if _, _, ok := tab.Lookup(key); ok {
				t.Errorf("%q: unpriced entry looks up", key)
			}
			continue
		}
		for _, r := range []*Rates{&e.Rates, e.Above200k} {
			if r == nil {
				continue
			}
			if !(r.CacheRead < r.Input && r.Input < r.Output) {
				t.Errorf("%q: want cache_read < input < output, got %+v", key, *r)
			}
			// The OpenAI models here bill no cache writes (Codex reports
			// none): both write rates are 0. Anthropic's cost more than input.
			if openai := strings.HasPrefix(key, "gpt-") || strings.HasPrefix(key, "codex-"); openai {
				if r.CacheWrite != 0 || r.CacheWrite1h != 0 {
					t.Errorf("%q: want no cache-write rates, got %+v", key, *r)
				}
			} else if !(r.Input < r.CacheWrite && r.CacheWrite <= r.CacheWrite1h) {
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

func builtinTable(t *testing.T) *Table {
	t.Helper()
	data, err := os.ReadFile("../pricing.json")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Load(data, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestOpenAIPrices prices one Codex-shaped response under every OpenAI key of
// pricing.json. As the Codex reader maps it: Input is uncached input (input
// minus cached), CacheRead the cached input, Output includes reasoning, no
// cache creation. The usage is 10,000 uncached + 90,000 cached input (a
// 100,000-token prompt, below every long-context threshold) and 2,000 output
// tokens, of which 500 reasoning (inside Output, not priced again).
func TestOpenAIPrices(t *testing.T) {
	tab := builtinTable(t)
	u := Usage{Input: 10_000, CacheRead: 90_000, Output: 2_000, Reasoning: 500}
	for _, tt := range []struct {
		model string
		want  float64 // USD: 10,000×input + 90,000×cached + 2,000×output, in µ$ (right), / 1e6
	}{
		{"gpt-5.5", 0.155},              // 10k×5 + 90k×0.50 + 2k×30 = 50,000 + 45,000 + 60,000
		{"gpt-5.4", 0.0775},             // 10k×2.50 + 90k×0.25 + 2k×15 = 25,000 + 22,500 + 30,000
		{"gpt-5.4-mini", 0.02325},       // 10k×0.75 + 90k×0.075 + 2k×4.50 = 7,500 + 6,750 + 9,000
		{"gpt-5.4-nano", 0.0063},        // 10k×0.20 + 90k×0.02 + 2k×1.25 = 2,000 + 1,800 + 2,500
		{"gpt-5.3-codex", 0.06125},      // 10k×1.75 + 90k×0.175 + 2k×14 = 17,500 + 15,750 + 28,000
		{"gpt-5.2-codex", 0.06125},      // same rates as gpt-5.3-codex
		{"gpt-5.2", 0.06125},            // same rates as gpt-5.3-codex
		{"gpt-5.1-codex", 0.04375},      // 10k×1.25 + 90k×0.125 + 2k×10 = 12,500 + 11,250 + 20,000
		{"gpt-5.1", 0.04375},            // same rates as gpt-5.1-codex
		{"gpt-5-codex", 0.04375},        // same rates as gpt-5.1-codex
		{"gpt-5", 0.04375},              // same rates as gpt-5.1-codex
		{"gpt-5.1-codex-mini", 0.00875}, // 10k×0.25 + 90k×0.025 + 2k×2 = 2,500 + 2,250 + 4,000
		{"gpt-5-mini", 0.00875},         // same rates as gpt-5.1-codex-mini
		{"gpt-5-nano", 0.00175},         // 10k×0.05 + 90k×0.005 + 2k×0.40 = 500 + 450 + 800
		{"codex-mini-latest", 0.06075},  // 10k×1.50 + 90k×0.375 + 2k×6 = 15,000 + 33,750 + 12,000
	} {
		got, ok := tab.Cost(tt.model, u)
		if !ok || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: cost %v (ok %v), want %v", tt.model, got, ok, tt.want)
		}
	}
}

// TestOpenAILongContext: GPT-5.4 and GPT-5.5 price a whole response at their
// long-context rates once its prompt (uncached + cached input) passes
// 272,000 tokens, and at standard rates up to exactly 272,000.
func TestOpenAILongContext(t *testing.T) {
	tab := builtinTable(t)
	for _, tt := range []struct {
		model string
		u     Usage
		want  float64
	}{
		// 72,000 + 200,000 = 272,000: not above, standard rates.
		// 72k×2.50 + 200k×0.25 + 1k×15 = 180,000 + 50,000 + 15,000 µ$.
		{"gpt-5.4", Usage{Input: 72_000, CacheRead: 200_000, Output: 1_000}, 0.245},
		// One token more: 5 / 0.50 / 22.50 for the whole response.
		// 72,001×5 + 200k×0.50 + 1k×22.50 = 360,005 + 100,000 + 22,500 µ$.
		{"gpt-5.4", Usage{Input: 72_001, CacheRead: 200_000, Output: 1_000}, 0.482505},
		// 300,000-token prompt on GPT-5.5: 10 / 1 / 45.
		// 100k×10 + 200k×1 + 10k×45 = 1,000,000 + 200,000 + 450,000 µ$.
		{"gpt-5.5", Usage{Input: 100_000, CacheRead: 200_000, Output: 10_000}, 1.65},
		// GPT-5.3-Codex has no long-context tier: 300k prompt at 1.75 / 0.175 / 14.
		// 100k×1.75 + 200k×0.175 + 10k×14 = 175,000 + 35,000 + 140,000 µ$.
		{"gpt-5.3-codex", Usage{Input: 100_000, CacheRead: 200_000, Output: 10_000}, 0.35},
	} {
		got, ok := tab.Cost(tt.model, tt.u)
		if !ok || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s %+v: cost %v (ok %v), want %v", tt.model, tt.u, got, ok, tt.want)
		}
	}
}

// TestOpenAINames: the spellings Codex and proxies write resolve as the
// normalizer intends (dotted versions dashed, provider prefixes and dated
// snapshots dropped, longest key wins), while variants without a confirmed
// price stay unpriced instead of taking a sibling's rates.
func TestOpenAINames(t *testing.T) {
	tab := builtinTable(t)
	for _, tt := range []struct{ model, wantKey string }{
		{"gpt-5.1-codex", "gpt-5-1-codex"},
		{"gpt-5.1-codex-mini", "gpt-5-1-codex-mini"},
		{"gpt-5.2-codex", "gpt-5-2-codex"},
		{"gpt-5.3-codex", "gpt-5-3-codex"},
		{"gpt-5-codex", "gpt-5-codex"}, // not gpt-5
		{"GPT-5.5", "gpt-5-5"},
		{"openai/gpt-5.4", "gpt-5-4"},
		{"gpt-5.4-2026-03-05", "gpt-5-4"},
		{"gpt-5.4-mini-2026-03-17", "gpt-5-4-mini"},
		{"gpt-5.1-2025-11-13", "gpt-5-1"},
		{"gpt-5-2025-08-07", "gpt-5"},
		{"gpt-5-mini-2025-08-07", "gpt-5-mini"},
		{"gpt-5-chat-latest", "gpt-5"},
		{"codex-mini-latest", "codex-mini-latest"},
		// No price: research preview, variants whose price was not confirmed,
		// and minor versions the table does not know.
		{"gpt-5.3-codex-spark", ""},
		{"gpt-5.3-codex-spark-2026-02-12", ""},
		{"gpt-5.1-codex-max", ""},
		{"gpt-5-codex-mini", ""},
		{"gpt-5-pro", ""},
		{"gpt-5.2-pro", ""},
		{"gpt-5.4-pro-2026-03-05", ""},
		{"gpt-5.5-pro", ""},
		{"gpt-5.6-sol", ""},
		{"gpt-5.6-terra", ""},
		{"gpt-5.6", ""},
		{"gpt-5.7", ""},
		{"gpt-4o", ""},
	} {
		_, key, ok := tab.Lookup(tt.model)
		if key != tt.wantKey || ok != (tt.wantKey != "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.model, key, ok, tt.wantKey)
		}
		if _, ok := tab.Cost(tt.model, Usage{Input: 1000, Output: 10}); ok != (tt.wantKey != "") {
			t.Errorf("Cost(%q) ok = %v", tt.model, ok)
		}
	}
}

// TestUnpricedSpark is the mixed session of the public corpus (first turn on
// gpt-5.3-codex-spark, the rest on gpt-5.4): Spark stays unpriced, so the
// cost says partial and names it, rather than pricing it as gpt-5.3-codex.
func TestUnpricedSpark(t *testing.T) {
	tab := builtinTable(t)
	var spark Tally
	spark.Add(tab, "gpt-5.3-codex-spark", Usage{Input: 5_000, CacheRead: 20_000, Output: 800})
	if spark.Status() != StatusUnknown || spark.USD() != 0 || spark.UnpricedTokens != 25_800 {
		t.Errorf("spark alone: %s $%v unpriced tokens %d", spark.Status(), spark.USD(), spark.UnpricedTokens)
	}
	mixed := spark
	// 10k×2.50 + 90k×0.25 + 2k×15 = 77,500 µ$.
	mixed.Add(tab, "gpt-5.4", Usage{Input: 10_000, CacheRead: 90_000, Output: 2_000})
	if mixed.Status() != StatusPartial || mixed.USD() != 0.0775 ||
		!slices.Equal(mixed.UnpricedModels(), []string{"gpt-5.3-codex-spark"}) {
		t.Errorf("mixed: %s $%v unpriced %v", mixed.Status(), mixed.USD(), mixed.UnpricedModels())
	}
}

func TestUnpricedEntry(t *testing.T) {
	table := `{
	  "gpt-5-3-codex":       {"input": 1.75, "output": 14, "cache_read": 0.175},
	  "gpt-5-3-codex-spark": {"unpriced": true, "name": "Spark", "checked": "2026-12-01", "source": "x"},
	  "gpt-5-4":             {"input": 2.5, "output": 15, "cache_read": 0.25, "unpriced": false}
	}`
	tab := mustLoad(t, table, "")
	for _, tt := range []struct{ model, wantKey string }{
		{"gpt-5.3-codex", "gpt-5-3-codex"},
		{"gpt-5.3-codex-2026-02-05", "gpt-5-3-codex"},
		{"gpt-5.3-codex-spark", ""},         // exact: unpriced
		{"gpt-5.3-codex-spark-preview", ""}, // longer: the unpriced key still wins over gpt-5-3-codex
		{"gpt-5.4", "gpt-5-4"},              // "unpriced": false is an ordinary entry
	} {
		if _, key, ok := tab.Lookup(tt.model); key != tt.wantKey || ok != (tt.wantKey != "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.model, key, ok, tt.wantKey)
		}
	}
	if got, want := tab.Source(), "built-in (checked 2026-12-01)"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}

	// An override replaces whole: it can price the unpriced model, or unprice a priced one.
	over := mustLoad(t, table, `{"gpt-5.3-codex-spark": {"input": 1, "output": 2}, "gpt-5-4": {"unpriced": true}}`)
	if usd, ok := over.Cost("gpt-5.3-codex-spark", Usage{Input: 1_000_000, Output: 1_000_000}); !ok || usd != 3 {
		t.Errorf("overridden spark: %v %v, want 3 true", usd, ok)
	}
	if _, _, ok := over.Lookup("gpt-5.4-2026-03-05"); ok {
		t.Error("gpt-5.4 priced although the override unprices it")
	}

	for _, tt := range []struct{ in, want string }{
		{`{"m": {"unpriced": true, "input": 1}}`, `pricing: "m": an unpriced entry carries no rates, got "input"`},
		{`{"m": {"unpriced": true, "above_200k": {"input": 1, "output": 2}}}`, `pricing: "m": an unpriced entry carries no rates, got "above_200k"`},
		{`{"m": {"unpriced": "yes"}}`, `pricing: "m": unpriced: must be true or false, got "yes"`},
		{`{"m": {"unpriced": null}}`, `pricing: "m": unpriced: must be true or false, got null`},
		{`{"m": {"unpriced": false}}`, `pricing: "m": missing "input"`},
		{`{"m": {"unpriced": true, "name": 3}}`, `pricing: "m": name: must be a string, got 3`},
	} {
		if _, err := Parse([]byte(tt.in)); err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%s) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}
