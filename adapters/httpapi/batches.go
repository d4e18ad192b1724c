package httpapi

import (
	"context"
	"net/http"
	"reflect"

	"github.com/danielgtaylor/huma/v2"
)

// BatchAccepted answers a submission that made several jobs.
type BatchAccepted struct {
	BatchID string        `json:"batch_id" format:"uuid" doc:"Identifier of the batch"`
	PollURL string        `json:"poll_url" doc:"Relative path of the batch resource" example:"/v1/batches/0b7c…"`
	Jobs    []JobAccepted `json:"jobs" doc:"The usual acceptance body of each job, in order: for each document, each target in the order given"`
	Skipped []string      `json:"skipped" doc:"Entries of an uploaded .zip that are not documents (.docx, .doc, .odt, .rtf) and made no job: at most 100 names, without direction or other control characters, then a last entry '… and N more' counting the rest"`
}

// BatchStatus is the state of a batch and of each of its jobs.
type BatchStatus struct {
	BatchID string      `json:"batch_id" format:"uuid"`
	Status  string      `json:"status" enum:"pending,processing,completed,failed,partial" doc:"pending until a job starts; processing while any job is unfinished; then completed (all completed), failed (all failed) or partial (some of each)"`
	Total   int         `json:"total" doc:"Jobs in the batch"`
	Counts  BatchCounts `json:"counts"`
	Jobs    []JobStatus `json:"jobs" doc:"Each job's status, as GET /jobs/{job_id} answers it, in the order they were made"`
}

// BatchCounts counts a batch's jobs by status.
type BatchCounts struct {
	Pending    int `json:"pending"`
	Processing int `json:"processing"`
	Completed  int `json:"completed"`
	Failed     int `json:"failed"`
}

type batchInput struct {
	APIKey  string `header:"X-API-Key" required:"false" doc:"API key"`
	BatchID string `path:"batch_id" format:"uuid" doc:"Batch identifier"`
}

type batchOutput struct{ Body BatchStatus }

const targetLangsDoc = "Several targets at once, comma-separated (`Spanish,Urdu`; the field may also repeat): one job per target from this one upload, as a batch. " +
	"The document is read once (converted once, its words counted and its language detected once), and the quota is checked for every target before any job starts: " +
	"the words are charged per target, and when they do not all fit the answer is 402 and no job is made. At most 12 targets; target_lang is then ignored. " +
	"The answer is 202 with `{batch_id, poll_url, jobs: [the acceptance body of each job]}`; GET /batches/{batch_id} shows the jobs together, and each job sends its own job.completed or job.failed. " +
	"A .zip of documents (what the CLI and the dashboard send for several files) is a batch too: every .docx, .doc, .odt and .rtf in it (at most 50, 200 MB unpacked together, each under 50 MB, and 100 jobs, documents × targets: checked from its directory before anything is unpacked, 422 or 413) to every target; other entries (a .zip inside is not opened) are listed in `skipped` (the first 100, then '… and N more'). " +
	"A .zip that names an entry outside itself (`..`, absolute) or whose data is not what its directory says (size, checksum) is 422; documents named alike in different folders take their folders' names (`2023/report.docx` → `2023_report.docx`)."

const holdDoc = "Keep the job (each job of a batch) `pending`, with nothing started and nothing charged, until POST /jobs/{job_id}/confirm (or DELETE to cancel it): " +
	"submit with hold, read the quote (POST /quote), then confirm. A held job not confirmed within an hour (serve --hold-for, DRAGOMAN_HOLD_FOR) is dropped: it fails with the reason, its document is deleted, job.failed is sent, and nothing is charged. " +
	"A held job reserves no words: its words are counted and charged only once it is confirmed and runs (see POST /jobs/{job_id}/confirm)."

func (a *API) registerBatches() {
	huma.Register(a.api, huma.Operation{
		OperationID: "getBatch", Method: http.MethodGet, Path: "/batches/{batch_id}", Tags: []string{"Jobs"},
		Summary:     "Batch status",
		Description: "The jobs of a submission with several targets (target_langs) or documents (a .zip), together. Poll every 2 to 5 seconds until the status is completed, failed or partial. Batches live as long as their jobs (24 hours, configurable), then 404.",
		Security:    security, Errors: []int{401, 403, 404, 429, 503},
	}, a.getBatch)

	huma.Register(a.api, huma.Operation{
		OperationID: "confirmJob", Method: http.MethodPost, Path: "/jobs/{job_id}/confirm", Tags: []string{"Jobs"},
		Summary: "Start a held job",
		Description: "Starts a job submitted with `hold: true`, after its quote: it is then processed and charged as any job. 409 for a job that is not held (submitted without hold, confirmed already, cancelled, or past its hold). " +
			"A held job reserves no words (its quote is no promise): 402 when the month's words are used up, as for a submission, and the job stays held until its hold ends (confirm it after a change of plan, or cancel it); its words are counted and reserved when it runs, and a job that no longer fits then fails without charge.",
		Security: security, Errors: []int{401, 402, 403, 404, 409, 429, 503},
	}, a.confirmJob)
}

func (a *API) getBatch(ctx context.Context, in *batchInput) (*batchOutput, error) {
	v, err := a.svc.Jobs.Batch(ctx, caller(ctx), in.BatchID)
	if err != nil {
		return nil, a.fail(err)
	}
	out := BatchStatus{BatchID: v.ID, Status: v.Status(), Total: len(v.Jobs), Jobs: []JobStatus{}}
	for _, j := range v.Jobs {
		out.Jobs = append(out.Jobs, statusOf(j))
		switch j.Status {
		case "pending":
			out.Counts.Pending++
		case "processing":
			out.Counts.Processing++
		case "completed":
			out.Counts.Completed++
		case "failed":
			out.Counts.Failed++
		}
	}
	return &batchOutput{Body: out}, nil
}

func (a *API) confirmJob(ctx context.Context, in *jobInput) (*jobOutput, error) {
	j, err := a.svc.Jobs.ConfirmJob(ctx, caller(ctx), in.JobID)
	if err != nil {
		return nil, a.fail(err)
	}
	return &jobOutput{Body: statusOf(j)}, nil
}

// submissionSchemas declares what the translate endpoints answer with
// 202: one job's acceptance, or a batch's.
func (a *API) submissionSchemas() {
	o := a.api.OpenAPI()
	reg := o.Components.Schemas
	batch := reg.Schema(reflect.TypeOf(BatchAccepted{}), true, "")
	for path, single := range map[string]reflect.Type{"/translate": reflect.TypeOf(JobAccepted{}), "/translate-url": reflect.TypeOf(JobAcceptedURL{})} {
		r := o.Paths[path].Post.Responses["202"]
		r.Description = "Accepted: one job (" + single.Name() + "), or a batch (BatchAccepted) when target_langs was given or a .zip of documents was uploaded"
		r.Content["application/json"].Schema = &huma.Schema{OneOf: []*huma.Schema{reg.Schema(single, true, ""), batch}}
		r.Headers["Location"].Description = "The job's poll_url, or the batch's"
	}
}
