package tools

import (
	"context"
	"sync"
	"time"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type progressKey struct{}

func withProgress(ctx context.Context, token mcp.ProgressToken) context.Context {
	return context.WithValue(ctx, progressKey{}, token)
}

// flushProgress waits (briefly) until queued notifications have been taken
// by mcp-go's writer, so progress reaches the client before the result: mcp-go
// writes notifications from a separate goroutine, with no ordering against
// responses.
func flushProgress(ctx context.Context) {
	token, ok := ctx.Value(progressKey{}).(mcp.ProgressToken)
	if !ok {
		return
	}
	sess := server.ClientSessionFromContext(ctx)
	srv := server.ServerFromContext(ctx)
	if sess == nil || srv == nil {
		return
	}
	// Every request that asked for progress hears at least that it is done.
	_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
		"progressToken": token, "progress": 1, "total": 1, "message": "done",
	})
	ch := sess.NotificationChannel()
	for i := 0; i < 50 && len(ch) > 0; i++ {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(time.Millisecond) // the writer has taken the last one; let it write
}

// progressFrom returns a reporter that sends MCP progress notifications for
// the request in ctx, throttled, or nil when the client did not ask. Progress
// is best effort: mcp-go may deliver it after the result or drop it.
func progressFrom(ctx context.Context) logs.Progress {
	token, ok := ctx.Value(progressKey{}).(mcp.ProgressToken)
	if !ok || token == nil {
		return nil
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil
	}
	var mu sync.Mutex
	var last time.Time
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done < total && time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": done, "total": total, "message": "reading transcripts",
		})
	}
}
