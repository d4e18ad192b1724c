package pool

import (
	"bufio"
	"context"
	"crypto/md5"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf16"
)

//go:embed helper.py
var helperScript []byte

// instance is one listening soffice.bin plus its UNO helper, each in its
// own process group and each killed by the kernel if the plugin dies.
type instance struct {
	dir          string // profile/, tmp/, helper.py, sockets
	pipe         string // name of the UNO accept pipe
	profile      string // UserInstallation URL
	office       *office
	helper       *exec.Cmd
	helperExited <-chan error
	req          *json.Encoder
	resp         *bufio.Scanner
	dead         chan struct{} // closed when soffice has exited for good
	log          *tailBuffer
	killed       sync.Once
	lastUsed     time.Time // set by whoever holds it; the reaper reads it off the idle channel
}

// answer is one line from helper.py.
type answer struct {
	Ready  bool   `json:"ready"`
	OK     bool   `json:"ok"`
	Kind   string `json:"kind"`
	Error  string `json:"error"`
	Filter string `json:"filter"`
	Dead   bool   `json:"dead"` // OK, but soffice died closing the document
}

// startInstance starts an instance in a new directory under work, its
// memory capped by mem.
func startInstance(ctx context.Context, c Config, work string, mem *memoryLimit) (_ *instance, err error) {
	dir, err := os.MkdirTemp(work, "instance-")
	if err != nil {
		return nil, err
	}
	in := &instance{dir: dir, pipe: "dragoman-" + randomHex(8), log: &tailBuffer{max: 16 << 10}}
	in.profile = (&url.URL{Scheme: "file", Path: filepath.Join(dir, "profile")}).String()
	defer func() {
		if err != nil {
			in.kill()
		}
	}()
	for _, d := range []string{"profile", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	if err := writeProfile(filepath.Join(dir, "profile")); err != nil {
		return nil, err
	}
	// Written before soffice can create them, for the sweep after a SIGKILL.
	if err := os.WriteFile(filepath.Join(dir, socketsFile), []byte(strings.Join(in.pipeSockets(), "\n")), 0o600); err != nil {
		return nil, err
	}
	helperPath := filepath.Join(dir, "helper.py")
	if err := os.WriteFile(helperPath, helperScript, 0o600); err != nil {
		return nil, err
	}
	// LibreOffice's own temp files (lu*.tmp) go into the instance directory.
	env := []string{"TMPDIR=" + filepath.Join(dir, "tmp")}
	in.office, err = startOffice(c.officeBin, []string{
		"-env:UserInstallation=" + in.profile,
		"--headless", "--invisible", "--nologo", "--nodefault", "--norestore", "--nolockcheck",
		"--accept=pipe,name=" + in.pipe + ";urp;StarOffice.ComponentContext"}, env, in.log, !c.NoNetNamespace, c.sandbox(work), mem)
	if err != nil {
		return nil, err
	}
	in.dead = in.office.done

	in.helper = exec.Command(c.Python, helperPath, in.pipe, strconv.Itoa(int(c.StartTimeout.Seconds())))
	in.helper.Env = append(os.Environ(), env...)
	in.helper.Stderr = in.log
	stdin, err := in.helper.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := in.helper.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if in.helperExited, err = startTied(in.helper); err != nil {
		in.helper = nil
		return nil, fmt.Errorf("start %s: %w", c.Python, err)
	}
	in.req = json.NewEncoder(stdin)
	in.resp = bufio.NewScanner(stdout)
	in.resp.Buffer(make([]byte, 64<<10), 1<<20)

	ctx, cancel := context.WithTimeout(ctx, c.StartTimeout)
	defer cancel()
	a, err := in.read(ctx)
	if err != nil {
		return nil, fmt.Errorf("LibreOffice did not start: %w; output: %s", err, in.log.String())
	}
	if !a.Ready {
		return nil, fmt.Errorf("LibreOffice helper: %s", a.Error)
	}
	return in, nil
}

// read waits for the helper's next line, for ctx, or for soffice to die.
func (in *instance) read(ctx context.Context) (answer, error) {
	got := make(chan error, 1)
	var a answer
	go func() {
		if !in.resp.Scan() {
			err := in.resp.Err()
			if err == nil {
				err = errors.New("helper exited")
			}
			got <- err
			return
		}
		got <- json.Unmarshal(in.resp.Bytes(), &a)
	}()
	select {
	case err := <-got:
		return a, err
	case <-ctx.Done():
		return a, ctx.Err()
	case <-in.dead:
		// The helper notices the broken bridge itself; give it a moment to say so.
		select {
		case err := <-got:
			if err == nil && !a.OK && a.Kind == "" {
				a.Kind = "crash"
			}
			return a, err
		case <-time.After(2 * time.Second):
			return a, errors.New("soffice exited")
		}
	}
}

// convert asks the instance to turn src into dst: .docx, or with the
// export filter another format. A non-nil error means the instance is no
// longer usable; a document problem comes back as an answer with OK false.
func (in *instance) convert(ctx context.Context, src, dst string, filters []string, export string) (answer, error) {
	req := map[string]any{"in": src, "out": dst, "filters": filters}
	if export != "" {
		req["export"] = export
	}
	if err := in.req.Encode(req); err != nil {
		return answer{}, err
	}
	a, err := in.read(ctx)
	if err == nil && !a.OK && (a.Kind == "crash" || in.isDead()) {
		// A failure from a dead soffice says nothing about the document.
		err = errors.New(a.Error)
	}
	return a, err
}

// usable says whether the instance can take a conversion: soffice runs
// and its directory is still there (a /tmp cleaner may have taken it).
func (in *instance) usable() bool {
	if in.isDead() {
		return false
	}
	_, err := os.Stat(filepath.Join(in.dir, "profile"))
	return err == nil
}

func (in *instance) isDead() bool {
	select {
	case <-in.dead:
		return true
	default:
		return false
	}
}

// kill ends soffice and the helper and removes everything the instance
// made, including the pipe sockets LibreOffice leaves in /tmp.
func (in *instance) kill() { in.killed.Do(in.doKill) }

func (in *instance) doKill() {
	if in.office != nil {
		in.office.stop()
	}
	if in.helper != nil {
		syscall.Kill(-in.helper.Process.Pid, syscall.SIGKILL)
		<-in.helperExited
		waitGroupGone(in.helper.Process.Pid)
	}
	for _, p := range in.pipeSockets() {
		os.Remove(p)
	}
	os.RemoveAll(in.dir)
}

// pipeSockets names the sockets soffice creates: the accept pipe and the
// single-instance pipe, whose name is the MD5 of the UTF-16 profile URL
// (desktop/source/app/officeipcthread.cxx), hex without zero padding.
func (in *instance) pipeSockets() []string {
	return []string{pipeSocket(in.pipe), ipcSocket(in.profile)}
}

func pipeSocket(name string) string {
	return fmt.Sprintf("/tmp/OSL_PIPE_%d_%s", os.Getuid(), name)
}

func ipcSocket(profileURL string) string {
	u := utf16.Encode([]rune(profileURL))
	b := make([]byte, 0, 2*len(u))
	for _, r := range u {
		b = append(b, byte(r), byte(r>>8))
	}
	sum := md5.Sum(b)
	var h strings.Builder
	for _, x := range sum {
		h.WriteString(strconv.FormatUint(uint64(x), 16))
	}
	return pipeSocket("SingleOfficeIPC_" + h.String())
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
