package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Hash is the translation memory key of a segment: the SHA-256 of the
// tagged text an engine is sent (after protection, so it already reflects
// the account's do-not-translate list).
func Hash(tagged string) string {
	sum := sha256.Sum256([]byte(tagged))
	return hex.EncodeToString(sum[:])
}

// tmEngine is the engine part of the memory key: the engine's name and
// the fingerprint of its configuration (ports.Capabilities.Config), so
// output of another model or endpoint of the same engine is not reused.
// The mode and direction are keys of their own.
func tmEngine(leg Leg) string {
	if c := leg.Engine.Caps.Config; c != "" {
		return leg.Engine.Name + "@" + c
	}
	return leg.Engine.Name
}

// recall looks texts up in the memory and returns the hits by index. The
// memory is a saving, not a source of truth: an error means no hits.
func recall(ctx context.Context, tm ports.TranslationMemory, leg Leg, mode string, texts []string) map[int]string {
	if tm == nil || len(texts) == 0 {
		return nil
	}
	hashes := make([]string, len(texts))
	for i, s := range texts {
		hashes[i] = Hash(s)
	}
	found, err := tm.GetTM(ctx, tmEngine(leg), mode, leg.Source, leg.Target, hashes)
	if err != nil || len(found) == 0 {
		return nil
	}
	hits := make(map[int]string, len(found))
	for i, h := range hashes {
		if t, ok := found[h]; ok {
			hits[i] = t
		}
	}
	return hits
}

// remember stores fresh engine output; a failure only costs a later call.
func remember(ctx context.Context, tm ports.TranslationMemory, leg Leg, mode string, src, out []string) {
	if tm == nil || len(src) == 0 {
		return
	}
	entries := make(map[string]string, len(src))
	for i, s := range src {
		entries[Hash(s)] = out[i]
	}
	_ = tm.PutTM(ctx, tmEngine(leg), mode, leg.Source, leg.Target, entries)
}
