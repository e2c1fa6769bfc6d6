// Package pricing holds the model rate table and the cost arithmetic: it turns
// a model name and the token usage of one API response into an estimated USD
// cost at API list price. It reads no files and imports nothing of ours; main
// passes it the embedded pricing.json and an optional override file's bytes.
package pricing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Rates are USD per million tokens.
type Rates struct {
	Input        float64 // uncached input tokens
	Output       float64 // output tokens, thinking included
	CacheWrite   float64 // 5-minute cache creation
	CacheWrite1h float64 // 1-hour cache creation
	CacheRead    float64 // cache hits and refreshes
}

// Entry is one model's row of the table.
type Entry struct {
	Rates
	// Above200k, when set, prices a whole response whose prompt exceeds
	// LongContextThreshold tokens.
	Above200k *Rates
	// LongContextThreshold is the prompt size (input + cache creation + cache
	// read) above which Above200k applies. The file field
	// "long_context_threshold" is optional and defaults to
	// DefaultLongContextThreshold; Claude Haiku 5.5 switches at 100,000.
	LongContextThreshold int64
	// FastMultiplier, when non-zero, multiplies the whole cost of a response
	// served in fast mode.
	FastMultiplier float64
	// Unpriced marks a model known to have no API list price (a research
	// preview charged at nothing, a variant whose price was not found). It
	// carries no rates; names that resolve to it are reported unpriced, and
	// because it is a key, a shorter sibling key ("gpt-5-3-codex" for
	// "gpt-5-3-codex-spark") can no longer price them by prefix.
	Unpriced              bool
	Name, Checked, Source string
}

// DefaultLongContextThreshold is the prompt size above which "above_200k"
// rates apply when an entry does not say otherwise.
const DefaultLongContextThreshold = 200_000

// SyntheticModel is the model name Claude Code writes on messages it made up
// itself (interruptions, local errors). It is known and costs nothing.
const SyntheticModel = "<synthetic>"

// Parse decodes a pricing file: a JSON object whose every key is a model id
// and whose every value is an object with USD-per-million-token rates:
// "input" and "output" (required), "cache_write", "cache_write_1h" (absent:
// equals cache_write), "cache_read", and optionally "above_200k" (same
// fields), "long_context_threshold", "fast_multiplier", "name", "checked",
// "source". An entry with "unpriced": true instead carries no rate field at
// all (see Entry.Unpriced). Unknown fields in an entry are ignored. Errors
// name the key at fault. Keys are returned as written; Load normalizes them.
func Parse(data []byte) (map[string]Entry, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("pricing: invalid JSON: empty input")
	}
	if trimmed[0] != '{' {
		return nil, fmt.Errorf("pricing: top level must be an object mapping model ids to rates")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return nil, fmt.Errorf("pricing: invalid JSON: %v", err)
	}
	out := make(map[string]Entry, len(raw))
	for key, val := range raw {
		if strings.TrimSpace(key) == "" {
			return nil, fmt.Errorf("pricing: empty model id")
		}
		e, err := parseEntry(val)
		if err != nil {
			return nil, fmt.Errorf("pricing: %q: %v", key, err)
		}
		out[key] = e
	}
	return out, nil
}

func parseEntry(val json.RawMessage) (Entry, error) {
	fields, err := object(val)
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	if v, ok := fields["unpriced"]; ok {
		switch string(bytes.TrimSpace(v)) {
		case "true":
			e.Unpriced = true
		case "false":
		default:
			return Entry{}, fmt.Errorf("unpriced: must be true or false, got %s", v)
		}
	}
	if e.Unpriced {
		for _, f := range rateFields {
			if _, ok := fields[f]; ok {
				return Entry{}, fmt.Errorf("an unpriced entry carries no rates, got %q", f)
			}
		}
		if err := parseLabels(fields, &e); err != nil {
			return Entry{}, err
		}
		return e, nil
	}
	if e.Rates, err = parseRates(fields); err != nil {
		return Entry{}, err
	}
	if v, ok := fields["above_200k"]; ok {
		sub, err := object(v)
		if err != nil {
			return Entry{}, fmt.Errorf("above_200k: %v", err)
		}
		r, err := parseRates(sub)
		if err != nil {
			return Entry{}, fmt.Errorf("above_200k: %v", err)
		}
		e.Above200k = &r
	}
	e.LongContextThreshold = DefaultLongContextThreshold
	if v, ok := fields["long_context_threshold"]; ok {
		n, err := number(v)
		if err != nil || n <= 0 || n != float64(int64(n)) {
			return Entry{}, fmt.Errorf("long_context_threshold: must be a positive whole number of tokens, got %s", v)
		}
		e.LongContextThreshold = int64(n)
	}
	if v, ok := fields["fast_multiplier"]; ok {
		n, err := number(v)
		if err != nil || n <= 0 || n > maxMultiplier {
			return Entry{}, fmt.Errorf("fast_multiplier: must be a positive number up to %d, got %s", maxMultiplier, v)
		}
		e.FastMultiplier = n
	}
	if err := parseLabels(fields, &e); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// rateFields are the fields that price tokens; an unpriced entry has none.
var rateFields = []string{"input", "output", "cache_write", "cache_write_1h", "cache_read",
	"above_200k", "long_context_threshold", "fast_multiplier"}

// parseLabels reads the descriptive fields "name", "checked" and "source".
func parseLabels(fields map[string]json.RawMessage, e *Entry) error {
	for name, dst := range map[string]*string{"name": &e.Name, "checked": &e.Checked, "source": &e.Source} {
		v, ok := fields[name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("%s: must be a string, got %s", name, v)
		}
	}
	return nil
}

// Bounds that keep every cost finite: no real price comes near them.
const (
	maxRate       = 1_000_000
	maxMultiplier = 1000
)

func parseRates(fields map[string]json.RawMessage) (Rates, error) {
	var r Rates
	has1h := false
	for _, f := range []struct {
		name     string
		dst      *float64
		required bool
	}{
		{"input", &r.Input, true},
		{"output", &r.Output, true},
		{"cache_write", &r.CacheWrite, false},
		{"cache_write_1h", &r.CacheWrite1h, false},
		{"cache_read", &r.CacheRead, false},
	} {
		v, ok := fields[f.name]
		if !ok {
			if f.required {
				return Rates{}, fmt.Errorf("missing %q", f.name)
			}
			continue
		}
		n, err := number(v)
		if err != nil || n < 0 || n > maxRate {
			return Rates{}, fmt.Errorf("%s: must be a number from 0 to %d (USD per million tokens), got %s", f.name, maxRate, v)
		}
		*f.dst = n
		if f.name == "cache_write_1h" {
			has1h = true
		}
	}
	if !has1h {
		r.CacheWrite1h = r.CacheWrite
	}
	return r, nil
}

func object(v json.RawMessage) (map[string]json.RawMessage, error) {
	t := bytes.TrimSpace(v)
	if len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("must be an object, got %s", v)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(t, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func number(v json.RawMessage) (float64, error) {
	t := bytes.TrimSpace(v)
	if len(t) == 0 || !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
		return 0, fmt.Errorf("not a number")
	}
	var n float64
	err := json.Unmarshal(t, &n)
	return n, err
}

// Table is the merged rate table. It is immutable after Load and safe for
// concurrent use; Lookup memoizes name resolution internally.
type Table struct {
	entries map[string]Entry
	source  string

	memo     sync.Map // raw model name -> resolved
	memoSize atomic.Int64
}

// memoLimit bounds the lookup memo so hostile logs full of distinct model
// names cannot grow it without end; past it, lookups are simply recomputed.
const memoLimit = 4096

type resolved struct {
	key  string // table key used, "" when unpriced
	fast bool   // the name carried a "-fast" proxy suffix after the key
}

// Load builds the table from the built-in bytes and an optional override
// (nil means none). Override entries replace built-in entries of the same
// (normalized) key whole: fields the override leaves out are not inherited,
// so an override without "cache_read" prices cache reads at 0. Keys the
// override does not name keep their built-in rates.
func Load(builtin, override []byte, overrideName string) (*Table, error) {
	base, err := Parse(builtin)
	if err != nil {
		return nil, fmt.Errorf("built-in table: %w", err)
	}
	t := &Table{entries: make(map[string]Entry, len(base))}
	if err := t.add(base); err != nil {
		return nil, fmt.Errorf("built-in table: %w", err)
	}
	checked := ""
	for _, e := range t.entries {
		if e.Checked > checked {
			checked = e.Checked
		}
	}
	t.source = "built-in"
	if checked != "" {
		t.source = "built-in (checked " + checked + ")"
	}
	if override == nil {
		return t, nil
	}
	over, err := Parse(override)
	if err != nil {
		return nil, fmt.Errorf("override %s: %w", overrideName, err)
	}
	if err := t.add(over); err != nil {
		return nil, fmt.Errorf("override %s: %w", overrideName, err)
	}
	unit := "entries"
	if len(over) == 1 {
		unit = "entry"
	}
	t.source += fmt.Sprintf(" + override %s (%d %s)", overrideName, len(over), unit)
	return t, nil
}

// add normalizes keys and stores entries, replacing existing ones whole.
// Two keys of one file that normalize alike are an error.
func (t *Table) add(m map[string]Entry) error {
	seen := make(map[string]string, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		nk := Normalize(k)
		if nk == "" {
			return fmt.Errorf("pricing: %q: not a usable model id", k)
		}
		if prev, dup := seen[nk]; dup {
			return fmt.Errorf("pricing: %q and %q name the same model %q", prev, k, nk)
		}
		seen[nk] = k
		t.entries[nk] = m[k]
	}
	return nil
}

// Source describes where the rates came from, for humans.
func (t *Table) Source() string {
	if t == nil {
		return "none"
	}
	return t.source
}

// Keys returns the table's model keys, sorted.
func (t *Table) Keys() []string {
	if t == nil {
		return nil
	}
	keys := make([]string, 0, len(t.entries))
	for k := range t.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Lookup finds the rates for a model name. The name is normalized, then
// matched exactly, else against the longest table key that is a prefix of it
// at a '-' boundary, so "claude-opus-4-5" prices "claude-opus-4-5-20251101"
// and proxy forms such as "claude-opus-4.6-1m". A prefix match is refused when
// the next segment is a one- or two-digit number: "claude-opus-4-9" is a minor
// version the table does not know, and pricing it as "claude-opus-4" would be
// silently wrong, so it is reported unpriced instead. A name that resolves to
// an entry marked unpriced is unpriced too ("gpt-5.3-codex-spark" is not
// priced as "gpt-5-3-codex"). "<synthetic>" is found with zero rates under the
// key "<synthetic>".
func (t *Table) Lookup(model string) (e Entry, key string, ok bool) {
	r := t.resolve(model)
	if r.key == "" {
		return Entry{}, "", false
	}
	if r.key == SyntheticModel {
		return Entry{Name: "synthetic (no API call)"}, SyntheticModel, true
	}
	return t.entries[r.key], r.key, true
}

func (t *Table) resolve(model string) resolved {
	if strings.TrimSpace(model) == SyntheticModel {
		return resolved{key: SyntheticModel}
	}
	if t == nil {
		return resolved{}
	}
	if v, ok := t.memo.Load(model); ok {
		return v.(resolved)
	}
	r := t.match(Normalize(model))
	if t.memoSize.Load() < memoLimit {
		if _, loaded := t.memo.LoadOrStore(model, r); !loaded {
			t.memoSize.Add(1)
		}
	}
	return r
}

func (t *Table) match(name string) resolved {
	if name == "" {
		return resolved{}
	}
	if e, ok := t.entries[name]; ok {
		if e.Unpriced {
			return resolved{}
		}
		return resolved{key: name}
	}
	for i := len(name) - 1; i > 0; i-- {
		if name[i] != '-' {
			continue
		}
		e, ok := t.entries[name[:i]]
		if !ok {
			continue
		}
		if e.Unpriced {
			return resolved{}
		}
		rest := strings.Split(name[i+1:], "-")
		if isMinorVersion(rest[0]) {
			return resolved{}
		}
		fast := false
		for _, seg := range rest {
			if seg == "fast" {
				fast = true
			}
		}
		return resolved{key: name[:i], fast: fast}
	}
	return resolved{}
}

func isMinorVersion(seg string) bool {
	return len(seg) >= 1 && len(seg) <= 2 && isDigits(seg)
}
