package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
)

// pluginPIDs lists the live converter plugin processes started from this
// test's plugin directory.
func pluginPIDs() []int {
	var out []int
	bin := []byte(filepath.Join(pluginDir, "dragoman-converter-libreoffice"))
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range cmdlines {
		b, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(b, bin) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// A SIGKILLed plugin cannot clean up: its LibreOffice processes must die
// with it, and the files it leaves go at the next start.
func TestKilledPluginLeavesNoLibreOffice(t *testing.T) {
	c, closeAndCheck := startHost(t)
	tmp := os.Getenv("TMPDIR")
	if _, err := documentXML(context.Background(), c, filepath.Join(corpus, "rtf/pandoc-footnote.rtf")); err != nil {
		t.Fatal(err)
	}
	pids := pluginPIDs()
	if len(pids) != 1 {
		t.Fatalf("converter plugin pids %v, want one", pids)
	}
	if len(processesMentioning(tmp)) == 0 {
		t.Fatal("no LibreOffice process mentions the temp dir: the check below would prove nothing")
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(processesMentioning(tmp)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := processesMentioning(tmp); len(left) > 0 {
		t.Fatalf("5 s after SIGKILL of the plugin, still running: %q", left)
	}
	// Its files cannot go at death; the restarted plugin sweeps them.
	stale, _ := filepath.Glob(filepath.Join(tmp, "dragoman-lo-*"))
	if len(stale) == 0 {
		t.Fatal("the killed plugin left no work directory: the sweep below would prove nothing")
	}
	// go-plugin's own socket of the killed process is the host's to clear.
	sockets, _ := filepath.Glob(filepath.Join(tmp, "plugin[0-9]*"))
	for _, s := range sockets {
		if conn, err := net.Dial("unix", s); err == nil {
			conn.Close() // a live plugin's (the pseudo engine's)
			continue
		}
		t.Logf("removing the dead plugin's go-plugin socket %s", filepath.Base(s))
		os.Remove(s)
	}
	// The host may learn of the death only from this call (its wait on
	// the process has not run yet on a busy machine): it answers
	// ErrPluginCrashed, restarts, and the call is retried, as documented.
	_, err := documentXML(context.Background(), c, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	if errors.Is(err, pluginhost.ErrPluginCrashed) {
		_, err = documentXML(context.Background(), c, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	}
	if err != nil {
		t.Fatalf("after restart: %v", err)
	}
	for _, dir := range stale {
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("the restarted plugin did not sweep %s", dir)
		}
	}
	closeAndCheck()
}
