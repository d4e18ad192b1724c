// Package httpguard bounds what one client can hold of the HTTP server:
// how slowly a request body may arrive, whether a multipart body arrived
// whole, and how many connections one address keeps open.
package httpguard

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// BodyLimits say how slowly any request body may arrive. The model is
// Apache's mod_reqtimeout (body=20,MinRate=500): a body has Idle to
// start, and each byte it brings buys 1/MinRate seconds more, so a
// client trickling a byte now and then is cut off at once instead of
// holding a connection for Whole.
type BodyLimits struct {
	Idle    time.Duration // longest wait for the first byte, and between any two
	Whole   time.Duration // longest a body may take, from the request's start
	MinRate int64         // bytes per second a body keeps up on average after Idle; 0: none
}

// Refuse writes the answer to r, refused here with status for reason.
type Refuse func(w http.ResponseWriter, r *http.Request, status int, reason string)

// Bodies puts every request body of h under l: each read has a deadline
// (the earliest of the three bounds), and a body that misses it is
// answered 408 with the bound it broke, whatever the handler then tries
// to write. It covers the API and the dashboard alike, and replaces any
// deadline a handler's framework set (huma's BodyReadTimeout) on the
// first read.
func Bodies(h http.Handler, l BodyLimits, refuse Refuse) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, guarded := r.Body.(*slowBody); guarded || r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r) // no body, or one an outer guard bounds already
			return
		}
		gw := &guardedWriter{ResponseWriter: w, req: r}
		b := &slowBody{ReadCloser: r.Body, rc: http.NewResponseController(w), limits: l,
			start: time.Now(), w: gw, refuse: refuse}
		// A body the handler never reads is still drained by the server
		// afterwards: bound that too.
		b.arm()
		r.Body = b
		h.ServeHTTP(gw, r)
	})
}

// TooSlow is the error of a body read past its deadline; it wraps
// os.ErrDeadlineExceeded.
type TooSlow struct{ Reason string }

func (e *TooSlow) Error() string { return "request body too slow: " + e.Reason }
func (e *TooSlow) Unwrap() error { return os.ErrDeadlineExceeded }

type slowBody struct {
	io.ReadCloser
	rc     *http.ResponseController
	limits BodyLimits
	start  time.Time
	n      int64         // bytes read
	waited time.Duration // time spent in reads
	why    string        // the bound the current deadline comes from
	done   bool
	w      *guardedWriter
	refuse Refuse
}

// arm sets the read deadline for the next byte and notes which bound it
// is. The rate counts only the time spent waiting for the client: a
// server slow to read (a busy blob store) does not use up its credit.
func (b *slowBody) arm() {
	now, l := time.Now(), b.limits
	d, why := now.Add(l.Idle), fmt.Sprintf("no byte came for %s", l.Idle)
	if e := b.start.Add(l.Whole); e.Before(d) {
		d, why = e, fmt.Sprintf("the body took longer than %s", l.Whole)
	}
	if l.MinRate > 0 {
		credit := time.Duration(float64(b.n) / float64(l.MinRate) * float64(time.Second))
		if e := now.Add(l.Idle + credit - b.waited); e.Before(d) {
			d, why = e, fmt.Sprintf("the body came slower than %d bytes a second", l.MinRate)
		}
	}
	b.why = why
	_ = b.rc.SetReadDeadline(d) // unsupported only by test recorders
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.done {
		return b.ReadCloser.Read(p)
	}
	b.arm()
	t0 := time.Now()
	n, err := b.ReadCloser.Read(p)
	b.waited += time.Since(t0)
	b.n += int64(n)
	switch {
	case err == io.EOF:
		// The whole body is in: a deadline left on the connection would
		// end the server's wait for the next request and cancel this
		// request's context while the handler still works.
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	case errors.Is(err, os.ErrDeadlineExceeded):
		b.done = true
		err = &TooSlow{Reason: b.why}
		b.w.refuseOnce(b.refuse, err.(*TooSlow))
	}
	return n, err
}

// guardedWriter lets the guard answer a slow body before the handler
// does, and drops what the handler writes after that.
type guardedWriter struct {
	http.ResponseWriter
	wrote   bool // the handler began its answer
	refused bool // the guard answered
	req     *http.Request
}

var errRefused = errors.New("httpguard: the request was already answered (body too slow)")

func (w *guardedWriter) refuseOnce(refuse Refuse, e *TooSlow) {
	if w.wrote || w.refused {
		return
	}
	w.refused = true
	if w.req.ProtoMajor == 1 { // the rest of the body will not be read; HTTP/2 resets the stream itself
		w.Header().Set("Connection", "close")
	}
	refuse(w.ResponseWriter, w.req, http.StatusRequestTimeout, "the request body came too slowly: "+e.Reason)
}

func (w *guardedWriter) WriteHeader(code int) {
	if w.refused {
		return
	}
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *guardedWriter) Write(p []byte) (int, error) {
	if w.refused {
		return 0, errRefused
	}
	w.wrote = true
	return w.ResponseWriter.Write(p)
}

func (w *guardedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.refused {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *guardedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
