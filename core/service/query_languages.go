package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/translate"
)

// Languages lists the language names the enabled engines can produce.
func (s *Service) Languages(ctx context.Context) ([]string, error) {
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return nil, &Error{Kind: KindUnavailable, Message: "translation engines are unavailable: " + err.Error(), Err: err}
	}
	var names []string
	for _, l := range translate.Targets(engines) {
		names = append(names, l.Name)
	}
	return names, nil
}
