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
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Engine implements ports.DocumentEngine for .docx, .docm, .dotx and
// Strict OOXML packages.
type Engine struct{}

// New returns the DOCX engine.
func New() *Engine { return &Engine{} }

var _ ports.DocumentEngine = (*Engine)(nil)

// ErrNotDocx is wrapped by every error about a file that is not a usable package.
var ErrNotDocx = ooxml.ErrInvalid

// Extract reads the translatable text of a package.
func (e *Engine) Extract(ctx context.Context, src ports.Blob) (*segment.Document, error) {
	return ExtractReader(ctx, src, src.Size())
}

// ExtractReader is Extract for any io.ReaderAt.
func ExtractReader(ctx context.Context, r io.ReaderAt, size int64) (*segment.Document, error) {
	pk, err := ooxml.Open(r, size)
	if err != nil {
		return nil, err
	}
	doc := &segment.Document{Format: "docx"}
	check := ports.ExtractCheckOf(ctx)
	for _, f := range pk.Files() {
		k := pk.Kind(f)
		if k == ooxml.Other || k == ooxml.Settings {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := &proc{part: f.Name, kind: k, check: check}
		if err := walk(pk, f, p); err != nil {
			return nil, err
		}
		// Units read outside paragraphs (document properties) are told
		// at the end of their part.
		if err := p.tell(); err != nil {
			return nil, err
		}
		doc.Units = append(doc.Units, p.units...)
	}
	return doc, nil
}

func walk(pk *ooxml.Package, f *zip.File, p *proc) error {
	rc, err := pk.Open(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	return p.run(rc)
}

// Assemble writes src with every segment replaced by its Target (an empty
// Target keeps the source text). Warnings report repaired codes, units that
// no longer match the source, and invalidated signatures.
func (e *Engine) Assemble(ctx context.Context, src ports.Blob, doc *segment.Document, out io.Writer) ([]string, error) {
	return AssembleReader(ctx, src, src.Size(), doc, out)
}

// AssembleReader is Assemble for any io.ReaderAt.
func AssembleReader(ctx context.Context, r io.ReaderAt, size int64, doc *segment.Document, out io.Writer) ([]string, error) {
	pk, err := ooxml.Open(r, size)
	if err != nil {
		return nil, err
	}
	lookup := make(map[string]*segment.Unit, len(doc.Units))
	for i := range doc.Units {
		lookup[doc.Units[i].ID] = &doc.Units[i]
	}
	var warns []string
	warn := func(s string) { warns = append(warns, s) }
	stats := &assembleStats{}
	zw := ooxml.NewWriter(out)
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
			if err := zw.Copy(f); err != nil {
				return nil, fmt.Errorf("copy %s: %w", f.Name, err)
			}
			continue
		case ooxml.Settings:
			settings = append(settings, f) // written last: it needs to know whether a TOC exists
			continue
		}
		w, err := zw.Create(f)
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
		hasTOC = hasTOC || p.f.hasTOC
	}
	for _, f := range settings {
		toc := hasTOC && !strings.Contains(f.Name, "glossary/")
		if err := writeSettings(pk, zw, f, toc); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if stats.untranslated > 0 {
		warns = append(warns, fmt.Sprintf("%d segments had no translation; their source text was kept", stats.untranslated))
	}
	if signed {
		warns = append(warns, "the document was digitally signed; the signature is no longer valid after translation")
	}
	return warns, nil
}
