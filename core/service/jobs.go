package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// Jobs implements the use cases on a client's translation jobs: submitting
// a document (uploaded or at a URL), reading, listing, cancelling and
// downloading jobs, and the periodic sweep of expired files and records.
type Jobs struct {
	Config Config
	Jobs   ports.JobStore
	// JobCatalog lists and deletes an account's jobs (the API's job list
	// and the dashboard's); nil: 503 there.
	JobCatalog ports.JobCatalog
	Quota      quota.Store // checked at submission, given back on cancellation
	Blobs      ports.BlobStore
	Bus        ports.EventBus
	Engines    ports.EngineRegistry // the pair is checked at submission
	Layout     ports.RTLLayout      // nil: no RTL estimate
	// Packages reads every part of a submitted .docx the pipeline will
	// parse, so a bad part is refused at upload (nil: no deep check).
	Packages ports.PackageChecker
	// Docs and Detector detect a source_lang=auto document's language at
	// submission; either nil: the pipeline alone detects it.
	Docs     ports.DocumentEngine
	Detector ports.LanguageDetector
	Fetcher  ports.URLFetcher // nil: translate-url unavailable
	// Glossaries resolves a submission's glossary_id; nil: 503 for a
	// submission that names one.
	Glossaries ports.GlossaryStore
	// Converter turns .doc, .odt and .rtf into .docx once for a batch or a
	// quote; nil: those formats are refused there.
	Converter ports.Converter
	// Batches finds a batch's jobs and held jobs past their hold; nil: 503
	// on the batch resource and held jobs are never dropped.
	Batches ports.Batches
	// Estimator, Throughput and AccountMemory answer quotes: the
	// translation planned without an engine call, the engines' measured
	// speed, and the account's own memory; nil Estimator: quotes count
	// words only.
	Estimator     Estimator
	Throughput    ports.EngineThroughput
	AccountMemory ports.AccountMemory
	Clock         ports.Clock
	NewID         func() string
}

// callerJob returns a job of the caller. Another account's job, or one past
// its retention, is not found: ids of others are never confirmed.
func callerJob(ctx context.Context, jobs ports.JobStore, clock ports.Clock, cfg Config, c *Caller, id string) (*job.Job, error) {
	j, err := jobs.GetJob(ctx, id)
	if errors.Is(err, ports.ErrNotFound) || (err == nil && (j.AccountID != c.Account.ID || clock.Now().Sub(j.CreatedAt) >= cfg.JobRetention)) {
		return nil, fail(KindNotFound, "job %s not found or expired", id)
	}
	return j, err
}

// expireOutput deletes a job's files and then records when; the job
// record stays until its retention ends. A delete that fails (the bucket
// down) records nothing, so the next sweep tries again: the download
// answers 410 meanwhile, and the files do not wait for the retention.
func expireOutput(ctx context.Context, blobs ports.BlobStore, jobs ports.JobStore, clock ports.Clock, id string) error {
	if err := blobs.DeletePrefix(ctx, job.Prefix(id)); err != nil {
		return fmt.Errorf("expiring the output of job %s: %w", id, err)
	}
	now := clock.Now()
	_, err := jobs.UpdateJob(ctx, id, func(j *job.Job) error {
		if j.ExpiredAt == nil {
			j.ExpiredAt = &now
		}
		return nil
	})
	return err
}

func (s *Jobs) expireOutput(ctx context.Context, id string) error {
	return expireOutput(ctx, s.Blobs, s.Jobs, s.Clock, id)
}

// withRevision runs use on j's current revision files. When they are gone
// because a revision replaced them since j was read (an edit saved
// meanwhile, perhaps in another process: use returns ports.ErrNotFound
// and the job's folder has moved), it runs use again on the job as it is
// now, and returns the job use last ran on.
func withRevision(ctx context.Context, jobs ports.JobStore, j *job.Job, use func(*job.Job) error) (*job.Job, error) {
	for attempt := 1; ; attempt++ {
		err := use(j)
		if !errors.Is(err, ports.ErrNotFound) || attempt == 3 {
			return j, err
		}
		now, gerr := jobs.GetJob(ctx, j.ID)
		if gerr != nil || now.Files == j.Files {
			return j, err
		}
		j = now
	}
}

// openRevisionFile opens j's file at key(j), on the current revision
// (withRevision), and returns the job it opened it for.
func openRevisionFile(ctx context.Context, jobs ports.JobStore, blobs ports.BlobStore, j *job.Job, key func(*job.Job) string) (ports.Blob, *job.Job, error) {
	var b ports.Blob
	j, err := withRevision(ctx, jobs, j, func(j *job.Job) (err error) {
		b, err = blobs.Open(ctx, key(j))
		return err
	})
	return b, j, err
}
