package service

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/core/wordcount"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// reading is a stored document read once, at submission, for what several
// jobs (a batch) or a quote need to know before any job starts: its
// words counted as a job counts them, and its language.
type reading struct {
	name  string // the file name as uploaded
	key   string // the .docx the jobs start from: the input, or its conversion
	doc   *segment.Document
	words int
	// source is the given source language, or the detected one (as a
	// job's pass detects it: translate.DetectSource); nil when it could
	// not be detected (each job then tries again, and fails saying so).
	source        *language.Language
	detectWarning string // the detection was unsure, or the text mixes languages
}

// read verifies an upload, converts a .doc, .odt or .rtf once to .docx
// (beside the upload, as the pipeline would), extracts the text, counts
// its words and detects its language when none is given.
func (s *Jobs) read(ctx context.Context, up *Upload, name string, opts Options) (*reading, error) {
	blob, err := s.Blobs.Open(ctx, up.Key)
	if err != nil {
		return nil, err
	}
	formatErr := KindUnprocessable
	if up.fromURL {
		formatErr = KindBadURL
	}
	format, err := s.verify(ctx, blob, formatErr, name)
	blob.Close()
	if err != nil {
		return nil, err
	}
	rd := &reading{name: name, key: up.Key, source: opts.Source}
	if format != docformat.DOCX {
		if rd.key, err = s.convert(ctx, up, format, name); err != nil {
			return nil, err
		}
	}
	if s.Docs == nil {
		return nil, fail(KindUnavailable, "documents cannot be read on this server")
	}
	src, err := s.Blobs.Open(ctx, rd.key)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if rd.doc, err = readDocument(ctx, s.Docs, src); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Kind: KindUnprocessable, Message: name + ": the document could not be read: " + err.Error(), Err: err}
	}
	rd.words = countWords(rd.doc)
	if rd.source == nil && s.Detector != nil {
		if l, warn, err := translate.DetectSource(s.Detector, rd.doc.PlainText()); err == nil {
			rd.source, rd.detectWarning = &l, warn
		}
	}
	return rd, nil
}

// readDocument reads a document's units whole (a quote plans them all).
func readDocument(ctx context.Context, docs ports.DocumentEngine, src ports.Blob) (*segment.Document, error) {
	doc := &segment.Document{}
	_, err := docs.Read(ctx, src, func(units []segment.Unit) error {
		doc.Units = append(doc.Units, units...)
		return nil
	})
	return doc, err
}

// convert turns a .doc, .odt or .rtf upload into the .docx its jobs start
// from, stored beside the upload.
func (s *Jobs) convert(ctx context.Context, up *Upload, format docformat.Format, name string) (string, error) {
	if s.Converter == nil || !slices.Contains(s.Converter.Formats(), string(format)) {
		return "", fail(KindUnprocessable, "%s: .%s documents cannot be translated yet: no converter for this format is installed (the LibreOffice converter plugin)", name, format)
	}
	in, err := s.Blobs.Open(ctx, up.Key)
	if err != nil {
		return "", err
	}
	defer in.Close()
	key := job.SourceDocxKey(up.ID)
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(s.Converter.Convert(ctx, string(format), in, pw)) }()
	_, err = s.Blobs.Put(ctx, key, pr)
	pr.CloseWithError(err)
	if errors.Is(err, ports.ErrBadDocument) {
		return "", &Error{Kind: KindUnprocessable, Message: name + ": the document could not be converted: " + err.Error(), Err: err}
	}
	return key, err
}

// countWords counts a document's words as a job does: each segment's
// plain text (inline codes excluded) by package wordcount.
func countWords(doc *segment.Document) int {
	n := 0
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { n += wordcount.Count(tagged.Plain(s.Source)) })
	return n
}
