package structure

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Checker compares a job's source and output for the pipeline, which stores
// the summary with the job.
type Checker struct{}

// Summary implements pipeline.FidelityChecker.
func (Checker) Summary(_ context.Context, src, out ports.Blob) (string, bool, error) {
	r, err := CompareReaders(src, src.Size(), out, out.Size())
	if err != nil {
		return "", false, err
	}
	return r.Summary(), r.Lost(), nil
}
