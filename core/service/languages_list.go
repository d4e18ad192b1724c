package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/translate"
)

// Languages lists the language names the enabled engines can produce.
func (s *Languages) Languages(ctx context.Context) ([]string, error) {
	engines, err := s.engines(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range translate.Targets(engines) {
		names = append(names, l.Name)
	}
	return names, nil
}
