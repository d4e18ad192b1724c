package service

import (
	"context"
	"strings"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// GlossaryRequest creates a glossary: either File (DeepL CSV or TSV, or
// TBX) or Entries.
type GlossaryRequest struct {
	Name       string
	SourceLang string // name or code
	TargetLang string
	File       []byte
	Entries    []glossary.Entry
	FromFile   bool // File was sent (even if empty)
}

// CreateGlossary validates and stores a glossary of the caller's account.
func (s *Glossaries) CreateGlossary(ctx context.Context, c *Caller, r GlossaryRequest) (*glossary.Glossary, error) {
	if s.Glossaries == nil {
		return nil, fail(KindUnavailable, "glossaries are not available on this server")
	}
	name, err := glossary.CheckName(r.Name)
	if err != nil {
		return nil, unprocessable(err)
	}
	src, tgt, err := glossaryPair(r.SourceLang, r.TargetLang)
	if err != nil {
		return nil, err
	}
	var entries []glossary.Entry
	if r.FromFile {
		entries, err = glossary.Parse(r.File, src.Code, tgt.Code)
	} else {
		entries, err = glossary.Validate(r.Entries)
	}
	if err != nil {
		return nil, unprocessable(err)
	}
	g := &glossary.Glossary{
		ID: s.NewID(), AccountID: c.Account.ID, Name: name, SourceLang: src.Code, TargetLang: tgt.Code,
		Entries: entries, CreatedAt: s.Clock.Now(),
	}
	if err := s.Glossaries.CreateGlossary(ctx, g); err != nil {
		return nil, err
	}
	return g, nil
}

func glossaryPair(source, target string) (src, tgt language.Language, err error) {
	if strings.TrimSpace(source) == "" || strings.EqualFold(strings.TrimSpace(source), "auto") {
		return src, tgt, fail(KindUnprocessable, "source_lang: a glossary needs a source language (auto is not one)")
	}
	if src, err = language.Lookup(source); err != nil {
		return src, tgt, &Error{Kind: KindUnprocessable, Message: "source_lang: " + err.Error(), Err: err}
	}
	if strings.TrimSpace(target) == "" {
		return src, tgt, fail(KindUnprocessable, "target_lang: a glossary needs a target language")
	}
	if tgt, err = language.Lookup(target); err != nil {
		return src, tgt, &Error{Kind: KindUnprocessable, Message: "target_lang: " + err.Error(), Err: err}
	}
	if src.Code == tgt.Code {
		return src, tgt, fail(KindUnprocessable, "target_lang: the glossary's source and target languages are the same (%s)", src.Name)
	}
	return src, tgt, nil
}
