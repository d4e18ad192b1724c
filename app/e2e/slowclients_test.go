package e2e

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawAnswer is what a hand-made request got: the status (0: none), the
// problem code of its body, when it came and whether the server then
// closed the connection.
type rawAnswer struct {
	status int
	code   string
	took   time.Duration
	closed bool
}

// rawPost sends method path over TLS with the given headers and declared
// Content-Length, then first and, until answered, one byte every gap.
func rawPost(t *testing.T, addr, method, path, headers string, length int, first string, gap time.Duration) rawAnswer {
	t.Helper()
	c, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"http/1.1"}})
	if err != nil {
		return rawAnswer{closed: true}
	}
	return rawPostOn(t, c, method, path, headers, length, first, gap)
}

// rawPostOn is rawPost over the connection c, which it closes.
func rawPostOn(t *testing.T, c net.Conn, method, path, headers string, length int, first string, gap time.Duration) rawAnswer {
	t.Helper()
	defer c.Close()
	fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: localhost\r\n%sContent-Length: %d\r\n\r\n%s", method, path, headers, length, first)
	start := time.Now()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(gap):
				if _, err := io.WriteString(c, " "); err != nil { // whitespace: valid in JSON, XML and forms
					return
				}
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(60 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return rawAnswer{took: time.Since(start), closed: true}
	}
	var p struct{ Code string }
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	_ = json.Unmarshal(b, &p)
	a := rawAnswer{status: resp.StatusCode, code: p.Code, took: time.Since(start)}
	// The server must not wait for the rest of the body either.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = br.ReadByte()
	a.closed = err != nil && !isTimeout(err)
	return a
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestEveryBodyIsBounded: every request body, signed in or not, API or
// dashboard, upload or small JSON, is cut off when it trickles (issue 26:
// POST /signin sending a byte every 25 s was open after 442 s;
// translate-url, glossaries, XLIFF and TMX imports after 100 s). The
// limits are shortened by flags: 2 s to start, then 100 bytes a second.
// Each trickles a byte every 700 ms, under the idle limit, and must be
// answered 408 (a problem body saying so) within seconds, and closed.
func TestEveryBodyIsBounded(t *testing.T) {
	s := startServer(t, []string{"--upload-idle-timeout", "2s"}, "DRAGOMAN_BODY_MIN_RATE=100", "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	api := "X-API-Key: " + key + "\r\n"
	const job = "/v1/jobs/7d1e5b8e-0000-4000-8000-000000000000/xliff"
	cases := []struct{ name, method, path, headers, first string }{
		{"sign-in, no session", "POST", "/signin", "Content-Type: application/x-www-form-urlencoded\r\n", "email=a%40b.c&password="},
		{"translate-url", "POST", "/v1/translate-url", api + "Content-Type: application/json\r\n", `{"url":"https://example.com/a.docx"`},
		{"glossary", "POST", "/v1/glossaries", api + "Content-Type: application/json\r\n", `{"name":"g","entries":[`},
		{"do-not-translate", "PUT", "/v1/account/do-not-translate", api + "Content-Type: application/json\r\n", `{"terms":[`},
		{"TMX import", "POST", "/v1/memory.tmx", api + "Content-Type: application/x-tmx+xml\r\n", `<?xml version="1.0"?><tmx`},
		{"upload", "POST", "/v1/translate", api + "Content-Type: multipart/form-data; boundary=B\r\n", partHead},
		{"webhook", "POST", "/v1/webhooks", api + "Content-Type: application/json\r\n", `{"url":"https://`},
	}
	var wg sync.WaitGroup
	for _, tc := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := rawPost(t, s.https, tc.method, tc.path, tc.headers, 100000, tc.first, 700*time.Millisecond)
			if a.status != 408 || a.code != "request_timeout" || a.took > 10*time.Second || !a.closed {
				t.Errorf("%s trickled: %+v, want 408 request_timeout within seconds and the connection closed", tc.name, a)
			}
		}()
	}
	// The XLIFF import of a job that is not there is answered without
	// reading the body; the server does not wait for it afterwards.
	wg.Add(1)
	go func() {
		defer wg.Done()
		a := rawPost(t, s.https, "POST", job, api+"Content-Type: application/xliff+xml\r\n", 100000, "<xliff", 700*time.Millisecond)
		if a.status != 404 || a.took > 10*time.Second || !a.closed {
			t.Errorf("XLIFF import trickled: %+v, want 404 and the connection closed within seconds", a)
		}
	}()
	wg.Wait()
	// A body that keeps up goes through.
	r := s.do("PUT", "/v1/account/do-not-translate", key, strings.NewReader(`{"terms":["Dragoman"]}`), "application/json")
	if r.status != 200 {
		t.Errorf("a normal body: %d %s", r.status, r.body)
	}
}

// TestSlowConnectionsAreBounded: one address cannot hold more than
// --max-conns-per-ip connections (issue 26: 500 trickling connections
// were all accepted), and the ones it holds are cut off by the body
// limits, after which the address is served again.
func TestSlowConnectionsAreBounded(t *testing.T) {
	s := startServer(t, []string{"--upload-idle-timeout", "2s"}, "DRAGOMAN_BODY_MIN_RATE=100", "DRAGOMAN_MAX_CONNS_PER_IP=20", "DRAGOMAN_ENGINES=pseudo")
	const n = 60
	answers := make(chan rawAnswer, n)
	start := time.Now()
	for i := 0; i < n; i++ {
		go func() {
			answers <- rawPost(t, s.https, "POST", "/signin", "Content-Type: application/x-www-form-urlencoded\r\n", 100000, "email=", 700*time.Millisecond)
		}()
	}
	timedOut, refused := 0, 0
	for i := 0; i < n; i++ {
		a := <-answers
		switch {
		case a.status == 408:
			timedOut++
		case a.status == 0:
			refused++ // closed before TLS or before an answer
		default:
			t.Errorf("slow sign-in: %+v", a)
		}
	}
	if timedOut > 20 || refused < n-20 || time.Since(start) > 30*time.Second {
		t.Errorf("%d connections held to 408, %d refused, in %s: want at most 20 held, the rest refused, all within seconds",
			timedOut, refused, time.Since(start))
	}
	// Their places are free again.
	r := s.do("GET", "/v1/health", "", nil, "")
	if r.status != 200 {
		t.Errorf("after the slow clients: %d", r.status)
	}
}

// TestHTTP2StreamsAreBoundedPerAddress: over HTTP/2 (what browsers, curl
// and Go clients speak to the HTTPS port) one connection carries up to
// 250 requests at once, so counting connections alone let one address
// hold 250 times --max-conns-per-ip trickling bodies. The requests one
// address has in progress are bounded by the same number; the rest are
// answered at once (429), and the ones held are still cut off by the
// body limits.
func TestHTTP2StreamsAreBoundedPerAddress(t *testing.T) {
	s := startServer(t, []string{"--upload-idle-timeout", "2s"}, "DRAGOMAN_BODY_MIN_RATE=100", "DRAGOMAN_MAX_CONNS_PER_IP=4", "DRAGOMAN_ENGINES=pseudo")
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, ForceAttemptHTTP2: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	// One stream first, so that the rest share its connection.
	if r, err := client.Get("https://" + s.https + "/v1/health"); err != nil || r.ProtoMajor != 2 {
		t.Fatalf("an HTTP/2 request: %v %v", r, err)
	} else {
		r.Body.Close()
	}
	const n = 20
	type answer struct {
		status int
		took   time.Duration
	}
	answers := make(chan answer, n)
	stop := make(chan struct{})
	defer close(stop)
	start := time.Now()
	for range n {
		go func() {
			pr, pw := io.Pipe()
			go func() { // "email=" then a byte every 700 ms, under the idle limit
				io.WriteString(pw, "email=")
				for {
					select {
					case <-stop:
						pw.Close()
						return
					case <-time.After(700 * time.Millisecond):
						if _, err := io.WriteString(pw, "a"); err != nil {
							return
						}
					}
				}
			}()
			req, _ := http.NewRequest("POST", "https://"+s.https+"/signin", pr)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.ContentLength = 100000
			r, err := client.Do(req)
			if err != nil {
				answers <- answer{took: time.Since(start)}
				return
			}
			r.Body.Close()
			answers <- answer{r.StatusCode, time.Since(start)}
		}()
	}
	held, refused := 0, 0
	for range n {
		a := <-answers
		switch {
		case a.status == 408:
			held++
		case a.status == 429 && a.took < 2*time.Second:
			refused++
		default:
			t.Errorf("a trickling sign-in over HTTP/2: %+v", a)
		}
	}
	if held > 4 || refused < n-4 {
		t.Errorf("one address held %d trickling requests to 408 over one HTTP/2 connection and %d were refused; want at most 4 held (--max-conns-per-ip)", held, refused)
	}
}

// TestBodiesAreBoundedOnThePlainPort: the plain-HTTP port answers with a
// redirect to HTTPS (the metrics port with its metrics, or 405) without
// reading the body, and the server then reads
// what is left of it (up to 256 KB) to keep the connection: a body
// trickling there held the connection with no deadline at all.
func TestBodiesAreBoundedOnThePlainPort(t *testing.T) {
	s := startServer(t, []string{"--upload-idle-timeout", "2s"}, "DRAGOMAN_BODY_MIN_RATE=100", "DRAGOMAN_ENGINES=pseudo")
	c, err := net.Dial("tcp", s.http)
	if err != nil {
		t.Fatal(err)
	}
	a := rawPostOn(t, c, "POST", "/signin", "Content-Type: application/x-www-form-urlencoded\r\n", 100000, "email=", 700*time.Millisecond)
	if a.status == 0 || a.took > 10*time.Second || !a.closed {
		t.Errorf("a body trickling to the plain port: %+v, want an answer within seconds and the connection closed", a)
	}
	// The metrics port likewise: its one route reads no body.
	if c, err = net.Dial("tcp", s.metrics); err != nil {
		t.Fatal(err)
	}
	a = rawPostOn(t, c, "POST", "/metrics", "Content-Type: text/plain\r\n", 100000, "x", 700*time.Millisecond)
	if a.status == 0 || a.took > 10*time.Second || !a.closed {
		t.Errorf("a body trickling to the metrics port: %+v, want an answer within seconds and the connection closed", a)
	}
}
