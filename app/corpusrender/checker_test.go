package corpusrender

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// toPDFs converts the outputs in two LibreOffice processes (the CI machine
// has two cores), each with its own profile. LibreOffice stops at a
// document after which it aborts: the documents after it are converted by
// a new process, and the one it aborted on is marked.
func toPDFs(t *testing.T, dir string, outs []*output) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pdfOf := func(o *output) string { return filepath.Join(dir, o.label+".pdf") }
	convert := func(part []*output, profile string) {
		for len(part) > 0 {
			args := []string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", dir}
			for _, o := range part {
				args = append(args, o.path)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			msg, err := exec.CommandContext(ctx, "soffice", args...).CombinedOutput()
			cancel()
			done := 0
			for done < len(part) {
				if _, err := os.Stat(pdfOf(part[done])); err != nil {
					break
				}
				part[done].pdf = pdfOf(part[done])
				done++
			}
			if err == nil && done == len(part) {
				return
			}
			if done == 0 { // no PDF at all for the first: give it up
				t.Errorf("%s: LibreOffice wrote no PDF: %v\n%s", part[0].label, err, tail(string(msg), 2000))
				done = 1
			} else if err != nil {
				part[done-1].loAbort = true
			}
			part = part[done:]
		}
	}
	half := (len(outs) + 1) / 2
	var wg sync.WaitGroup
	for i, part := range [][]*output{outs[:half], outs[half:]} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			convert(part, filepath.Join(dir, fmt.Sprintf("profile%d", i)))
		}()
	}
	wg.Wait()
}

// verdict is the brief checker's result for one output.
type verdict struct {
	Label  string   `json:"label"`
	RC     int      `json:"rc"`
	Passed int      `json:"passed"` // the checks that passed ("N passed, N failed")
	Fails  []string `json:"fails"`
}

// briefDriver runs check_rtl.main(path, target, render=True) on each
// document, in one Python process, with the checker's own soffice call
// answered by the PDF LibreOffice already made of the same file (the
// checker's code is otherwise untouched).
const briefDriver = `
import sys, os, io, json, shutil, subprocess, contextlib
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
import check_rtl
pdfdir = sys.argv[2]
real = subprocess.run
def run(args, **kw):
    if args and args[0] == 'soffice':
        src, out = args[-1], args[args.index('--outdir') + 1]
        label = os.path.splitext(os.path.basename(src))[0]
        shutil.copy(os.path.join(pdfdir, label + '.pdf'), out)
        return subprocess.CompletedProcess(args, 0, b'', b'')
    return real(args, **kw)
check_rtl.subprocess.run = run
for item in sys.argv[3:]:
    target, path = item.split(':', 1)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            rc = check_rtl.main(path, target, True)
    except Exception as e:
        rc, _ = 2, buf.write('FAIL exception: %r\n' % (e,))
    lines = buf.getvalue().splitlines()
    fails = [l[5:] for l in lines if l.startswith('FAIL ')]
    passed = [int(l.split()[0]) for l in lines if l.endswith(' failed') and ' passed, ' in l]
    print(json.dumps({'label': os.path.splitext(os.path.basename(path))[0], 'rc': rc, 'passed': (passed or [0])[-1], 'fails': fails}))
    sys.stdout.flush()
`

func runBriefChecker(t *testing.T, py, pdfDir string, outs []*output) map[string]*verdict {
	t.Helper()
	chk, err := filepath.Abs(checker)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-c", briefDriver, chk, pdfDir}
	for _, o := range outs {
		if o.pdf == "" {
			continue
		}
		target := "ltr"
		if o.rtl() {
			target = "rtl"
		}
		args = append(args, target+":"+o.path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check_rtl.py: %v\n%s", err, tail(stderr.String(), 3000))
	}
	res := map[string]*verdict{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var v verdict
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("check_rtl.py driver: %q: %v", l, err)
		}
		res[v.Label] = &v
	}
	return res
}
