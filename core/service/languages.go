package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Languages implements the queries on what the enabled engines translate:
// the languages, the targets from one source, and the pairs.
type Languages struct {
	Engines ports.EngineRegistry
}

// engines lists the enabled engines, or says they are unavailable.
func (s *Languages) engines(ctx context.Context) ([]ports.Engine, error) {
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return nil, enginesUnavailable(err)
	}
	return engines, nil
}
