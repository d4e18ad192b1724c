package httpguard

import (
	"io"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"
)

// One address holds at most max connections; one more is closed at once,
// and a closed connection gives its place back. An exempt address is not
// counted.
func TestConnectionsPerAddress(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var exempt atomic.Bool // read by the accepting goroutine
	l := PerAddress(raw, 3, func(netip.Addr) bool { return exempt.Load() })
	defer l.Close()
	go func() { // hold every accepted connection open until its client goes
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// closed says whether the server closed c within a second.
	closed := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(time.Second))
		_, err := c.Read(make([]byte, 1))
		ne, ok := err.(net.Error)
		return !(ok && ne.Timeout())
	}
	var held []net.Conn
	for i := 0; i < 3; i++ {
		held = append(held, dial())
	}
	for _, c := range held {
		if closed(c) {
			t.Fatal("a connection under the limit was closed")
		}
	}
	if extra := dial(); !closed(extra) {
		t.Error("a fourth connection from one address stayed open")
	}
	held[0].Close()
	time.Sleep(100 * time.Millisecond)
	if again := dial(); closed(again) {
		t.Error("a closed connection did not give its place back")
	}
	exempt.Store(true)
	if proxied := dial(); closed(proxied) {
		t.Error("an exempt address was limited")
	}
}
