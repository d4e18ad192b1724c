package eventbus

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// startEmbedded runs a single-node NATS JetStream server inside the
// process, storing streams under dataDir/events. It listens on listen
// (host:port; empty: a random loopback port) so that event subscribers
// (or a second bus via NewNATS) can reach it; the bus itself talks to it
// in-process.
func startEmbedded(dataDir, listen string, fsync bool, logger *slog.Logger) (*server.Server, error) {
	host, port := "127.0.0.1", -1
	if listen != "" {
		h, p, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("eventbus: listen address %q: %w", listen, err)
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 65535 {
			return nil, fmt.Errorf("eventbus: listen address %q: bad port", listen)
		}
		if h != "" {
			host = h
		}
		if port = n; n == 0 {
			port = -1
		} else {
			// nats-server only logs a busy port and never becomes ready.
			ln, err := net.Listen("tcp", net.JoinHostPort(host, p))
			if err != nil {
				return nil, fmt.Errorf("eventbus: embedded nats cannot listen on %s: %w", listen, err)
			}
			ln.Close()
		}
	}
	storeDir := filepath.Join(dataDir, "events")
	if err := os.MkdirAll(storeDir, 0o750); err != nil {
		return nil, fmt.Errorf("eventbus: create store dir: %w", err)
	}
	opts := &server.Options{
		ServerName: "dragoman-embedded",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   storeDir,
		// Each write reaches the OS before the publish is acknowledged
		// even without fsync, which survives kill -9; SyncAlways adds an
		// fsync per write to survive power loss as well.
		SyncAlways: fsync,
		NoSigs:     true,
		NoLog:      false,
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("eventbus: new nats server: %w", err)
	}
	srv.SetLoggerV2(natsLogger{logger}, false, false, false)
	srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("eventbus: embedded nats server not ready (store %s)", storeDir)
	}
	return srv, nil
}
