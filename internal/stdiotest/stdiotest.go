// Package stdiotest runs the agent-activity binary as a subprocess and talks to
// it over stdio with mcp-go's client, pinned to protocol 2025-11-25 (the
// initialize handshake real hosts use). Every line the server writes to stdout
// is checked to be a JSON-RPC 2.0 message. Used by the smoke script and the
// end-to-end tests.
package stdiotest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// ProtocolVersion is the version the client asks for.
const ProtocolVersion = "2025-11-25"

// Server is a running server with a connected client.
type Server struct {
	Client *client.Client
	cmd    *exec.Cmd
	stderr *bytes.Buffer

	mu       sync.Mutex
	badLines []string
	lines    int
	lastLine time.Time // when the latest complete stdout line arrived
	waitErr  chan error
}

// Build compiles the module's main package into dir and returns the binary path.
func Build(moduleDir, dir string) (string, error) {
	bin := filepath.Join(dir, "agent-activity")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = moduleDir
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	return bin, nil
}

// Start launches bin with env (added to a minimal environment) and performs
// the MCP handshake.
func Start(ctx context.Context, bin string, env []string) (*Server, *mcp.InitializeResult, error) {
	cmd := exec.Command(bin)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	s := &Server{cmd: cmd, stderr: &bytes.Buffer{}, waitErr: make(chan error, 1)}
	cmd.Stderr = &lockedWriter{w: s.stderr, mu: &s.mu}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	pr, pw := io.Pipe()
	go s.checkLines(stdout, pw)
	go func() { s.waitErr <- cmd.Wait() }()

	tr := transport.NewIO(pr, stdin, io.NopCloser(bytes.NewReader(nil)))
	c := client.NewClient(tr, client.WithProtocolVersion(ProtocolVersion))
	if err := c.Start(ctx); err != nil {
		s.kill()
		return nil, nil, err
	}
	s.Client = c
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = ProtocolVersion
	init.Params.ClientInfo = mcp.Implementation{Name: "agent-activity-stdiotest", Version: "1"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		s.kill()
		return nil, nil, fmt.Errorf("initialize: %w (stderr: %s)", err, s.Stderr())
	}
	return s, res, nil
}

// checkLines copies the server's stdout to the client, recording any line that
// is not a JSON-RPC 2.0 object.
func (s *Server) checkLines(stdout io.Reader, pw *io.PipeWriter) {
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		at := time.Now()
		if len(line) > 0 {
			var msg struct {
				JSONRPC string `json:"jsonrpc"`
			}
			s.mu.Lock()
			s.lines++
			if line[len(line)-1] == '\n' {
				s.lastLine = at
			}
			if json.Unmarshal(line, &msg) != nil || msg.JSONRPC != "2.0" {
				s.badLines = append(s.badLines, string(line))
			}
			s.mu.Unlock()
			if _, werr := pw.Write(line); werr != nil {
				return
			}
		}
		if err != nil {
			pw.CloseWithError(err)
			return
		}
	}
}

// LastLineAt is when the server's latest complete stdout line arrived, before
// any client decoded it: after a call returns, the arrival of its answer.
// Timing to it leaves out the client's own JSON work (mcp-go's client
// decodes an answer several times over, about 2 ms for 12 KB).
func (s *Server) LastLineAt() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastLine
}

// Pid is the server process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// BadLines returns every stdout line that was not JSON-RPC, and the line count.
func (s *Server) BadLines() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.badLines...), s.lines
}

// Stderr returns what the server wrote to stderr so far.
func (s *Server) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// Call calls a tool and returns its structured content as generic JSON.
func (s *Server) Call(ctx context.Context, name string, args map[string]any) (map[string]any, bool, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := s.Client.CallTool(ctx, req)
	if err != nil {
		return nil, false, err
	}
	var out map[string]any
	raw := res.RawStructuredContent
	if len(raw) == 0 {
		raw, _ = json.Marshal(res.StructuredContent)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, res.IsError, fmt.Errorf("%s: structuredContent is not an object: %s", name, raw)
	}
	if len(res.Content) != 1 {
		return out, res.IsError, fmt.Errorf("%s: want one text content block, got %d", name, len(res.Content))
	}
	tc, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		return out, res.IsError, fmt.Errorf("%s: content is not text", name)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(tc.Text), &fromText); err != nil {
		return out, res.IsError, fmt.Errorf("%s: text content is not the JSON of the structured content", name)
	}
	a, _ := json.Marshal(fromText)
	b, _ := json.Marshal(out)
	if !bytes.Equal(a, b) {
		return out, res.IsError, fmt.Errorf("%s: text content differs from structured content", name)
	}
	return out, res.IsError, nil
}

// Close ends the session by closing stdin and waits for the process to exit.
func (s *Server) Close() error {
	_ = s.Client.Close()
	err := <-s.waitErr
	return err
}

func (s *Server) kill() {
	_ = s.cmd.Process.Kill()
	<-s.waitErr
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Objects reads a JSON array of objects from a decoded answer (a field of
// a tool's structured content); anything else reads as no objects.
func Objects(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
