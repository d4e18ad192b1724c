package service

import (
	"bufio"
	"context"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/docformat"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/language"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/translate"
)

// SubmitRequest is a document to translate and how.
type SubmitRequest struct {
	Name       string        // file name as uploaded
	NameFn     func() string // or: the name known once Body is read (URL fetches)
	Body       io.Reader     // the document; read once, streamed to the blob store
	TargetLang string        // name or code; "" means Arabic
	SourceLang string        // name, code or "auto"; "" means auto
	Mode       string        // "" means professional
	FromURL    bool          // format errors are 400 instead of 422
}

// Accepted is what a submission returns.
type Accepted struct {
	Job *job.Job
	RTL *job.Fidelity // estimate from a pre-scan; nil where direction is irrelevant
}

// Options are the validated language and mode choices of a request.
type Options struct {
	Source *language.Language // nil: auto
	Target language.Language
	Mode   job.Mode
}

// ParseOptions validates target, source and mode with the contract's defaults.
func ParseOptions(target, source, mode string) (Options, error) {
	var o Options
	if strings.TrimSpace(target) == "" {
		target = "Arabic"
	}
	t, err := language.Lookup(target)
	if err != nil {
		return o, &Error{Kind: KindUnprocessable, Message: "target_lang: " + err.Error(), Err: err}
	}
	o.Target = t
	if s := strings.TrimSpace(source); s != "" && !strings.EqualFold(s, "auto") {
		l, err := language.Lookup(s)
		if err != nil {
			return o, &Error{Kind: KindUnprocessable, Message: "source_lang: " + err.Error(), Err: err}
		}
		o.Source = &l
	}
	m, err := job.ParseMode(strings.ToLower(strings.TrimSpace(mode)))
	if err != nil {
		return o, &Error{Kind: KindUnprocessable, Message: err.Error(), Err: err}
	}
	o.Mode = m
	return o, nil
}

// Upload is a received document, stored but not yet a job.
type Upload struct {
	ID      string
	Key     string
	Format  docformat.Format
	Size    int64
	fromURL bool
}

// Submit validates a request, stores the document and queues a job.
func (s *Service) Submit(ctx context.Context, c *Caller, r SubmitRequest) (*Accepted, error) {
	opts, err := ParseOptions(r.TargetLang, r.SourceLang, r.Mode)
	if err != nil {
		return nil, err
	}
	if err := s.checkPair(ctx, opts); err != nil {
		return nil, err
	}
	if err := s.CheckQuota(ctx, c); err != nil {
		return nil, err
	}
	up, err := s.Receive(ctx, r.Body, r.FromURL)
	if err != nil {
		return nil, err
	}
	return s.Queue(ctx, c, up, r)
}

// Receive decides a document's type from its first bytes and streams it
// to the blob store, refusing more than MaxUpload bytes.
func (s *Service) Receive(ctx context.Context, body io.Reader, fromURL bool) (*Upload, error) {
	formatErr := KindUnprocessable
	if fromURL {
		formatErr = KindBadURL
	}
	br := bufio.NewReaderSize(body, 8<<10)
	head, _ := br.Peek(8 << 10)
	if len(head) == 0 {
		return nil, fail(formatErr, "the document is empty")
	}
	format, err := docformat.Sniff(head)
	if err != nil {
		return nil, &Error{Kind: formatErr, Message: err.Error(), Err: err}
	}
	id := s.NewID()
	up := &Upload{ID: id, Key: job.InputKey(id), Format: format, fromURL: fromURL}
	n, err := s.Blobs.Put(ctx, up.Key, io.LimitReader(br, s.Config.MaxUpload+1))
	if err == nil && n > s.Config.MaxUpload {
		err = fail(KindTooLarge, "the document is larger than %d MB", s.Config.MaxUpload>>20)
	}
	if err != nil {
		s.Discard(ctx, up)
		var tl TooLarge
		if errors.As(err, &tl) && tl.TooLarge() {
			return nil, fail(KindTooLarge, "the document is larger than %d MB", s.Config.MaxUpload>>20)
		}
		return nil, err
	}
	up.Size = n
	return up, nil
}

// Discard deletes a received document that will not become a job.
func (s *Service) Discard(ctx context.Context, up *Upload) {
	_ = s.Blobs.DeletePrefix(context.WithoutCancel(ctx), job.Prefix(up.ID))
}

// Queue turns a received document into a pending job. On any error the
// document is deleted.
func (s *Service) Queue(ctx context.Context, c *Caller, up *Upload, r SubmitRequest) (*Accepted, error) {
	opts, err := ParseOptions(r.TargetLang, r.SourceLang, r.Mode)
	if err == nil {
		err = s.checkPair(ctx, opts)
	}
	if err == nil {
		err = s.CheckQuota(ctx, c)
	}
	var acc *Accepted
	if err == nil {
		acc, err = s.accept(ctx, c, up, r, opts)
	}
	if err != nil {
		s.Discard(ctx, up)
		return nil, err
	}
	return acc, nil
}

func (s *Service) accept(ctx context.Context, c *Caller, up *Upload, r SubmitRequest, opts Options) (*Accepted, error) {
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
	if format, err = docformat.VerifyPackage(blob, blob.Size()); err != nil {
		return nil, &Error{Kind: formatErr, Message: err.Error(), Err: err}
	}

	if opts.Source == nil && format == docformat.DOCX {
		if err := s.checkDetected(ctx, blob, opts); err != nil {
			return nil, err
		}
	}

	now := s.Clock.Now()
	j := job.New(up.ID, c.Account.ID, now)
	j.TargetLang = opts.Target.Name
	j.SourceLang = "auto"
	if opts.Source != nil {
		j.SourceLang = opts.Source.Name
	}
	j.Mode = opts.Mode
	j.Format = string(format)
	j.OriginalName = cleanName(r.name(), string(format))

	var est *job.Fidelity
	// The layout estimates from the document's own direction and script
	// as well as the pair (source auto included); it returns nil where
	// nothing is right to left.
	if s.Layout != nil && format == docformat.DOCX {
		if est, err = s.Layout.Estimate(ctx, blob, layoutRequest(opts)); err != nil {
			est = nil // an estimate is advice; the job still runs
		}
		j.RTL = est
	}
	if err := s.Jobs.CreateJob(ctx, j); err != nil {
		return nil, err
	}
	ev := ports.JobEvent{EventID: ports.StageEventID(j.ID, ports.TopicAccepted), JobID: j.ID, AccountID: j.AccountID, Stage: j.Stage, Status: j.Status, At: now}
	// A failed publish is not the client's problem: the job is stored, and
	// the pipeline's recovery republishes the event of a job still pending
	// after a minute.
	_ = s.Bus.Publish(ctx, ports.TopicAccepted, ev)
	return &Accepted{Job: j, RTL: est}, nil
}

func layoutRequest(o Options) ports.LayoutRequest {
	r := ports.LayoutRequest{TargetLang: o.Target.Code}
	if o.Source != nil {
		r.SourceLang = o.Source.Code
	}
	return r
}

// CheckQuota refuses a submission when the period's words are used up.
func (s *Service) CheckQuota(ctx context.Context, c *Caller) error {
	a := c.Account
	limit := a.Limits().LimitWords
	if limit == nil {
		return nil
	}
	used, err := s.Quota.Used(ctx, a.ID, account.Period(s.Clock.Now()))
	if err != nil {
		return err
	}
	if used >= *limit {
		return fail(KindQuota, "monthly word quota exhausted: %d of %d words used this month", used, *limit)
	}
	return nil
}

// checkPair refuses a pair no enabled engine serves, when the source is known.
func (s *Service) checkPair(ctx context.Context, o Options) error {
	if s.Engines == nil {
		return nil
	}
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return &Error{Kind: KindUnavailable, Message: "translation engines are unavailable: " + err.Error(), Err: err}
	}
	if o.Source == nil {
		if !producible(engines, o.Target) {
			return fail(KindUnprocessable, "no configured engine translates into %s; GET /v1/languages lists the languages available", o.Target.Name)
		}
		return nil
	}
	if o.Source.Code == o.Target.Code {
		return nil // nothing to translate; layout still applies
	}
	if !translate.Servable(engines, o.Source.Code, o.Target.Code) {
		return fail(KindUnprocessable, "no configured engine translates %s to %s; GET /v1/languages lists the languages available", o.Source.Name, o.Target.Name)
	}
	return nil
}

// cleanName keeps the base name of an uploaded file, without control
// characters, and gives it an extension when it has none.
func cleanName(name, format string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base(strings.TrimSpace(name))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '"' {
			return -1
		}
		return r
	}, name)
	if name == "" || name == "." || name == "/" {
		name = "document." + format
	}
	if len(name) > 200 {
		name = name[len(name)-200:]
	}
	return name
}

func producible(engines []ports.Engine, l language.Language) bool {
	for _, t := range translate.Targets(engines) {
		if t.Code == l.Code {
			return true
		}
	}
	return false
}

func (r SubmitRequest) name() string {
	if r.NameFn != nil {
		return r.NameFn()
	}
	return r.Name
}
