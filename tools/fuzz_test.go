package tools

// Fuzz targets of the argument layer: bindStrict on arbitrary JSON into every
// tool's argument type, and whole tool calls with arbitrary arguments over
// the fixture tree. Crashers land in testdata/fuzz/<Target>/ and are
// committed (see scripts/fuzz.sh).

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agent-activity/agent-activity/logs"
)

// argTypes returns a fresh value of every tool's argument type.
func argTypes() map[string]any {
	return map[string]any{
		"list_recent_sessions": &ListSessionsArgs{},
		"tail_agent_log":       &TailArgs{},
		"summarize_tool_calls": &ToolCallsArgs{},
		"session_recap":        &RecapArgs{},
		"search_transcripts":   &SearchArgs{},
		"file_activity":        &FileActivityArgs{},
		"usage_report":         &UsageReportArgs{},
		"pacing_window":        &PacingArgs{},
		"coverage_stats":       &CoverageArgs{},
		"scan_secrets":         &ScanSecretsArgs{},
	}
}

var argSeeds = []string{
	`{}`, `null`, ``, `   `, `[]`, `"x"`, `5`, `true`, `{"limit":20}`, `{"limit":0}`, `{"limit":-1}`, `{"limit":1e400}`,
	`{"limit":1.5}`, `{"limit":"10"}`, `{"limit":null}`, `{"limit":9223372036854775808}`, `{"bogus":1}`, `{"limit":1,"limit":2}`,
	`{"session":"latest"}`, `{"session":"dae68d1d","limit":3}`, `{"session":"../../etc/passwd"}`, `{"session":"a\u0000b"}`,
	`{"session":5}`, `{"session":["latest"]}`, `{"session":{"id":"x"}}`, `{"include_current":"yes"}`, `{"cwd":"/home/dev"}`,
	`{"query":"ZANZIBAR-marker"}`, `{"query":"(a*)*b","regex":true}`, `{"query":"a(b","regex":true}`, `{"query":"x","roles":["user","system"]}`,
	`{"query":"x","roles":"user"}`, `{"query":"x","since":"7d","until":"today"}`, `{"query":"x","session":"b86f27bf","repo":"out"}`,
	`{"path":"api.ts"}`, `{"path":"**/*.ts","limit":500}`, `{"path":"[","limit":1}`, `{"path":"C:\\src\\api.ts"}`, `{"path":""}`,
	`{"group_by":"day,model"}`, `{"group_by":"week,repo","since":"2026-11-01","until":"2026-11-30"}`, `{"group_by":"hour"}`,
	`{"group_by":"day,day"}`, `{"model":"opus","repo":"spill"}`, `{"hours":168}`, `{"hours":169}`, `{"hours":0}`,
	`{"max_findings":1000}`, `{"max_findings":1001}`, `{"since":"yesterday"}`, `{"since":"last week"}`,
	`{"query":"x"} trailing`, `{"query":"x"}{"query":"y"}`, `{"a":{"b":{"c":[1,2,3]}}}`, "{\"query\":\"\xff\"}",
}

// FuzzBindArgs decodes arbitrary bytes into every argument type. Properties:
// no panic; an error is a *logs.Error with code invalid_argument, naming an
// argument, with one short readable sentence.
func FuzzBindArgs(f *testing.F) {
	for _, s := range argSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for name, v := range argTypes() {
			err := bindStrict(raw, v)
			if err == nil {
				continue
			}
			checkArgError(t, name, raw, err, true)
		}
	})
}

func checkArgError(t *testing.T, tool string, raw []byte, err error, bindOnly bool) {
	t.Helper()
	var le *logs.Error
	if !errors.As(err, &le) {
		t.Fatalf("%s %q: error %T %v is not a *logs.Error (it would surface as internal)", tool, raw, err, err)
	}
	if bindOnly && le.Code != logs.CodeInvalidArgument {
		t.Fatalf("%s %q: code %s, want invalid_argument", tool, raw, le.Code)
	}
	if le.Code == logs.CodeInternal {
		t.Fatalf("%s %q: internal error for an argument problem: %s", tool, raw, le.Message)
	}
	if le.Code == logs.CodeInvalidArgument && le.Argument == "" {
		t.Fatalf("%s %q: invalid_argument without the argument's name: %s", tool, raw, le.Message)
	}
	// What the client sees: ErrorOf redacts and bounds the message.
	body := ErrorOf(err)
	if body.Error != le.Code || body.Message == "" || utf8.RuneCountInString(body.Message) > 300 || !utf8.ValidString(body.Message) {
		t.Fatalf("%s %q: message is not one short readable sentence (%d bytes): %.200q", tool, raw, len(body.Message), body.Message)
	}
	if le.Code == logs.CodeInvalidArgument && body.Argument == "" {
		t.Fatalf("%s %q: the client sees no argument name: %+v", tool, raw, body)
	}
}

// FuzzToolCall runs one tool (chosen by the first byte) with arbitrary
// arguments over a copy of the fixture tree. Properties: no panic; an error is
// a domain error (never internal); a success marshals to JSON.
func FuzzToolCall(f *testing.F) {
	_, store := fixtureStore(f)
	specs := All(Deps{Store: store})
	for i := range specs {
		for _, s := range argSeeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		spec := specs[int(which)%len(specs)]
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		out, err := spec.Call(ctx, raw)
		if ctx.Err() != nil {
			t.Fatalf("%s %q: no answer within 20s", spec.Tool.Name, raw)
		}
		if err != nil {
			checkArgError(t, spec.Tool.Name, raw, err, false)
			return
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("%s %q: answer does not marshal: %v", spec.Tool.Name, raw, err)
		}
	})
}
