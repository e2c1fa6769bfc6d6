package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// withHome sets the running user's home for one test. Tests that use it
// must not run in parallel: the home is the package's shared state.
func withHome(t *testing.T, dir string) {
	t.Helper()
	SetHome(dir)
	t.Cleanup(func() { SetHome("") })
}

type pathCase struct{ in, want string }

func checkPaths(t *testing.T, tests []pathCase) {
	t.Helper()
	for _, tc := range tests {
		if got := FromLogPath(tc.in).Redacted(); got != tc.want {
			t.Errorf("FromLogPath(%q).Redacted() = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPathConventionalHomes(t *testing.T) {
	withHome(t, "")
	checkPaths(t, []pathCase{
		{"", ""},
		{"x", "x"},
		{"~/src/x", "~/src/x"},
		{"/home/dev/src/x", "~/src/x"},
		{"/home/dev", "~"},
		{"/home/dev/", "~/"},
		{"/home/devx/y", "~/y"},
		{"/home/jean.luc/y", "~/y"},
		{"/home/dev\\y", "~\\y"},
		{"/Users/ana", "~"},
		{"/Users/ana/proj", "~/proj"},
		{"/users/ana/proj", "~/proj"},
		{"/root", "~"},
		{"/root/.claude/projects", "~/.claude/projects"},
		{"/var/home/dev/x", "~/x"},
		{`C:\Users\dev\proj`, `~\proj`},
		{`C:\Users\dev`, `~`},
		{`c:\users\DEV\proj`, `~\proj`},
		{`D:/Users/dev/proj`, `~/proj`},
		{`z:\USERS\dev\a\b`, `~\a\b`},
		{"/mnt/c/Users/dev/x", "~/x"},
		{"/c/Users/dev/x", "~/x"},
		// Not a home, or not at the start.
		{"/homeless/x", "/homeless/x"},
		{"/home", "/home"},
		{"/home/", "/home/"},
		{"/home//x", "/home//x"},
		{"/home/../etc/passwd", "/home/../etc/passwd"},
		{"/rooted/x", "/rooted/x"},
		{"/Users/Shared/x", "/Users/Shared/x"},
		{`C:\Users\Public\x`, `C:\Users\Public\x`},
		{`C:\Users\Default\x`, `C:\Users\Default\x`},
		{`C:\Usersx\dev`, `C:\Usersx\dev`},
		{`C:\Windows\System32`, `C:\Windows\System32`},
		{`C:Users\dev`, `C:Users\dev`},
		{"/srv/home/dev/x", "/srv/home/dev/x"},
		{"src/home/dev/y", "src/home/dev/y"},
		{"home/dev/y", "home/dev/y"},
		{"/mnt/data/Users/dev", "/mnt/data/Users/dev"},
		{"/var/lib/dev", "/var/lib/dev"},
	})
}

func TestPathEncodedHomes(t *testing.T) {
	withHome(t, "")
	checkPaths(t, []pathCase{
		{"-home-dev-src-x", "~-src-x"},
		{"-home-dev", "~"},
		{"-Users-ana-proj", "~-proj"},
		{"C--Users-dev-twin", "~-twin"},
		{"c--users-dev-twin", "~-twin"},
		{"-root--claude", "~--claude"},
		{"-var-home-dev-x", "~-x"},
		{"-mnt-c-Users-dev-x", "~-x"},
		{"-home-jean-luc-x", "~-luc-x"}, // lossy: only the running home is known whole
		{"/home/dev/.claude/projects/-home-dev-src-x/abc.jsonl", "~/.claude/projects/~-src-x/abc.jsonl"},
		{`C:\Users\dev\.claude\projects\C--Users-dev-twin\a.jsonl`, `~\.claude\projects\~-twin\a.jsonl`},
		{"/tmp/fixture/-Users-ana-p/s.jsonl", "/tmp/fixture/~-p/s.jsonl"},
		{"-homeless-x", "-homeless-x"},
		{"-home-", "-home-"},
		{"-home--x", "-home--x"},
		{"-tmp-home-dev", "-tmp-home-dev"},
		{"my-home-dev", "my-home-dev"},
		{"C-Users-dev", "C-Users-dev"},
	})
}

func TestPathRunningHome(t *testing.T) {
	withHome(t, "/srv/dev/")
	checkPaths(t, []pathCase{
		{"/srv/dev", "~"},
		{"/srv/dev/x", "~/x"},
		{"/srv/devx/x", "/srv/devx/x"},
		{"/srv", "/srv"},
		{"/SRV/dev/x", "/SRV/dev/x"}, // a Unix home is matched exactly
		{"-srv-dev-x", "~-x"},
		{"-srv-devx", "-srv-devx"},
		{"/home/other/x", "~/x"}, // the conventional rules still apply
	})

	withHome(t, "/home/jean.luc")
	checkPaths(t, []pathCase{
		{"/home/jean.luc/src", "~/src"},
		{"-home-jean-luc-src", "~-src"}, // longer than the conventional -home-jean
		{"-home-jean-x", "~-x"},
	})

	withHome(t, `D:\dev`)
	checkPaths(t, []pathCase{
		{`D:\dev\x`, `~\x`},
		{`d:\DEV\x`, `~\x`},
		{`D:/dev/x`, `~/x`},
		{"D--dev-x", "~-x"},
		{"d--dev-x", "~-x"},
		{`D:\devx`, `D:\devx`},
	})

	for _, ignored := range []string{"/", `C:\`, "C:", "relative/home", "~"} {
		withHome(t, ignored)
		checkPaths(t, []pathCase{
			{"/srv/x", "/srv/x"},
			{`C:\x`, `C:\x`},
			{"relative/home/x", "relative/home/x"},
			{"/home/dev/x", "~/x"},
		})
	}
}

func TestPathSecrets(t *testing.T) {
	withHome(t, "")
	checkPaths(t, []pathCase{
		{"/home/dev/" + anthropicKey + "/x", "~/[REDACTED:anthropic_api_key]/x"},
		{"/home/" + anthropicKey + "/x", "~/x"},
		{"/tmp/" + githubClassic, "/tmp/[REDACTED:github_token]"},
		{"https://bob:" + urlPassword + "@git.example.com/r.git", "https://bob:[REDACTED:url_credentials]@git.example.com/r.git"},
		{"/home/dev/Bearer " + bearerTok, "~/Bearer [REDACTED:bearer_token]"},
		{"/home/dev/a\xffb", "~/a\uFFFDb"},
	})
}

func TestPathBounded(t *testing.T) {
	got := FromLogPath("/home/dev/" + strings.Repeat("abc/", 2000)).Redacted()
	if n := utf8.RuneCountInString(got); n != maxPath || !strings.HasPrefix(got, "~/abc/") || !strings.HasSuffix(got, "…") {
		t.Errorf("long path: %d runes, %q...%q", n, got[:10], got[len(got)-10:])
	}
}

func TestPathContainsFold(t *testing.T) {
	withHome(t, "")
	p := FromLogPath("/home/Dev/src/SpacePilot")
	for sub, want := range map[string]bool{
		"spacepilot":               true,
		"src/space":                true,
		"/home/dev/src/spacepilot": true, // the caller's own full cwd
		"~":                        false,
		"":                         true,
		"pilots":                   false,
	} {
		if got := p.ContainsFold(sub); got != want {
			t.Errorf("ContainsFold(%q) = %v, want %v", sub, got, want)
		}
	}
	secret := FromLogPath("/home/dev/" + anthropicKey)
	if secret.ContainsFold("sk-ant-api03") || !secret.ContainsFold("/home/dev/[redacted:") {
		t.Error("Path.ContainsFold matches inside a secret")
	}
}

// TestSetHomeConcurrent runs Redacted while the home changes; run with
// -race.
func TestSetHomeConcurrent(t *testing.T) {
	withHome(t, "/srv/dev")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			SetHome([]string{"/srv/dev", `D:\dev`, ""}[i%3])
		}
	}()
	p := FromLogPath("/srv/dev/x")
	for i := 0; i < 200; i++ {
		if got := p.Redacted(); got != "~/x" && got != "/srv/dev/x" {
			t.Fatalf("Redacted() = %q", got)
		}
	}
	<-done
}

func FuzzPathAndClip(f *testing.F) {
	f.Add("/home/dev/"+anthropicKey+"/x", 20)
	f.Add(`C:\Users\dev\proj `+plantURL, 7)
	f.Add("-home-dev-src-x", 3)
	f.Add("[REDACTED:jwt] [REDACTED:", 12)
	f.Add("\xff\xfe/root", 1)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max %= 2000
		for _, out := range []string{FromLogPath(in).Redacted(), FromLogID(in).Redacted()} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q", in)
			}
		}
		txt := FromLog(in)
		full := txt.Redacted()
		got, n := txt.ClipInfo(max)
		if n != utf8.RuneCountInString(full) || (max >= 0 && utf8.RuneCountInString(got) > max) {
			t.Fatalf("ClipInfo(%d) = %q, %d for %q", max, got, n, full)
		}
		if kept := strings.TrimSuffix(got, "…"); !strings.HasPrefix(full, kept) {
			t.Fatalf("Clip(%d) = %q is not a prefix of %q", max, got, full)
		}
	})
}
