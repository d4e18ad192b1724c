package service

import (
	"bytes"
	"context"
	"errors"

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
	// The first 20,000 bytes of text decide, as for a job's pass.
	var d segment.Document
	size := 0
	_, err := s.Docs.Read(ctx, &memBlob{bytes.NewReader(doc)}, func(units []segment.Unit) error {
		d.Units = append(d.Units, units...)
		for _, u := range units {
			for _, sg := range u.Segments {
				size += len(sg.Source)
			}
		}
		if size > 20_000 {
			return errEnoughText
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnoughText) {
		return language.Language{}, false
	}
	code, _ := s.Detector.Detect(d.PlainText())
	l, ok := language.ByCode(code)
	return l, ok
}

var errEnoughText = errors.New("enough text to detect the language")

// memBlob is a document held in memory as a ports.Blob.
type memBlob struct{ *bytes.Reader }

func (memBlob) Close() error { return nil }
