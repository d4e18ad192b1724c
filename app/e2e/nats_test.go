package e2e

import (
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
)

// natsModule is the go install target of the standalone NATS server.
const natsModule = "github.com/nats-io/nats-server/v2@v2.15.2"

// natsServer is a standalone nats-server with JetStream for a test, which
// the test may stop and start again on the same port and store (an
// outage).
type natsServer struct {
	t               testing.TB
	bin, store      string
	client, monitor string // host:port
	cmd             *exec.Cmd
	exited          chan struct{}
	logs            *syncBuffer
}

func startNATS(t testing.TB) string { return startNATSServer(t).url() }

func startNATSServer(t testing.TB) *natsServer {
	t.Helper()
	bin, err := s3test.FindOrInstall("nats-server", natsModule)
	if err != nil {
		t.Fatal(err)
	}
	port, err := s3test.StablePort() // clients reconnect to it after an outage
	if err != nil {
		t.Fatal(err)
	}
	n := &natsServer{t: t, bin: bin, store: t.TempDir(), client: "127.0.0.1:" + strconv.Itoa(port)}
	n.restart()
	t.Cleanup(n.stop)
	return n
}

func (n *natsServer) url() string { return "nats://" + n.client }

// stop kills the server: clients lose their connection at once.
func (n *natsServer) stop() {
	if n.cmd == nil {
		return
	}
	_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	<-n.exited
	n.cmd = nil
}

// restart starts the server on its ports and store, and waits until
// JetStream is ready.
func (n *natsServer) restart() {
	n.t.Helper()
	n.monitor = freePort(n.t) // nobody reconnects to it: a new one each start
	_, clientPort, _ := strings.Cut(n.client, ":")
	_, monitorPort, _ := strings.Cut(n.monitor, ":")
	n.cmd = exec.Command(n.bin, "-js", "-sd", n.store, "-a", "127.0.0.1", "-p", clientPort, "-m", monitorPort)
	n.logs = &syncBuffer{}
	n.cmd.Stdout, n.cmd.Stderr = n.logs, n.logs
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := n.cmd.Start(); err != nil {
		n.t.Fatal(err)
	}
	exited := make(chan struct{})
	n.exited = exited
	go func(cmd *exec.Cmd) { _ = cmd.Wait(); close(exited) }(n.cmd)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + n.monitor + "/healthz?js-enabled-only=true")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		select {
		case <-exited:
			n.t.Fatalf("nats-server exited:\n%s", n.logs)
		case <-time.After(50 * time.Millisecond):
		}
	}
	n.t.Fatalf("nats-server not ready:\n%s", n.logs)
}
