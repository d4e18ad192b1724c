package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/core/service"
)

// formReadError is a failure to read the multipart body itself (as
// opposed to the file handler's answer).
type formReadError struct{ err error }

func (e *formReadError) Error() string { return e.err.Error() }

// maxFieldSize is how much of a form field is read; the rest is skipped.
const maxFieldSize = 256

// readUploadForm reads the multipart body of POST /translate part by part,
// without buffering the document: the first "file" part is handed to file
// as a stream (its error ends the read and is returned as is), the known
// fields are read up to maxFieldSize and trimmed, anything else is skipped.
// A body that cannot be read, or that ends before its closing boundary
// (a body cut inside a part's headers too), gives a *formReadError.
func readUploadForm(mr *httpguard.Multipart, file func(name string, part io.Reader) error) (service.SubmitRequest, error) {
	var req service.SubmitRequest
	seen := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
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
		case name == "target_lang" || name == "source_lang" || name == "translation_mode" || name == "pdf" || name == "glossary_id":
			v, err := io.ReadAll(io.LimitReader(part, maxFieldSize))
			if err != nil {
				return req, &formReadError{err}
			}
			s := strings.TrimSpace(string(v))
			switch name {
			case "target_lang":
				req.TargetLang = s
			case "source_lang":
				req.SourceLang = s
			case "pdf":
				if req.PDF, err = parseFormBool(s); err != nil {
					return req, newProblem(http.StatusUnprocessableEntity, "pdf: "+err.Error(), &huma.ErrorDetail{Location: "body.pdf", Message: err.Error(), Value: s})
				}
			case "glossary_id":
				req.GlossaryID = s
			default:
				req.Mode = s
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
