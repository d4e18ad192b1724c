package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Documents implements the use cases on a completed job's documents while
// its download window is open: the PDF rendition of its translation, page
// previews of both sides, its segments with the review's flags, and the
// revisions a person makes by editing segments or importing a post-edited
// XLIFF file.
type Documents struct {
	Config Config
	Jobs   ports.JobStore
	Blobs  ports.BlobStore
	Bus    ports.EventBus // announces a revision
	// Docs renders a revision as the pipeline renders the output (laid
	// out for the target's direction); nil: XLIFF post-editing unavailable.
	Docs  ports.DocumentEngine
	XLIFF ports.XLIFF // nil: XLIFF export and import unavailable
	// AccountMemory receives a revision's edited segments as the account's
	// own translations (not the engines' translation memory); nil: not kept.
	AccountMemory ports.AccountMemory
	// PDF renders the PDF of a translation downloaded as PDF when the
	// pipeline made none (the job did not ask for one); nil: such downloads are 404.
	PDF ports.PDFRenderer
	// Bilingual composes a revision's bilingual document again, for a job
	// that has one; nil: such a revision is left without one.
	Bilingual ports.BilingualComposer
	Pages     ports.PageRenderer // nil: no previews
	// PDFText reads a revision's PDF rendition for the review (text a
	// fixed-size box cuts off, pages added); nil: not measured again.
	PDFText ports.PDFText
	// Accounts and Glossaries give an edit's review the account's
	// do-not-translate terms and the job's glossary; nil: not checked.
	Accounts   ports.AccountStore
	Glossaries ports.GlossaryStore
	Clock      ports.Clock

	// Within a process: a job's revisions one at a time, and each render
	// once. A preview's render takes the PDF's lock inside its own, so the
	// two are separate sets.
	revising, renderingPDF, renderingPreview locks
}

func (s *Documents) job(ctx context.Context, c *Caller, id string) (*job.Job, error) {
	return callerJob(ctx, s.Jobs, s.Clock, s.Config, c, id)
}

func (s *Documents) expireOutput(ctx context.Context, id string) error {
	return expireOutput(ctx, s.Blobs, s.Jobs, s.Clock, id)
}
