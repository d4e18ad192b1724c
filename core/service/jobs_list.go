package service

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Page sizes of ListJobs.
const (
	DefaultJobPage = 20
	MaxJobPage     = 100
)

// JobPage is one page of a caller's jobs, newest first. Next is the cursor
// of the following page, "" on the last one.
type JobPage struct {
	Jobs []*job.Job
	Next string
}

// ListJobs pages through the caller's jobs, newest first, optionally only
// those in one status. cursor is "" for the first page, else the Next of
// the page before. Jobs past their retention are not listed.
func (s *Jobs) ListJobs(ctx context.Context, c *Caller, status, cursor string, limit int) (*JobPage, error) {
	if s.JobCatalog == nil {
		return nil, fail(KindUnavailable, "listing jobs is not available on this server")
	}
	if limit <= 0 {
		limit = DefaultJobPage
	}
	limit = min(limit, MaxJobPage)
	q := ports.JobQuery{AccountID: c.Account.ID, Limit: limit + 1}
	if status != "" {
		st := job.Status(status)
		switch st {
		case job.Pending, job.Processing, job.Completed, job.Failed:
		default:
			return nil, fail(KindUnprocessable, "status is not one of pending, processing, completed, failed")
		}
		q.Status = st
	}
	if cursor != "" {
		k, err := decodeCursor(cursor)
		if err != nil {
			return nil, fail(KindUnprocessable, "cursor: not a cursor this service issued")
		}
		q.Before = k
	}
	since := s.Clock.Now().Add(-s.Config.JobRetention)
	jobs, err := s.JobCatalog.ListJobs(ctx, q, since)
	if err != nil {
		return nil, err
	}
	page := &JobPage{Jobs: jobs}
	if len(jobs) > limit {
		page.Jobs = jobs[:limit]
		last := page.Jobs[limit-1]
		page.Next = encodeCursor(ports.JobKey{CreatedAt: last.CreatedAt, ID: last.ID})
	}
	return page, nil
}

// A cursor is the last job's creation time (Unix microseconds, the store's
// precision) and id, opaque to clients.
func encodeCursor(k ports.JobKey) string {
	raw := strconv.FormatInt(k.CreatedAt.UnixMicro(), 10) + "." + k.ID
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeCursor(s string) (*ports.JobKey, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	us, id, ok := strings.Cut(string(b), ".")
	if !ok || id == "" {
		return nil, strconv.ErrSyntax
	}
	n, err := strconv.ParseInt(us, 10, 64)
	if err != nil {
		return nil, err
	}
	return &ports.JobKey{CreatedAt: time.UnixMicro(n).UTC(), ID: id}, nil
}
