// Package output writes a job's output document from its translated
// segments: assembly into a copy of the source, right-to-left layout, and
// the store. The pipeline's assemble and layout stages and a revision
// rebuilt from a post-edited XLIFF file (core/service) share it, so both
// take the same paths: one package in memory when the document engine and
// the layout allow it (ports.InMemoryAssembler, ports.AssembledLayout),
// else an assembled document written between the two.
package output

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Builder assembles and lays out documents into a blob store.
type Builder struct {
	Blobs  ports.BlobStore
	Docs   ports.DocumentEngine
	Layout ports.RTLLayout // nil: the assembled document is the output
}

// InMemory is the engine to assemble with when assembly and layout can
// share one package in memory, or nil.
func (b Builder) InMemory() ports.InMemoryAssembler {
	asm, ok := b.Docs.(ports.InMemoryAssembler)
	if !ok {
		return nil
	}
	if b.Layout != nil {
		if _, ok := b.Layout.(ports.AssembledLayout); !ok {
			return nil
		}
	}
	return asm
}

// Assemble writes doc into a copy of src stored under key.
func (b Builder) Assemble(ctx context.Context, src ports.Blob, doc *segment.Document, key string) (warnings []string, err error) {
	err = Write(ctx, b.Blobs, key, func(w io.Writer) (err error) {
		warnings, err = b.Docs.Assemble(ctx, src, doc, w)
		return err
	})
	return warnings, err
}

// LayOut lays out an assembled document and stores the result under key;
// without a layout it stores the document as it is.
func (b Builder) LayOut(ctx context.Context, in ports.Blob, req ports.LayoutRequest, key string) (*job.RTLReport, error) {
	if b.Layout == nil {
		_, err := b.Blobs.Put(ctx, key, in)
		return nil, err
	}
	var rtl *job.RTLReport
	err := Write(ctx, b.Blobs, key, func(w io.Writer) (err error) {
		rtl, err = b.Layout.Apply(ctx, in, req, w)
		return err
	})
	return rtl, err
}

// LayOutAssembled lays out a document assembled in memory (InMemory) and
// stores the result under key, the one write of the package; without a
// layout it stores the document as it is.
func (b Builder) LayOutAssembled(ctx context.Context, doc ports.Assembled, req ports.LayoutRequest, key string) (*job.RTLReport, error) {
	var rtl *job.RTLReport
	err := Write(ctx, b.Blobs, key, func(w io.Writer) (err error) {
		if b.Layout == nil {
			_, err = doc.WriteTo(w)
			return err
		}
		rtl, err = b.Layout.(ports.AssembledLayout).ApplyAssembled(ctx, doc, req, w)
		return err
	})
	return rtl, err
}

// Build assembles doc into a copy of src, lays it out and stores it under
// key in one go: in memory when it can, else through an assembled
// document stored under tmp for the time of the call.
func (b Builder) Build(ctx context.Context, src ports.Blob, doc *segment.Document, req ports.LayoutRequest, key, tmp string) ([]string, *job.RTLReport, error) {
	if asm := b.InMemory(); asm != nil {
		a, warnings, err := asm.AssembleInMemory(ctx, src, doc)
		if err != nil {
			return nil, nil, fmt.Errorf("assemble: %w", err)
		}
		rtl, err := b.LayOutAssembled(ctx, a, req, key)
		if err != nil {
			return nil, nil, fmt.Errorf("lay out: %w", err)
		}
		return warnings, rtl, nil
	}
	defer b.Blobs.Delete(ctx, tmp)
	warnings, err := b.Assemble(ctx, src, doc, tmp)
	if err != nil {
		return nil, nil, fmt.Errorf("assemble: %w", err)
	}
	in, err := b.Blobs.Open(ctx, tmp)
	if err != nil {
		return nil, nil, err
	}
	defer in.Close()
	rtl, err := b.LayOut(ctx, in, req, key)
	if err != nil {
		return nil, nil, fmt.Errorf("lay out: %w", err)
	}
	return warnings, rtl, nil
}

// Write stores what produce writes under key k. produce runs concurrently
// with the store and has returned when Write does.
func Write(ctx context.Context, blobs ports.BlobStore, k string, produce func(w io.Writer) error) error {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := produce(pw)
		pw.CloseWithError(err)
		done <- err
	}()
	_, err := blobs.Put(ctx, k, pr)
	pr.CloseWithError(errors.New("store stopped reading"))
	if perr := <-done; perr != nil {
		return perr
	}
	return err
}
