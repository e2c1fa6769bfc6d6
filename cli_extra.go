package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mark3labs/mcp-go/server"
)

// Filled in by the ecosystem work (doctor, install, prompts).
func doctorCommand(ctx context.Context, a *app, stdout io.Writer) int {
	fmt.Fprintln(stdout, "doctor: not built yet")
	return 1
}

func installCommand(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "install: not built yet")
	return 1
}

func addPrompts(s *server.MCPServer) {}
