package service

import (
	"context"
	"errors"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// JobOptions are what a client asks of a job beyond its document, the same
// for an upload and a URL. The API declares them once for both
// (adapters/httpapi JobOptions); accept puts them on the job.
type JobOptions struct {
	TargetLang string // name or code; "" means Arabic
	SourceLang string // name, code or "auto"; "" means auto
	Mode       string // "" means professional
	PDF        bool   // also render the translation to PDF (pdf_url in job.completed)
	GlossaryID string // one of the caller's glossaries for the pair; "" for none
	Bilingual  bool   // also make the bilingual document (bilingual_url in job.completed)
	// TargetLangs, when set, makes one job per target from the one
	// document, as a batch (TargetLang is then ignored).
	TargetLangs []string
	// Hold keeps the job pending, nothing started or charged, until the
	// caller confirms it (ConfirmJob) or cancels it; see Config.HoldFor.
	Hold bool
}

// SubmitRequest is a document to translate and how.
type SubmitRequest struct {
	Name    string        // file name as uploaded
	NameFn  func() string // or: the name known once Body is read (URL fetches)
	Body    io.Reader     // the document; read once, streamed to the blob store
	FromURL bool          // format errors are 400 instead of 422
	JobOptions
}

// Accepted is what a submission returns.
type Accepted struct {
	Job *job.Job
	RTL *job.RTLReport // estimate from a pre-scan; nil where direction is irrelevant
}

// queue turns a received document into a pending job. On any error the
// document is deleted.
func (s *Jobs) queue(ctx context.Context, c *Caller, up *Upload, r SubmitRequest, opts Options) (*Accepted, error) {
	acc, err := s.accept(ctx, c, up, r, opts)
	if err != nil {
		s.Discard(ctx, up)
		return nil, err
	}
	return acc, nil
}

func (s *Jobs) accept(ctx context.Context, c *Caller, up *Upload, r SubmitRequest, opts Options) (*Accepted, error) {
	formatErr := KindUnprocessable
	if up.fromURL {
		formatErr = KindBadURL
	}
	format := up.Format
	blob, err := s.Blobs.Open(ctx, up.Key)
	if err != nil {
		return nil, err
	}
	defer blob.Close()
	// The whole file is here now: confirm the type and refuse what cannot
	// be translated (corrupt, encrypted, zip bombs) before it becomes a job.
	if format, err = s.verify(ctx, blob, formatErr, ""); err != nil {
		return nil, err
	}
	var detected func(*job.Job)
	if opts.Source == nil && format == docformat.DOCX {
		if detected, err = s.checkDetected(ctx, blob, opts); err != nil {
			return nil, err
		}
	}

	acc, err := s.create(ctx, c, up.ID, r.name(), format, blob, r, opts, detected)
	if err == nil && !acc.Job.Held() {
		s.announce(ctx, acc.Job)
	}
	return acc, err
}

// verify confirms the type of a whole stored document and refuses what
// cannot be translated: corrupt, encrypted, zip bombs, and .docx packages
// with a part the pipeline could not read. Errors are of kind formatErr,
// their message prefixed with name when given.
func (s *Jobs) verify(ctx context.Context, blob ports.Blob, formatErr Kind, name string) (docformat.Format, error) {
	bad := func(err error) error {
		msg := err.Error()
		if name != "" {
			msg = name + ": " + msg
		}
		return &Error{Kind: formatErr, Message: msg, Err: err}
	}
	format, err := docformat.VerifyPackage(blob, blob.Size())
	if err != nil {
		return "", bad(err)
	}
	if s.Packages != nil && format == docformat.DOCX {
		if err := s.Packages.CheckPackage(ctx, blob); err != nil {
			if errors.Is(err, ports.ErrBadPackage) {
				return "", bad(err)
			}
			return "", err
		}
	}
	return format, nil
}

// create makes the pending job id of a verified stored input (blob, in
// format), held when r asks to, with what edit adds (a batch's id and
// source language); the caller announces it.
func (s *Jobs) create(ctx context.Context, c *Caller, id, name string, format docformat.Format, blob ports.Blob, r SubmitRequest, opts Options, edit func(*job.Job)) (*Accepted, error) {
	now := s.Clock.Now()
	j := job.New(id, c.Account.ID, now)
	j.TargetLang = opts.Target.Code
	j.SourceLang = "auto"
	if opts.Source != nil {
		j.SourceLang = opts.Source.Code
	}
	j.Mode = opts.Mode
	j.GlossaryID = opts.GlossaryID
	j.Format = string(format)
	j.OriginalName = cleanName(name, string(format))
	if edit != nil {
		edit(j)
	}
	if r.PDF {
		j.PDF = job.PDFRequested
	}
	if r.Bilingual {
		j.Bilingual = job.PDFRequested
	}
	if r.Hold {
		_ = j.Hold(now.Add(s.Config.holdFor()))
	}

	var est *job.RTLReport
	var err error
	// The layout estimates from the document's own direction and script
	// as well as the pair (source auto included); it returns nil where
	// nothing is right to left.
	if s.Layout != nil && format == docformat.DOCX {
		if _, err := blob.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		if est, err = s.Layout.Estimate(ctx, blob, layoutRequest(opts)); err != nil {
			est = nil // an estimate is advice; the job still runs
		}
		j.RTL = est
	}
	if err = s.Jobs.CreateJob(ctx, j); err != nil {
		return nil, err
	}
	return &Accepted{Job: j, RTL: est}, nil
}

// announce hands a pending job to the pipeline. A failed publish is not
// the client's problem: the job is stored, and the pipeline's recovery
// republishes the event of a job still pending after a minute.
func (s *Jobs) announce(ctx context.Context, j *job.Job) {
	ev := ports.JobEvent{EventID: ports.StageEventID(j.ID, ports.TopicAccepted), JobID: j.ID, AccountID: j.AccountID, Stage: j.Stage, Status: j.Status, At: s.Clock.Now()}
	_ = s.Bus.Publish(ctx, ports.TopicAccepted, ev)
}

// cleanName keeps the base name of an uploaded file, without control
// characters, and gives it an extension when it has none.
func cleanName(name, format string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base(strings.TrimSpace(name))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '"' || isBidiControl(r) {
			return -1
		}
		return r
	}, name)
	if name == "" || name == "." || name == "/" {
		name = "document." + format
	}
	if len(name) > 200 { // its last 200 bytes, from a character's start
		i := len(name) - 200
		for i < len(name) && !utf8.RuneStart(name[i]) {
			i++
		}
		name = name[i:]
	}
	return name
}

func (r SubmitRequest) name() string {
	if r.NameFn != nil {
		return r.NameFn()
	}
	return r.Name
}

// checkDetected detects the language of a document sent with source auto
// (the upload is read here already) as the job's pass would
// (translate.DetectSource on the same text) and refuses, before the job
// exists, a detected pair no engine serves. The job takes the language
// and the detection's warning from here (the returned edit), so its pass
// does not detect again; an unreadable document or a failed detection is
// left to the pass.
func (s *Jobs) checkDetected(ctx context.Context, blob ports.Blob, o Options) (func(*job.Job), error) {
	if s.Docs == nil || s.Detector == nil {
		return nil, nil
	}
	if _, err := blob.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	text, err := plainText(ctx, s.Docs, blob)
	if err != nil {
		return nil, nil
	}
	src, warn, err := translate.DetectSource(s.Detector, text)
	if err != nil {
		return nil, nil
	}
	detected := func(j *job.Job) {
		j.DetectedLang = src.Code
		if warn != "" {
			j.Warn(warn)
		}
	}
	if src.Code == o.Target.Code || s.Engines == nil {
		return detected, nil // the pass says what it does with nothing to translate
	}
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return nil, enginesUnavailable(err)
	}
	if !translate.Servable(engines, src.Code, o.Target.Code) {
		return nil, fail(KindUnprocessable, "the document's language was detected as %s (give source_lang if that is wrong), and %s", src.Name, translate.Unserved(engines, src.Code, o.Target))
	}
	return detected, nil
}
