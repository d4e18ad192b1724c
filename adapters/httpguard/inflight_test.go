package httpguard

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
)

// An address has at most max requests in progress; the next is refused
// at once, another address is not, a trusted proxy is not counted, and a
// finished request gives its place back.
func TestInFlightBoundsRequestsPerAddress(t *testing.T) {
	release := make(chan struct{})
	var started sync.WaitGroup
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started.Done()
		<-release
	})
	refused := func(w http.ResponseWriter, _ *http.Request, status int, _ string) { w.WriteHeader(status) }
	proxy := netip.MustParseAddr("10.0.0.1")
	g := InFlight(h, 2, func(a netip.Addr) bool { return a == proxy }, refused)
	serve := func(addr string) int {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		return w.Code
	}
	var done sync.WaitGroup
	for _, addr := range []string{"192.0.2.1:1000", "[::ffff:192.0.2.1]:1001", "10.0.0.1:5", "10.0.0.1:6", "10.0.0.1:7"} {
		started.Add(1)
		done.Add(1)
		go func() { defer done.Done(); serve(addr) }()
	}
	started.Wait()
	if got := serve("192.0.2.1:1002"); got != http.StatusTooManyRequests {
		t.Errorf("a third request from one address: %d, want 429", got)
	}
	started.Add(1)
	done.Add(1)
	go func() { defer done.Done(); serve("192.0.2.2:1000") }()
	started.Wait()
	close(release)
	done.Wait()
	started.Add(1)
	if got := serve("192.0.2.1:1003"); got != http.StatusOK {
		t.Errorf("after its requests ended: %d, want 200", got)
	}
}
