package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output directory (required); gets projects/ and truth.json")
	size := fs.String("size", "50MB", "approximate corpus size: 50MB, 1GB, ... (binary units)")
	seed := fs.Int64("seed", 1, "random seed")
	now := fs.String("now", DefaultNow.Format(time.RFC3339), "the corpus' \"now\" (RFC 3339); activity spans the 30 days before it")
	quiet := fs.Bool("q", false, "no progress output")
	round2 := fs.Bool("round2", false, "add the round-two sessions (workers and resumed sessions that replay earlier lines, relays, advisor iterations, 2.1.152 cache lines) and count them by the SPEC rules")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "gencorpus: -out is required")
		return 2
	}
	n, err := ParseSize(*size)
	if err != nil {
		fmt.Fprintln(stderr, "gencorpus:", err)
		return 2
	}
	nt, err := time.Parse(time.RFC3339, *now)
	if err != nil {
		fmt.Fprintln(stderr, "gencorpus: bad -now:", err)
		return 2
	}
	opts := Options{Out: *out, Size: n, Seed: *seed, Now: nt, Round2: *round2}
	if !*quiet {
		opts.Log = stderr
	}
	start := time.Now()
	t, err := Generate(opts)
	if err != nil {
		fmt.Fprintln(stderr, "gencorpus:", err)
		return 1
	}
	if t.Reused {
		fmt.Fprintf(stdout, "reusing %s (seed %d, size %d, now %s)\n", *out, t.Seed, t.SizeBytes, t.Now)
		return 0
	}
	fmt.Fprintf(stdout, "wrote %s in %s: %d sessions, %d files (%d subagent), %d MB, %d lines, %d responses\n",
		*out, time.Since(start).Round(time.Millisecond), t.Sessions, t.Files, t.SubagentFiles, t.Bytes>>20, t.Lines, t.Totals.Responses)
	return 0
}
