package pool

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Landlock alone keeps soffice off the network and off files outside its
// work directory: with the network namespace off, documents whose links
// point at a loopback listener and at a file outside the work dir
// convert, warm and cold, and neither is reached. The Word binary import
// fetches linked pictures whatever the profile says, so without Landlock
// (the last subtest) the .doc does reach the listener: what holds is
// Landlock, not the profile.
func TestLandlockAloneHoldsTheLinks(t *testing.T) {
	abi, mode := landlockABI()
	if abi < 4 {
		t.Fatalf("the kernel gives no Landlock with TCP rules (ABI 4): %s", mode)
	}
	tr := newLinkTrap(t)
	doc := sofficeToDoc(t, "odt-links.odt", hostileODT(t, tr))
	docs := []struct {
		name string
		k    Kind
		b    []byte
		link string // a link that must still be in the output
	}{
		{"odt-links.doc", Word, doc, tr.url + "/odt-hyperlink"},
		{"links.odt", ODT, hostileODT(t, tr), tr.url + "/odt-hyperlink"},
		{"links.rtf", RTF, hostileRTF(tr), tr.url + "/rtf-hyperlink"},
	}
	tr.reset()
	p := newTestPool(t, Config{Size: 1, NoNetNamespace: true})
	for _, d := range docs {
		convertTrapped(t, p, tr, d.name, d.k, d.b, d.link)
	}

	t.Run("a program under the same rules", func(t *testing.T) {
		work := t.TempDir()
		run := func(name string, args ...string) (string, error) {
			cmd := landlocked(exec.Command(name, args...), work)
			out, err := cmd.CombinedOutput()
			t.Logf("%s: %v %s", strings.Join(cmd.Args[3:], " "), err, out)
			return string(out), err
		}
		if out, err := run("cat", tr.file); err == nil || !strings.Contains(out, "Permission denied") {
			t.Errorf("cat of the file outside the work directory: %v %s, want permission denied", err, out)
		}
		if out, err := run("cat", fmt.Sprintf("/proc/%d/environ", os.Getpid())); err == nil || !strings.Contains(out, "Permission denied") {
			t.Errorf("cat of another process's environment: %v %.80q, want permission denied", err, out)
		}
		if out, err := run("cat", "/proc/self/status"); err != nil || !strings.Contains(out, "Pid:") {
			t.Errorf("cat of its own /proc entry: %v %.80q", err, out)
		}
		// Of /etc only what soffice reads (its configuration, fonts,
		// users, time zone, libraries): not the shadow passwords nor a
		// private key a service running as root could otherwise read.
		if out, err := run("cat", "/etc/shadow"); err == nil || !strings.Contains(out, "Permission denied") {
			t.Errorf("cat of /etc/shadow: %v %.80q, want permission denied", err, out)
		}
		if out, err := run("cat", "/etc/passwd"); err != nil || !strings.Contains(out, "root:") {
			t.Errorf("cat of /etc/passwd: %v %.80q", err, out)
		}
		// Nothing in /dev/shm, where other programs (PostgreSQL) keep
		// their shared memory.
		shm := "/dev/shm/dragoman-landlock-" + randomHex(8)
		defer os.Remove(shm)
		if out, err := run("sh", "-c", "echo x > "+shm); err == nil || !strings.Contains(out, "Permission denied") {
			t.Errorf("writing %s: %v %q, want permission denied", shm, err, out)
		}
		inside := filepath.Join(work, "inside")
		if out, err := run("sh", "-c", "echo x > "+inside+" && cat "+inside); err != nil || out != "x\n" {
			t.Errorf("writing and reading inside the work directory: %v %q", err, out)
		}
		host, port, _ := strings.Cut(strings.TrimPrefix(tr.url, "http://"), ":")
		connect := "import socket; socket.create_connection(('" + host + "', " + port + "))"
		if out, err := run("/usr/bin/python3", "-c", connect); err == nil || !strings.Contains(out, "PermissionError") {
			t.Errorf("a TCP connection to the listener: %v %s, want PermissionError", err, out)
		}
		tr.check(t, "programs under Landlock")
	})

	t.Run("without Landlock the .doc reaches the listener", func(t *testing.T) {
		p := newTestPool(t, Config{Size: 1, NoNetNamespace: true, NoLandlock: true})
		var out bytes.Buffer
		if err := p.Convert(context.Background(), Word, bytes.NewReader(doc), &out); err != nil {
			t.Fatal(err)
		}
		tr.fileOpens()
		if tr.conns.Load() == 0 {
			t.Error("no connection without Landlock either: this test no longer shows that Landlock is what holds")
		}
		tr.reset()
	})
}
