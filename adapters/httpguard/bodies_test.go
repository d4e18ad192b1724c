package httpguard

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// slowServer serves h under limits on a real socket; refusals are a
// plain-text status line with the reason.
func slowServer(t *testing.T, l BodyLimits, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(Bodies(h, l, func(w http.ResponseWriter, _ *http.Request, status int, reason string) {
		w.WriteHeader(status)
		io.WriteString(w, reason)
	}))
	t.Cleanup(s.Close)
	return s
}

// trickle posts a body of n bytes declared, sending first, then one byte
// every gap, and returns the answer's status, body and when it came.
func trickle(t *testing.T, s *httptest.Server, path, first string, n int, gap time.Duration) (int, string, time.Duration) {
	t.Helper()
	c, err := net.Dial("tcp", s.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s", path, n, first)
	start := time.Now()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(gap):
				if _, err := io.WriteString(c, "x"); err != nil {
					return
				}
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err.Error(), time.Since(start)
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), time.Since(start)
}

// Every body is bounded, whatever the handler does with it: a handler that
// reads a form, one that reads the body whole and one that never reads it.
// A trickle that keeps under the idle limit is cut by the minimum rate,
// and the guard's 408 stands even if the handler then answers otherwise.
func TestSlowBodiesAreCutOff(t *testing.T) {
	l := BodyLimits{Idle: 600 * time.Millisecond, Whole: time.Minute, MinRate: 100}
	answered := make(chan int, 10)
	s := slowServer(t, l, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/form": // as the dashboard's sign-in does: the error is ignored
			_ = r.PostFormValue("email")
			w.WriteHeader(http.StatusForbidden)
		case "/all":
			if _, err := io.ReadAll(r.Body); err != nil {
				answered <- 1
				http.Error(w, err.Error(), http.StatusUnprocessableEntity)
				return
			}
		case "/never":
			time.Sleep(100 * time.Millisecond)
		}
	})
	for _, path := range []string{"/form", "/all"} {
		// 1 byte every 400 ms: under the idle limit, but 2.5 bytes a second.
		status, body, took := trickle(t, s, path, "email=a", 1000, 400*time.Millisecond)
		if status != 408 || !strings.Contains(body, "slower than 100 bytes a second") || took > 5*time.Second {
			t.Errorf("%s trickled: %d %q after %s, want 408 for the rate in about a second", path, status, body, took)
		}
	}
	status, body, took := trickle(t, s, "/all", "", 1000, time.Hour)
	if status != 408 || !strings.Contains(body, "no byte came for 600ms") || took > 5*time.Second {
		t.Errorf("stalled: %d %q after %s", status, body, took)
	}
	if len(answered) != 2 {
		t.Errorf("the handler saw %d read errors, want 2 (its answers dropped)", len(answered))
	}
	// A body never read is answered by the handler, and the server's
	// drain afterwards cannot be held either.
	start := time.Now()
	status, _, _ = trickle(t, s, "/never", "", 1000, 400*time.Millisecond)
	if status != 200 || time.Since(start) > 5*time.Second {
		t.Errorf("unread body: %d after %s", status, time.Since(start))
	}
}

// A body that keeps up the rate goes through however long it takes (up to
// Whole), and the deadline is gone once it is in: a handler that works on
// afterwards keeps its context.
func TestSteadyBodiesPass(t *testing.T) {
	l := BodyLimits{Idle: 500 * time.Millisecond, Whole: time.Minute, MinRate: 100}
	s := slowServer(t, l, func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		select { // work past every deadline the body had
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
			http.Error(w, "context ended", http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "%d", len(b))
	})
	// 20 bytes every 100 ms is 200 bytes a second, for 1.5 s.
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < 15; i++ {
			time.Sleep(100 * time.Millisecond)
			pw.Write([]byte(strings.Repeat("y", 20)))
		}
		pw.Close()
	}()
	resp, err := http.Post(s.URL, "text/plain", pr)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "300" {
		t.Errorf("steady body: %d %s", resp.StatusCode, b)
	}
}

// The time a handler spends between reads (a slow store behind it) is
// not the client's: only the waits for its bytes count against the rate.
func TestSlowServerDoesNotCountAgainstTheClient(t *testing.T) {
	l := BodyLimits{Idle: 500 * time.Millisecond, Whole: time.Minute, MinRate: 100}
	s := slowServer(t, l, func(w http.ResponseWriter, r *http.Request) {
		head := make([]byte, 10)
		if _, err := io.ReadFull(r.Body, head); err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		time.Sleep(1500 * time.Millisecond) // past Idle + 10 bytes' credit of wall time
		rest, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		fmt.Fprintf(w, "%d", len(head)+len(rest))
	})
	resp, err := http.Post(s.URL, "text/plain", strings.NewReader(strings.Repeat("z", 100)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "100" {
		t.Errorf("slow reader: %d %s", resp.StatusCode, b)
	}
}

// Over HTTP/2 the same bounds hold per stream.
func TestSlowBodiesOverHTTP2(t *testing.T) {
	l := BodyLimits{Idle: 600 * time.Millisecond, Whole: time.Minute, MinRate: 100}
	h := Bodies(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			return
		}
		io.WriteString(w, r.Proto)
	}), l, func(w http.ResponseWriter, _ *http.Request, status int, reason string) { http.Error(w, reason, status) })
	s := httptest.NewUnstartedServer(h)
	s.EnableHTTP2 = true
	s.StartTLS()
	defer s.Close()
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() {
		for {
			time.Sleep(400 * time.Millisecond)
			if _, err := pw.Write([]byte("x")); err != nil {
				return
			}
		}
	}()
	start := time.Now()
	resp, err := s.Client().Post(s.URL, "text/plain", pr)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.ProtoMajor != 2 || resp.StatusCode != 408 || time.Since(start) > 5*time.Second {
		t.Errorf("HTTP/%d trickle: %d %q after %s, want 408 in about a second", resp.ProtoMajor, resp.StatusCode, b, time.Since(start))
	}
}
