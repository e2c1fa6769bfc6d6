package pricing

import "testing"

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"claude-opus-4-6", "claude-opus-4-6"},
		{"Claude-Opus-4-6", "claude-opus-4-6"},
		{"  claude-haiku-4-5  ", "claude-haiku-4-5"},
		{"anthropic/claude-opus-4-6", "claude-opus-4-6"},
		{"anthropic.claude-opus-4-6-v1:0", "claude-opus-4-6"},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"},
		{"eu.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5-20251001"},
		{"apac.anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022"},
		{"global.anthropic.claude-opus-4-5-20251101-v1:0", "claude-opus-4-5-20251101"},
		{"global.claude-opus-5-5", "claude-opus-5-5"},
		{"bedrock/us.anthropic.claude-opus-4-7", "claude-opus-4-7"},
		{"arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-opus-4-6-v1:0", "claude-opus-4-6"},
		{"claude-opus-4-20250514:0", "claude-opus-4-20250514"},
		{"vertex_ai/claude-sonnet-4-5@20250929", "claude-sonnet-4-5"},
		{"claude-3-5-sonnet-v2@20241022", "claude-3-5-sonnet"},
		{"claude-opus-4.6", "claude-opus-4-6"},
		{"claude-opus-4.6-1m", "claude-opus-4-6-1m"},
		{"claude-opus-4.6-fast", "claude-opus-4-6-fast"},
		{"claude-opus-4-6[1m]", "claude-opus-4-6"},
		{"openrouter/anthropic/claude-4.6-opus-fast-20260407", "claude-opus-4-6-fast-20260407"},
		{"claude-4-opus-20250514", "claude-opus-4-20250514"},
		{"claude-sonnet-3.7", "claude-3-7-sonnet"},
		{"claude-haiku-3-20240307", "claude-3-haiku-20240307"},
		{"claude-3.5-haiku", "claude-3-5-haiku"},
		{"claude-3-5-sonnet-20241022", "claude-3-5-sonnet-20241022"},
		{"<synthetic>", "<synthetic>"},
		{"gpt-4o", "gpt-4o"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
