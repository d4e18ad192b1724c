package httpguard

import (
	"net"
	"net/netip"
	"sync"
)

// PerAddress lets one remote address hold at most max connections of l
// at once; a connection past that is closed as soon as it is accepted,
// before any TLS or HTTP work. exempt addresses (trusted proxies, which
// carry many clients' connections) are not counted.
func PerAddress(l net.Listener, max int, exempt func(netip.Addr) bool) net.Listener {
	return &perAddress{Listener: l, max: max, exempt: exempt, open: map[netip.Addr]int{}}
}

type perAddress struct {
	net.Listener
	max    int
	exempt func(netip.Addr) bool
	mu     sync.Mutex
	open   map[netip.Addr]int
}

func (l *perAddress) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, perr := netip.ParseAddrPort(c.RemoteAddr().String())
		addr := ap.Addr().Unmap()
		if perr != nil || (l.exempt != nil && l.exempt(addr)) {
			return c, nil
		}
		l.mu.Lock()
		full := l.open[addr] >= l.max
		if !full {
			l.open[addr]++
		}
		l.mu.Unlock()
		if full {
			c.Close()
			continue
		}
		return &countedConn{Conn: c, release: func() { l.release(addr) }}, nil
	}
}

func (l *perAddress) release(addr netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[addr]--; l.open[addr] <= 0 {
		delete(l.open, addr)
	}
}

// countedConn gives its place back once, on the first Close.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
