package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/service"
)

const xliffType = "application/xliff+xml"

// maxBilingual caps an uploaded XLIFF or TMX body.
const maxBilingual = 64 << 20

type xliffExportInput struct {
	APIKey  string `header:"X-API-Key" required:"false" doc:"API key"`
	JobID   string `path:"job_id" format:"uuid" doc:"Job identifier"`
	Version string `query:"version" enum:"2.1,1.2" default:"2.1" doc:"XLIFF version: 2.1, or 1.2 for tools that only read 1.2"`
}

type jobBodyInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	JobID  string `path:"job_id" format:"uuid" doc:"Job identifier"`
	rawRequest
}

func (a *API) registerPostEditing() {
	huma.Register(a.api, huma.Operation{
		OperationID: "exportJobXliff", Method: http.MethodGet, Path: "/jobs/{job_id}/xliff", Tags: []string{"Jobs"},
		Summary: "Export a job's segments as XLIFF for post-editing",
		Description: "The completed job's segments as XLIFF 2.1 (`?version=1.2` for tools that only read 1.2): one unit per sentence, " +
			"grouped by paragraph, with the source and the machine target; inline formatting as `<pc>`/`<ph>` (1.2: `<g>`/`<x>`); the job's warnings as notes; " +
			"`<file original=\"dragoman:job:<job_id>\">` ties the file to the job. Available while the download window is open: 404 before completion, 410 after.",
		Security: security, Errors: []int{401, 403, 404, 410, 422, 429},
		Responses: map[string]*huma.Response{"200": {
			Description: "The XLIFF file",
			Headers:     map[string]*huma.Param{"Content-Disposition": {Description: "attachment; the download name with .xlf", Schema: &huma.Schema{Type: "string"}}},
			Content:     map[string]*huma.MediaType{xliffType: {Schema: &huma.Schema{Type: "string"}}},
		}},
	}, a.exportXLIFF)

	huma.Register(a.api, huma.Operation{
		OperationID: "importJobXliff", Method: http.MethodPost, Path: "/jobs/{job_id}/xliff", Tags: []string{"Jobs"},
		Summary: "Rebuild a job's document from post-edited XLIFF",
		Description: "Upload the job's XLIFF export after editing its targets (raw body with `Content-Type: application/xliff+xml`, or multipart with the file in `file`; max 64 MB). " +
			"The document is rebuilt from the edited targets with the same assembly and right-to-left layout as the machine translation, as a new revision: " +
			"`GET /jobs/{job_id}/download` serves it for a fresh download window, the job's `revision` counts up, and `job.completed` is sent again with `revision` in its data. " +
			"Edited segments are stored in the account's translation memory as human translations and preferred over engine output in later jobs. " +
			"A file that is not well-formed, has a DTD or entities, belongs to another job, lacks or adds units, or whose inline codes differ from the source is refused with 422 naming the unit.",
		Security: security, Errors: []int{401, 403, 404, 410, 413, 422, 429},
		BodyReadTimeout: -1, MaxBodyBytes: -1,
	}, a.importXLIFF)
	a.api.OpenAPI().Paths["/jobs/{job_id}/xliff"].Post.RequestBody = fileBody(xliffType, "the edited XLIFF file")
}

// fileBody declares a body that is a file of the given media type, raw
// or in the multipart field file.
func fileBody(mediaType, file string) *huma.RequestBody {
	return &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
		mediaType: {Schema: &huma.Schema{Type: "string"}},
		"multipart/form-data": {Schema: &huma.Schema{Type: "object", Required: []string{"file"}, Properties: map[string]*huma.Schema{
			"file": {Type: "string", Format: "binary", Description: file},
		}}},
	}}
}

func (a *API) exportXLIFF(ctx context.Context, in *xliffExportInput) (*huma.StreamResponse, error) {
	f, err := a.svc.Documents.ExportXLIFF(ctx, caller(ctx), in.JobID, in.Version)
	if err != nil {
		return nil, a.fail(err)
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		r, w := humago.Unwrap(hctx)
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", xliffType)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.Body))
	}}, nil
}

// readBilingual hands read the uploaded file of a raw or multipart body,
// capped at 64 MB, and answers what read returns as a problem.
func (a *API) readBilingual(r *http.Request, what string, read func(io.Reader) error) error {
	tooLarge := newProblem(http.StatusRequestEntityTooLarge, "the "+what+" file is larger than 64 MB")
	if r.ContentLength > maxBilingual {
		return tooLarge
	}
	body := io.Reader(http.MaxBytesReader(nil, r.Body, maxBilingual+1<<20))
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err == nil && mt == "multipart/form-data" {
		if body, err = multipartFile(httpguard.NewMultipart(body, params["boundary"])); err != nil {
			return err
		}
	}
	if err := read(body); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge
		}
		return a.fail(err)
	}
	return nil
}

// multipartFile is the multipart body's field file.
func multipartFile(mr *httpguard.Multipart) (io.Reader, error) {
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, newProblem(http.StatusUnprocessableEntity, "the multipart body has no file field")
		}
		if err != nil {
			return nil, newProblem(http.StatusUnprocessableEntity, "the multipart body could not be read: "+err.Error())
		}
		if part.FormName() == "file" {
			return part, nil
		}
	}
}

func (a *API) importXLIFF(ctx context.Context, in *jobBodyInput) (*jobOutput, error) {
	var j *job.Job
	err := a.readBilingual(in.req, "XLIFF", func(body io.Reader) (err error) {
		j, err = a.svc.Documents.ImportXLIFF(ctx, caller(ctx), in.JobID, body)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &jobOutput{Body: statusOf(j)}, nil
}

const tmxType = "application/x-tmx+xml"

// TMXImported answers a TMX import.
type TMXImported struct {
	Imported int      `json:"imported" doc:"Translations stored (one per source and target language of each unit)"`
	Skipped  []string `json:"skipped" doc:"Translation units left out, and why (a language Dragoman does not know, a single language, empty text)"`
}

type tmxImportOutput struct{ Body TMXImported }

func (a *API) registerMemory() {
	huma.Register(a.api, huma.Operation{
		OperationID: "exportMemoryTmx", Method: http.MethodGet, Path: "/memory.tmx", Tags: []string{"Memory"},
		Summary: "Export the account's translation memory as TMX",
		Description: "The account's own translations — segments edited through `POST /jobs/{job_id}/xliff` and imported TMX — as TMX 1.4b, one `<tu>` per translation; " +
			"inline formatting codes as `<bpt>`/`<ept>`/`<ph>`. (Engine output cached to save engine calls is not the account's and is not exported.)",
		Security: security, Errors: []int{401, 403, 429},
		Responses: map[string]*huma.Response{"200": {
			Description: "The TMX file",
			Content:     map[string]*huma.MediaType{tmxType: {Schema: &huma.Schema{Type: "string"}}},
		}},
	}, a.exportTMX)
	huma.Register(a.api, huma.Operation{
		OperationID: "importMemoryTmx", Method: http.MethodPost, Path: "/memory.tmx", Tags: []string{"Memory"},
		Summary: "Import a TMX translation memory into the account",
		Description: "Raw body (`Content-Type: application/x-tmx+xml`) or multipart with the file in `file`; max 64 MB. " +
			"Each `<tu>` gives one translation per target language from its source language (the unit's `srclang`, else the header's); regional tags (en-US) count as their language. " +
			"Later jobs of the account take these translations before any engine, whatever the engine or mode. A file that is not well-formed, has an internal DTD subset or entities is refused with 422.",
		Security: security, Errors: []int{401, 403, 413, 422, 429},
		BodyReadTimeout: -1, MaxBodyBytes: -1,
	}, a.importTMX)
	a.api.OpenAPI().Paths["/memory.tmx"].Post.RequestBody = fileBody(tmxType, "the TMX file")
}

func (a *API) exportTMX(ctx context.Context, _ *keyInput) (*huma.StreamResponse, error) {
	b, err := a.svc.AccountMemory.ExportTMX(ctx, caller(ctx))
	if err != nil {
		return nil, a.fail(err)
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		r, w := humago.Unwrap(hctx)
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "memory.tmx"}))
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", tmxType)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b))
	}}, nil
}

func (a *API) importTMX(ctx context.Context, in *uploadInput) (*tmxImportOutput, error) {
	var res *service.TMXImport
	err := a.readBilingual(in.req, "TMX", func(body io.Reader) (err error) {
		res, err = a.svc.AccountMemory.ImportTMX(ctx, caller(ctx), body)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &tmxImportOutput{Body: TMXImported{Imported: res.Imported, Skipped: res.Skipped}}, nil
}
