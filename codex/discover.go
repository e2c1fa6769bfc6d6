package codex

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/agent-activity/agent-activity/transcript"
)

// maxDepth bounds how deep Discover walks below sessions/ (YYYY/MM/DD is 3).
const maxDepth = 8

// Discover appends the rollouts under a Codex root (CODEX_HOME):
// sessions/YYYY/MM/DD/rollout-*.jsonl and archived_sessions/rollout-*.jsonl
// (flat, §1), each also as .jsonl.zst; a plain file wins over its .zst
// sibling. It walks with dirs and admits every step with root.Admit, so a
// symlink is followed only when it resolves inside the root. A missing root,
// or one without those folders, adds nothing. Each rollout is its own
// session (§14: one file is one session): Kind MainFile, SessionID the thread
// id in the name, ProjectDir the folder holding it.
func (Agent) Discover(root *transcript.Root, dirs *transcript.DirCache, out []transcript.File) []transcript.File {
	if !root.Exists() {
		return out
	}
	for _, top := range dirs.List(root.Path) {
		if top.Name() != "sessions" && top.Name() != "archived_sessions" {
			continue
		}
		if isDir, ok := root.Admit(top.Full, top); ok && isDir {
			out = walk(root, dirs, out, top.Full, 0)
		}
	}
	return out
}

func walk(root *transcript.Root, dirs *transcript.DirCache, out []transcript.File, dir string, depth int) []transcript.File {
	if depth > maxDepth {
		return out
	}
	entries := dirs.List(dir)
	for _, e := range entries {
		isDir, ok := root.Admit(e.Full, e)
		if !ok {
			continue
		}
		if isDir {
			out = walk(root, dirs, out, e.Full, depth+1)
			continue
		}
		name := e.Name()
		compressed := strings.HasSuffix(name, ".jsonl.zst")
		if !strings.HasPrefix(name, "rollout-") || !(compressed || strings.HasSuffix(name, ".jsonl")) {
			continue
		}
		if compressed && listed(entries, strings.TrimSuffix(name, ".zst")) {
			continue // the plain sibling wins
		}
		rel, err := filepath.Rel(root.Path, dir)
		if err != nil {
			rel = filepath.Base(dir)
		}
		out = append(out, transcript.File{Root: root, Path: e.Full, ProjectDir: dir, Project: filepath.ToSlash(rel),
			Kind: transcript.MainFile, SessionID: sessionOf(name)})
	}
	return out
}

func listed(entries []transcript.Listed, name string) bool {
	for _, e := range entries {
		if e.Name() == name {
			return true
		}
	}
	return false
}

// sessionOf is the session id a rollout's name gives: the thread uuid; for a
// paginated segment (rollout-<ts>-<thread>_<segment>.jsonl, §12) the thread
// and segment, so that two segments of one thread in one folder stay two
// files; for a name without a uuid, its stem.
func sessionOf(name string) string {
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".zst"), ".jsonl")
	_, id, ok := parseName(name)
	if !ok {
		return strings.TrimPrefix(stem, "rollout-")
	}
	if i := strings.Index(stem, id); i >= 0 && len(stem) > i+len(id) {
		return stem[i:]
	}
	return id
}

// parseName reads rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl[.zst], and the
// paginated rollout-<ts>-<thread uuid>_<segment>.jsonl of newer builds,
// whose thread id is the first uuid (§12).
func parseName(name string) (nameTime, id string, ok bool) {
	rest, found := strings.CutPrefix(name, "rollout-")
	if !found || len(rest) < 20 || rest[19] != '-' {
		return "", "", false
	}
	nameTime, rest = rest[:19], rest[20:]
	if len(rest) < 36 || !isUUID(rest[:36]) {
		return nameTime, "", false
	}
	return nameTime, rest[:36], true
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// zstdMagic opens every zstd frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// seekerAt is a file: what a plain rollout is read through, so that
// transcript.Lines can read a long line again at its length.
type seekerAt interface {
	io.ReadSeeker
	io.ReaderAt
}

// plainFile is a plain rollout read from its file itself, sniffed and
// sought back to where it was; closing it is the caller's, as for r.
type plainFile struct{ seekerAt }

func (plainFile) Close() error { return nil }

// decompressed returns r as rollout lines: a zstd stream (a .jsonl.zst,
// known by its magic number) is decompressed, anything else is read as it
// is. The caller closes the result, and r itself.
func decompressed(r io.Reader) (io.ReadCloser, error) {
	head := make([]byte, len(zstdMagic))
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	if f, ok := r.(seekerAt); ok && !bytes.Equal(head, zstdMagic) {
		if _, err := f.Seek(-int64(n), io.SeekCurrent); err == nil {
			return plainFile{f}, nil
		}
	}
	r = io.MultiReader(bytes.NewReader(head), r)
	if !bytes.Equal(head, zstdMagic) {
		return io.NopCloser(r), nil
	}
	// One goroutine, and a window bound so a hostile frame header cannot
	// make the decoder reserve gigabytes.
	zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(128<<20),
		zstd.WithDecoderLowmem(true))
	if err != nil {
		return nil, err
	}
	return zr.IOReadCloser(), nil
}
