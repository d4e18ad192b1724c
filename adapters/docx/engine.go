// Package docx is the format-preserving DOCX engine behind
// ports.DocumentEngine. It reads every translatable part of a package
// (body, headers, footers, notes, comments, text boxes, content controls,
// field results, alt text, chart and SmartArt text, document properties)
// into units of tagged text, and renders the translation back as native
// runs with the original properties, copying every other byte of the
// package.
//
// A job reads its package twice, both times block by block on the one
// package model (adapters/ooxml): the read extracts units, shows the RTL
// layout what it will lay out and counts the structure; the render
// rewrites each block with its translation, lays it out and counts the
// structure again, writing the package once. Parts without text are
// copied raw.
//
// Tracked changes: inserted text is translated inside its w:ins, deleted
// text (w:del, w:moveFrom) is kept exactly as it was, as an isolated code.
// Hidden runs (w:vanish) and field instructions are never translated.
package docx

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/adapters/rtl"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Engine implements ports.DocumentEngine for .docx, .docm, .dotx and
// Strict OOXML packages.
type Engine struct {
	layout *rtl.Layout
}

// New returns the DOCX engine; with a layout its render lays the
// translation out for the target's direction.
func New(layout *rtl.Layout) *Engine { return &Engine{layout: layout} }

var _ ports.DocumentEngine = (*Engine)(nil)

// ErrNotDocx is wrapped by every error about a file that is not a usable package.
var ErrNotDocx = ooxml.ErrInvalid

// Read hands the translatable units of a package to emit, a block's worth
// at a time, in document order.
func (e *Engine) Read(ctx context.Context, src ports.Blob, emit func([]segment.Unit) error) (ports.Source, error) {
	s, err := e.read(ctx, src, src.Size(), emit)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// source is a package as the read found it.
type source struct {
	e      *Engine
	pk     *ooxml.Package
	units  map[string]int // units read, per part
	hasTOC bool           // a table of contents: Word is asked to update fields
	signed bool
	lay    *rtl.Doc // nil without a layout
	// The structure as read: per story part, and in all.
	counts map[string]*structure.Counts
	total  structure.Counts
}

func (e *Engine) read(ctx context.Context, r io.ReaderAt, size int64, emit func([]segment.Unit) error) (*source, error) {
	pk, err := ooxml.Open(r, size)
	if err != nil {
		return nil, err
	}
	s := &source{e: e, pk: pk, units: map[string]int{}, counts: map[string]*structure.Counts{}}
	if e.layout != nil {
		if s.lay, err = e.layout.Begin(pk); err != nil {
			return nil, err
		}
	}
	for _, f := range pk.Files() {
		if strings.HasPrefix(f.Name, "_xmlsignatures/") {
			s.signed = true
		}
		k := pk.Kind(f)
		if k == ooxml.Other || k == ooxml.Settings {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := newProc(f.Name, k)
		var stop error // emit's refusal, returned as it is
		p.emit = func(units []segment.Unit) error {
			s.units[f.Name] += len(units)
			if emit != nil {
				stop = emit(units)
			}
			return stop
		}
		if err := s.readPart(p, f); err != nil {
			if stop != nil {
				return nil, stop
			}
			return nil, err
		}
		s.hasTOC = s.hasTOC || p.f.hasTOC
	}
	return s, nil
}

// readPart reads one part's units; a story part is also shown to the
// layout and its structure counted.
func (s *source) readPart(p *proc, f *zip.File) error {
	if p.kind != ooxml.Story {
		return partError(f.Name, s.pk.Stream(f, nil, ooxml.Edit{Container: p.container, Block: p.block}))
	}
	c := &structure.Counts{}
	sc, err := structure.PartScan(s.pk, f.Name, c, false) // formatting is measured as rendered
	if err != nil {
		return err
	}
	st := &ooxml.StoryStream{Open: sc.Open, Block: func(b *ooxml.Block) error {
		if err := p.block(b.N); err != nil {
			return err
		}
		if s.lay != nil {
			s.lay.Observe(f.Name, b, p.unitOf)
		}
		sc.Block(b)
		return nil
	}}
	if err := s.pk.Stream(f, nil, ooxml.Edit{Story: st}); err != nil {
		return partError(f.Name, err)
	}
	s.counts[f.Name] = c
	s.total.Add(*c)
	return nil
}

// container: outside story parts, everything holds blocks but what the
// engine takes whole (wanted).
func (p *proc) container(n *node) bool { return !p.wanted(n) }

// partError makes a block too large to hold the document's fault (memory
// is bounded by the largest block), and says which part is malformed.
func partError(part string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ooxml.ErrBlockTooLarge):
		return fmt.Errorf("%s: %w; split it into smaller paragraphs or tables (%w)", part, err, ports.ErrBadDocument)
	case errors.Is(err, ooxml.ErrInvalid), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return fmt.Errorf("%w: %v", ErrNotDocx, err)
}

// ExtractReader reads the translatable text of a package in any
// io.ReaderAt.
func ExtractReader(ctx context.Context, r io.ReaderAt, size int64) (*segment.Document, error) {
	doc := &segment.Document{Format: "docx"}
	_, err := New(nil).read(ctx, r, size, func(units []segment.Unit) error {
		for _, u := range units {
			u.Segments = append([]segment.Segment(nil), u.Segments...)
			doc.Units = append(doc.Units, u)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return doc, nil
}

// AssembleReader writes the package in r with every segment of doc (read
// from it) replaced by its Target (an empty Target keeps the source text),
// not laid out. Warnings report repaired codes, units that no longer match
// the source, and invalidated signatures.
func AssembleReader(ctx context.Context, r io.ReaderAt, size int64, doc *segment.Document, out io.Writer) ([]string, error) {
	s, err := New(nil).read(ctx, r, size, nil)
	if err != nil {
		return nil, err
	}
	i := 0
	rendered, err := s.Render(ctx, func() (*segment.Unit, error) {
		if i == len(doc.Units) {
			return nil, io.EOF
		}
		i++
		return &doc.Units[i-1], nil
	}, ports.LayoutRequest{}, out)
	if err != nil {
		return nil, err
	}
	return rendered.Warnings, nil
}
