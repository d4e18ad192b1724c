package service

import (
	"bytes"
	"context"

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
	d, err := s.Docs.Extract(ctx, &memBlob{bytes.NewReader(doc)})
	if err != nil {
		return language.Language{}, false
	}
	code, _ := s.Detector.Detect(d.PlainText())
	l, ok := language.ByCode(code)
	return l, ok
}

// memBlob is a document held in memory as a ports.Blob.
type memBlob struct{ *bytes.Reader }

func (memBlob) Close() error { return nil }
