// Package pipeline runs a job. The API role hands it to the workers with
// job_accepted; a worker converts it to .docx where it is not one (the
// LibreOffice converter, a step of its own) and then runs it in one pass
// (pass.go): read, translate, render and store, announcing each phase on
// the bus as it ends; job_laid_out hands the stored output to the finish:
//
//	job_accepted → convert → job_converted → translate (job_started,
//	job_extracted, job_translated) → job_laid_out → finish →
//	job_completed | job_failed
//
// Delivery is at least once, so every step is idempotent: a redelivered
// event whose step the job already passed only republishes the next event,
// and a pass rerun after a crash takes every segment translated before
// from the translation memory.
package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/output"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/settle"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// Pipeline holds what the stages need.
type Pipeline struct {
	Jobs      ports.JobStore
	Accounts  ports.AccountStore
	Quota     quota.Store
	Blobs     ports.BlobStore
	Bus       ports.EventBus
	Docs      ports.DocumentEngine    // reads and renders documents, laid out for the target's direction
	Converter ports.Converter         // nil: .doc/.odt/.rtf jobs fail with a clear message
	PDF       ports.PDFRenderer       // nil: jobs asking for a PDF complete without one, with a warning
	Bilingual ports.BilingualComposer // nil: jobs asking for a bilingual document complete without one, with a warning
	// PDFText reads PDF renditions for the review (text cut off by a
	// fixed-size box, pages added); nil: not measured.
	PDFText    ports.PDFText
	Detector   ports.LanguageDetector // nil: source_lang must be given
	Translator *translate.Translator
	Engines    ports.EngineRegistry
	Notifier   webhook.Notifier    // nil: no webhooks
	Glossaries ports.GlossaryStore // nil: jobs with a glossary fail
	// Memory holds the accounts' own translations (XLIFF post-edits, TMX
	// imports), taken before any engine; nil: none.
	Memory ports.AccountMemory
	Clock  ports.Clock
	NewID  func() string
	Log    *slog.Logger
	// MaxAttempts bounds how often a stage may start without ending (its
	// process died in it) before the job fails: a crash loop.
	MaxAttempts int
	// RetryFor bounds how long a stage may keep failing with errors worth
	// retrying before the job fails (0: DefaultRetryFor).
	RetryFor time.Duration
	// Settle settles ended jobs; nil: one on the ports above.
	Settle *settle.Settler
	// SpoolDir holds the units a pass has read or translated beyond what
	// it keeps in memory; "" is the system's temporary directory.
	SpoolDir string
	// ConvertSlots is how many jobs this process takes into the convert
	// stage at once, beyond the bus's concurrency: they mostly wait for a
	// converter instance, in their account's turn, so another account's
	// job is not stuck behind them in the bus (issue 26). Default 16.
	ConvertSlots int
	// CancelPoll is how often a running stage checks that its job has not
	// ended (cancel.go); default 1 s.
	CancelPoll time.Duration
}

// Failure is a reason to fail the job now: retrying cannot help. Apply,
// if set, records what the stage learnt before failing (the words counted)
// on the failed job.
type Failure struct {
	Msg   string
	Apply func(*job.Job)
}

func (f *Failure) Error() string { return f.Msg }

func failf(format string, args ...any) error { return &Failure{Msg: fmt.Sprintf(format, args...)} }

// step is one row of the stage table: the handler name runs on the event
// from, does its work, records the stage done on the job and publishes
// next, which starts the following row.
type step struct {
	name string
	from ports.Topic
	done job.Stage
	next ports.Topic
	work func(*Pipeline) work
}

// steps is the stage table, in pipeline order. It drives the handler
// registration and the event recovery republishes; finish then completes
// the job on the last row's event.
var steps = []step{
	{"convert", ports.TopicAccepted, job.StageConverted, ports.TopicConverted, func(p *Pipeline) work { return p.convert }},
	{"translate", ports.TopicConverted, job.StageLaidOut, ports.TopicLaidOut, func(p *Pipeline) work { return p.translate }},
}

// Register subscribes every stage to its topic.
func (p *Pipeline) Register() {
	for _, s := range steps {
		if s.name == "convert" {
			p.Bus.HandleConcurrent(s.name, s.from, cmp.Or(p.ConvertSlots, 16), p.stage(s.done, s.next, s.work(p)))
			continue
		}
		p.Bus.Handle(s.name, s.from, p.stage(s.done, s.next, s.work(p)))
	}
	p.Bus.Handle("finish", steps[len(steps)-1].next, p.finish)
	if p.Notifier != nil {
		p.Bus.Handle("notify_completed", ports.TopicCompleted, p.notify(webhook.EventJobCompleted))
		p.Bus.Handle("notify_failed", ports.TopicFailed, p.notify(webhook.EventJobFailed))
	}
}

// nextTopic is the event that starts the step after the phase a job
// reached: a pass that stopped between its phases starts again.
func nextTopic(reached job.Stage) ports.Topic {
	for _, s := range steps {
		if !reached.Reached(s.done) {
			return s.from
		}
	}
	return steps[len(steps)-1].next
}

// Recover republishes the event of every unfinished job not updated for
// idle, so jobs whose event was lost (published before a crash, or never)
// still finish. Duplicates are harmless: stages are idempotent, and a stage
// event has one id per job and topic, which the transport de-duplicates.
// A single process recovers everything at start (idle 0); with several
// processes, idle must exceed the longest stage so that jobs another
// process is working on are left alone.
func (p *Pipeline) Recover(ctx context.Context, idle time.Duration) error {
	jobs, err := p.Jobs.Unfinished(ctx)
	if err != nil {
		return err
	}
	now := p.Clock.Now()
	for _, j := range jobs {
		// No process works on a pending job, so its event (lost if the
		// publish after acceptance failed) is sent again after a minute.
		wait := idle
		if j.Status == job.Pending {
			wait = min(idle, time.Minute)
		}
		if wait > 0 && j.UpdatedAt.After(now.Add(-wait)) {
			continue
		}
		if err := p.publish(ctx, nextTopic(j.Stage), j); err != nil {
			return err
		}
	}
	return nil
}

// work does a stage's work on a snapshot of the job and returns the
// changes to record with the stage.
type work func(ctx context.Context, j *job.Job) (apply func(*job.Job), err error)

func (p *Pipeline) stage(done job.Stage, next ports.Topic, w work) ports.EventHandler {
	return func(ctx context.Context, e ports.JobEvent) error {
		var tooMany, started bool
		j, err := p.Jobs.UpdateJob(ctx, e.JobID, func(j *job.Job) error {
			if j.Status.Terminal() || j.Stage.Reached(done) {
				return nil
			}
			started = j.Status == job.Pending
			if err := j.Start(p.Clock.Now()); err != nil {
				return err
			}
			j.Attempts++
			tooMany = j.Attempts > p.maxAttempts()
			return nil
		})
		if errors.Is(err, ports.ErrNotFound) {
			return nil // deleted after its retention
		}
		if err != nil {
			return err
		}
		if j.Status.Terminal() {
			return p.settle(ctx, j) // finish what an interrupted ending began
		}
		if j.Stage.Reached(done) { // redelivered: the work is done
			return p.publish(ctx, next, j)
		}
		if tooMany {
			return p.fail(ctx, j, fmt.Sprintf("processing stopped after %d attempts at the %s stage", p.maxAttempts(), done))
		}
		if stopped, err := p.stopIfSuspended(ctx, j); stopped {
			return err
		} else if err != nil {
			return p.retryLater(ctx, j, done, err)
		}
		if started { // a worker took the job; a lost event is only a lost progress report
			if err := p.publish(ctx, ports.TopicStarted, j); err != nil {
				p.log().Warn("job_started not published", "job_id", j.ID, "err", err)
			}
		}
		began := p.Clock.Now()
		wctx, stop := p.forJob(ctx, j)
		apply, err := w(wctx, j)
		ended := errors.Is(context.Cause(wctx), errJobEnded)
		stop()
		p.log().Debug("stage ran", "job_id", j.ID, "stage", done, "took", p.Clock.Now().Sub(began), "err", err)
		if ended || errors.Is(err, job.ErrTransition) {
			return p.jobEnded(ctx, j.ID) // cancelled or given up while the work ran
		}
		if err != nil {
			var f *Failure
			if errors.As(err, &f) {
				return p.failApply(ctx, j, err.Error(), f.Apply)
			}
			if errors.Is(err, ports.ErrBadDocument) {
				return p.fail(ctx, j, err.Error())
			}
			return p.retryLater(ctx, j, done, err)
		}
		j, err = p.Jobs.UpdateJob(ctx, j.ID, func(j *job.Job) error {
			if apply != nil {
				apply(j)
			}
			return j.Advance(done, p.Clock.Now())
		})
		if errors.Is(err, job.ErrTransition) {
			// The job ended meanwhile (given up, or another process did
			// the same step and went on to the end): what this step
			// reserved or stored must not outlive a failed job.
			j, err := p.Jobs.GetJob(ctx, e.JobID)
			if err == nil && j.Status == job.Failed {
				return p.settleLate(ctx, j)
			}
			return nil
		}
		if err != nil {
			return err
		}
		return p.publish(ctx, next, j)
	}
}

// maxAttempts stops a crash loop (a stage that kills its process every
// time); passing errors are bounded by RetryFor instead.
func (p *Pipeline) maxAttempts() int {
	if p.MaxAttempts <= 0 {
		return 12
	}
	return p.MaxAttempts
}

func (p *Pipeline) log() *slog.Logger {
	if p.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return p.Log
}

func (p *Pipeline) publish(ctx context.Context, t ports.Topic, j *job.Job) error {
	return p.Bus.Publish(ctx, t, ports.JobEvent{
		EventID: ports.StageEventID(j.ID, t), JobID: j.ID, AccountID: j.AccountID,
		Stage: j.Stage, Status: j.Status, At: p.Clock.Now(), Error: j.Error,
	})
}

func (p *Pipeline) notify(event string) ports.EventHandler {
	return func(ctx context.Context, e ports.JobEvent) error {
		j, err := p.Jobs.GetJob(ctx, e.JobID)
		if errors.Is(err, ports.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return p.Notifier.Notify(ctx, j, event)
	}
}

// key names a job's intermediate file.
func key(j *job.Job, name string) string { return job.Prefix(j.ID) + name }

// sourceKey is the .docx a pass reads.
func sourceKey(j *job.Job) string {
	return job.SourceKey(j.ID, j.Format)
}

// write stores what produce writes under key k.
func (p *Pipeline) write(ctx context.Context, k string, produce func(w io.Writer) error) error {
	return output.Write(ctx, p.Blobs, k, produce)
}
