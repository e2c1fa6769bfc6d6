//go:build !amd64

package redact

func pairVariants() map[string]func(string, []uint64, *pairTables) { return nil }
