package codex

import (
	"strconv"
	"strings"
)

// declined reports whether text is unified exec's report of a command the
// user declined at the approval prompt (public-codex #3, six times):
// "exec_command failed for `<command>`: CreateProcess { message:
// "Rejected(\"rejected by user\")" }". Only the text after the echoed
// command is looked at, so a command that merely says those words is not.
func declined(text string) bool {
	if !strings.HasPrefix(text, "exec_command failed for") {
		return false
	}
	if i := strings.LastIndex(text, "`:"); i >= 0 {
		text = text[i:]
	}
	return strings.Contains(text, "Rejected(") && strings.Contains(text, "rejected by user")
}

// errorOpenings are the error texts of §7 rule 5 that start an output.
var errorOpenings = []string{
	"exec_command failed for",
	"write_stdin failed:",
	"apply_patch verification failed:",
	"execution error:",
	"tool call error:",
	"Error code:",
}

// outputResult decides a call's result from its output text by §7, in
// order: the JSON exit-code form, code-mode script status, the user-declined
// and user-aborted forms (rejected), the error openings, the status lines of
// the header, and otherwise ok. The exit code is returned when the text
// carries one.
func outputResult(text string) (r Result, code int64, hasCode bool) {
	if c, _, ok := exitMetadata(text); ok {
		return okUnless(c != 0), c, true
	}
	switch {
	case strings.HasPrefix(text, "Script completed"):
		return ResultOK, 0, false
	case strings.HasPrefix(text, "Script failed"), strings.HasPrefix(text, "Script terminated"):
		return ResultError, 0, false
	case strings.HasPrefix(text, "Script running with cell ID"):
		return ResultRunning, 0, false
	case strings.HasPrefix(text, "exec command rejected by user"),
		strings.HasPrefix(text, "aborted by user"),
		declined(text):
		return ResultRejected, 0, false
	}
	for _, p := range errorOpenings {
		if strings.HasPrefix(text, p) {
			return ResultError, 0, false
		}
	}
	if r, code, hasCode, ok := headerStatus(text); ok {
		return r, code, hasCode
	}
	return ResultOK, 0, false
}

// headerStatus reads the status line of an output's header: the text before
// the first "\nOutput:" (or its first lines when there is none). The command
// echoed in a unified-exec header can span lines, so the last status line
// wins.
func headerStatus(text string) (r Result, code int64, hasCode, ok bool) {
	header := text
	if i := strings.Index(text, "\nOutput:"); i >= 0 {
		header = text[:i]
	} else {
		header = firstLines(text, 8)
	}
	for header != "" {
		line := header
		if i := strings.LastIndexByte(header, '\n'); i >= 0 {
			line, header = header[i+1:], header[:i]
		} else {
			header = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if n, found := strings.CutPrefix(line, "Exit code: "); found {
			if c, err := strconv.ParseInt(n, 10, 64); err == nil {
				return okUnless(c != 0), c, true, true
			}
		}
		if n, found := strings.CutPrefix(line, "Process exited with code "); found {
			if c, err := strconv.ParseInt(n, 10, 64); err == nil {
				return okUnless(c != 0), c, true, true
			}
		}
		if strings.HasPrefix(line, "Process running with session ID ") {
			return ResultRunning, 0, false, true
		}
		if line == "aborted by user" {
			return ResultRejected, 0, false, true
		}
	}
	return 0, 0, false, false
}

func okUnless(failed bool) Result {
	if failed {
		return ResultError
	}
	return ResultOK
}

func firstLines(s string, n int) string {
	i := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

// webSearchResult maps a web_search_call status: it has no output line (§5.4).
func webSearchResult(status string) Result {
	switch status {
	case "completed":
		return ResultOK
	case "failed":
		return ResultError
	}
	return ResultRunning
}
