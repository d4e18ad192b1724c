package eventbus

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// startEmbedded runs a single-node NATS JetStream server inside the
// process, storing streams under dataDir/events. It listens on a random
// loopback port so that tools (or a second bus via NewNATS) can reach it;
// the bus itself talks to it in-process.
func startEmbedded(dataDir string, fsync bool, logger *slog.Logger) (*server.Server, error) {
	storeDir := filepath.Join(dataDir, "events")
	if err := os.MkdirAll(storeDir, 0o750); err != nil {
		return nil, fmt.Errorf("eventbus: create store dir: %w", err)
	}
	opts := &server.Options{
		ServerName: "dragoman-embedded",
		Host:       "127.0.0.1",
		Port:       -1,
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
