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
	"compress/flate"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Engine implements ports.DocumentEngine for .docx, .docm, .dotx and
// Strict OOXML packages.
type Engine struct{}

// New returns the DOCX engine.
func New() *Engine { return &Engine{} }

var _ ports.DocumentEngine = (*Engine)(nil)

// Extract reads the translatable text of a package.
func (e *Engine) Extract(ctx context.Context, src ports.Blob) (*segment.Document, error) {
	return ExtractReader(ctx, src, src.Size())
}

// ExtractReader is Extract for any io.ReaderAt.
func ExtractReader(ctx context.Context, r io.ReaderAt, size int64) (*segment.Document, error) {
	pk, err := openPkg(r, size)
	if err != nil {
		return nil, err
	}
	doc := &segment.Document{Format: "docx"}
	for _, f := range pk.zr.File {
		k := pk.kinds[f]
		if k == kindOther || k == kindSettings {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := &proc{part: f.Name, kind: k}
		if err := pk.walk(f, p); err != nil {
			return nil, err
		}
		doc.Units = append(doc.Units, p.units...)
	}
	return doc, nil
}

func (pk *pkg) walk(f *zip.File, p *proc) error {
	rc, err := pk.open(f)
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
	pk, err := openPkg(r, size)
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
	bw := bufio.NewWriterSize(out, 64<<10)
	zw := zip.NewWriter(bw)
	zw.RegisterCompressor(zip.Deflate, pooledDeflate)
	hasTOC := false
	var settings []*zip.File
	signed := false
	for _, f := range pk.zr.File {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if strings.HasPrefix(f.Name, "_xmlsignatures/") {
			signed = true
		}
		k := pk.kinds[f]
		switch k {
		case kindOther:
			if err := zw.Copy(f); err != nil {
				return nil, fmt.Errorf("copy %s: %w", f.Name, err)
			}
			continue
		case kindSettings:
			settings = append(settings, f) // written last: it needs to know whether a TOC exists
			continue
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: f.Modified})
		if err != nil {
			return nil, err
		}
		pw := bufio.NewWriterSize(w, 32<<10)
		p := &proc{part: f.Name, kind: k, assemble: true, lookup: lookup, out: pw, warn: warn, stats: stats}
		if err := pk.walk(f, p); err != nil {
			return nil, err
		}
		if err := pw.Flush(); err != nil {
			return nil, err
		}
		hasTOC = hasTOC || p.f.hasTOC
	}
	for _, f := range settings {
		toc := hasTOC && !strings.Contains(f.Name, "glossary/")
		if err := pk.writeSettings(zw, f, toc); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
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

// Deflate writers are large to set up; they are reused across parts and
// documents.
var deflaters sync.Pool

type pooledWriter struct{ *flate.Writer }

func (p pooledWriter) Close() error {
	err := p.Writer.Close()
	deflaters.Put(p.Writer)
	return err
}

func pooledDeflate(w io.Writer) (io.WriteCloser, error) {
	if fw, ok := deflaters.Get().(*flate.Writer); ok {
		fw.Reset(w)
		return pooledWriter{fw}, nil
	}
	fw, err := flate.NewWriter(w, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	return pooledWriter{fw}, nil
}
