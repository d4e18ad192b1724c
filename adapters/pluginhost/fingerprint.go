package pluginhost

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"slices"
	"strings"
)

// notOutput are settings of an engine plugin (DRAGOMAN_<ENGINE>_<NAME>)
// that change how it is reached or paced, never what it answers: a
// credential rotated or a batch resized must not throw the translation
// memory away.
var notOutput = []string{"API_KEY", "ACCESS_TOKEN", "AUTH_HEADER", "MAX_RETRIES", "BACKOFF",
	"BATCH_CHARS", "BATCH_SEGMENTS", "TIMEOUT", "POOL_SIZE", "CONCURRENCY",
	// Where Google keeps glossary files: output with a native glossary is
	// keyed by the glossary's version anyway.
	"GLOSSARY_BUCKET", "STORAGE_URL"}

// ConfigFingerprint is the engine configuration the translation memory is
// keyed by (ports.Capabilities.Config): a short hash of the plugin's
// settings in env (DRAGOMAN_<ENGINE>_*, which the plugin process inherits)
// but those in notOutput. Changing the OpenAI model, the DeepL formality
// or an endpoint changes it; "" when the engine has no such settings.
func ConfigFingerprint(engine string, env []string) string {
	prefix := "DRAGOMAN_" + strings.ToUpper(strings.ReplaceAll(engine, "-", "_")) + "_"
	var kept []string
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, prefix) || strings.TrimSpace(v) == "" {
			continue
		}
		if slices.Contains(notOutput, strings.TrimPrefix(k, prefix)) {
			continue
		}
		kept = append(kept, strings.TrimPrefix(k, prefix)+"="+strings.TrimSpace(v))
	}
	if len(kept) == 0 {
		return ""
	}
	slices.Sort(kept)
	sum := sha256.Sum256([]byte(strings.Join(kept, "\n")))
	return hex.EncodeToString(sum[:8])
}

func configOf(engine string) string { return ConfigFingerprint(engine, os.Environ()) }
