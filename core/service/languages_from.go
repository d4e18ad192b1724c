package service

import (
	"context"
	"strings"

	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// LanguagesFrom lists the language names the enabled engines can produce
// from source (a name or code), directly or over a chain of served pairs
// (translate.MaxLegs at most). An empty
// source (or auto) lists every producible language, like Languages.
func (s *Languages) LanguagesFrom(ctx context.Context, source string) ([]string, error) {
	source = strings.TrimSpace(source)
	if source == "" || strings.EqualFold(source, "auto") {
		return s.Languages(ctx)
	}
	src, err := language.Lookup(source)
	if err != nil {
		return nil, &Error{Kind: KindUnprocessable, Message: "source_lang: " + err.Error(), Err: err}
	}
	engines, err := s.engines(ctx)
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, l := range translate.Reachable(engines, src.Code) {
		names = append(names, l.Name)
	}
	return names, nil
}
