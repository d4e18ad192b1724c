package pipeline

import (
	"context"
	"sync"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// One package per job: when the document engine assembles in memory
// (ports.InMemoryAssembler) and the layout lays out what it assembled
// (ports.AssembledLayout), the assemble stage keeps the translated parts
// over the opened source and hands them to the layout stage of the same
// process, which lays them out and writes the document once. No
// assembled.docx is written, read, re-parsed or re-zipped in between.
//
// What the assemble stage holds is not its durable result: that is
// translated.json with the source, from which assembly is a pure function.
// A layout stage that finds nothing held (run by another process, after a
// restart, on a redelivery, or after the entry was evicted) assembles
// again from them, so at-least-once delivery and recovery work as before.

// Held documents are few (one per job between two events) and bounded.
const (
	maxHeld = 4
	heldFor = 5 * time.Minute
)

// heldDoc is an assembled document and the source blob it reads from.
type heldDoc struct {
	doc ports.Assembled
	src ports.Blob
	at  time.Time
}

func (h *heldDoc) close() { h.src.Close() }

// handoff holds assembled documents by job id; its zero value is ready.
type handoff struct {
	mu   sync.Mutex
	docs map[string]*heldDoc
}

// put holds h for the job, releasing what is stale or over the bound.
func (o *handoff) put(jobID string, h *heldDoc) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.docs == nil {
		o.docs = map[string]*heldDoc{}
	}
	if old := o.docs[jobID]; old != nil {
		old.close()
	}
	o.docs[jobID] = h
	for id, d := range o.docs {
		if h.at.Sub(d.at) > heldFor {
			d.close()
			delete(o.docs, id)
		}
	}
	for len(o.docs) > maxHeld {
		oldest := ""
		for id, d := range o.docs {
			if oldest == "" || d.at.Before(o.docs[oldest].at) {
				oldest = id
			}
		}
		o.docs[oldest].close()
		delete(o.docs, oldest)
	}
}

// take removes and returns the job's held document, or nil.
func (o *handoff) take(jobID string) *heldDoc {
	o.mu.Lock()
	defer o.mu.Unlock()
	h := o.docs[jobID]
	delete(o.docs, jobID)
	return h
}

// drop releases the job's held document, if any.
func (o *handoff) drop(jobID string) {
	if h := o.take(jobID); h != nil {
		h.close()
	}
}

// inMemory is the engine to assemble with when assemble and layout can
// share one package, or nil.
func (p *Pipeline) inMemory() ports.InMemoryAssembler { return p.output().InMemory() }

// assembleInMemory assembles the job's translation over its opened source.
func (p *Pipeline) assembleInMemory(ctx context.Context, asm ports.InMemoryAssembler, j *job.Job) (*heldDoc, []string, error) {
	doc, err := p.getDoc(ctx, job.SegmentsKey(j.ID))
	if err != nil {
		return nil, nil, err
	}
	src, err := p.Blobs.Open(ctx, sourceKey(j))
	if err != nil {
		return nil, nil, err
	}
	a, warnings, err := asm.AssembleInMemory(ctx, src, doc)
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	return &heldDoc{doc: a, src: src, at: p.Clock.Now()}, warnings, nil
}

// layoutHeld lays out (or, without a layout, writes) the job's assembled
// document as the job's output.
func (p *Pipeline) layoutHeld(ctx context.Context, asm ports.InMemoryAssembler, j *job.Job) (*job.RTLReport, error) {
	h := p.held.take(j.ID)
	if h == nil {
		var err error
		if h, _, err = p.assembleInMemory(ctx, asm, j); err != nil {
			return nil, err
		}
	}
	defer h.close()
	return p.output().LayOutAssembled(ctx, h.doc, layoutRequest(j), job.OutputKey(j.ID))
}
