// Package docx is the format-preserving DOCX engine behind
// ports.DocumentEngine. It reads every translatable part of a package
// (body, headers, footers, notes, comments, text boxes, content controls,
// field results, alt text, chart and SmartArt text, document properties)
// into units of tagged text, and writes translations back as native runs
// with the original properties, copying every other byte of the package.
//
// Tracked changes: inserted text is translated inside its w:ins, deleted
// text (w:del, w:moveFrom) is kept exactly as it was, as an isolated code.
// Hidden runs (w:vanish) and field instructions are never translated.
package docx

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Engine implements ports.DocumentEngine for .docx, .docm, .dotx and
// Strict OOXML packages.
type Engine struct {
	layout Layout
}

// Layout lays out a translated package for the target's direction and
// writes it (adapters/rtl).
type Layout interface {
	LayOut(ctx context.Context, pk *ooxml.Package, req ports.LayoutRequest, out io.Writer) (*job.RTLReport, error)
}

// New returns the DOCX engine; with a layout its render lays out the
// translation for the target's direction.
func New(layout Layout) *Engine { return &Engine{layout: layout} }

var _ ports.DocumentEngine = (*Engine)(nil)

// ErrNotDocx is wrapped by every error about a file that is not a usable package.
var ErrNotDocx = ooxml.ErrInvalid

// Read hands the translatable units of a package to emit, a paragraph's
// worth at a time, in document order.
func (e *Engine) Read(ctx context.Context, src ports.Blob, emit func([]segment.Unit) error) (ports.Source, error) {
	if _, err := read(ctx, src, src.Size(), emit); err != nil {
		return nil, err
	}
	return &source{e: e, src: src}, nil
}

// ExtractReader reads the translatable text of a package in any
// io.ReaderAt.
func ExtractReader(ctx context.Context, r io.ReaderAt, size int64) (*segment.Document, error) {
	return read(ctx, r, size, nil)
}

// read reads the units of a package, handing them to emit as it goes
// (nil: kept in the document returned).
func read(ctx context.Context, r io.ReaderAt, size int64, emit func([]segment.Unit) error) (*segment.Document, error) {
	pk, err := ooxml.Open(r, size)
	if err != nil {
		return nil, err
	}
	doc := &segment.Document{Format: "docx"}
	for _, f := range pk.Files() {
		k := pk.Kind(f)
		if k == ooxml.Other || k == ooxml.Settings {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := &proc{part: f.Name, kind: k, check: emit}
		if err := walk(pk, f, p); err != nil {
			return nil, err
		}
		// Units read outside paragraphs (document properties) are told
		// at the end of their part.
		if err := p.tell(); err != nil {
			return nil, err
		}
		if emit == nil {
			doc.Units = append(doc.Units, p.units...)
		}
	}
	return doc, nil
}

// source is a package read, ready to render.
type source struct {
	e   *Engine
	src ports.Blob
}

// Render assembles the translation into the package and lays it out.
func (s *source) Render(ctx context.Context, next func() (*segment.Unit, error), req ports.LayoutRequest, out io.Writer) (*ports.Rendered, error) {
	doc := &segment.Document{Format: "docx"}
	for {
		u, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		doc.Units = append(doc.Units, *u)
	}
	pk, err := ooxml.Open(s.src, s.src.Size())
	if err != nil {
		return nil, err
	}
	warns, err := AssemblePackage(ctx, pk, doc)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	r := &ports.Rendered{Warnings: warns}
	if s.e.layout != nil {
		r.RTL, err = s.e.layout.LayOut(ctx, pk, req, &buf)
	} else {
		_, err = pk.WriteTo(&buf)
	}
	if err != nil {
		return nil, err
	}
	if rep, err := structure.CompareReaders(s.src, s.src.Size(), bytes.NewReader(buf.Bytes()), int64(buf.Len())); err == nil {
		r.Structure, r.StructureLost = rep.Summary(), rep.Lost()
	}
	_, err = out.Write(buf.Bytes())
	return r, err
}

func walk(pk *ooxml.Package, f *zip.File, p *proc) error {
	rc, err := pk.Open(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	return p.run(rc)
}

// AssembleReader writes the package in r with every segment replaced by
// its Target (an empty Target keeps the source text). Warnings report
// repaired codes, units that no longer match the source, and invalidated
// signatures. Parts are streamed into the output as they are assembled,
// none is held whole.
func AssembleReader(ctx context.Context, r io.ReaderAt, size int64, doc *segment.Document, out io.Writer) ([]string, error) {
	pk, err := ooxml.Open(r, size)
	if err != nil {
		return nil, err
	}
	zw := ooxml.NewWriter(out)
	warns, err := assemble(ctx, pk, doc, zipSink{zw})
	if err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return warns, nil
}

// AssemblePackage replaces, in the opened package pk, every part holding
// text by its translation (SetPart); nothing is written.
func AssemblePackage(ctx context.Context, pk *ooxml.Package, doc *segment.Document) ([]string, error) {
	return assemble(ctx, pk, doc, &memSink{pk: pk})
}

// sink receives the assembled package entry by entry.
type sink interface {
	keep(f *zip.File) error                // f stays as it is
	create(f *zip.File) (io.Writer, error) // new content for f follows
	done(f *zip.File) error                // f's new content is complete
}

// zipSink writes a package: kept entries are copied raw.
type zipSink struct{ zw *ooxml.Writer }

func (z zipSink) keep(f *zip.File) error                { return z.zw.Copy(f) }
func (z zipSink) create(f *zip.File) (io.Writer, error) { return z.zw.Create(f) }
func (z zipSink) done(*zip.File) error                  { return nil }

// memSink replaces parts in the opened package.
type memSink struct {
	pk  *ooxml.Package
	buf *bytes.Buffer
}

func (m *memSink) keep(*zip.File) error { return nil }
func (m *memSink) create(f *zip.File) (io.Writer, error) {
	m.buf = bytes.NewBuffer(make([]byte, 0, min(f.UncompressedSize64+f.UncompressedSize64/8, ooxml.MaxXMLPart)))
	return m.buf, nil
}
func (m *memSink) done(f *zip.File) error { return m.pk.SetPart(f.Name, m.buf.Bytes()) }

func assemble(ctx context.Context, pk *ooxml.Package, doc *segment.Document, out sink) ([]string, error) {
	lookup := make(map[string]*segment.Unit, len(doc.Units))
	for i := range doc.Units {
		lookup[doc.Units[i].ID] = &doc.Units[i]
	}
	var warns []string
	warn := func(s string) { warns = append(warns, s) }
	stats := &assembleStats{}
	hasTOC := false
	var settings []*zip.File
	signed := false
	for _, f := range pk.Files() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if strings.HasPrefix(f.Name, "_xmlsignatures/") {
			signed = true
		}
		k := pk.Kind(f)
		switch k {
		case ooxml.Other:
			if err := out.keep(f); err != nil {
				return nil, fmt.Errorf("copy %s: %w", f.Name, err)
			}
			continue
		case ooxml.Settings:
			settings = append(settings, f) // done last: it needs to know whether a TOC exists
			continue
		}
		w, err := out.create(f)
		if err != nil {
			return nil, err
		}
		pw := bufio.NewWriterSize(w, 32<<10)
		p := &proc{part: f.Name, kind: k, assemble: true, lookup: lookup, out: pw, warn: warn, stats: stats}
		if err := walk(pk, f, p); err != nil {
			return nil, err
		}
		if err := pw.Flush(); err != nil {
			return nil, err
		}
		if err := out.done(f); err != nil {
			return nil, err
		}
		hasTOC = hasTOC || p.f.hasTOC
	}
	for _, f := range settings {
		toc := hasTOC && !strings.Contains(f.Name, "glossary/")
		if err := writeSettings(pk, out, f, toc); err != nil {
			return nil, err
		}
	}
	if stats.untranslated > 0 {
		warns = append(warns, fmt.Sprintf("%d segments had no translation; their source text was kept", stats.untranslated))
	}
	if signed {
		warns = append(warns, "the document was digitally signed; the signature is no longer valid after translation")
	}
	return warns, nil
}
