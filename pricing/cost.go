package pricing

import (
	"math"
	"sort"
)

// CostBasis is what every cost means: an estimate at API list price, not a bill.
const CostBasis = "api_list_price_equivalent"

// Cost statuses, as the tools report them in "cost_status".
const (
	StatusEstimated = "estimated"
	StatusPartial   = "partial"
	StatusUnknown   = "unknown"
)

// Usage is the token usage of ONE API response.
type Usage struct {
	Input, Output, CacheCreate5m, CacheCreate1h, CacheRead int64
	// Reasoning is the part of Output the model spent reasoning (Codex
	// reports it): already inside Output, so it is neither priced nor
	// counted in Tokens again.
	Reasoning int64
	// Fast is set when the response says "speed": "fast".
	Fast bool
}

// Tokens is the sum of all token fields (Reasoning is inside Output);
// negative counts count as zero.
func (u Usage) Tokens() int64 {
	return nonNeg(u.Input) + nonNeg(u.Output) + nonNeg(u.CacheCreate5m) + nonNeg(u.CacheCreate1h) + nonNeg(u.CacheRead)
}

// Total is Tokens: input + output + cache creation + cache read.
func (u Usage) Total() int64 { return u.Tokens() }

// CacheCreate is all cache-creation tokens, both lifetimes.
func (u Usage) CacheCreate() int64 { return nonNeg(u.CacheCreate5m) + nonNeg(u.CacheCreate1h) }

// Add adds o's tokens to u (Fast is left as it is: a sum has no speed).
func (u *Usage) Add(o Usage) {
	u.Input += o.Input
	u.Output += o.Output
	u.CacheCreate5m += o.CacheCreate5m
	u.CacheCreate1h += o.CacheCreate1h
	u.CacheRead += o.CacheRead
	u.Reasoning += o.Reasoning
}

// prompt is what the long-context rule measures: every input-side token.
func (u Usage) prompt() int64 {
	return nonNeg(u.Input) + nonNeg(u.CacheCreate5m) + nonNeg(u.CacheCreate1h) + nonNeg(u.CacheRead)
}

// Cost prices one response. ok is false, and the cost 0, when the model is
// unpriced. When the entry has "above_200k" rates and the prompt (input +
// cache creation + cache read) exceeds its threshold, those rates price the
// whole response, output included. The fast multiplier scales the whole cost
// when the response ran in fast mode (u.Fast, or a "-fast" proxy suffix on the
// model name) and the entry has one. Negative token counts from malformed
// logs count as zero.
func (t *Table) Cost(model string, u Usage) (usd float64, ok bool) {
	r := t.resolve(model)
	if r.key == "" {
		return 0, false
	}
	if r.key == SyntheticModel {
		return 0, true
	}
	e := t.entries[r.key]
	rates := e.Rates
	threshold := e.LongContextThreshold
	if threshold <= 0 {
		threshold = DefaultLongContextThreshold
	}
	if e.Above200k != nil && u.prompt() > threshold {
		rates = *e.Above200k
	}
	usd = (float64(nonNeg(u.Input))*rates.Input +
		float64(nonNeg(u.Output))*rates.Output +
		float64(nonNeg(u.CacheCreate5m))*rates.CacheWrite +
		float64(nonNeg(u.CacheCreate1h))*rates.CacheWrite1h +
		float64(nonNeg(u.CacheRead))*rates.CacheRead) / 1e6
	if (u.Fast || r.fast) && e.FastMultiplier > 0 {
		usd *= e.FastMultiplier
	}
	return usd, true
}

func nonNeg(n int64) int64 {
	if n < 0 {
		return 0
	}
	return n
}

// Tally accumulates cost over many responses and derives cost_status. It is
// a small value meant to be copied (per session, per day row, per model):
// copies never share mutable state, because the unpriced-model list is
// replaced, never appended to in place. The zero Tally is empty and ready.
//
// Status counts responses, not tokens: any response from an unpriced model
// makes the status partial (or unknown if no response was priced), even one
// that reported zero tokens, and its model is listed by UnpricedModels. A
// cost that might be missing something is never shown as complete.
// "<synthetic>" responses are priced (at zero).
type Tally struct {
	Cost                               float64 // USD, unrounded; see USD
	PricedTokens, UnpricedTokens       int64
	PricedResponses, UnpricedResponses int64
	unpriced                           []string // sorted, de-duplicated, as given
}

// Add prices one response and adds it. An unpriced model adds no cost; its
// tokens are counted as unpriced and its name, as given, is recorded once.
func (t *Tally) Add(table *Table, model string, u Usage) {
	usd, ok := table.Cost(model, u)
	t.AddCost(model, u.Tokens(), usd, ok)
}

// AddCost records one response whose cost was already computed with
// Table.Cost (ok false: unpriced), so callers that sum the same response into
// several tallies price it once.
func (t *Tally) AddCost(model string, tokens int64, usd float64, ok bool) {
	if !ok {
		t.UnpricedResponses++
		t.UnpricedTokens += tokens
		t.unpriced = insertSorted(t.unpriced, model)
		return
	}
	t.PricedResponses++
	t.PricedTokens += tokens
	t.Cost += usd
}

// Merge adds another tally into this one.
func (t *Tally) Merge(o Tally) {
	t.Cost += o.Cost
	t.PricedTokens += o.PricedTokens
	t.UnpricedTokens += o.UnpricedTokens
	t.PricedResponses += o.PricedResponses
	t.UnpricedResponses += o.UnpricedResponses
	for _, m := range o.unpriced {
		t.unpriced = insertSorted(t.unpriced, m)
	}
}

// USD is the cost rounded to 6 decimals.
func (t Tally) USD() float64 {
	return math.Round(t.Cost*1e6) / 1e6
}

// Status is "estimated" when no response came from an unpriced model (also
// when the tally is empty), "unknown" when responses were added and none was
// priced, and "partial" otherwise.
func (t Tally) Status() string {
	switch {
	case t.UnpricedResponses == 0:
		return StatusEstimated
	case t.PricedResponses == 0:
		return StatusUnknown
	default:
		return StatusPartial
	}
}

// UnpricedModels returns the unpriced model names, sorted; the caller owns
// the returned slice. It is nil when every model was priced.
func (t Tally) UnpricedModels() []string {
	if len(t.unpriced) == 0 {
		return nil
	}
	return append([]string(nil), t.unpriced...)
}

// insertSorted returns a new slice with name added in order, or s itself
// when name is already present. It never writes into s's backing array, so
// Tally copies stay independent.
func insertSorted(s []string, name string) []string {
	i := sort.SearchStrings(s, name)
	if i < len(s) && s[i] == name {
		return s
	}
	out := make([]string, 0, len(s)+1)
	out = append(out, s[:i]...)
	out = append(out, name)
	return append(out, s[i:]...)
}
