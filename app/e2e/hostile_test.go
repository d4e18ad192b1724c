package e2e

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestOversizeIsRefusedBeforeType: anything over 50 MB is 413, whether or
// not it is a document, streamed or with a Content-Length (issue 15).
func TestOversizeIsRefusedBeforeType(t *testing.T) {
	s := startServer(t, nil)
	_, key, _ := s.account("pro")
	text := func() io.Reader { return io.LimitReader(infinite('x'), 52<<20) }
	problem(t, s.upload(key, "notes.docx", text(), nil), 413) // chunked

	body := "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.docx\"\r\n\r\n" +
		strings.Repeat("x", 52<<20) + "\r\n--B--\r\n"
	r := s.do("POST", "/v1/translate", key, strings.NewReader(body), "multipart/form-data; boundary=B")
	problem(t, r, 413) // with Content-Length
}

type infinite byte

func (b infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// rawUpload sends a POST /v1/translate by hand over TLS with the given
// Content-Length, writes the body through send, and returns the status
// and how long after the headers the answer came.
func rawUpload(t *testing.T, s *server, key string, contentLength int, send func(w io.Writer, c *tls.Conn)) (int, time.Duration) {
	t.Helper()
	c, err := tls.Dial("tcp", s.https, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"http/1.1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/translate HTTP/1.1\r\nHost: localhost\r\nX-API-Key: %s\r\n"+
		"Content-Type: multipart/form-data; boundary=B\r\nContent-Length: %d\r\n\r\n", key, contentLength)
	start := time.Now()
	answered := make(chan int, 1)
	go func() {
		c.SetReadDeadline(time.Now().Add(60 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	stop := make(chan struct{})
	go func() {
		send(&stopWriter{c, stop}, c)
	}()
	status := <-answered
	close(stop)
	return status, time.Since(start)
}

// stopWriter fails once the answer has come, so a trickle ends.
type stopWriter struct {
	w    io.Writer
	stop chan struct{}
}

func (s *stopWriter) Write(p []byte) (int, error) {
	select {
	case <-s.stop:
		return 0, io.ErrClosedPipe
	default:
		return s.w.Write(p)
	}
}

const partHead = "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.rtf\"\r\n\r\n{\\rtf1 "

// TestSlowUploadsAreCutOff: a client that stalls, or trickles a byte at a
// time, no longer holds a connection for ever, and a cut body is 422 at
// once (issue 15). The deadlines are shortened by flags for the test.
func TestSlowUploadsAreCutOff(t *testing.T) {
	s := startServer(t, []string{"--upload-idle-timeout", "1s", "--upload-timeout", "4s"})
	_, key, _ := s.account("pro")

	t.Run("stalled", func(t *testing.T) {
		status, took := rawUpload(t, s, key, 10000, func(w io.Writer, _ *tls.Conn) {
			io.WriteString(w, partHead) // then nothing
		})
		if status != 408 || took > 6*time.Second {
			t.Errorf("stalled upload: status %d after %s, want 408 after about 1s", status, took)
		}
	})
	t.Run("trickling", func(t *testing.T) {
		status, took := rawUpload(t, s, key, 10000, func(w io.Writer, _ *tls.Conn) {
			if _, err := io.WriteString(w, partHead); err != nil {
				return
			}
			for { // under the idle limit and over the minimum rate (667 bytes a second), past the whole limit
				time.Sleep(300 * time.Millisecond)
				if _, err := io.WriteString(w, strings.Repeat("x", 200)); err != nil {
					return
				}
			}
		})
		if status != 408 || took < 3*time.Second || took > 10*time.Second {
			t.Errorf("trickling upload: status %d after %s, want 408 after about 4s", status, took)
		}
	})
	t.Run("cut short", func(t *testing.T) {
		status, took := rawUpload(t, s, key, 10000, func(w io.Writer, c *tls.Conn) {
			io.WriteString(w, partHead+"some text")
			c.CloseWrite() // the client is done, 9900 bytes short
		})
		if status != 422 || took > 3*time.Second {
			t.Errorf("cut body: status %d after %s, want 422 at once", status, took)
		}
	})
	t.Run("no closing boundary", func(t *testing.T) {
		body := partHead + "some text}"
		status, took := rawUpload(t, s, key, len(body), func(w io.Writer, _ *tls.Conn) {
			io.WriteString(w, body)
		})
		if status != 422 || took > 3*time.Second {
			t.Errorf("unterminated multipart: status %d after %s, want 422 at once", status, took)
		}
	})
	// A normal upload still works with the short limits.
	var b bytes.Buffer
	b.WriteString("{\\rtf1\\ansi Hello world.\\par}")
	if r := s.upload(key, "a.rtf", &b, map[string]string{"target_lang": "Spanish", "source_lang": "English"}); r.status != 202 {
		t.Errorf("normal upload: %d %s", r.status, r.body)
	}
}
