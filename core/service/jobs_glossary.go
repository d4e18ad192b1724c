package service

import (
	"context"
	"errors"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// checkGlossary resolves a submission's glossary_id against the caller's
// glossaries and the job's pair; it returns the id to store on the job.
func (s *Jobs) checkGlossary(ctx context.Context, c *Caller, o Options, id string) (string, error) {
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
