package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Documents implements the use cases on a completed job's documents while
// its download window is open: the PDF rendition of its translation, page
// previews of both sides, the XLIFF export of its segments and the revision
// rebuilt from a post-edited XLIFF file.
type Documents struct {
	Config Config
	Jobs   ports.JobStore
	Blobs  ports.BlobStore
	Bus    ports.EventBus // announces a revision
	// Docs and Layout rebuild a revision as the pipeline builds the output;
	// nil Docs: XLIFF post-editing unavailable.
	Docs   ports.DocumentEngine
	Layout ports.RTLLayout
	XLIFF  ports.XLIFF // nil: XLIFF export and import unavailable
	// AccountMemory receives a revision's edited segments as the account's
	// own translations (not the engines' translation memory); nil: not kept.
	AccountMemory ports.AccountMemory
	// PDF renders the PDF of a translation downloaded as PDF when the
	// pipeline made none (the job did not ask for one); nil: such downloads are 404.
	PDF   ports.PDFRenderer
	Pages ports.PageRenderer // nil: no previews
	Clock ports.Clock
}

func (s *Documents) job(ctx context.Context, c *Caller, id string) (*job.Job, error) {
	return callerJob(ctx, s.Jobs, s.Clock, s.Config, c, id)
}

func (s *Documents) expireOutput(ctx context.Context, id string) error {
	return expireOutput(ctx, s.Blobs, s.Jobs, s.Clock, id)
}
