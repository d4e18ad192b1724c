package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
// index: the entries still waiting to be written first, then the store.
// Where the operator shares the memory (SharedMemory), what the account's
// own memory lacks is looked up in every account's; those hits come back
// in foreign too, for the caller to answer as if an engine had been asked
// (issue 26: a job's cache_hits told an account that another had
// translated a guessed sentence). The memory is a saving, not a source of
// truth: an error means no hits.
func (t *Translator) recall(ctx context.Context, leg tmLeg, mode string, texts []string) (hits map[int]string, foreign map[int]bool) {
	if t.TM == nil || len(texts) == 0 {
		return nil, nil
	}
	hits = map[int]string{}
	var hashes []string
	var at []int // index into texts of each hash asked from the store
	w := t.writer()
	for i, s := range texts {
		h := Hash(s)
		if v, ok := w.lookup(memKey{leg.account, leg.engine, mode, leg.src, leg.tgt, h}); ok {
			hits[i] = v
			continue
		}
		hashes = append(hashes, h)
		at = append(at, i)
	}
	if len(hashes) == 0 {
		return hits, nil
	}
	found, err := t.TM.GetTM(ctx, leg.account, leg.engine, mode, leg.src, leg.tgt, hashes)
	if err != nil {
		return hits, nil
	}
	var missed []string
	var missedAt []int
	for j, h := range hashes {
		if v, ok := found[h]; ok {
			hits[at[j]] = v
		} else {
			missed, missedAt = append(missed, h), append(missedAt, at[j])
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

// remember queues fresh engine output for the memory: the job goes on
// while it is written (write-behind). A failed write only costs a later
// engine call.
func (t *Translator) remember(ctx context.Context, leg tmLeg, mode string, src, out []string) {
	if t.TM == nil || len(src) == 0 {
		return
	}
	entries := make(map[string]string, len(src))
	for i, s := range src {
		entries[Hash(s)] = out[i]
	}
	t.writer().put(context.WithoutCancel(ctx), tmWrite{leg.account, leg.engine, mode, leg.src, leg.tgt, entries})
}

// Close writes the translation-memory entries still queued and makes
// later ones synchronous; call it on shutdown once no job translates any
// more, so no fresh translation is lost. It returns ctx's error if the
// writes did not finish in time.
func (t *Translator) Close(ctx context.Context) error {
	if t.TM == nil {
		return nil
	}
	return t.writer().close(ctx)
}

// Flush waits until every translation-memory entry queued so far is written.
func (t *Translator) Flush(ctx context.Context) error {
	if t.TM == nil {
		return nil
	}
	return t.writer().flush(ctx)
}

func (t *Translator) writer() *tmWriter {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tmw == nil {
		t.tmw = &tmWriter{tm: t.TM, pending: map[memKey]string{}, limit: t.MemoryQueue}
		if t.tmw.limit <= 0 {
			t.tmw.limit = 500_000
		}
	}
	return t.tmw
}

type memKey struct{ account, engine, mode, src, tgt, hash string }

// tmWrite is one batch's entries for an account's memory.
type tmWrite struct {
	account, engine, mode, src, tgt string
	entries                         map[string]string
}

// tmWriter writes batches to the memory in one goroutine that runs while
// there is work. Queued entries answer lookups until written. Past limit
// queued entries (a slow database), put writes in the caller instead, so
// the queue cannot grow without bound.
type tmWriter struct {
	tm    ports.TranslationMemory
	limit int

	mu      sync.Mutex
	queue   []queued
	pending map[memKey]string
	running bool
	closed  bool
	idle    chan struct{} // closed when the running writer drains the queue
}

type queued struct {
	ctx context.Context
	w   tmWrite
}

func (w *tmWriter) lookup(k memKey) (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	v, ok := w.pending[k]
	return v, ok
}

func (w *tmWriter) put(ctx context.Context, tw tmWrite) {
	w.mu.Lock()
	if w.closed || len(w.pending)+len(tw.entries) > w.limit {
		w.mu.Unlock()
		_ = w.tm.PutTM(ctx, tw.account, tw.engine, tw.mode, tw.src, tw.tgt, tw.entries)
		return
	}
	for h, v := range tw.entries {
		w.pending[memKey{tw.account, tw.engine, tw.mode, tw.src, tw.tgt, h}] = v
	}
	w.queue = append(w.queue, queued{ctx, tw})
	if !w.running {
		w.running = true
		w.idle = make(chan struct{})
		go w.run()
	}
	w.mu.Unlock()
}

// run writes the queue until it is empty.
func (w *tmWriter) run() {
	w.mu.Lock()
	for len(w.queue) > 0 {
		q := w.queue[0]
		w.queue[0] = queued{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		_ = w.tm.PutTM(q.ctx, q.w.account, q.w.engine, q.w.mode, q.w.src, q.w.tgt, q.w.entries)
		w.mu.Lock()
		for h, v := range q.w.entries {
			k := memKey{q.w.account, q.w.engine, q.w.mode, q.w.src, q.w.tgt, h}
			if w.pending[k] == v { // a later batch may have queued it again
				delete(w.pending, k)
			}
		}
	}
	w.queue = nil
	w.running = false
	close(w.idle)
	w.mu.Unlock()
}

func (w *tmWriter) flush(ctx context.Context) error {
	w.mu.Lock()
	running, idle := w.running, w.idle
	w.mu.Unlock()
	if !running {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *tmWriter) close(ctx context.Context) error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	return w.flush(ctx)
}

// asIfSent accounts for the texts another account's memory answered
// (foreign, in a shared memory) as if the engine had been asked for them
// with the rest (todo): the batches and characters they would have added
// go into the job's metrics, and the answers into the account's own
// memory, so neither this job nor a later one tells the account what
// another translated.
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
	t.remember(ctx, key, string(mode), src, got)
}
