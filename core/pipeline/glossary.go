package pipeline

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// glossary loads the job's glossary; nil for none. A glossary deleted
// after the job was submitted fails the job: translating without the
// terminology the client asked for would look like success.
func (p *Pipeline) glossary(ctx context.Context, j *job.Job) (*glossary.Glossary, error) {
	if j.GlossaryID == "" {
		return nil, nil
	}
	if p.Glossaries == nil {
		return nil, failf("glossaries are not available on this server")
	}
	g, err := p.Glossaries.GetGlossary(ctx, j.AccountID, j.GlossaryID)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, failf("the glossary %s was deleted before the job was translated", j.GlossaryID)
	}
	return g, err
}
