package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/translate"
)

// LanguagePair is one served pair and the engines that translate it (two
// when it goes through English).
type LanguagePair struct {
	Source, Target string // names
	Engines        []string
}

// LanguagePairs lists every pair the configured engines serve.
func (s *Languages) LanguagePairs(ctx context.Context) ([]LanguagePair, error) {
	engines, err := s.engines(ctx)
	if err != nil {
		return nil, err
	}
	out := []LanguagePair{}
	for _, p := range translate.ServedPairs(engines) {
		out = append(out, LanguagePair{Source: p.Source.Name, Target: p.Target.Name, Engines: p.Engines})
	}
	return out, nil
}
