package service

import (
	"bytes"
	"context"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// DetectDocument detects the language of a .docx a person is about to
// submit, so the dashboard's target list can follow it (issue 22 §6). ok
// is false when the document cannot be read without conversion (.doc,
// .odt, .rtf: the submission detects those after LibreOffice) or holds no
// text to go by.
func (s *Jobs) DetectDocument(ctx context.Context, doc []byte) (language.Language, bool) {
	if s.Docs == nil || s.Detector == nil {
		return language.Language{}, false
	}
	text, err := plainText(ctx, s.Docs, &memBlob{bytes.NewReader(doc)})
	if err != nil {
		return language.Language{}, false
	}
	code, _ := s.Detector.Detect(text)
	l, ok := language.ByCode(code)
	return l, ok
}

// plainText is a document's text without codes, a unit a line (what the
// pipeline detects the source language from).
func plainText(ctx context.Context, docs ports.DocumentEngine, src ports.Blob) (string, error) {
	var text []byte
	_, err := docs.Read(ctx, src, func(units []segment.Unit) error {
		d := segment.Document{Units: units}
		text = append(text, d.PlainText()...)
		return nil
	})
	return string(text), err
}

// memBlob is a document held in memory as a ports.Blob.
type memBlob struct{ *bytes.Reader }

func (memBlob) Close() error { return nil }
