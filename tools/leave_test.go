package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	secret := "ghp_C1x9Kq2Lm8Np3Rs7Tv4Wy6Za0Bc5Df2Gh1Jk"
	in, _ := json.Marshal(map[string]any{
		secret:  "in a key",
		"plain": `quote " backslash \ <tag> é`,
		"value": "token " + secret + ` then "quoted"`,
		"list":  []any{1.5, true, nil, "ok"},
	})
	out, err := redactJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "ghp_") {
		t.Fatalf("secret left: %s", out)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out)
	}
	if got["plain"] != `quote " backslash \ <tag> é` || len(got) != 4 {
		t.Errorf("plain strings changed: %s", out)
	}
	// Strings the redactor leaves alone keep their bytes, escapes included.
	for _, s := range []string{`"plain":"quote \" backslash \\ \u003ctag\u003e é"`, `"list":[1.5,true,null,"ok"]`} {
		if !strings.Contains(string(out), s) {
			t.Errorf("%s not kept in %s", s, out)
		}
	}
	if v, _ := got["value"].(string); !strings.HasPrefix(v, "token ") || !strings.HasSuffix(v, ` then "quoted"`) {
		t.Errorf("value = %q", v)
	}
	if _, err := redactJSON([]byte(`{"a":"unterminated`)); err == nil {
		t.Error("an unterminated string must be an error")
	}
}
