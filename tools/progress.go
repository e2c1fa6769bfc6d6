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

// progressState is one request's progress token and what was last reported
// for it (progress must only grow).
type progressState struct {
	token mcp.ProgressToken
	mu    sync.Mutex
	last  int
	sent  time.Time
}

func withProgress(ctx context.Context, token mcp.ProgressToken) context.Context {
	return context.WithValue(ctx, progressKey{}, &progressState{token: token})
}

func (p *progressState) send(ctx context.Context, done, total int, msg string) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return
	}
	_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
		"progressToken": p.token, "progress": done, "total": total, "message": msg,
	})
	p.last, p.sent = done, time.Now()
}

// progressFrom returns a reporter that sends MCP progress notifications for
// the request in ctx, throttled, or nil when the client did not ask. Progress
// is best effort: mcp-go may drop a notification when its queue is full.
func progressFrom(ctx context.Context) logs.Progress {
	p, ok := ctx.Value(progressKey{}).(*progressState)
	if !ok {
		return nil
	}
	return func(done, total int) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if done <= p.last || (done < total && time.Since(p.sent) < 100*time.Millisecond) {
			return
		}
		p.send(ctx, done, total, "reading transcripts")
	}
}

// flushProgress sends a final notification when the client asked for
// progress and waits (briefly) until mcp-go's writer has taken the queued
// notifications, so they reach the client before the result: mcp-go writes
// notifications from a separate goroutine, unordered against responses.
func flushProgress(ctx context.Context) {
	p, ok := ctx.Value(progressKey{}).(*progressState)
	sess := server.ClientSessionFromContext(ctx)
	if !ok || sess == nil {
		return
	}
	p.mu.Lock()
	final := p.last + 1 // progress must grow with each notification
	p.send(ctx, final, final, "done")
	p.mu.Unlock()
	ch := sess.NotificationChannel()
	for i := 0; i < 50 && len(ch) > 0; i++ {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(time.Millisecond) // the writer has taken the last one; let it write
}
