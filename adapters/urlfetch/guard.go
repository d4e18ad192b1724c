package urlfetch

import (
	"fmt"
	"net/netip"
	"syscall"
)

// DialControl is a net.Dialer Control function that refuses connections
// to any address a user-given URL must not reach (loopback, private,
// link-local, metadata, …) unless allowPrivate. It runs after DNS
// resolution, so other clients of user-given URLs (webhook deliveries)
// get the same SSRF guard as the fetcher.
func DialControl(allowPrivate bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: cannot parse the address", ErrForbiddenAddress)
		}
		return CheckAddr(ap.Addr(), allowPrivate)
	}
}

// CheckAddr returns an ErrForbiddenAddress error when ip must not be
// reached, unless allowPrivate.
func CheckAddr(ip netip.Addr, allowPrivate bool) error {
	if allowPrivate {
		return nil
	}
	if why := forbidden(ip); why != "" {
		return refusedClass(why)
	}
	return nil
}
