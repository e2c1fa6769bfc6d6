package pricing

import (
	"math"
	"reflect"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestCost(t *testing.T) {
	tab := mustLoad(t, testTable, "")
	tests := []struct {
		name   string
		model  string
		u      Usage
		want   float64
		wantOK bool
	}{
		{"input and output", "claude-opus-4-5", Usage{Input: 1_000_000, Output: 1_000_000}, 30, true},
		{"5m cache write", "claude-opus-4-5", Usage{CacheCreate5m: 1_000_000}, 6.25, true},
		{"1h cache write", "claude-opus-4-5", Usage{CacheCreate1h: 1_000_000}, 10, true},
		{"every bucket", "claude-opus-4-5", Usage{Input: 10, Output: 20, CacheCreate5m: 100, CacheCreate1h: 200, CacheRead: 1000}, 0.003675, true},
		{"1h falls back to 5m rate", "claude-3-5-sonnet", Usage{CacheCreate1h: 1_000_000}, 3.75, true},
		{"prompt 199,999: standard", "claude-sonnet-4-5", Usage{Input: 199_999, Output: 1000}, 0.614997, true},
		{"prompt 200,000: standard", "claude-sonnet-4-5", Usage{Input: 200_000, Output: 1000}, 0.615, true},
		{"prompt 200,001: long context, output too", "claude-sonnet-4-5", Usage{Input: 200_001, Output: 1000}, 1.222506, true},
		{"prompt over 200k via cache", "claude-sonnet-4-5", Usage{Input: 1000, CacheRead: 199_001, Output: 1000}, 0.1479006, true},
		{"haiku 5.5 at 100,000", "claude-haiku-5-5", Usage{Input: 100_000}, 0.01, true},
		{"haiku 5.5 above 100,000", "claude-haiku-5-5", Usage{Input: 100_001}, 0.0500005, true},
		{"no long-context tier", "claude-opus-4-5", Usage{Input: 1_000_000}, 5, true},
		{"fast", "claude-opus-4-6", Usage{Input: 1000, Output: 1000, Fast: true}, 0.18, true},
		{"fast, cache included", "claude-opus-4-6", Usage{CacheRead: 1_000_000, Fast: true}, 3, true},
		{"not fast", "claude-opus-4-6", Usage{Input: 1000, Output: 1000}, 0.03, true},
		{"fast without multiplier", "claude-opus-4-5", Usage{Input: 1000, Output: 1000, Fast: true}, 0.03, true},
		{"-fast proxy name", "claude-opus-4.6-fast", Usage{Input: 1000, Output: 1000}, 0.18, true},
		{"-1m proxy name", "claude-opus-4.6-1m", Usage{Input: 1000, Output: 1000}, 0.03, true},
		{"negative counts are zero", "claude-opus-4-5", Usage{Input: -5, Output: 1_000_000}, 25, true},
		{"synthetic", "<synthetic>", Usage{Input: 100, Output: 100}, 0, true},
		{"unknown model", "gpt-4o", Usage{Input: 100, Output: 100}, 0, false},
		{"unknown minor version", "claude-opus-4-9", Usage{Input: 100}, 0, false},
	}
	for _, tt := range tests {
		got, ok := tab.Cost(tt.model, tt.u)
		if !near(got, tt.want) || ok != tt.wantOK {
			t.Errorf("%s: Cost(%q, %+v) = %v, %v; want %v, %v", tt.name, tt.model, tt.u, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestCostNilTable(t *testing.T) {
	var tab *Table
	if got, ok := tab.Cost("claude-opus-4-5", Usage{Input: 1}); got != 0 || ok {
		t.Errorf("nil table: %v, %v", got, ok)
	}
	if got, ok := tab.Cost("<synthetic>", Usage{Input: 1}); got != 0 || !ok {
		t.Errorf("nil table, synthetic: %v, %v", got, ok)
	}
}

func TestTally(t *testing.T) {
	tab := mustLoad(t, testTable, "")
	priced := Usage{Input: 1_000_000, Output: 1_000_000} // $30 on claude-opus-4-5
	tests := []struct {
		name       string
		add        func(*Tally)
		wantStatus string
		wantUSD    float64
		wantModels []string
		wantTokens [2]int64 // priced, unpriced
	}{
		{"empty", func(*Tally) {}, "estimated", 0, nil, [2]int64{0, 0}},
		{"all priced", func(t *Tally) {
			t.Add(tab, "claude-opus-4-5", priced)
			t.Add(tab, "<synthetic>", Usage{})
		}, "estimated", 30, nil, [2]int64{2_000_000, 0}},
		{"partial", func(t *Tally) {
			t.Add(tab, "claude-opus-4-5", priced)
			t.Add(tab, "gpt-4o", Usage{Input: 7})
			t.Add(tab, "claude-opus-4-9", Usage{Output: 3})
			t.Add(tab, "gpt-4o", Usage{Input: 1})
		}, "partial", 30, []string{"claude-opus-4-9", "gpt-4o"}, [2]int64{2_000_000, 11}},
		{"unknown", func(t *Tally) {
			t.Add(tab, "gpt-4o", Usage{Input: 7})
		}, "unknown", 0, []string{"gpt-4o"}, [2]int64{0, 7}},
		{"zero-token unpriced response still counts", func(t *Tally) {
			t.Add(tab, "claude-opus-4-5", priced)
			t.Add(tab, "Claude-Next", Usage{})
		}, "partial", 30, []string{"Claude-Next"}, [2]int64{2_000_000, 0}},
		{"nil table", func(t *Tally) {
			t.Add(nil, "claude-opus-4-5", priced)
		}, "unknown", 0, []string{"claude-opus-4-5"}, [2]int64{0, 2_000_000}},
		{"rounded to 6 decimals", func(t *Tally) {
			t.Add(tab, "claude-opus-4-5", Usage{Input: 1, Output: 1}) // $0.00003
			t.Add(tab, "claude-3-5-sonnet", Usage{CacheRead: 1})      // $0.0000003
		}, "estimated", 0.00003, nil, [2]int64{3, 0}},
	}
	for _, tt := range tests {
		var tl Tally
		tt.add(&tl)
		if tl.Status() != tt.wantStatus || !near(tl.USD(), tt.wantUSD) ||
			!reflect.DeepEqual(tl.UnpricedModels(), tt.wantModels) ||
			tl.PricedTokens != tt.wantTokens[0] || tl.UnpricedTokens != tt.wantTokens[1] {
			t.Errorf("%s: status %q usd %v models %q tokens %d/%d; want %q %v %q %d/%d", tt.name,
				tl.Status(), tl.USD(), tl.UnpricedModels(), tl.PricedTokens, tl.UnpricedTokens,
				tt.wantStatus, tt.wantUSD, tt.wantModels, tt.wantTokens[0], tt.wantTokens[1])
		}
	}
}

func TestTallyMergeAndCopies(t *testing.T) {
	tab := mustLoad(t, testTable, "")
	var a, b Tally
	a.Add(tab, "claude-opus-4-5", Usage{Output: 1_000_000}) // $25
	a.Add(tab, "model-b", Usage{Input: 1})
	b.Add(tab, "model-a", Usage{Input: 2})
	b.Add(tab, "model-b", Usage{Input: 3})

	c := a // a copy must not see later changes to a, nor a to c
	c.Add(tab, "model-c", Usage{})
	a.Merge(b)

	if got, want := a.UnpricedModels(), []string{"model-a", "model-b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("merged models %q, want %q", got, want)
	}
	if got, want := c.UnpricedModels(), []string{"model-b", "model-c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("copy models %q, want %q", got, want)
	}
	if a.Status() != "partial" || a.USD() != 25 || a.UnpricedTokens != 6 || a.UnpricedResponses != 3 || a.PricedResponses != 1 {
		t.Errorf("merged tally %+v status %q", a, a.Status())
	}
	models := a.UnpricedModels()
	models[0] = "changed"
	if a.UnpricedModels()[0] != "model-a" {
		t.Error("UnpricedModels leaks the tally's slice")
	}
	if CostBasis != "api_list_price_equivalent" {
		t.Errorf("CostBasis = %q", CostBasis)
	}
}
