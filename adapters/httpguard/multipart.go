package httpguard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
)

// ErrTruncated is a multipart body that ended before its closing
// delimiter; it wraps io.ErrUnexpectedEOF, as a body cut inside a part does.
var ErrTruncated = fmt.Errorf("the multipart body ends before its closing boundary: %w", io.ErrUnexpectedEOF)

// Multipart reads a multipart body part by part, like mime/multipart's
// Reader, but tells a whole body from a cut one: for a body cut inside a
// part's headers the standard reader's NextPart returns io.EOF, exactly
// as for a body that ended properly, so a form missing its last fields
// looked complete (issue 26: target_lang=Hebrew, cut, became the default
// Arabic). NextPart returns ErrTruncated for it instead.
type Multipart struct {
	*multipart.Reader
	end *closeWatch
}

// NewMultipart reads body with the given boundary.
func NewMultipart(body io.Reader, boundary string) *Multipart {
	w := &closeWatch{r: body, closing: []byte("\n--" + boundary + "--"), tail: []byte("\n")}
	return &Multipart{Reader: multipart.NewReader(w, boundary), end: w}
}

// NextPart is the next part, io.EOF after the closing delimiter, or
// ErrTruncated when the body ended without one.
func (m *Multipart) NextPart() (*multipart.Part, error) {
	p, err := m.Reader.NextPart()
	if errors.Is(err, io.EOF) && !m.end.seen {
		return nil, ErrTruncated
	}
	return p, err
}

// closeWatch notes whether the closing delimiter ("--boundary--" at the
// start of a line) went through it. No part may hold its boundary after a
// line break, so the first such sight is the real end.
type closeWatch struct {
	r       io.Reader
	closing []byte
	tail    []byte // the last bytes read, for a delimiter split across reads
	seen    bool
}

func (c *closeWatch) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 && !c.seen {
		k := len(c.closing) - 1
		joint := append(c.tail, p[:min(n, k)]...)
		c.seen = bytes.Contains(joint, c.closing) || bytes.Contains(p[:n], c.closing)
		if n >= k {
			c.tail = append(c.tail[:0], p[n-k:n]...)
		} else {
			c.tail = joint[max(len(joint)-k, 0):]
		}
	}
	return n, err
}

// MultipartOf reads r's multipart/form-data body, as r.MultipartReader
// does, with the check of NewMultipart.
func MultipartOf(r *http.Request) (*Multipart, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, http.ErrNotMultipart
	}
	return NewMultipart(r.Body, params["boundary"]), nil
}
