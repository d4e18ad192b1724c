package s3test

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// StablePort is a free loopback port below the kernel's ephemeral range,
// for a test server that must come back on the same port after an outage:
// a port from the ephemeral range (what port 0 gives) may be taken by any
// outgoing connection on a busy machine while the server is down.
func StablePort() (int, error) {
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				low = n
			}
		}
	}
	const from = 10000
	if low <= from+1000 {
		return 0, fmt.Errorf("s3test: the ephemeral port range starts at %d, leaving no stable ports", low)
	}
	for try := 0; try < 100; try++ {
		port := from + rand.IntN(low-from)
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			ln.Close()
			return port, nil
		}
	}
	return 0, fmt.Errorf("s3test: no free port between %d and %d", from, low)
}
