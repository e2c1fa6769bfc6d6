package redact

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// commonKey reports whether the ':' at p closes a JSON key, "name": or
// \"name\":, whose name is one of commonKeyNames: the quote before p, or
// the escaped one, closes the name, and the bytes since the quote before
// it spell the name exactly. Then rawAt's answer for the ':' is "clear",
// whatever follows: plainKey and rawAssignment both walk back over the
// name, which holds only name bytes, to its opening quote, with no escape
// in the way, and classifyName gives it no secret (keyNameOK). False says
// nothing; rawAt decides.
func commonKey(s string, p int) bool {
	e := p - 1 // the closing quote
	if e < 1 || s[e] != '"' {
		return false
	}
	if s[e-1] == '\\' {
		e--
	}
	// The 32 bytes before the closing quote, or the line's first e bytes
	// after zeros (no quote: a name that starts the line is not a key).
	var b *[32]byte
	if e >= 32 {
		b = (*[32]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), e-32))
	} else {
		var start [32]byte
		copy(start[32-e:], s[:e])
		b = &start
	}
	// The name, eight bytes at a time back from the closing quote, as
	// keyName holds it.
	var n int
	var w0, w1, w2, w3 uint64
	if w0 = binary.LittleEndian.Uint64(b[24:]); zeroByte(w0^lsb*'"') != 0 {
		n, w0 = nameBytes(w0, 0)
	} else if w1 = binary.LittleEndian.Uint64(b[16:]); zeroByte(w1^lsb*'"') != 0 {
		n, w1 = nameBytes(w1, 8)
	} else if w2 = binary.LittleEndian.Uint64(b[8:]); zeroByte(w2^lsb*'"') != 0 {
		n, w2 = nameBytes(w2, 16)
	} else if w3 = binary.LittleEndian.Uint64(b[0:]); zeroByte(w3^lsb*'"') != 0 {
		n, w3 = nameBytes(w3, 24)
	} else {
		return false
	}
	for h := keyHash(n, w0); ; h = (h + 1) % keySlotCount {
		c := &keyNames[keySlots[h]]
		if uint64(c.n^n)|c.w0^w0|c.w1^w1|c.w2^w2|c.w3^w3 == 0 {
			return n > 0
		}
		if c.n == 0 {
			return false
		}
	}
}

// nameBytes returns, for the word w of a name, read before its closing
// quote and holding its opening one, the name's length (after the before
// bytes of the words nearer the end) and the word with only the name's
// bytes: those above the highest quote.
func nameBytes(w uint64, before int) (int, uint64) {
	b := bits.Len64(zeroByte(w^lsb*'"')) >> 3 // the opening quote is byte b-1
	return before + 8 - b, w &^ (1<<(8*b) - 1)
}

// keyName is a name as commonKey reads it: its length and its bytes in
// four words, the last eight bytes in w0, each word's bytes in the order
// of s, zero where the name has none.
type keyName struct {
	n              int
	w0, w1, w2, w3 uint64
}

// commonKeyNames are the names of the JSON keys most frequent in Claude
// Code transcripts (its lines' own keys, the usage block's, those of the
// tools' inputs and results: nine in ten key colons or more) and in Codex
// CLI's. Each must pass keyNameOK.
var commonKeyNames = []string{
	// A line's own keys.
	"type", "content", "version", "timestamp", "sessionId", "uuid", "parentUuid",
	"isSidechain", "userType", "cwd", "gitBranch", "slug", "message", "role", "id",
	"entrypoint", "model", "requestId", "stop_reason", "stop_sequence", "stop_details",
	"toolUseResult", "sourceToolAssistantUUID", "messageId", "agentId", "isMeta",
	"leafUuid", "lastPrompt", "permissionMode", "snapshot", "isSnapshotUpdate",
	"trackedFileBackups", "backupFileName", "backupTime", "subtype",
	"level", "toolUseID", "parentToolUseID", "isApiErrorMessage", "summary",
	// The usage block's.
	"usage", "input_tokens", "output_tokens", "cache_read_input_tokens",
	"cache_creation_input_tokens", "cache_creation", "ephemeral_5m_input_tokens",
	"ephemeral_1h_input_tokens", "service_tier", "server_tool_use", "web_search_requests",
	"web_fetch_requests", "inference_geo", "speed", "iterations", "thinking_tokens",
	"output_tokens_details",
	// Content blocks, tool inputs and results.
	"text", "thinking", "signature", "name", "input", "tool_use_id", "is_error",
	"command", "description", "file_path", "filePath", "old_string", "new_string",
	"replace_all", "pattern", "path", "prompt", "output_mode", "mode", "limit", "offset",
	"status", "activeForm", "stdout", "stderr", "interrupted", "isImage", "data", "file",
	"numLines", "startLine", "totalLines", "durationMs", "structuredPatch", "oldString",
	"newString", "originalFile", "userModified", "replaceAll", "oldStart", "oldLines",
	"newStart", "newLines", "lines", "numFiles", "filenames", "output", "fullOutput",
	"elapsedTimeSeconds", "hookName", "hookEvent", "messageCount", "maxLength", "caller",
	"toolName", "serverName", "promptId",
	// Codex CLI's.
	"payload", "total_tokens", "reasoning_output_tokens", "cached_input_tokens",
	"window_minutes", "used_percent", "resets_at", "call_id", "model_context_window",
	"rate_limits", "info", "primary", "secondary", "credits", "unlimited", "has_credits",
	"balance", "turn_id", "approval_policy", "sandbox_policy", "network_access",
	"exclude_tmpdir_env_var", "exclude_slash_tmp", "effort", "encrypted_content", "arguments",
	"plan_type", "phase", "limit_name", "limit_id", "writable_roots", "developer_instructions",
	"rate_limit_reached_type", "individual_limit", "metadata", "reasoning_effort", "settings",
	"personality", "collaboration_mode", "images", "truncation_policy", "user_instructions",
	"timezone", "current_date",
}

// keyNames holds the names of commonKeyNames that keyNameOK passes, from 1
// on (0 is no name); keySlots finds them: an open-addressed table of their
// indexes, each first tried at keyHash.
var keyNames, keySlots = func() (names [256]keyName, slots [keySlotCount]uint8) {
	n := 0
	for _, name := range commonKeyNames {
		if !keyNameOK(name) || n == len(names)-1 {
			continue
		}
		var w [4]uint64 // w0 to w3
		for i := 0; i < len(name); i++ {
			k := len(name) - 1 - i // from the end
			w[k/8] |= uint64(name[i]) << (56 - 8*(k%8))
		}
		k := keyName{len(name), w[0], w[1], w[2], w[3]}
		n++
		names[n] = k
		h := keyHash(k.n, k.w0)
		for slots[h] != 0 {
			h = (h + 1) % keySlotCount
		}
		slots[h] = uint8(n)
	}
	return names, slots
}()

// keySlotCount is the size of keySlots, more than twice the names.
const (
	keySlotBits  = 9
	keySlotCount = 1 << keySlotBits
)

// keyNameOK reports whether commonKey may answer for name: it is made of
// name bytes (cName), fits commonKey's 32 bytes with its opening quote,
// and classifyName finds no secret word in it.
func keyNameOK(name string) bool {
	if name == "" || len(name) >= 32 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if classes[name[i]]&cName == 0 {
			return false
		}
	}
	return classifyName(name) == nameNone
}

// keyHash is the first slot of keySlots tried for a name of n bytes whose
// last eight (or fewer) are w0: names that end alike ("input_tokens",
// "output_tokens") differ in length.
func keyHash(n int, w0 uint64) uint64 {
	return (w0 + uint64(n)) * 0x9e3779b97f4a7c15 >> (64 - keySlotBits)
}
