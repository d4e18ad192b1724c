package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// JobList is one page of the caller's jobs.
type JobList struct {
	Jobs       []JobStatus `json:"jobs" doc:"Newest first; the same fields as GET /jobs/{job_id}"`
	NextCursor *string     `json:"next_cursor" nullable:"true" doc:"Pass as cursor to read the next page; null on the last page"`
}

type listJobsInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	Status string `query:"status" enum:"pending,processing,completed,failed" doc:"Only jobs in this status"`
	Cursor string `query:"cursor" maxLength:"512" doc:"next_cursor of the previous page"`
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"20" doc:"At most this many jobs"`
}

type listJobsOutput struct{ Body JobList }

type cancelJobOutput struct {
	Status int
	Body   *JobStatus
}

// registerJobCatalog adds listing and cancelling jobs.
func (a *API) registerJobCatalog() {
	huma.Register(a.api, huma.Operation{
		OperationID: "listJobs", Method: http.MethodGet, Path: "/jobs", Tags: []string{"Jobs"},
		Summary: "List jobs",
		Description: "The caller's jobs still within their retention, newest first, a page at a time: " +
			"follow `next_cursor` until it is null. Jobs created while paging do not shift later pages.",
		Security: security, Errors: []int{401, 403, 422, 429},
	}, a.listJobs)

	huma.Register(a.api, huma.Operation{
		OperationID: "cancelJob", Method: http.MethodDelete, Path: "/jobs/{job_id}", Tags: []string{"Jobs"},
		Summary: "Cancel or delete a job",
		Description: "A `pending` or `processing` job is cancelled: it ends `failed` with the error `cancelled`, " +
			"the words reserved for it are given back, its files are deleted and `job.failed` is sent to webhooks; " +
			"the answer is 200 with the job. A finished job (`completed` or `failed`) is deleted with its files: 204, " +
			"and the job is 404 afterwards; with `keep_finished=true` a finished job is left as it is and returned (200), " +
			"so a client stopping the jobs it started never deletes a translation that completed meanwhile.",
		Security: security, Errors: []int{401, 403, 404, 429},
		Responses: map[string]*huma.Response{"204": {Description: "The finished job and its files were deleted"}},
	}, a.cancelJob)
}

func (a *API) listJobs(ctx context.Context, in *listJobsInput) (*listJobsOutput, error) {
	page, err := a.svc.Jobs.ListJobs(ctx, caller(ctx), strings.TrimSpace(in.Status), in.Cursor, in.Limit)
	if err != nil {
		return nil, a.fail(err)
	}
	out := &listJobsOutput{Body: JobList{Jobs: make([]JobStatus, 0, len(page.Jobs)), NextCursor: strp(page.Next)}}
	for _, j := range page.Jobs {
		out.Body.Jobs = append(out.Body.Jobs, statusOf(j))
	}
	return out, nil
}

// cancelJobInput is a job and whether a finished one is kept.
type cancelJobInput struct {
	APIKey       string `header:"X-API-Key" required:"false" doc:"API key"`
	JobID        string `path:"job_id" format:"uuid" doc:"Job identifier"`
	KeepFinished bool   `query:"keep_finished" doc:"Only cancel: a job already completed or failed is left as it is and returned (200) instead of deleted"`
}

func (a *API) cancelJob(ctx context.Context, in *cancelJobInput) (*cancelJobOutput, error) {
	cancel := a.svc.Jobs.CancelJob
	if in.KeepFinished {
		cancel = a.svc.Jobs.CancelUnfinished
	}
	c, err := cancel(ctx, caller(ctx), in.JobID)
	if err != nil {
		return nil, a.fail(err)
	}
	if c.Deleted {
		return &cancelJobOutput{Status: http.StatusNoContent}, nil
	}
	st := statusOf(c.Job)
	return &cancelJobOutput{Status: http.StatusOK, Body: &st}, nil
}

// webhooksUnderPrefix answers the specification's /api/webhooks operations
// under /v1/api/webhooks too: code generators take one base address (the
// contract's /v1) and ignore an operation's own server, so a generated
// client calls /v1/api/webhooks….
func (a *API) webhooksUnderPrefix() {
	strip := http.StripPrefix(Prefix, a.mux)
	a.mux.Handle(Prefix+WebhooksPath, strip)
	a.mux.Handle(Prefix+WebhooksPath+"/", strip)
}
