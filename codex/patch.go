package codex

import "strings"

const patchBegin = "*** Begin Patch"

// patchSections are the apply_patch headers that name a file.
var patchSections = []struct {
	prefix, change, action string
}{
	{"*** Add File: ", "add", ActionWrite},
	{"*** Update File: ", "update", ActionEdit},
	{"*** Delete File: ", "delete", ActionEdit},
	{"*** Move to: ", "move", ActionWrite},
}

// patchFiles appends the files an apply_patch body names to dst, in order,
// each path once per change. Paths alias body.
func patchFiles(dst []FileChange, body string) []FileChange {
	for body != "" {
		line := body
		if i := strings.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = ""
		}
		if !strings.HasPrefix(line, "*** ") {
			continue
		}
		line = strings.TrimRight(line, "\r \t")
		for _, s := range patchSections {
			if p, ok := strings.CutPrefix(line, s.prefix); ok {
				if p = strings.TrimSpace(p); p != "" && !hasChange(dst, p, s.change) {
					dst = append(dst, FileChange{Path: p, Change: s.change, Action: s.action})
				}
				break
			}
		}
	}
	return dst
}

func hasChange(fs []FileChange, path, change string) bool {
	for _, f := range fs {
		if f.Path == path && f.Change == change {
			return true
		}
	}
	return false
}

// shellPatch returns the patch body of a shell command that runs apply_patch
// (the model sometimes calls it through shell or exec_command), or "".
func shellPatch(command string) string {
	i := strings.Index(command, patchBegin)
	if i < 0 || !strings.Contains(command[:i], "apply_patch") {
		return ""
	}
	return command[i:]
}

// isAbsPath reports whether p is absolute on the system that wrote the log:
// a POSIX path, a Windows drive path or a UNC/rooted backslash path.
func isAbsPath(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// joinPath joins a relative patch path to the working directory of the
// turn, with the separator that directory uses (the log may come from
// another OS than the one reading it).
func joinPath(cwd, p string) string {
	if cwd == "" || isAbsPath(p) {
		return p
	}
	sep := "/"
	if !strings.Contains(cwd, "/") && strings.Contains(cwd, `\`) || len(cwd) >= 2 && cwd[1] == ':' && !strings.Contains(cwd, "/") {
		sep = `\`
	}
	p = strings.TrimPrefix(p, "./")
	return strings.TrimRight(cwd, `/\`) + sep + p
}
