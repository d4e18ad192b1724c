package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
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
func (s *Service) CreateGlossary(ctx context.Context, c *Caller, r GlossaryRequest) (*glossary.Glossary, error) {
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

func unprocessable(err error) *Error {
	return &Error{Kind: KindUnprocessable, Message: err.Error(), Err: err}
}

// DeleteGlossary removes one of the caller's glossaries. Jobs already
// submitted with it fail at translation with a message saying so.
func (s *Service) DeleteGlossary(ctx context.Context, c *Caller, id string) error {
	if s.Glossaries == nil {
		return fail(KindUnavailable, "glossaries are not available on this server")
	}
	err := s.Glossaries.DeleteGlossary(ctx, c.Account.ID, id)
	if errors.Is(err, ports.ErrNotFound) {
		return fail(KindNotFound, "glossary not found")
	}
	return err
}

// checkGlossary resolves a submission's glossary_id against the caller's
// glossaries and the job's pair; it returns the id to store on the job.
func (s *Service) checkGlossary(ctx context.Context, c *Caller, o Options, id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", nil
	}
	if s.Glossaries == nil {
		return "", fail(KindUnavailable, "glossaries are not available on this server")
	}
	g, err := s.Glossaries.GetGlossary(ctx, c.Account.ID, id)
	if errors.Is(err, ports.ErrNotFound) {
		return "", fail(KindUnprocessable, "glossary_id: no glossary %q in this account", id)
	}
	if err != nil {
		return "", err
	}
	if o.Source == nil {
		return "", fail(KindUnprocessable, "glossary_id: give source_lang (%s) with a glossary; auto-detection cannot be checked against the glossary's pair", language.NameOf(g.SourceLang))
	}
	if o.Source.Code != g.SourceLang || o.Target.Code != g.TargetLang {
		return "", fail(KindUnprocessable, "glossary_id: the glossary %q is for %s to %s, the job is %s to %s",
			g.Name, language.NameOf(g.SourceLang), language.NameOf(g.TargetLang), o.Source.Name, o.Target.Name)
	}
	return g.ID, nil
}

// Do-not-translate list limits.
const (
	MaxDoNotTranslate      = 1000 // terms per account
	MaxDoNotTranslateChars = 200  // characters per term
)

// SetDoNotTranslate replaces the caller's account's do-not-translate list,
// which the professional mode keeps as written (matched case-sensitively
// as whole words). An empty list clears it.
func (s *Service) SetDoNotTranslate(ctx context.Context, c *Caller, terms []string) ([]string, error) {
	if len(terms) > MaxDoNotTranslate {
		return nil, fail(KindUnprocessable, "terms: %d terms; at most %d are allowed", len(terms), MaxDoNotTranslate)
	}
	clean := make([]string, 0, len(terms))
	first := map[string]int{}
	for i, t := range terms {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
			return nil, fail(KindUnprocessable, "terms[%d]: the term is empty", i)
		case utf8.RuneCountInString(t) > MaxDoNotTranslateChars:
			return nil, fail(KindUnprocessable, "terms[%d]: the term is longer than %d characters", i, MaxDoNotTranslateChars)
		case strings.ContainsFunc(t, func(r rune) bool { return r < 0x20 || r == 0x7f }):
			return nil, fail(KindUnprocessable, "terms[%d]: the term contains a control character", i)
		}
		if j, dup := first[t]; dup {
			return nil, fail(KindUnprocessable, "terms[%d]: duplicate term %q (already terms[%d])", i, t, j)
		}
		first[t] = i
		clean = append(clean, t)
	}
	a, err := s.Accounts.UpdateAccount(ctx, c.Account.ID, func(a *account.Account) error {
		a.DoNotTranslate = clean
		if len(clean) == 0 {
			a.DoNotTranslate = nil
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("set do-not-translate list: %w", err)
	}
	return orEmpty(a.DoNotTranslate), nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
