package client

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
)

// Options say how to translate a document.
type Options struct {
	To   string // target language name or ISO code; "" is the server's default (Arabic)
	From string // source language; "" detects it
	Mode string // translation_mode, one of the contract's enum; "" is professional
	// PDF asks the server for a PDF rendition too (the pdf field), which
	// TranslateFile and TranslateURL write beside the .docx as
	// NAME.<code>.pdf. It adds a few seconds per job; no words.
	PDF bool
	// GlossaryID is one of the account's glossaries (POST /v1/glossaries)
	// for the From/To pair, enforced on the job (the glossary_id field);
	// it needs From.
	GlossaryID string
	// Targets are several targets at once (target_langs): one job per
	// target, as a batch (SubmitBatch, TranslateBatch); To is then ignored.
	Targets []string
	// Hold keeps the submitted job(s) pending until Confirm (the hold
	// field); nothing is charged until then.
	Hold bool
	// Bilingual asks for the bilingual document too (source beside
	// translation), which the Translate helpers write beside the .docx as
	// NAME.<code>.bilingual.docx.
	Bilingual bool
	// OutDir receives NAME.<code>.docx; "" is the input's folder.
	OutDir string
	// Progress, if set, is told of every step.
	Progress func(Progress)
	// KeepOnCancel leaves the job running when ctx is cancelled; by
	// default TranslateFile cancels the job it started.
	KeepOnCancel bool
}

// Phase is a step of TranslateFile.
type Phase string

const (
	PhaseUpload   Phase = "upload"   // Done/Total are bytes sent
	PhaseWaiting  Phase = "waiting"  // rate limited: Wait is how long
	PhaseProcess  Phase = "process"  // Stage is the pipeline's last finished stage
	PhaseDownload Phase = "download" // Done/Total are bytes received (Total 0 if unknown)
	PhaseDone     Phase = "done"
)

// Progress is one step of a translation.
type Progress struct {
	Phase       Phase
	JobID       string
	Stage       string // pipeline stage (accepted, converted, extracted, translated, assembled, laid_out, finished)
	Done, Total int64
	Wait        time.Duration
}

// Stages are the pipeline's stages in order, for progress displays.
var Stages = []string{"accepted", "converted", "extracted", "translated", "assembled", "laid_out", "finished"}

// Result is a finished translation.
type Result struct {
	Job     *Job
	Path    string // the translated document written
	PDFPath string // its PDF rendition, with Options.PDF
	// BilingualPath is the bilingual document, with Options.Bilingual.
	BilingualPath string
}

// TranslateFile uploads the document at path (streamed, never held in
// memory), polls the job every 2 to 5 seconds, and downloads the result to
// opts.OutDir as NAME.<code>.docx. 429 answers are waited out as their
// Retry-After says. A job that fails returns a *JobFailedError together
// with the Result holding the job. When ctx ends before the job does, the
// job is cancelled unless opts.KeepOnCancel.
func (c *Client) TranslateFile(ctx context.Context, path string, opts Options) (*Result, error) {
	if opts.Hold {
		return nil, errHoldWaits
	}
	acc, err := c.Submit(ctx, path, opts)
	if err != nil {
		if acc != nil { // accepted as ctx ended
			c.cancelStarted(ctx, acc.JobId.String(), opts)
		}
		return nil, err
	}
	id := acc.JobId.String()
	return c.finish(ctx, id, filepath.Dir(path), opts)
}

// cancelStarted cancels a job this client started once ctx has ended,
// unless opts.KeepOnCancel.
func (c *Client) cancelStarted(ctx context.Context, id string, opts Options) {
	if ctx.Err() == nil || opts.KeepOnCancel {
		return
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	// Only cancel: a job that completed just before the interrupt keeps
	// its paid-for translation (a plain DELETE would delete it).
	_, _ = c.CancelUnfinished(cctx, id)
}

// answerGrace is how long a request whose body was all sent may still take
// to be answered after ctx ends: the server may have accepted the job, and
// only its answer tells which job to cancel.
const answerGrace = 10 * time.Second

// requestContext is the context of a submission: it ends with ctx while
// the body is still being sent (an interrupted upload creates no job), and
// answerGrace after ctx once sent is closed. stop releases it.
func requestContext(ctx context.Context, sent <-chan struct{}) (rctx context.Context, stop func()) {
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		select {
		case <-sent:
			select {
			case <-done:
			case <-time.After(answerGrace):
			}
		default:
		}
		cancel()
	}()
	return rctx, func() { close(done); cancel() }
}

// TranslateURL is TranslateFile for a document the server fetches from an
// HTTPS URL.
func (c *Client) TranslateURL(ctx context.Context, url string, opts Options) (*Result, error) {
	if opts.Hold {
		return nil, errHoldWaits
	}
	opts.Targets = nil
	body := urlBody(url, opts)
	sent := make(chan struct{})
	close(sent) // a small JSON body: always wait for the answer
	rctx, stop := requestContext(ctx, sent)
	r, err := c.API.TranslateUrlWithResponse(rctx, body)
	stop()
	if err := result(r, err); err != nil {
		return nil, err
	}
	acc, err := r.JSON202.AsJobAcceptedURL()
	if err != nil {
		return nil, fmt.Errorf("dragoman: reading the accepted job: %w", err)
	}
	if acc.JobId == uuid.Nil { // a batch: the URL holds a .zip of documents
		return nil, c.refuseBatch(ctx, r.JSON202)
	}
	if ctx.Err() != nil {
		c.cancelStarted(ctx, acc.JobId.String(), opts)
		return nil, ctx.Err()
	}
	dir := opts.OutDir
	if dir == "" {
		dir = "."
	}
	return c.finish(ctx, acc.JobId.String(), dir, opts)
}

func (c *Client) finish(ctx context.Context, id, dir string, opts Options) (*Result, error) {
	j, err := c.Wait(ctx, id, opts.Progress)
	if err != nil {
		c.cancelStarted(ctx, id, opts)
		return nil, err
	}
	res := &Result{Job: j}
	if j.Status == gen.JobStatusStatusFailed {
		msg := ""
		if j.Error != nil {
			msg = *j.Error
		}
		return res, &JobFailedError{JobID: id, Message: msg}
	}
	if opts.OutDir != "" {
		dir = opts.OutDir
	}
	res.Path, err = c.Download(ctx, id, dir, opts.Progress)
	if err != nil {
		return res, err
	}
	if opts.PDF {
		if res.PDFPath, err = c.DownloadPDF(ctx, id, dir, opts.Progress); err != nil {
			return res, err
		}
	}
	if opts.Bilingual {
		if res.BilingualPath, err = c.DownloadBilingual(ctx, id, dir, opts.Progress); err != nil {
			return res, err
		}
	}
	report(opts.Progress, Progress{Phase: PhaseDone, JobID: id, Stage: "finished"})
	return res, nil
}

func report(fn func(Progress), p Progress) {
	if fn != nil {
		fn(p)
	}
}

// Submit uploads the document at path and returns the accepted job. The
// body is streamed; a 429 is waited out and the file sent again. When ctx
// ends after the whole body was sent, the server's answer is still awaited
// for a while: a job accepted then is returned together with ctx's error,
// so the caller can cancel it. A submission that makes a batch (Targets,
// or a .zip) is SubmitBatch's.
func (c *Client) Submit(ctx context.Context, path string, opts Options) (*gen.JobAccepted, error) {
	opts.Targets = nil
	if zipOfDocuments(path) { // the server would make a batch: refused before it is sent and charged
		return nil, fmt.Errorf("dragoman: %s is a .zip of documents, which makes a batch: use TranslateBatch or SubmitBatch", filepath.Base(path))
	}
	b, err := c.upload(ctx, path, opts)
	if b == nil {
		return nil, err
	}
	var acc gen.JobAccepted
	if uerr := json.Unmarshal(b, &acc); uerr != nil || acc.JobId.String() == "00000000-0000-0000-0000-000000000000" {
		return nil, errors.New("dragoman: the server answered with a batch (a .zip of documents?): use SubmitBatch")
	}
	return &acc, err
}

// upload sends a document with opts as POST /translate would take them,
// waiting out 429s, and returns the 202 answer's body.
func (c *Client) upload(ctx context.Context, path string, opts Options) ([]byte, error) {
	max := c.MaxRateLimitWaits
	if max <= 0 {
		max = 10
	}
	for i := 0; ; i++ {
		b, err := c.submitOnce(ctx, path, opts, c.API.TranslateWithBody)
		if b != nil && ctx.Err() != nil {
			return b, ctx.Err()
		}
		var ae *APIError
		if err == nil || !errors.As(err, &ae) || ae.Status != http.StatusTooManyRequests || i >= max {
			return b, err
		}
		report(opts.Progress, Progress{Phase: PhaseWaiting, Wait: max1(ae.RetryAfter)})
		if err := c.sleep(ctx, ae.RetryAfter); err != nil {
			return nil, err
		}
	}
}

func max1(d time.Duration) time.Duration { return max(d, time.Second) }

// poster sends a multipart body: the generated TranslateWithBody or
// QuoteWithBody.
type poster func(ctx context.Context, contentType string, body io.Reader, reqEditors ...gen.RequestEditorFn) (*http.Response, error)

func (c *Client) submitOnce(ctx context.Context, path string, opts Options, post poster) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	total := st.Size()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	sent := make(chan struct{})
	go func() {
		fields := [][2]string{{"target_lang", opts.To}, {"source_lang", opts.From}, {"translation_mode", opts.Mode}, {"glossary_id", opts.GlossaryID},
			{"target_langs", strings.Join(opts.Targets, ",")}}
		if opts.PDF {
			fields = append(fields, [2]string{"pdf", "true"})
		}
		if opts.Hold {
			fields = append(fields, [2]string{"hold", "true"})
		}
		if opts.Bilingual {
			fields = append(fields, [2]string{"bilingual", "true"})
		}
		for _, kv := range fields {
			if kv[1] != "" {
				if err := mw.WriteField(kv[0], kv[1]); err != nil {
					pw.CloseWithError(err)
					return
				}
			}
		}
		fw, err := mw.CreateFormFile("file", filepath.Base(path))
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		cw := &counter{w: fw, total: total, fn: opts.Progress}
		if _, err := io.Copy(cw, f); err != nil {
			pw.CloseWithError(err)
			return
		}
		err = mw.Close()
		if err == nil {
			close(sent)
		}
		pw.CloseWithError(err)
	}()
	report(opts.Progress, Progress{Phase: PhaseUpload, Total: total})
	rctx, stop := requestContext(ctx, sent)
	defer stop()
	resp, err := post(rctx, mw.FormDataContentType(), pr)
	pr.CloseWithError(errors.New("request finished")) // stop the writer if the server answered early
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b := readAll(resp.Body)
	if err := apiError(resp.StatusCode, resp.Header, b); err != nil {
		return nil, err
	}
	return b, nil
}

// counter reports upload progress as bytes pass.
type counter struct {
	w           io.Writer
	done, total int64
	fn          func(Progress)
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.done += int64(n)
	report(c.fn, Progress{Phase: PhaseUpload, Done: c.done, Total: c.total})
	return n, err
}

// Wait polls a job until it is completed or failed: first after
// PollInterval (2 s), then a second longer each time up to 5 s.
func (c *Client) Wait(ctx context.Context, id string, progress func(Progress)) (*Job, error) {
	interval := c.PollInterval
	if interval <= 0 {
		interval = 2 * time.Second
	}
	for {
		j, err := c.Job(ctx, id)
		if err != nil {
			return nil, err
		}
		stage := ""
		if j.Stage != "" {
			stage = string(j.Stage)
		}
		report(progress, Progress{Phase: PhaseProcess, JobID: id, Stage: stage})
		if j.Status == gen.JobStatusStatusCompleted || j.Status == gen.JobStatusStatusFailed {
			return j, nil
		}
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		interval = min(interval+time.Second, 5*time.Second)
	}
}

// refuseBatch cancels the jobs of a batch TranslateURL or SubmitURL was
// answered with
// (they give one job; a small document may be translated, and charged,
// before its cancel arrives) and says what to do instead.
func (c *Client) refuseBatch(ctx context.Context, body *gen.TranslateUrl202JSONResponseBody) error {
	b, err := body.AsBatchAccepted()
	if err != nil {
		return fmt.Errorf("dragoman: reading the accepted batch: %w", err)
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for _, j := range jobsOf(&b) {
		_, _ = c.CancelUnfinished(cctx, j.JobId.String())
	}
	return fmt.Errorf("dragoman: the URL holds a .zip of documents, which the server made batch %s of; its jobs were cancelled: use SubmitBatchURL, or TranslateBatch on the downloaded .zip (dragoman translate FILE.zip)", b.BatchId)
}

// zipOfDocuments says whether the file at path is a .zip of documents, as
// the server decides: a zip archive that names neither [Content_Types].xml
// (a .docx) nor mimetype (an .odt).
func zipOfDocuments(path string) bool {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return false
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == "[Content_Types].xml" || f.Name == "mimetype" {
			return false
		}
	}
	return true
}
