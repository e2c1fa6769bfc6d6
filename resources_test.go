package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestE2EResources: over stdio, the recap template is listed, resources/list
// offers the 20 most recent sessions, and reading one gives its recap as
// redacted Markdown within the default answer budget.
func TestE2EResources(t *testing.T) {
	e := startE2E(t, fixtureRoot(t))
	c := e.srv.Client

	tpl, err := c.ListResourceTemplates(e.ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	templates := map[string]bool{}
	for _, rt := range tpl.ResourceTemplates {
		templates[rt.URITemplate.Raw()] = rt.MIMEType == "text/markdown"
	}
	if len(templates) != 2 || !templates["agent-activity://session/{session_id}/recap"] || !templates["agent-activity://repo/{repo}/today"] {
		t.Fatalf("resource templates: %+v", tpl.ResourceTemplates)
	}

	list, err := c.ListResources(e.ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// The fixture has one id under two project folders: one URI.
	recent := e.call("list_recent_sessions", map[string]any{"limit": 40})
	want := map[string]bool{}
	for _, s := range recent["sessions"].([]any) {
		if len(want) < 20 {
			want["agent-activity://session/"+s.(map[string]any)["session_id"].(string)+"/recap"] = true
		}
	}
	if len(list.Resources) != 20 || len(want) != 20 {
		t.Fatalf("resources/list gave %d resources, want the 20 most recent sessions", len(list.Resources))
	}
	for _, r := range list.Resources {
		if !want[r.URI] || r.MIMEType != "text/markdown" || r.Name == "" || r.Description == "" {
			t.Errorf("listed resource %+v is not the recap of one of the 20 most recent sessions", r)
		}
	}

	read := func(uri string) (string, error) {
		res, err := c.ReadResource(e.ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
		if err != nil {
			return "", err
		}
		if len(res.Contents) != 1 {
			t.Fatalf("%s: %d contents", uri, len(res.Contents))
		}
		tc, ok := res.Contents[0].(mcp.TextResourceContents)
		if !ok || tc.MIMEType != "text/markdown" || tc.URI != uri {
			t.Fatalf("%s: contents %+v", uri, res.Contents[0])
		}
		return tc.Text, nil
	}
	// A listed one, and one by prefix through the template.
	md, err := read(list.Resources[0].URI)
	if err != nil || !strings.HasPrefix(md, "# Session recap: ") {
		t.Fatalf("read %s: %v\n%.300s", list.Resources[0].URI, err, md)
	}
	md, err = read("agent-activity://session/45aa96c3/recap")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Session recap: Move API client into src/lib", "45aa96c3-96eb-495c-b706-e5c9a352a604", "## Open todos", "## Gaps"} {
		if !strings.Contains(md, want) {
			t.Errorf("recap of 45aa96c3 lacks %q:\n%s", want, md)
		}
	}
	// Redacted through the same exit as the tools: b86f27bf's failing call
	// carries a database password and an AWS key id.
	md, err = read("agent-activity://session/b86f27bf/recap")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md, "S3cr3tFakePassw0rd") || strings.Contains(md, "AKIAFAKEFAKEFAKE1234") || !strings.Contains(md, "[REDACTED:") {
		t.Errorf("recap of b86f27bf is not redacted:\n%s", md)
	}
	if len(md) > 12000 {
		t.Errorf("recap resource is %d bytes, over the 12,000-character budget", len(md))
	}
	for _, bad := range []string{"agent-activity://session/ffffffff/recap", "agent-activity://session/../../etc/recap", "agent-activity://session/a7c31e58/recap"} {
		if _, err := read(bad); err == nil {
			t.Errorf("read %s: no error", bad)
		}
	}

	// Today in a repo: summarize_work for today, the same sessions as the
	// tool; the clock at the day of the cache-split fixture session.
	day := startE2E(t, fixtureRoot(t), "AGENT_ACTIVITY_NOW=2026-11-23T20:00:00Z")
	repo := "cache-split"
	res, err := day.srv.Client.ReadResource(day.ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: "agent-activity://repo/" + repo + "/today"}})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("today in %s: %v", repo, err)
	}
	md = res.Contents[0].(mcp.TextResourceContents).Text
	if !strings.HasPrefix(md, "# Today in "+repo) {
		t.Fatalf("today in %s:\n%.300s", repo, md)
	}
	mine := day.call("summarize_work", map[string]any{"repo": repo, "since": "today", "until": "today"})
	t.Logf("today in %s: %v sessions, %d characters of Markdown", repo, mine["sessions_total"], len(md))
	if num(mine["sessions_total"]) == "0" {
		t.Fatalf("the fixture day has no %s session: the test proves nothing", repo)
	}
	for _, s := range mine["sessions"].([]any) {
		if id := s.(map[string]any)["session_id"].(string); !strings.Contains(md, id) {
			t.Errorf("today in %s lacks session %s that summarize_work lists:\n%s", repo, id, md)
		}
	}
	if !strings.Contains(md, fmt.Sprintf("sessions: %v ", num(mine["sessions_total"]))) {
		t.Errorf("today in %s does not say summarize_work's session count %v:\n%s", repo, mine["sessions_total"], md)
	}
	for _, bad := range []string{"agent-activity://repo//today", "agent-activity://repo/x/tomorrow"} {
		if _, err := read(bad); err == nil {
			t.Errorf("read %s: no error", bad)
		}
	}
}
