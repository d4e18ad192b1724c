package httpapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/core/service"
)

// formReadError is a failure to read the multipart body itself (as
// opposed to the file handler's answer).
type formReadError struct{ err error }

func (e *formReadError) Error() string { return e.err.Error() }

// maxFieldSize is how much of a form field is read; the rest is skipped.
const maxFieldSize = 256

// maxTargetsSize is how much of target_langs is read: room for the
// longest names of service.MaxBatchTargets languages.
const maxTargetsSize = 2048

// splitList splits a comma-separated field, trimmed, empty items dropped.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// readUploadForm reads the multipart body of POST /translate part by part,
// without buffering the document: the first "file" part is handed to file
// as a stream (its error ends the read and is returned as is), the known
// fields (JobOptions) are read up to maxFieldSize and trimmed, anything
// else is skipped.
// A body that cannot be read, or that ends before its closing boundary
// (a body cut inside a part's headers too), gives a *formReadError.
func readUploadForm(mr *httpguard.Multipart, file func(name string, part io.Reader) error) (service.SubmitRequest, error) {
	var req service.SubmitRequest
	var opts JobOptions
	seen := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			req.JobOptions = opts.submission()
			return req, nil
		}
		if err != nil {
			return req, &formReadError{err}
		}
		name := part.FormName()
		switch {
		case name == "file" && !seen:
			seen = true
			req.Name = part.FileName()
			if err := file(req.Name, part); err != nil {
				return req, err
			}
		case isFormField(name):
			size := int64(maxFieldSize)
			if name == "target_langs" {
				size = maxTargetsSize
			}
			v, err := io.ReadAll(io.LimitReader(part, size))
			if err != nil {
				return req, &formReadError{err}
			}
			if err := opts.setFormField(name, strings.TrimSpace(string(v))); err != nil {
				return req, err
			}
		}
		// The rest of the part (all of an unknown field) is skipped.
		if _, err := io.Copy(io.Discard, part); err != nil {
			return req, &formReadError{err}
		}
		part.Close()
	}
}

// parseFormBool reads a boolean form field: true/false, 1/0, yes/no,
// on/off (an HTML checkbox), case-insensitive; empty is false.
func parseFormBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "", "false", "0", "no", "off":
		return false, nil
	case "true", "1", "yes", "on":
		return true, nil
	}
	return false, errors.New("not a boolean (true or false)")
}

// countingReader counts what was read through it and keeps the read
// error other than EOF.
type countingReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// oversized says whether a file whose type was refused is over the size
// cap: size comes first (the spec's 413 for anything over 50 MB), so the
// rest of the part is read, up to the cap, before answering 422.
func (a *API) oversized(err error, file *countingReader) bool {
	var se *service.Error
	if !errors.As(err, &se) || se.Kind != service.KindUnprocessable {
		return false
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(file, a.svc.Jobs.Config.MaxUpload+1-file.n))
	return file.n > a.svc.Jobs.Config.MaxUpload
}

func (a *API) discard(ctx context.Context, up *service.Upload) {
	if up != nil {
		a.svc.Jobs.Discard(ctx, up)
	}
}

func (a *API) bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return newProblem(http.StatusRequestEntityTooLarge, "the document is larger than 50 MB")
	}
	if errors.Is(err, os.ErrDeadlineExceeded) { // see serve's --upload-idle-timeout
		return newProblem(http.StatusRequestTimeout, "the upload was too slow: it stalled or took too long")
	}
	return newProblem(http.StatusUnprocessableEntity, "the multipart body could not be read")
}
