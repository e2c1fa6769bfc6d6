package tools

import (
	"errors"
	"fmt"
	"os"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/mark3labs/mcp-go/mcp"
)

// ErrorBody is the structured content of a tool error.
type ErrorBody struct {
	Error      string      `json:"error"`
	Message    string      `json:"message"`
	Argument   string      `json:"argument,omitempty"`
	Candidates []Candidate `json:"candidates,omitempty"`
}

// Candidate is one session an ambiguous prefix matched.
type Candidate struct {
	SessionID string `json:"session_id"`
	Machine   string `json:"machine"`
	Repo      string `json:"repo"`
	End       string `json:"end"`
}

// ErrorOf maps any error to the body clients see. Domain errors keep their code;
// anything else becomes "internal" with a sanitized sentence.
func ErrorOf(err error) ErrorBody {
	var le *logs.Error
	if errors.As(err, &le) {
		b := ErrorBody{Error: le.Code, Message: text(le.Message, 300), Argument: text(le.Argument, 100)}
		for _, s := range le.Candidates {
			b.Candidates = append(b.Candidates, Candidate{SessionID: s.ID, Machine: s.Machine, Repo: s.Repo, End: rfc(s.End)})
		}
		return b
	}
	fmt.Fprintf(os.Stderr, "agent-activity: internal error: %v\n", err)
	return ErrorBody{Error: logs.CodeInternal, Message: "internal error while reading the logs; see the server's stderr"}
}

// errorResult is err as an isError tool result carrying its ErrorBody.
func errorResult(err error) *mcp.CallToolResult {
	body := ErrorOf(err)
	res := mcp.NewToolResultStructuredOnly(body)
	res.IsError = true
	return res
}
