// Package job is the translation job and its state machine. Only this
// package changes a job's status, so every transition is checked here.
package job

import (
	"errors"
	"fmt"
	"time"

	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Status is where a job is in its life.
type Status string

const (
	Pending    Status = "pending"
	Processing Status = "processing"
	Completed  Status = "completed"
	Failed     Status = "failed"
)

// Terminal reports whether no further transition is possible.
func (s Status) Terminal() bool { return s == Completed || s == Failed }

// Stage is the last pipeline stage a job finished; stages are idempotent
// and skip work a redelivered event finds already done.
type Stage string

const (
	StageAccepted   Stage = "accepted"
	StageConverted  Stage = "converted"
	StageExtracted  Stage = "extracted"
	StageTranslated Stage = "translated"
	StageAssembled  Stage = "assembled"
	StageLaidOut    Stage = "laid_out"
	StageFinished   Stage = "finished"
)

var stageOrder = map[Stage]int{
	StageAccepted: 0, StageConverted: 1, StageExtracted: 2, StageTranslated: 3,
	StageAssembled: 4, StageLaidOut: 5, StageFinished: 6,
}

// Reached reports whether stage s is at or past stage t.
func (s Stage) Reached(t Stage) bool { return stageOrder[s] >= stageOrder[t] }

// RTLReport is the RTL-layout quality report of a job (rtl_fidelity in the
// API): full, partial or degraded, with warnings.
type RTLReport struct {
	Status   string   `json:"status"` // full, partial, degraded
	Warnings []string `json:"warnings"`
}

// PDFState is where a job's PDF rendition is: the empty state when the
// job did not ask for one.
type PDFState string

const (
	PDFRequested PDFState = "requested" // asked for at submission, not yet rendered
	PDFReady     PDFState = "ready"     // rendered and stored beside the output
	PDFFailed    PDFState = "failed"    // rendering failed; the job's warnings say why
)

// Metrics counts what a job cost the engines.
type Metrics struct {
	EngineCalls int `json:"engine_calls"`
	CharsSent   int `json:"chars_sent"`
	CacheHits   int `json:"cache_hits"`
	Segments    int `json:"segments"`
}

// Leg is one step of a job's route: an engine translating one direction
// (registry codes). English → Spanish → French is two legs.
type Leg struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Engine string `json:"engine"`
}

// Job is one translation request.
type Job struct {
	ID           string
	AccountID    string
	Status       Status
	Stage        Stage
	SourceLang   string // as requested: an ISO code (plugins/sdk/language) or "auto"
	DetectedLang string // ISO code of the detected or confirmed source language, once known
	TargetLang   string // ISO code; names are for the API edge only
	Mode         translation.Mode
	GlossaryID   string // the account's glossary enforced on this job; "" for none
	OriginalName string
	Format       string // docx, doc, odt, rtf (from content sniffing)
	Words        int
	Engine       string
	Route        []Leg // the languages and engine of each leg; more than one over a chain
	Warnings     []string
	RTL          *RTLReport
	Metrics      Metrics
	Structure    string // what the structure check (source against output) found
	PDF          PDFState
	// Bilingual is where the job's bilingual document (source beside
	// target) is, in the states of the PDF: "" when not asked for.
	Bilingual PDFState
	Error     string
	// Attempts counts the starts of the current stage that did not end
	// (the process died in them), to stop a crash loop; a stage that
	// returns an error gives its start back.
	Attempts int
	// RetryingSince is when the current stage first failed with an error
	// worth retrying (an outage); nil while it has not. The retries of a
	// stage are bounded by the time since then, not by their number, so an
	// outage does not use them up.
	RetryingSince *time.Time
	// What an ended job still owes, each cleared once done: AnnounceDue,
	// its terminal event (job_completed, job_failed) on the bus; CleanupDue,
	// a failed job's reserved words given back and its files deleted. They
	// are set with the terminal state, in the same write, so an outage
	// that stops the follow-up when the job ends cannot lose it: a sweep
	// finishes what is due.
	AnnounceDue bool
	CleanupDue  bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
	CompletedAt *time.Time
	ExpiredAt   *time.Time // when the output was deleted after the download window
	// BatchID groups the jobs of one submission with several targets (or
	// documents, from a .zip); "" for a job submitted alone.
	BatchID string
	// HeldUntil is set while a job submitted with hold waits for its
	// owner's confirmation (hold.go); nil otherwise.
	HeldUntil *time.Time
	// Revision counts the outputs rebuilt from post-edited targets (an
	// XLIFF import or a segment edited): 0 is the machine translation; each
	// revision completes the job again (CompletedAt moves, opening a fresh
	// download window).
	Revision int
	// Files is the folder under the job's prefix holding the current
	// revision's files (keys.go): "" for the machine translation's, a
	// fresh one for each revision.
	Files string
	// Review is what the review of the translation found (package
	// review): the sentences to check, by kind; nil before translation.
	Review *review.Summary
}

// ShownWarnings are the warnings a person reads with the job: what was
// noted while processing, then the review's sentences about the document
// ("3 sentences lost a link…"), which follow the latest revision.
func (j *Job) ShownWarnings() []string {
	out := append([]string(nil), j.Warnings...)
	return append(out, j.Review.Sentences()...)
}

// ErrTransition is returned for a transition the state machine forbids.
var ErrTransition = errors.New("job: transition not allowed")

// New is a job as accepted by the API.
func New(id, account string, now time.Time) *Job {
	return &Job{ID: id, AccountID: account, Status: Pending, Stage: StageAccepted, CreatedAt: now, UpdatedAt: now}
}

// Start moves a pending job to processing. Starting a processing job again
// is allowed: a redelivered event after a crash resumes it.
func (j *Job) Start(now time.Time) error {
	switch j.Status {
	case Pending, Processing:
		j.Status, j.UpdatedAt = Processing, now
		return nil
	}
	return fmt.Errorf("%w: %s -> processing", ErrTransition, j.Status)
}

// Advance records a finished stage of a processing job.
func (j *Job) Advance(s Stage, now time.Time) error {
	if j.Status != Processing {
		return fmt.Errorf("%w: stage %s on a %s job", ErrTransition, s, j.Status)
	}
	if stageOrder[s] > stageOrder[j.Stage] {
		j.Stage = s
	}
	j.UpdatedAt, j.Attempts, j.RetryingSince = now, 0, nil
	return nil
}

// Complete ends a processing job successfully.
func (j *Job) Complete(now time.Time) error {
	if j.Status != Processing {
		return fmt.Errorf("%w: %s -> completed", ErrTransition, j.Status)
	}
	j.Status, j.Stage, j.UpdatedAt = Completed, StageFinished, now
	t := now
	j.CompletedAt = &t
	j.Attempts, j.RetryingSince, j.AnnounceDue = 0, nil, true
	return nil
}

// Revise records a new output rebuilt from post-edited targets: the job
// completes again at now, so the download window starts afresh.
func (j *Job) Revise(now time.Time) error {
	if j.Status != Completed {
		return fmt.Errorf("%w: revision of a %s job", ErrTransition, j.Status)
	}
	j.Revision++
	j.UpdatedAt = now
	t := now
	j.CompletedAt = &t
	j.AnnounceDue = true // job.completed again, for the revision
	return nil
}

// Fail ends a non-terminal job with a human-readable reason.
func (j *Job) Fail(reason string, now time.Time) error {
	if j.Status.Terminal() {
		return fmt.Errorf("%w: %s -> failed", ErrTransition, j.Status)
	}
	j.Status, j.Error, j.UpdatedAt = Failed, reason, now
	t := now
	j.CompletedAt = &t
	j.Attempts, j.RetryingSince, j.AnnounceDue, j.CleanupDue = 0, nil, true, true
	return nil
}

// RetryingFor is how long the current stage has been failing with errors
// worth retrying at now; 0 if it has not failed.
func (j *Job) RetryingFor(now time.Time) time.Duration {
	if j.RetryingSince == nil {
		return 0
	}
	return now.Sub(*j.RetryingSince)
}

// Retrying records a failed attempt of the current stage that is worth
// retrying: it gives the start back (it did not crash) and keeps when
// the stage first failed.
func (j *Job) Retrying(now time.Time) {
	j.Attempts = max(j.Attempts-1, 0)
	if j.RetryingSince == nil {
		t := now
		j.RetryingSince = &t
	}
}

// Warn adds a warning once.
func (j *Job) Warn(w string) {
	for _, have := range j.Warnings {
		if have == w {
			return
		}
	}
	j.Warnings = append(j.Warnings, w)
}

// DownloadState says whether the output may be downloaded at now.
type DownloadState int

const (
	DownloadReady    DownloadState = iota
	DownloadNotReady               // not completed: 404
	DownloadExpired                // past the window: 410
)

// Download decides the download state for a window of ttl after completion.
func (j *Job) Download(now time.Time, ttl time.Duration) DownloadState {
	if j.Status != Completed || j.CompletedAt == nil {
		return DownloadNotReady
	}
	if j.ExpiredAt != nil || now.Sub(*j.CompletedAt) >= ttl {
		return DownloadExpired
	}
	return DownloadReady
}
