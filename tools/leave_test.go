package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// toyList is a cuttable answer of one list whose items are n characters.
type toyList struct {
	Items     []string `json:"items"`
	Truncated bool     `json:"truncated"`
}

func (o *toyList) cutLen() int { return len(o.Items) }
func (o *toyList) keep(n int)  { o.Items, o.Truncated = firstN(o.Items, n), true }

func toy(items, size int) toyList {
	var o toyList
	for i := 0; i < items; i++ {
		o.Items = append(o.Items, strings.Repeat("x", size))
	}
	return o
}

// TestFit: the most items that fit the budget; when not one fits, one item
// within the cap; never an answer over the cap; the input is not changed.
func TestFit(t *testing.T) {
	for _, c := range []struct {
		name               string
		items, size        int
		budget             int
		wantItems          int
		wantErr, wantTrunc bool
	}{
		{"fits", 10, 100, defaultAnswer, 10, false, false},
		{"cut to the budget", 1000, 100, defaultAnswer, (defaultAnswer - 30) / 103, false, true},
		{"cut to the cap", 1000, 100, maxAnswer, (maxAnswer - 30) / 103, false, true},
		{"one item over the budget, within the cap", 5, 20000, defaultAnswer, 1, false, true},
		{"one item over the cap", 5, 50000, maxAnswer, 0, false, true},
		{"one", 1, 100, defaultAnswer, 1, false, false},
	} {
		in := toy(c.items, c.size)
		b, err := exit(in, c.budget)
		if (err != nil) != c.wantErr {
			t.Errorf("%s: error %v", c.name, err)
			continue
		}
		if len(in.Items) != c.items {
			t.Errorf("%s: the answer given was changed", c.name)
		}
		var got toyList
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got.Items) != c.wantItems || got.Truncated != c.wantTrunc || len(b) > maxAnswer {
			t.Errorf("%s: %d items (truncated %v) in %d bytes; want %d (truncated %v)", c.name, len(got.Items), got.Truncated, len(b), c.wantItems, c.wantTrunc)
		}
	}
	// Nothing to cut: within the cap it leaves, over it is an error.
	type fixed struct{ Text string }
	if _, err := exit(fixed{strings.Repeat("x", 20000)}, defaultAnswer); err != nil {
		t.Errorf("an uncuttable answer within the cap: %v", err)
	}
	if _, err := exit(fixed{strings.Repeat("x", 50000)}, defaultAnswer); err == nil {
		t.Errorf("an uncuttable answer over the cap left")
	}
}
