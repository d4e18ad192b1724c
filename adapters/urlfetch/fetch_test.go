package urlfetch

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const mb = 1 << 20

// server is a loopback HTTPS server that counts its requests.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func (s *server) addrPort() netip.AddrPort {
	return netip.MustParseAddrPort(s.Listener.Addr().String())
}

func (s *server) localhostURL(path string) string {
	return "https://localhost:" + strconv.Itoa(int(s.addrPort().Port())) + path
}

// fetcher trusts the test servers' CA and exempts only the given servers
// from the address check; every other address is checked for real.
func fetcher(cfg Config, exempt ...*server) *Fetcher {
	pool := x509.NewCertPool()
	for _, s := range exempt {
		pool.AddCert(s.Certificate())
	}
	if cfg.RootCAs == nil {
		cfg.RootCAs = pool
	}
	f := New(cfg)
	allowed := map[netip.AddrPort]bool{}
	for _, s := range exempt {
		allowed[s.addrPort()] = true
	}
	f.exempt = func(ap netip.AddrPort) bool { return allowed[ap] }
	return f
}

func wantErr(t *testing.T, err, target error, mention string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want %v", err, target)
	}
	if !strings.Contains(err.Error(), mention) {
		t.Fatalf("error %q does not mention %q", err, mention)
	}
}

func TestFetchDocument(t *testing.T) {
	body := bytes.Repeat([]byte("PK\x03\x04 document bytes "), 5000)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.UserAgent() == "" || r.Method != http.MethodGet {
			http.Error(w, "bad request", 400)
			return
		}
		w.Header().Set("Content-Disposition", `attachment; filename="Annual report.docx"`)
		w.Write(body)
	})
	var dst bytes.Buffer
	name, err := fetcher(Config{}, s).Fetch(context.Background(), s.URL+"/files/x", &dst, 10*mb)
	if err != nil {
		t.Fatal(err)
	}
	if name != "Annual report.docx" || !bytes.Equal(dst.Bytes(), body) {
		t.Fatalf("name %q, %d bytes; want the header's name and %d bytes", name, dst.Len(), len(body))
	}
}

func TestFileNames(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if cd := r.URL.Query().Get("cd"); cd != "" {
			w.Header().Set("Content-Disposition", cd)
		}
		io.WriteString(w, "x")
	})
	f := fetcher(Config{}, s)
	for _, c := range []struct{ path, want string }{
		{"/a/b/My%20Doc.docx", "My Doc.docx"},
		{"/a/b/", "b"},
		{"/", fallbackName},
		{"/dl?cd=" + escape(`attachment; filename="../../secret.rtf"`), "secret.rtf"},
		{"/dl?cd=" + escape(`attachment; filename*=UTF-8''%D7%93%D7%95%D7%97.docx`), "דוח.docx"},
		{"/dl?cd=" + escape(`attachment; filename="a`+"\u202e"+`xcod.exe"`), "axcod.exe"},
		{"/path.odt?cd=" + escape(`attachment; filename=".."`), "path.odt"},
		{"/path.odt?cd=" + escape(`garbage;;;`), "path.odt"},
	} {
		name, err := f.Fetch(context.Background(), s.URL+c.path, io.Discard, mb)
		if err != nil || name != c.want {
			t.Errorf("%s: name %q, err %v; want %q", c.path, name, err, c.want)
		}
	}
}

func escape(s string) string {
	return strings.NewReplacer("%", "%25", " ", "%20", ";", "%3B", "&", "%26", "=", "%3D", "\"", "%22", "'", "%27").Replace(s)
}

func TestPrivateTargetsRefused(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret") })
	// Nothing exempt, but the server's certificate is trusted, so only the
	// address check can stop these.
	pool := x509.NewCertPool()
	pool.AddCert(s.Certificate())
	f := fetcher(Config{RootCAs: pool})
	for _, u := range []string{
		s.URL,               // IP literal, refused before connecting
		s.localhostURL("/"), // a name resolving to loopback, refused at connect time
		"https://169.254.169.254/latest/meta-data/",
		"https://[::1]:" + strconv.Itoa(int(s.addrPort().Port())) + "/",
		"https://[::ffff:127.0.0.1]:" + strconv.Itoa(int(s.addrPort().Port())) + "/",
		"https://10.1.2.3/doc.docx",
		"https://0.0.0.0/",
	} {
		_, err := f.Fetch(context.Background(), u, io.Discard, mb)
		if !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("%s: err = %v, want ErrForbiddenAddress", u, err)
		}
	}
	if n := s.hits.Load(); n != 0 {
		t.Fatalf("the private server got %d requests", n)
	}
}

func TestRedirectToPrivateRefused(t *testing.T) {
	inner := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret") })
	for _, target := range []string{inner.URL + "/admin", inner.localhostURL("/admin")} {
		outer := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target, http.StatusFound)
		})
		// Only the outer server is "public"; both certificates are trusted, so
		// only the address check can stop the second hop.
		pool := x509.NewCertPool()
		pool.AddCert(outer.Certificate())
		pool.AddCert(inner.Certificate())
		f := fetcher(Config{RootCAs: pool}, outer)
		_, err := f.Fetch(context.Background(), outer.URL, io.Discard, mb)
		if !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("redirect to %s: err = %v, want ErrForbiddenAddress", target, err)
		}
		if outer.hits.Load() != 1 {
			t.Errorf("outer server hits = %d, want 1", outer.hits.Load())
		}
	}
	if n := inner.hits.Load(); n != 0 {
		t.Fatalf("the private server got %d requests", n)
	}
}

func TestPlainHTTP(t *testing.T) {
	var hits atomic.Int64
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "plain")
	}))
	defer plain.Close()
	_, err := New(Config{}).Fetch(context.Background(), plain.URL+"/a.rtf", io.Discard, mb)
	wantErr(t, err, ErrInvalidURL, "https")
	if hits.Load() != 0 {
		t.Fatal("refused http:// URL was requested")
	}

	// --allow-private-urls lets plain http and loopback through.
	var dst bytes.Buffer
	name, err := New(Config{AllowPrivate: true}).Fetch(context.Background(), plain.URL+"/a.rtf", &dst, mb)
	if err != nil || name != "a.rtf" || dst.String() != "plain" {
		t.Fatalf("AllowPrivate: name %q, body %q, err %v", name, dst.String(), err)
	}

	// A redirect may not downgrade to http.
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/a.rtf", http.StatusMovedPermanently)
	})
	_, err = fetcher(Config{}, s).Fetch(context.Background(), s.URL, io.Discard, mb)
	wantErr(t, err, ErrInvalidURL, "https")
	if hits.Load() != 1 {
		t.Fatalf("plain server hits = %d, want 1 (from the AllowPrivate fetch only)", hits.Load())
	}
}

func TestRedirectLimit(t *testing.T) {
	// /hop/N/M redirects to /hop/N+1/M until N == M, then serves.
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		var n, m int
		fmt.Sscanf(r.URL.Path, "/hop/%d/%d", &n, &m)
		if n < m {
			http.Redirect(w, r, fmt.Sprintf("/hop/%d/%d", n+1, m), http.StatusFound)
			return
		}
		w.Header().Set("Content-Disposition", `attachment; filename="final.docx"`)
		io.WriteString(w, "done")
	})
	f := fetcher(Config{}, s)
	name, err := f.Fetch(context.Background(), s.URL+"/hop/0/5", io.Discard, mb)
	if err != nil || name != "final.docx" {
		t.Fatalf("5 redirects: name %q, err %v; want them followed", name, err)
	}
	_, err = f.Fetch(context.Background(), s.URL+"/hop/0/6", io.Discard, mb)
	wantErr(t, err, ErrUpstream, "redirects")
}

func TestSizeCap(t *testing.T) {
	endless := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 32<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	var dst bytes.Buffer
	_, err := fetcher(Config{}, endless).Fetch(context.Background(), endless.URL, &dst, mb)
	wantErr(t, err, ErrTooLarge, "more than")
	if dst.Len() > mb {
		t.Fatalf("%d bytes written past the cap of %d", dst.Len(), mb)
	}

	declared := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(mb+1))
		w.Write(make([]byte, mb+1))
	})
	dst.Reset()
	_, err = fetcher(Config{}, declared).Fetch(context.Background(), declared.URL, &dst, mb)
	wantErr(t, err, ErrTooLarge, "limit")
	if dst.Len() != 0 {
		t.Fatalf("%d bytes written although Content-Length was over the cap", dst.Len())
	}

	exact := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write(make([]byte, mb)) })
	dst.Reset()
	if _, err := fetcher(Config{}, exact).Fetch(context.Background(), exact.URL, &dst, mb); err != nil || dst.Len() != mb {
		t.Fatalf("exactly max bytes: %d, %v", dst.Len(), err)
	}
}

func TestTimeouts(t *testing.T) {
	hang := newServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	start := time.Now()
	_, err := fetcher(Config{HeaderTimeout: 200 * time.Millisecond}, hang).Fetch(context.Background(), hang.URL, io.Discard, mb)
	wantErr(t, err, ErrUpstream, "timed out")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("header timeout took %v", d)
	}

	// Headers and some body arrive, then the server stalls: the whole-fetch
	// timeout ends it.
	stall := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 1000))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	start = time.Now()
	_, err = fetcher(Config{Timeout: 300 * time.Millisecond}, stall).Fetch(context.Background(), stall.URL, io.Discard, mb)
	wantErr(t, err, ErrUpstream, "timed out")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("whole-fetch timeout took %v", d)
	}

	// The caller's cancellation is passed on as such.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = fetcher(Config{}, hang).Fetch(ctx, hang.URL, io.Discard, mb)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled fetch: err = %v, want context.Canceled", err)
	}
}

func TestUpstreamErrors(t *testing.T) {
	notFound := newServer(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	_, err := fetcher(Config{}, notFound).Fetch(context.Background(), notFound.URL+"/missing.docx", io.Discard, mb)
	wantErr(t, err, ErrUpstream, "404")

	// A certificate nobody trusts.
	ok := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") })
	f := fetcher(Config{RootCAs: x509.NewCertPool()}, ok)
	_, err = f.Fetch(context.Background(), ok.URL, io.Discard, mb)
	wantErr(t, err, ErrUpstream, "certificate")
}

func TestInvalidURLs(t *testing.T) {
	f := New(Config{})
	for _, u := range []string{"", "not a url", "ftp://example.com/a.doc", "file:///etc/passwd",
		"https://", "https:///path", "https://user:pw@example.com/a.docx", "javascript:alert(1)",
		"gopher://127.0.0.1:6379/_INFO", "https://example.com:99999/", "https://" + strings.Repeat("a", 5000)} {
		if _, err := f.Fetch(context.Background(), u, io.Discard, mb); !errors.Is(err, ErrInvalidURL) {
			t.Errorf("%q: err = %v, want ErrInvalidURL", u, err)
		}
	}
}

// Proxy settings from the environment must not route around the check.
func TestEnvironmentProxyIgnored(t *testing.T) {
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "direct") })
	var dst bytes.Buffer
	if _, err := fetcher(Config{}, s).Fetch(context.Background(), s.URL, &dst, mb); err != nil || dst.String() != "direct" {
		t.Fatalf("body %q, err %v", dst.String(), err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestDestinationErrorIsNotUpstream(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "data") })
	_, err := fetcher(Config{}, s).Fetch(context.Background(), s.URL, failingWriter{}, mb)
	if err == nil || errors.Is(err, ErrUpstream) || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v, want the destination's error, not ErrUpstream", err)
	}
}

func BenchmarkFetch(b *testing.B) {
	body := make([]byte, 4*mb)
	s := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer s.Close()
	pool := x509.NewCertPool()
	pool.AddCert(s.Certificate())
	f := New(Config{AllowPrivate: true, RootCAs: pool})
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := f.Fetch(context.Background(), s.URL, io.Discard, 8*mb); err != nil {
			b.Fatal(err)
		}
	}
}

// TestErrorsNameNoAddress: an error may say which class of address was
// refused or what failed, never a resolved address or the resolver's.
func TestErrorsNameNoAddress(t *testing.T) {
	addr := regexp.MustCompile(`\d+\.\d+\.\d+\.\d+|::1|\[[0-9a-fA-F:]+\]|:53\b`)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") })
	closed := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	closedURL := closed.localhostURL("/gone.docx")
	f := fetcher(Config{}, closed)
	closed.Close()
	for _, c := range []struct {
		url, mention string
	}{
		{s.localhostURL("/a.docx"), "loopback"}, // resolves to 127.0.0.1 or ::1
		{"https://no-such-host.invalid/a.docx", "host name"},
		{closedURL, "refused"}, // dial tcp 127.0.0.1:PORT: connection refused
	} {
		_, err := f.Fetch(context.Background(), c.url, io.Discard, mb)
		if err == nil {
			t.Fatalf("%s: no error", c.url)
		}
		if m := addr.FindString(err.Error()); m != "" {
			t.Errorf("%s: error %q names an address (%s)", c.url, err, m)
		}
		if !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: error %q does not say %q", c.url, err, c.mention)
		}
	}
	// The guard shared with webhook deliveries says the same.
	if err := CheckAddr(netip.MustParseAddr("10.1.2.3"), false); err == nil || addr.MatchString(err.Error()) {
		t.Errorf("CheckAddr: %v", err)
	}
}
