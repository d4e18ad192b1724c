package service

import (
	"context"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Options are the validated language and mode choices of a request.
type Options struct {
	Source *language.Language // nil: auto
	Target language.Language
	Mode   translation.Mode
	// GlossaryID is the caller's glossary for this pair, once checked.
	GlossaryID string
}

// ParseOptions validates target, source and mode with the contract's defaults.
func ParseOptions(target, source, mode string) (Options, error) {
	var o Options
	if strings.TrimSpace(target) == "" {
		target = "Arabic"
	}
	t, err := language.Lookup(target)
	if err != nil {
		return o, &Error{Kind: KindUnprocessable, Message: "target_lang: " + err.Error(), Err: err}
	}
	o.Target = t
	if s := strings.TrimSpace(source); s != "" && !strings.EqualFold(s, "auto") {
		l, err := language.Lookup(s)
		if err != nil {
			return o, &Error{Kind: KindUnprocessable, Message: "source_lang: " + err.Error(), Err: err}
		}
		o.Source = &l
	}
	m, err := translation.ParseMode(strings.ToLower(strings.TrimSpace(mode)))
	if err != nil {
		return o, &Error{Kind: KindUnprocessable, Message: err.Error(), Err: err}
	}
	o.Mode = m
	return o, nil
}

func layoutRequest(o Options) ports.LayoutRequest {
	r := ports.LayoutRequest{TargetLang: o.Target.Code}
	if o.Source != nil {
		r.SourceLang = o.Source.Code
	}
	return r
}

// validate checks a request's options, the caller's quota and the pair,
// in that order, once per submission.
func (s *Jobs) validate(ctx context.Context, c *Caller, target, source, mode string) (Options, error) {
	opts, err := ParseOptions(target, source, mode)
	if err != nil {
		return opts, err
	}
	if err := checkQuota(ctx, s.Quota, s.Clock, c); err != nil {
		return opts, err
	}
	return opts, s.checkPair(ctx, opts)
}

// checkPair refuses a pair no enabled engine serves, when the source is known.
func (s *Jobs) checkPair(ctx context.Context, o Options) error {
	if s.Engines == nil {
		return nil
	}
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return enginesUnavailable(err)
	}
	if o.Source == nil {
		if !producible(engines, o.Target) {
			return fail(KindUnprocessable, "%s", translate.Unserved(engines, "", o.Target))
		}
		return nil
	}
	if o.Source.Code == o.Target.Code {
		return nil // nothing to translate; layout still applies
	}
	if !translate.Servable(engines, o.Source.Code, o.Target.Code) {
		return fail(KindUnprocessable, "%s", translate.Unserved(engines, o.Source.Code, o.Target))
	}
	return nil
}

func producible(engines []ports.Engine, l language.Language) bool {
	for _, t := range translate.Targets(engines) {
		if t.Code == l.Code {
			return true
		}
	}
	return false
}
