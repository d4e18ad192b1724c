package service

import (
	"context"
	"errors"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/language"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/translate"
)

// Job returns a job of the caller. Another account's job, or one past its
// retention, is not found: ids of others are never confirmed.
func (s *Service) Job(ctx context.Context, c *Caller, id string) (*job.Job, error) {
	j, err := s.Jobs.GetJob(ctx, id)
	if errors.Is(err, ports.ErrNotFound) || (err == nil && (j.AccountID != c.Account.ID || s.expired(j))) {
		return nil, fail(KindNotFound, "job %s not found or expired", id)
	}
	return j, err
}

func (s *Service) expired(j *job.Job) bool {
	return s.Clock.Now().Sub(j.CreatedAt) >= s.Config.JobRetention
}

// Download is an opened output document.
type Download struct {
	Blob ports.Blob
	Name string // Content-Disposition file name
}

// Download opens a completed job's output while its window is open. After
// the window the output is deleted and the answer is 410.
func (s *Service) Download(ctx context.Context, c *Caller, id string) (*Download, error) {
	j, err := s.Job(ctx, c, id)
	if err != nil {
		return nil, err
	}
	switch j.Download(s.Clock.Now(), s.Config.DownloadTTL) {
	case job.DownloadNotReady:
		return nil, fail(KindNotFound, "job %s is %s: the translated file is available once the job is completed", id, j.Status)
	case job.DownloadExpired:
		s.expireOutput(ctx, j.ID)
		return nil, fail(KindGone, "the translated file of job %s expired %s after completion and was deleted", id, s.Config.DownloadTTL)
	}
	b, err := s.Blobs.Open(ctx, job.OutputKey(j.ID))
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindGone, "the translated file of job %s was deleted", id)
	}
	if err != nil {
		return nil, err
	}
	return &Download{Blob: b, Name: DownloadName(j.OriginalName, j.TargetLang)}, nil
}

// expireOutput deletes a job's files and records when; the job record stays
// until its retention ends.
func (s *Service) expireOutput(ctx context.Context, id string) {
	_ = s.Blobs.DeletePrefix(ctx, job.Prefix(id))
	now := s.Clock.Now()
	_, _ = s.Jobs.UpdateJob(ctx, id, func(j *job.Job) error {
		if j.ExpiredAt == nil {
			j.ExpiredAt = &now
		}
		return nil
	})
}

// Sweep deletes outputs past their download window and jobs past their
// retention. It runs periodically.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.Clock.Now()
	done, err := s.Jobs.CompletedBefore(ctx, now.Add(-s.Config.DownloadTTL))
	if err != nil {
		return err
	}
	for _, j := range done {
		s.expireOutput(ctx, j.ID)
	}
	gone, err := s.Jobs.DeleteJobsBefore(ctx, now.Add(-s.Config.JobRetention))
	if err != nil {
		return err
	}
	for _, id := range gone {
		_ = s.Blobs.DeletePrefix(ctx, job.Prefix(id))
	}
	return nil
}

// DownloadName derives the output file name: "report.docx" translated to
// Spanish becomes "report.es.docx".
func DownloadName(original, target string) string {
	base := stripBidi(original)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if base == "" {
		base = "document"
	}
	suffix := strings.ToLower(target)
	if l, err := language.Lookup(target); err == nil {
		suffix = l.Code
	}
	return base + "." + suffix + ".docx"
}

// Languages lists the language names the enabled engines can produce.
func (s *Service) Languages(ctx context.Context) ([]string, error) {
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return nil, &Error{Kind: KindUnavailable, Message: "translation engines are unavailable: " + err.Error(), Err: err}
	}
	var names []string
	for _, l := range translate.Targets(engines) {
		names = append(names, l.Name)
	}
	return names, nil
}
