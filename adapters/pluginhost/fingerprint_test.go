package pluginhost

import "testing"

// The fingerprint follows the settings that change an engine's output and
// ignores credentials and pacing, and other engines' settings.
func TestConfigFingerprint(t *testing.T) {
	base := []string{"DRAGOMAN_OPENAI_MODEL=gpt-4o-mini", "DRAGOMAN_OPENAI_BASE_URL=https://api.openai.com/v1", "DRAGOMAN_OPENAI_API_KEY=k1", "PATH=/bin"}
	fp := ConfigFingerprint("openai", base)
	if fp == "" {
		t.Fatal("no fingerprint for a configured model")
	}
	other := []string{"DRAGOMAN_OPENAI_MODEL=gpt-4o", "DRAGOMAN_OPENAI_BASE_URL=https://api.openai.com/v1", "DRAGOMAN_OPENAI_API_KEY=k1"}
	if ConfigFingerprint("openai", other) == fp {
		t.Error("another model has the same fingerprint")
	}
	same := []string{"DRAGOMAN_OPENAI_API_KEY=k2", "DRAGOMAN_OPENAI_BATCH_CHARS=900", "DRAGOMAN_OPENAI_BASE_URL=https://api.openai.com/v1", "DRAGOMAN_OPENAI_MODEL=gpt-4o-mini", "DRAGOMAN_DEEPL_FORMALITY=more"}
	if ConfigFingerprint("openai", same) != fp {
		t.Error("a new key, a batch size or another engine's setting changed the fingerprint")
	}
	if ConfigFingerprint("apertium", base) != "" {
		t.Error("apertium without settings has a fingerprint")
	}
}
