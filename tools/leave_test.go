package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/redact"
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

// TestRedactJSONMemoFollowsHome: the remembered redaction of a token is not
// used once the home directory changes, and is the same as a fresh one while
// it holds.
func TestRedactJSONMemoFollowsHome(t *testing.T) {
	defer redact.SetHome("")
	doc := []byte(`{"cwd":"/srv/dev/proj","files":["/srv/dev/proj/a.go","/srv/dev/proj/a.go"],"n":1}`)
	redact.SetHome("/srv/dev")
	first, err := redactJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := redactJSON(doc)
	if want := `{"cwd":"~/proj","files":["~/proj/a.go","~/proj/a.go"],"n":1}`; string(first) != want || string(again) != want {
		t.Fatalf("with home /srv/dev: %s, then %s; want %s", first, again, want)
	}
	redact.SetHome("/srv/other")
	if got, _ := redactJSON(doc); string(got) != string(doc) {
		t.Errorf("after the home changed: %s, want the paths as they are", got)
	}
}
