package httpapi

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// bilingualDoc documents the bilingual request field.
const bilingualDoc = "Also make a bilingual .docx beside the target-only one: its body is a two-column table, each paragraph (list item, heading, table, picture) of the source beside its translation, " +
	"each column in its own direction (an English column left to right beside an Arabic one right to left, or the reverse; the table's order follows the target's direction), inline formatting kept; headers, footers and notes are the translation's, as in the target-only output. " +
	"Downloaded with GET /jobs/{job_id}/download?format=bilingual (same key, window and expiry as the .docx); bilingual_url on the job (null when not asked or when making it failed: the job's warnings say why) and in job.completed (absent then, never null: job.completed keeps exactly the specification's fields). No extra words are charged."

// pdfDoc documents the pdf request field and what it costs.
const pdfDoc = "Also render the translation to PDF (LibreOffice's rendition, right-to-left layout included). " +
	"The job completes only once the PDF is rendered, which adds a few seconds per document (more for long ones) on the converter's warm LibreOffice pool; the word quota is not affected (words are charged once, for the translation). " +
	"When rendered, job.completed's data.pdf_url is its absolute download address (GET /v1/jobs/{job_id}/download?format=pdf, same key and 10-minute window as the .docx); without pdf, or when rendering failed (the job's warnings say why), pdf_url is null. " +
	"A job submitted without pdf can still be downloaded as PDF: it is then rendered on demand, at the first such download."

// uploadInput takes the raw request: the multipart body is streamed part
// by part, never parsed into memory or a temporary file by the framework.
type uploadInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	rawRequest
}

// rawRequest hands an input the raw request, so that its body is read as
// it arrives (multipart or a raw file).
type rawRequest struct{ req *http.Request }

func (u *rawRequest) Resolve(ctx huma.Context) []error {
	u.req, _ = humago.Unwrap(ctx)
	return nil
}

// submittedOutput answers both translate endpoints: a JobAccepted (or
// JobAcceptedURL) for one job, a BatchAccepted for several (see
// submissionSchemas).
type submittedOutput struct {
	Location string `header:"Location"`
	Body     any
}

type translateURLInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	Body   struct {
		URL string `json:"url" format:"uri" maxLength:"4096"` // described by registerJobs
		JobOptions
	}
}

type jobInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	JobID  string `path:"job_id" format:"uuid" doc:"Job identifier"`
}

type jobOutput struct{ Body JobStatus }

type downloadInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	JobID  string `path:"job_id" format:"uuid" doc:"Job identifier"`
	Format string `query:"format" enum:"docx,pdf,bilingual" default:"docx" doc:"docx: the translated document; pdf: its PDF rendition (rendered by the pipeline for a job submitted with pdf=true, otherwise on demand at the first PDF download, which takes a few seconds); bilingual: the bilingual .docx of a job submitted with bilingual=true (404 otherwise)"`
}

const pdfType = "application/pdf"

const downloadDoc = "The translated .docx (or, with ?format=pdf, its PDF rendition), for 10 minutes (configurable) after completion; 404 before completion, 410 once the file has expired and been deleted. " +
	"A PDF of a job submitted without pdf=true is rendered on demand at its first download (a few seconds) and kept beside the .docx; a server without the LibreOffice converter plugin answers 404 for it, and 503 when rendering failed."

const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

func (a *API) registerJobs() {
	op := huma.Operation{
		OperationID: "translate", Method: http.MethodPost, Path: "/translate", Tags: []string{"Jobs"},
		Summary:       "Translate an uploaded document",
		Description:   "Multipart upload of one document (`file`, max 50 MB; the type is decided by content: DOCX or ODT zip packages, OLE2 .doc, RTF) with optional `target_lang` (default Arabic), `source_lang` (default auto), `translation_mode` (default professional) and `pdf` (default false). " + modeDoc + " " + pdfDoc + " The answer is 202 with a job id to poll; with `target_langs` (several targets) or a .zip of documents, 202 with a batch (see target_langs). With `hold`, the job waits for POST /jobs/{job_id}/confirm (see hold and POST /quote).",
		DefaultStatus: http.StatusAccepted, Security: security, BodyReadTimeout: -1, MaxBodyBytes: -1,
		Errors: []int{401, 402, 403, 413, 422, 429, 503},
	}
	huma.Register(a.api, op, a.translate)
	a.documentUpload()

	huma.Register(a.api, huma.Operation{
		OperationID: "translateUrl", Method: http.MethodPost, Path: "/translate-url", Tags: []string{"Jobs"},
		Summary:       "Translate a document fetched from an HTTPS URL",
		Description:   "The service fetches the URL (HTTPS only; addresses inside private networks are refused after DNS resolution; at most 5 redirects, each checked; 50 MB cap). " + modeDoc + " With `target_langs` (a JSON array) the answer is a batch, as for POST /translate; `hold` as there.",
		DefaultStatus: http.StatusAccepted, Security: security, BodyReadTimeout: -1,
		Errors: []int{400, 401, 402, 403, 413, 422, 429, 503},
	}, a.translateURL)
	urlField := a.api.OpenAPI().Components.Schemas.Map()["TranslateURLInputBody"].Properties["url"]
	urlField.Description = "HTTPS URL of the document (" + strings.Join(docformat.Extensions(), ", ") + "; max 50 MB)"

	huma.Register(a.api, huma.Operation{
		OperationID: "getJob", Method: http.MethodGet, Path: "/jobs/{job_id}", Tags: []string{"Jobs"},
		Summary:     "Job status",
		Description: "Poll every 2 to 5 seconds until `completed` or `failed`. Jobs are kept 24 hours (configurable), then 404.",
		Security:    security, Errors: []int{401, 403, 404, 429},
	}, a.getJob)

	huma.Register(a.api, huma.Operation{
		OperationID: "downloadJob", Method: http.MethodGet, Path: "/jobs/{job_id}/download", Tags: []string{"Jobs"},
		Summary:     "Download the translated document",
		Description: downloadDoc,
		Security:    security, Errors: []int{401, 403, 404, 410, 429, 503},
		Responses: map[string]*huma.Response{"200": {
			Description: "The translated document",
			Headers:     map[string]*huma.Param{"Content-Disposition": {Description: "attachment; filename derived from the original name and the target language", Schema: &huma.Schema{Type: "string"}}},
			Content: map[string]*huma.MediaType{
				docxType: {Schema: &huma.Schema{Type: "string", Format: "binary"}},
				pdfType:  {Schema: &huma.Schema{Type: "string", Format: "binary"}},
			},
		}},
	}, a.download)
}

// documentUpload declares the multipart body in the contract. It is set
// after registration so that huma does not buffer or parse the body itself.
func (a *API) documentUpload() {
	op := a.api.OpenAPI().Paths["/translate"].Post
	props := formSchemas()
	props["file"] = &huma.Schema{Type: "string", Format: "binary", Description: docformat.ListExtensions("or") + "; max 50 MB"}
	op.RequestBody = &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
		"multipart/form-data": {Schema: &huma.Schema{Type: "object", Required: []string{"file"}, Properties: props}},
	}}
}

func acceptedBody(acc *service.Accepted) JobAccepted {
	j := acc.Job
	return JobAccepted{JobID: j.ID, Status: string(j.Status), CreatedAt: j.CreatedAt, PollURL: Prefix + "/jobs/" + j.ID, RtlFidelity: rtlReportOut(acc.RTL)}
}

// submitted answers a submission: the job's acceptance, or the batch's
// (url: the translate-url form of a job's acceptance).
func submitted(sub *service.Submission, url bool) *submittedOutput {
	if b := sub.Batch; b != nil {
		out := BatchAccepted{BatchID: b.ID, PollURL: Prefix + "/batches/" + b.ID, Jobs: []JobAccepted{}, Skipped: b.Skipped}
		for _, acc := range b.Jobs {
			out.Jobs = append(out.Jobs, acceptedBody(acc))
		}
		if out.Skipped == nil {
			out.Skipped = []string{}
		}
		return &submittedOutput{Location: out.PollURL, Body: out}
	}
	body := acceptedBody(sub.Job)
	if url {
		return &submittedOutput{Location: body.PollURL, Body: JobAcceptedURL{JobID: body.JobID, Status: body.Status, CreatedAt: body.CreatedAt, PollURL: body.PollURL}}
	}
	return &submittedOutput{Location: body.PollURL, Body: body}
}

// translate streams the multipart upload into the blob store.
func (a *API) translate(ctx context.Context, in *uploadInput) (*submittedOutput, error) {
	c := caller(ctx)
	if err := a.svc.Accounts.CheckQuota(ctx, c); err != nil {
		return nil, a.fail(err)
	}
	up, req, err := a.receiveForm(ctx, in.req)
	if err != nil {
		return nil, err
	}
	sub, err := a.svc.Jobs.QueueUpload(ctx, c, up, req)
	if err != nil {
		return nil, a.fail(err)
	}
	return submitted(sub, false), nil
}

// receiveForm reads a multipart upload: its file streamed into the blob
// store, its fields into a request. Errors are the API's.
func (a *API) receiveForm(ctx context.Context, r *http.Request) (*service.Upload, service.SubmitRequest, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, service.SubmitRequest{}, newProblem(http.StatusUnprocessableEntity, "the request must be multipart/form-data with a file field")
	}
	// Room for the form fields and part headers around a 50 MB file.
	limit := a.svc.Jobs.Config.MaxUpload + 1<<20
	if r.ContentLength > limit { // size before anything else: 413, not 422
		return nil, service.SubmitRequest{}, newProblem(http.StatusRequestEntityTooLarge, "the document is larger than 50 MB")
	}
	body := http.MaxBytesReader(nil, r.Body, limit)
	var up *service.Upload
	req, err := readUploadForm(httpguard.NewMultipart(body, params["boundary"]), func(name string, part io.Reader) error {
		file := &countingReader{r: part}
		var err error
		up, err = a.svc.Jobs.Receive(ctx, file, false)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) || a.oversized(err, file) {
				return newProblem(http.StatusRequestEntityTooLarge, "the document is larger than 50 MB")
			}
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrDeadlineExceeded) { // the client cut the body short, or stalled
				return a.bodyError(err)
			}
			if file.err != nil { // the read failure cancelled the request, which the store reported instead
				return a.bodyError(file.err)
			}
			return a.fail(err)
		}
		return nil
	})
	if err != nil {
		a.discard(ctx, up)
		var re *formReadError
		if errors.As(err, &re) {
			return nil, req, a.bodyError(re.err)
		}
		return nil, req, err
	}
	if up == nil {
		return nil, req, newProblem(http.StatusUnprocessableEntity, "missing field: file", &huma.ErrorDetail{Location: "body.file", Message: "required"})
	}
	return up, req, nil
}

func (a *API) translateURL(ctx context.Context, in *translateURLInput) (*submittedOutput, error) {
	sub, err := a.svc.Jobs.SubmitURL(ctx, caller(ctx), in.Body.URL, service.SubmitRequest{JobOptions: in.Body.submission()})
	if err != nil {
		return nil, a.fail(err)
	}
	return submitted(sub, true), nil
}

func (a *API) getJob(ctx context.Context, in *jobInput) (*jobOutput, error) {
	j, err := a.svc.Jobs.Job(ctx, caller(ctx), in.JobID)
	if err != nil {
		return nil, a.fail(err)
	}
	return &jobOutput{Body: statusOf(j)}, nil
}

func (a *API) download(ctx context.Context, in *downloadInput) (*huma.StreamResponse, error) {
	get, ctype := a.svc.Jobs.Download, docxType
	switch in.Format {
	case "pdf":
		get, ctype = a.svc.Documents.DownloadPDF, pdfType
	case "bilingual":
		get = a.svc.Jobs.DownloadBilingual
	}
	d, err := get(ctx, caller(ctx), in.JobID)
	if err != nil {
		return nil, a.fail(err)
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		defer d.Blob.Close()
		r, w := humago.Unwrap(hctx)
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.Name}))
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", ctype)
		http.ServeContent(w, r, "", time.Time{}, contentTyped{d.Blob})
	}}, nil
}

// contentTyped hides the blob's other methods from http.ServeContent.
type contentTyped struct{ io.ReadSeeker }
