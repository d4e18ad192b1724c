package service

import (
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/core/language"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/translate"
)

// LanguagePair is one served pair and the engines that translate it (two
// when it goes through English).
type LanguagePair struct {
	Source, Target string // names
	Engines        []string
}

// LanguagesFrom lists the target names reachable from one source (a name
// or code); an unknown source is a 422.
func (s *Service) LanguagesFrom(ctx context.Context, source string) ([]string, error) {
	src, err := language.Lookup(source)
	if err != nil {
		return nil, &Error{Kind: KindUnprocessable, Message: "source: " + err.Error(), Err: err}
	}
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return nil, &Error{Kind: KindUnavailable, Message: "translation engines are unavailable: " + err.Error(), Err: err}
	}
	names := []string{}
	for _, l := range translate.Reachable(engines, src.Code) {
		names = append(names, l.Name)
	}
	return names, nil
}

// LanguagePairs lists every pair the configured engines serve.
func (s *Service) LanguagePairs(ctx context.Context) ([]LanguagePair, error) {
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return nil, &Error{Kind: KindUnavailable, Message: "translation engines are unavailable: " + err.Error(), Err: err}
	}
	out := []LanguagePair{}
	for _, p := range translate.ServedPairs(engines) {
		out = append(out, LanguagePair{Source: p.Source.Name, Target: p.Target.Name, Engines: p.Engines})
	}
	return out, nil
}

// checkDetected detects the language of a document sent with source auto
// (the upload is read here already) and refuses, before the job exists, a
// detected pair no engine serves. An unreadable document or an unsure
// detection is left to the pipeline.
func (s *Service) checkDetected(ctx context.Context, blob ports.Blob, o Options) error {
	if s.Docs == nil || s.Detector == nil || s.Engines == nil {
		return nil
	}
	if _, err := blob.Seek(0, io.SeekStart); err != nil {
		return err
	}
	doc, err := s.Docs.Extract(ctx, blob)
	if err != nil {
		return nil
	}
	code, _ := s.Detector.Detect(doc.PlainText())
	src, ok := language.ByCode(code)
	if !ok || src.Code == o.Target.Code {
		return nil
	}
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return &Error{Kind: KindUnavailable, Message: "translation engines are unavailable: " + err.Error(), Err: err}
	}
	if !translate.Servable(engines, src.Code, o.Target.Code) {
		return fail(KindUnprocessable, "the document's language was detected as %s, and no configured engine translates %s to %s; give source_lang if the detection is wrong, or see GET /v1/languages?source=%s for the targets available", src.Name, src.Name, o.Target.Name, src.Code)
	}
	return nil
}
