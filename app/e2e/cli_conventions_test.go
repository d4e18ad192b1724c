package e2e

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// dragoman runs the binary with args and extra environment and returns
// stdout, stderr and the exit status.
func dragoman(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binaries(t), "dragoman"), args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// --version, `help CMD` and `CMD -h` print to stdout and exit 0; a wrong
// command line exits 2 and says what is wrong.
func TestCLIVersionAndHelp(t *testing.T) {
	out, errs, code := dragoman(t, nil, "--version")
	if code != 0 || !regexp.MustCompile(`^dragoman \S+\n$`).MatchString(out) {
		t.Errorf("--version: exit %d %q %q", code, out, errs)
	}
	for _, args := range [][]string{
		{"help", "translate"}, {"translate", "-h"}, {"translate", "--help"}, {"help", "admin", "account", "create"},
		{"admin", "account", "create", "-h"}, {"jobs", "get", "-h"}, {"serve", "-h"}, {"webhooks", "add", "--help"},
		{"fidelity", "-h"}, {"completion", "zsh", "-h"}, {"-h"}, {"help"},
	} {
		out, errs, code := dragoman(t, nil, args...)
		if code != 0 || !strings.Contains(out, "Usage:") || errs != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if out, _, _ := dragoman(t, nil, "help", "translate"); !strings.Contains(out, "--to string") || !strings.Contains(out, "(env DRAGOMAN_URL)") {
		t.Errorf("help translate names no --to or DRAGOMAN_URL:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "Usage:"},
		{[]string{"transalte"}, `unknown command "transalte"; did you mean translate?`},
		{[]string{"admin", "acount"}, `unknown admin command "acount"; did you mean account?`},
		{[]string{"jobs", "lsit"}, `unknown jobs command "lsit"`},
		{[]string{"serve", "--no-such-flag"}, "unknown flag: --no-such-flag"},
		{[]string{"serve", "extra"}, `unexpected argument "extra"`},
		{[]string{"translate", "a.docx"}, "--to LANG is required"},
		{[]string{"fidelity", "one"}, "usage: dragoman fidelity SRC OUT"},
	} {
		_, errs, code := dragoman(t, nil, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, want 2 with %q:\n%s", c.args, code, c.want, errs)
		}
	}
}

// A DRAGOMAN_ variable whose value does not parse stops the command with
// its name (it was silently ignored); the flag given on the command line
// wins over the variable; an empty variable of a number is no value.
func TestCLIEnvironmentThatDoesNotParse(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ env, want string }{
		{"DRAGOMAN_WORKERS=two", `DRAGOMAN_WORKERS="two": not a whole number (the variable of --workers)`},
		{"DRAGOMAN_DOWNLOAD_TTL=10", `DRAGOMAN_DOWNLOAD_TTL="10": not a duration`},
		{"DRAGOMAN_ALLOW_PRIVATE_URLS=yes", `DRAGOMAN_ALLOW_PRIVATE_URLS="yes": not a boolean`},
		{"DRAGOMAN_ENGINE_CONCURRENCY=1.5", `DRAGOMAN_ENGINE_CONCURRENCY="1.5"`},
	} {
		_, errs, code := dragoman(t, []string{c.env}, "serve", "--data-dir", dir, "--https-addr", "127.0.0.1:0")
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, want 2 with %q:\n%s", c.env, code, c.want, errs)
		}
	}
	// The admin commands read theirs the same way.
	if _, errs, code := dragoman(t, []string{"DRAGOMAN_DATA_DIR=" + dir}, "admin", "account", "create", "--plan", "pro"); code != 0 {
		t.Errorf("admin with DRAGOMAN_DATA_DIR: exit %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "dragoman.db")); err != nil {
		t.Errorf("DRAGOMAN_DATA_DIR was not used: %v", err)
	}
	// Flags once parsed by Go's flag package keep their single-dash form.
	out, errs, code := dragoman(t, nil, "pairs", "-plugin-dir", filepath.Join(binaries(t), "plugins"), "-engines=pseudo")
	if code != 0 || !strings.Contains(out, "pseudo: every pair") {
		t.Errorf("pairs -plugin-dir … -engines=pseudo: exit %d\n%s%s", code, out, errs)
	}
}

// The variables a plugin reads (the LibreOffice converter's) are named
// too when they do not parse: the plugin says so on its stderr and exits,
// and the server's error quoted only go-plugin's "Unrecognized remote
// plugin message" about the plugin's empty stdout.
func TestPluginEnvironmentThatDoesNotParse(t *testing.T) {
	plugins := filepath.Join(binaries(t), "plugins")
	for _, c := range []struct{ env, want string }{
		{"DRAGOMAN_LIBREOFFICE_MEMORY=lots", `DRAGOMAN_LIBREOFFICE_MEMORY="lots"`},
		{"DRAGOMAN_LIBREOFFICE_PER_ACCOUNT=x", `DRAGOMAN_LIBREOFFICE_PER_ACCOUNT`},
	} {
		_, errs, code := dragoman(t, []string{c.env}, "serve", "--data-dir", t.TempDir(), "--plugin-dir", plugins,
			"--https-addr", "127.0.0.1:0", "--http-addr", "", "--metrics-addr", "", "--nats-listen", "127.0.0.1:0")
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, want the error to name it (%q):\n%s", c.env, code, c.want, errs)
		}
	}
}

// Listeners: a taken NATS port names --nats-listen; metrics on port 0
// print the port they got.
func TestServeListenersSayWhatTheyGot(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	bin := binaries(t)
	_, errs, code := dragoman(t, nil, "serve", "--data-dir", t.TempDir(), "--plugin-dir", filepath.Join(bin, "plugins"),
		"--https-addr", "127.0.0.1:0", "--http-addr", "", "--metrics-addr", "", "--nats-listen", ln.Addr().String())
	if code == 0 || !strings.Contains(errs, "the embedded NATS port "+ln.Addr().String()+" is taken by another program: pick another with --nats-listen or DRAGOMAN_NATS_LISTEN") {
		t.Errorf("a taken NATS port: exit %d\n%s", code, errs)
	}

	s := startServer(t, []string{"--metrics-addr", "127.0.0.1:0"})
	deadline := time.Now().Add(30 * time.Second)
	re := regexp.MustCompile(`dragoman: metrics on 127\.0\.0\.1:(\d+)\n`)
	for !re.MatchString(s.logs.String()) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	m := re.FindStringSubmatch(s.logs.String())
	if m == nil || m[1] == "0" {
		t.Fatalf("the banner does not name the metrics port:\n%s", s.logs)
	}
	resp, err := s.client.Get("http://127.0.0.1:" + m[1] + "/metrics")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET the printed metrics address: %v %v", resp, err)
	}
	resp.Body.Close()
}

// The client on an account with nothing yet: JSON lists are [], not null;
// without the server's certificate the error says how to trust it.
func TestCLIEmptyListsAndUntrustedServer(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	for _, args := range [][]string{{"jobs", "list", "--json"}, {"jobs", "--json"}, {"webhooks", "list", "--json"}} {
		out, errs, code := s.cli(key, args...)
		if code != 0 || !regexp.MustCompile(`"(jobs|webhooks)": \[\]`).MatchString(out) || strings.Contains(out, "null,") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	cmd := s.cliCmd(key, "jobs", "list")
	cmd.Env = append(cmd.Env, "DRAGOMAN_CA=") // the self-signed certificate, not trusted
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err == nil || !strings.Contains(errb.String(), "certificate") || !strings.Contains(errb.String(), "DRAGOMAN_CA=") || !strings.Contains(errb.String(), "--ca FILE") {
		t.Errorf("an untrusted server: %v\n%s", err, errb.String())
	}
}

func TestServePortTakenAndPairs(t *testing.T) {
	bin := binaries(t)
	for _, tc := range []struct{ flag, env string }{{"--https-addr", "DRAGOMAN_HTTPS_ADDR"}, {"--http-addr", "DRAGOMAN_HTTP_ADDR"}} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"serve", "--data-dir", t.TempDir(), "--plugin-dir", filepath.Join(bin, "plugins"),
			"--https-addr", freePort(t), "--http-addr", freePort(t), tc.flag, ln.Addr().String()}
		out, err := exec.Command(filepath.Join(bin, "dragoman"), args...).CombinedOutput()
		ln.Close()
		if err == nil || !strings.Contains(string(out), "is taken by another program: pick another with "+tc.flag+" or "+tc.env) {
			t.Errorf("%s taken: %v\n%s", tc.flag, err, out)
		}
	}
	// Apertium with English → Spanish alone (whatever else the machine has
	// installed, Hindi → Urdu among them): no right-to-left target.
	modes := filepath.Join(t.TempDir(), "modes")
	if err := os.MkdirAll(modes, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/share/apertium/modes/eng-spa.mode", filepath.Join(modes, "eng-spa.mode")); err != nil {
		t.Fatal(err)
	}
	pairs := exec.Command(filepath.Join(bin, "dragoman"), "pairs", "--plugin-dir", filepath.Join(bin, "plugins"), "--engines", "apertium")
	pairs.Env = append(os.Environ(), "DRAGOMAN_APERTIUM_DIR="+filepath.Dir(modes))
	out, err := pairs.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "English → Spanish") || !strings.Contains(string(out), "DRAGOMAN_ENGINES=apertium,openai") {
		t.Errorf("pairs (apertium): %v\n%s", err, out)
	}
	out, err = exec.Command(filepath.Join(bin, "dragoman"), "pairs", "--plugin-dir", filepath.Join(bin, "plugins"), "--engines", "pseudo").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "pseudo: every pair") || strings.Contains(string(out), "No enabled engine") {
		t.Errorf("pairs (pseudo): %v\n%s", err, out)
	}
}
