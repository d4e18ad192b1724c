package deploy

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// serveHelp is what `dragoman serve --help` says: its flags and every
// DRAGOMAN_ variable it names.
type serveHelp struct {
	flags map[string]bool
	vars  map[string]bool
}

var (
	helpOnce sync.Once
	help     serveHelp
	helpErr  error
)

var (
	helpFlag = regexp.MustCompile(`(?m)^\s+(?:-[a-z], )?--([a-z][a-z0-9-]*)`)
	envVar   = regexp.MustCompile(`DRAGOMAN_[A-Z0-9_]*[A-Z0-9]`)
)

// dragomanHelp runs `dragoman serve --help` from DRAGOMAN_BIN (make test)
// or a binary built for the test.
func dragomanHelp(t *testing.T) serveHelp {
	t.Helper()
	helpOnce.Do(func() {
		bin := ""
		if d := os.Getenv("DRAGOMAN_BIN"); d != "" {
			bin = filepath.Join(d, "dragoman")
		} else {
			dir, err := os.MkdirTemp("", "dragoman-deploy-")
			if err != nil {
				helpErr = err
				return
			}
			defer os.RemoveAll(dir)
			bin = filepath.Join(dir, "dragoman")
			if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
				helpErr = errors.New("go build: " + err.Error() + "\n" + string(out))
				return
			}
		}
		out, _ := exec.Command(bin, "serve", "--help").CombinedOutput()
		help = serveHelp{flags: map[string]bool{}, vars: map[string]bool{}}
		for _, m := range helpFlag.FindAllStringSubmatch(string(out), -1) {
			help.flags[m[1]] = true
		}
		for _, v := range envVar.FindAllString(string(out), -1) {
			help.vars[v] = true
		}
		if !help.flags["role"] || !help.vars["DRAGOMAN_ROLE"] {
			helpErr = errors.New("serve --help lists no --role / DRAGOMAN_ROLE:\n" + string(out))
		}
	})
	if helpErr != nil {
		t.Fatal(helpErr)
	}
	return help
}

// checkFlags fails for every --flag in args that serve does not have.
func checkFlags(t *testing.T, where string, args []string) {
	t.Helper()
	h := dragomanHelp(t)
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case h.flags[name]:
		default:
			t.Errorf("%s: serve has no flag --%s", where, name)
		}
	}
}

// checkVar fails for a DRAGOMAN_ variable that serve --help does not name.
func checkVar(t *testing.T, where, name string) {
	t.Helper()
	if !strings.HasPrefix(name, "DRAGOMAN_") {
		return
	}
	h := dragomanHelp(t)
	switch {
	case h.vars[name]:
	default:
		t.Errorf("%s: serve --help does not know %s", where, name)
	}
}

// checkText checks every DRAGOMAN_ variable named anywhere in a file,
// comments included.
func checkText(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range envVar.FindAllString(string(b), -1) {
		checkVar(t, path, v)
	}
}
