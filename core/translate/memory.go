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

// tmLeg is where a leg's output is kept in the memory: its direction and
// engine key.
type tmLeg struct{ engine, src, tgt string }

// memoryKey is the memory's place for a leg's output. When the engine
// applies a glossary itself (g not nil), the terms are not hidden behind
// codes in the text hashed, so the glossary's version joins the engine
// key: another glossary, or none, never gets this output.
func memoryKey(l Leg, g *ports.Glossary) tmLeg {
	k := tmLeg{tmEngine(l), l.Source, l.Target}
	if g != nil {
		k.engine += "+glossary:" + g.Version
	}
	return k
}

// recall looks texts up in the memory and returns the hits by index. The
// memory is a saving, not a source of truth: an error means no hits.
func (t *Translator) recall(ctx context.Context, leg tmLeg, mode string, texts []string) map[int]string {
	if t.TM == nil || len(texts) == 0 {
		return nil
	}
	hashes := make([]string, len(texts))
	for i, s := range texts {
		hashes[i] = Hash(s)
	}
	found, err := t.TM.GetTM(ctx, leg.engine, mode, leg.src, leg.tgt, hashes)
	if err != nil || len(found) == 0 {
		return nil
	}
	hits := make(map[int]string, len(found))
	for i, h := range hashes {
		if v, ok := found[h]; ok {
			hits[i] = v
		}
	}
	return hits
}

// remember writes fresh engine output to the memory before the batch is
// done (write-through): a job rerun after its worker died asks the engine
// only for what no batch finished. The write outlives a cancelled job (the
// engine was paid). A failed write only costs a later engine call.
func (t *Translator) remember(ctx context.Context, leg tmLeg, mode string, src, out []string) {
	if t.TM == nil || len(src) == 0 {
		return
	}
	entries := make(map[string]string, len(src))
	for i, s := range src {
		entries[Hash(s)] = out[i]
	}
	_ = t.TM.PutTM(context.WithoutCancel(ctx), leg.engine, mode, leg.src, leg.tgt, entries)
}
