package main

import (
	"io"
	"net/http"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/httpapi"
)

// boundUploads puts read deadlines on the bodies of the upload endpoints,
// which turn off huma's body timeout to stream up to 50 MB: without them a
// client sending a byte every 20 s held a connection for ever. Each read
// must bring a byte within idle, and the body must end within whole of the
// request's start; a read past either fails with os.ErrDeadlineExceeded,
// which the API answers with 408.
func boundUploads(h http.Handler, idle, whole time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Body != nil && r.Body != http.NoBody &&
			(r.URL.Path == httpapi.Prefix+"/translate" || r.URL.Path == httpapi.Prefix+"/translate-url" || r.URL.Path == "/translate") {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: http.NewResponseController(w),
				idle: idle, end: time.Now().Add(whole)}
		}
		h.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	idle time.Duration
	end  time.Time
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	d := time.Now().Add(b.idle)
	if d.After(b.end) {
		d = b.end
	}
	_ = b.rc.SetReadDeadline(d) // unsupported only by test recorders
	return b.ReadCloser.Read(p)
}
