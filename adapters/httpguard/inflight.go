package httpguard

import (
	"fmt"
	"net/http"
	"net/netip"
	"sync"
)

// InFlight lets one remote address have at most max requests of h in
// progress at once; a request past that is refused at once (429) without
// reading its body. PerAddress bounds connections, which bounds requests
// over HTTP/1.1, but one HTTP/2 connection carries up to 250 requests at
// once: without this an address held 250 times its connections' worth of
// trickling bodies. exempt addresses (trusted proxies) are not counted.
func InFlight(h http.Handler, max int, exempt func(netip.Addr) bool, refuse Refuse) http.Handler {
	var mu sync.Mutex
	open := map[netip.Addr]int{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ap, err := netip.ParseAddrPort(r.RemoteAddr)
		addr := ap.Addr().Unmap()
		if err != nil || (exempt != nil && exempt(addr)) {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		full := open[addr] >= max
		if !full {
			open[addr]++
		}
		mu.Unlock()
		if full {
			w.Header().Set("Retry-After", "1")
			refuse(w, r, http.StatusTooManyRequests, fmt.Sprintf("this address already has %d requests in progress, the most it may have at once", max))
			return
		}
		defer func() {
			mu.Lock()
			if open[addr]--; open[addr] <= 0 {
				delete(open, addr)
			}
			mu.Unlock()
		}()
		h.ServeHTTP(w, r)
	})
}
