package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"sync"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
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

// tmLeg is where a leg's output is kept in the memory: the account's
// memory, its direction and engine key.
type tmLeg struct{ account, engine, src, tgt string }

// memoryKey is the memory's place for a leg's output in an account's
// memory. When the engine applies a glossary itself (g not nil), the terms
// are not hidden behind codes in the text hashed, so the glossary's
// version joins the engine key: another glossary, or none, never gets
// this output.
func memoryKey(account string, l Leg, g *ports.Glossary) tmLeg {
	k := tmLeg{account, tmEngine(l), l.Source, l.Target}
	if g != nil {
		k.engine += "+glossary:" + g.Version
	}
	return k
}

// recall looks texts up in the account's memory and returns the hits by
// index. Where the operator shares the memory (SharedMemory), what the
// account's own memory lacks is looked up in every account's; those hits
// come back in foreign too, for the caller to answer as if an engine had
// been asked (issue 26: a job's cache_hits told an account that another
// had translated a guessed sentence). The memory is a saving, not a
// source of truth: an error means no hits.
//
// The hits are the stored outputs' text; what their engine noted about
// them (memnotes.go) is in notes, by index.
func (t *Translator) recall(ctx context.Context, leg tmLeg, mode string, texts []string) (hits map[int]string, foreign map[int]bool, notes map[int]tagged.Note) {
	hits, foreign = t.recallStored(ctx, leg, mode, texts)
	for i, v := range hits {
		text, n, noted := splitNotes(v)
		hits[i] = text
		if noted {
			if notes == nil {
				notes = map[int]tagged.Note{}
			}
			notes[i] = n
		}
	}
	return hits, foreign, notes
}

// recallStored is recall's lookup: the values as stored.
func (t *Translator) recallStored(ctx context.Context, leg tmLeg, mode string, texts []string) (hits map[int]string, foreign map[int]bool) {
	if t.TM == nil || len(texts) == 0 {
		return nil, nil
	}
	hashes := make([]string, len(texts))
	for i, s := range texts {
		hashes[i] = Hash(s)
	}
	found, err := t.TM.GetTM(ctx, leg.account, leg.engine, mode, leg.src, leg.tgt, hashes)
	if err != nil {
		return nil, nil
	}
	hits = make(map[int]string, len(found))
	var missed []string
	var missedAt []int
	for i, h := range hashes {
		if v, ok := found[h]; ok {
			hits[i] = v
		} else {
			missed, missedAt = append(missed, h), append(missedAt, i)
		}
	}
	if !t.SharedMemory || len(missed) == 0 {
		return hits, nil
	}
	shared, err := t.TM.GetSharedTM(ctx, leg.engine, mode, leg.src, leg.tgt, missed)
	if err != nil {
		return hits, nil
	}
	foreign = map[int]bool{}
	for j, h := range missed {
		if v, ok := shared[h]; ok {
			hits[missedAt[j]] = v
			foreign[missedAt[j]] = true
		}
	}
	return hits, foreign
}

// asIfSent makes the texts another account's memory answered (foreign)
// count as the engine calls and characters they would have cost, and puts
// them in this account's memory as if an engine had answered.
func (t *Translator) asIfSent(ctx context.Context, key tmLeg, l Leg, mode translation.Mode, texts, out []string, todo []int, foreign map[int]bool, res *Result) {
	if len(foreign) == 0 {
		return
	}
	var sent, all, src, got []string
	asked := make([]bool, len(texts))
	for _, i := range todo {
		sent = append(sent, texts[i])
		asked[i] = true
	}
	for i := range texts {
		if foreign[i] {
			src, got = append(src, texts[i]), append(got, out[i])
			res.Metrics.CharsSent += utf8.RuneCountInString(tagged.Plain(texts[i]))
		}
		if foreign[i] || asked[i] {
			all = append(all, texts[i])
		}
	}
	res.Metrics.EngineCalls += len(batches(all, l.Engine.Caps, t.BatchSegments)) - len(batches(sent, l.Engine.Caps, t.BatchSegments))
	t.remember(ctx, key, string(mode), src, got, nil)
}

// remember writes fresh engine output to the memory before the batch is
// done (write-through): a job rerun after its worker died asks the engine
// only for what no batch finished. Answers that arrive while a write runs
// go together in the next one (group commit), so concurrent batches share
// a transaction. The write outlives a cancelled job (the engine was paid).
// A failed write only costs a later engine call.
func (t *Translator) remember(ctx context.Context, leg tmLeg, mode string, src, out []string, notes map[int]tagged.Note) {
	if t.TM == nil || len(src) == 0 {
		return
	}
	entries := make(map[string]string, len(src))
	for i, s := range src {
		entries[Hash(s)] = withNotes(out[i], notes[i])
	}
	t.writer().write(context.WithoutCancel(ctx), memKey{leg, mode}, entries)
}

func (t *Translator) writer() *memoryWriter {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.mw == nil {
		t.mw = &memoryWriter{tm: t.TM}
	}
	return t.mw
}

// memKey is where entries go in the memory.
type memKey struct {
	leg  tmLeg
	mode string
}

// memoryWriter writes entries to the memory in group commits: each writer
// waits until its entries are written; those queued while a write runs are
// written together next.
type memoryWriter struct {
	tm      ports.TranslationMemory
	mu      sync.Mutex
	queue   []*memWrite
	running bool
}

type memWrite struct {
	ctx     context.Context
	key     memKey
	entries map[string]string
	done    chan struct{}
}

func (w *memoryWriter) write(ctx context.Context, key memKey, entries map[string]string) {
	m := &memWrite{ctx: ctx, key: key, entries: entries, done: make(chan struct{})}
	w.mu.Lock()
	w.queue = append(w.queue, m)
	if !w.running {
		w.running = true
		go w.run()
	}
	w.mu.Unlock()
	<-m.done
}

// run writes what is queued, a group per key, until nothing is.
func (w *memoryWriter) run() {
	for {
		w.mu.Lock()
		group := w.queue
		w.queue = nil
		if len(group) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		for len(group) > 0 {
			key, ctx := group[0].key, group[0].ctx
			entries := map[string]string{}
			var rest []*memWrite
			var written []*memWrite
			for _, m := range group {
				if m.key != key {
					rest = append(rest, m)
					continue
				}
				maps.Copy(entries, m.entries)
				written = append(written, m)
			}
			_ = w.tm.PutTM(ctx, key.leg.account, key.leg.engine, key.mode, key.leg.src, key.leg.tgt, entries)
			for _, m := range written {
				close(m.done)
			}
			group = rest
		}
	}
}
