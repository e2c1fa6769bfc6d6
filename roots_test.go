package main

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseRootList(t *testing.T) {
	for _, c := range []struct {
		name, list string
		sep        rune
		want       []rootEntry
	}{
		{"one path", "~/.claude/projects", ':', []rootEntry{{"", "~/.claude/projects"}}},
		{"labelled", "laptop=~/.claude/projects:desk=/mnt/sync/desk/projects", ':',
			[]rootEntry{{"laptop", "~/.claude/projects"}, {"desk", "/mnt/sync/desk/projects"}}},
		{"mixed, spaces and empty entries", " /a ::desk = /mnt/b: ", ':', []rootEntry{{"", "/a"}, {"desk", "/mnt/b"}}},
		{"label characters", "my-Desk_2=/x", ':', []rootEntry{{"my-Desk_2", "/x"}}},
		{"= inside a path is not a label", "/mnt/a=b/projects", ':', []rootEntry{{"", "/mnt/a=b/projects"}}},
		{"= in the path after a label", "desk=/mnt/a=b", ':', []rootEntry{{"desk", "/mnt/a=b"}}},
		{"relative and home paths with =", "./x=y:~/a=b", ':', []rootEntry{{"", "./x=y"}, {"", "~/a=b"}}},
		{"windows path", `C:\Users\me\.claude\projects`, ';', []rootEntry{{"", `C:\Users\me\.claude\projects`}}},
		{"windows labelled", `laptop=C:\Users\me\.claude\projects;desk=\\nas\sync\desk\projects`, ';',
			[]rootEntry{{"laptop", `C:\Users\me\.claude\projects`}, {"desk", `\\nas\sync\desk\projects`}}},
		{"windows drive before =", `C:\odd=name\projects`, ';', []rootEntry{{"", `C:\odd=name\projects`}}},
		{"windows one-letter label", `C=D:\projects`, ';', []rootEntry{{"C", `D:\projects`}}},
		{"windows quotes group a ;", `"D:\a;b\projects";desk="E:\c"`, ';', []rootEntry{{"", `D:\a;b\projects`}, {"desk", `E:\c`}}},
		{"windows ':' does not split", `laptop=C:\p`, ';', []rootEntry{{"laptop", `C:\p`}}},
	} {
		got, err := parseRootList(c.list, c.sep)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: parseRootList(%q) = %q, %v; want %q", c.name, c.list, got, err, c.want)
		}
	}
}

func TestParseRootListErrors(t *testing.T) {
	for _, c := range []struct {
		list string
		sep  rune
		want string
	}{
		{"", ':', "is empty"},
		{" : ", ':', "is empty"},
		{"=/x", ':', `"" is not a machine label`},
		{"lap top=/x", ':', `"lap top" is not a machine label`},
		{"lap.top=/x", ':', `"lap.top" is not a machine label`},
		{"desk=", ':', "has a label but no path"},
		{"desk=  ", ':', "has a label but no path"},
		{strings.Repeat("a", 65) + "=/x", ':', "is not a machine label"},
		{"laptop=C:\\p;caf\u00e9=D:\\q", ';', `"café" is not a machine label`},
	} {
		_, err := parseRootList(c.list, c.sep)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("parseRootList(%q) error %v; want one line containing %q", c.list, err, c.want)
		}
	}
}

func TestLogRoots(t *testing.T) {
	roots, labels, err := logRoots([]rootEntry{{"laptop", "/a/"}, {"", "/b"}, {"laptop", "/a"}})
	if err != nil || !reflect.DeepEqual(roots, []string{"/a", "/b", "/a"}) || !reflect.DeepEqual(labels, map[string]string{"/a": "laptop"}) {
		t.Errorf("logRoots = %q %v %v", roots, labels, err)
	}
	if _, _, err := logRoots([]rootEntry{{"laptop", "/a"}, {"desk", "/a/"}}); err == nil || !strings.Contains(err.Error(), `as machine "laptop" and as "desk"`) {
		t.Errorf("one path, two labels: %v", err)
	}
}

// TestBadRootLabelExits2: a bad AGENT_ACTIVITY_LOG_ROOT stops every command
// that reads the logs at start, like any bad configuration.
func TestBadRootLabelExits2(t *testing.T) {
	for _, v := range []string{"lap top=/x", "desk=", "=/x"} {
		for _, args := range [][]string{nil, {"call", "usage_report"}, {"export", "--out", t.TempDir()}} {
			withEnv(t, "AGENT_ACTIVITY_LOG_ROOT", v)
			var stdout, stderr strings.Builder
			code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr, time.Now)
			line := strings.TrimSpace(stderr.String())
			if code != 2 || stdout.Len() != 0 || line == "" || strings.Contains(line, "\n") || !strings.Contains(line, "AGENT_ACTIVITY_LOG_ROOT") {
				t.Errorf("%q %v: code %d, stdout %q, stderr %q; want 2, nothing, one line naming the variable", v, args, code, stdout.String(), stderr.String())
			}
		}
	}
}
