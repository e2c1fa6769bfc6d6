//go:build !amd64

package redact

// pairBlocks is false where no vector classifier is written: jsonClean
// looks up every pair of bytes.
const pairBlocks = false

func pairCandidates(s string, masks []uint64, t *pairTables) {}
