package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// completionScript writes `dragoman completion SHELL` into the test's
// folder and returns its path and an environment whose PATH finds the
// binary (the scripts call `dragoman __complete …`).
func completionScript(t *testing.T, shell string) (string, []string) {
	t.Helper()
	bin := binaries(t)
	out, err := exec.Command(filepath.Join(bin, "dragoman"), "completion", shell).Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("completion %s: %v", shell, err)
	}
	p := filepath.Join(t.TempDir(), "dragoman."+shell)
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "HOME="+t.TempDir())
}

// completionCases are what each shell must offer: the command names, the
// values of a flag with fixed values, the plans of admin.
var completionCases = []struct {
	line string   // typed before TAB
	want []string // offered
}{
	{"dragoman tr", []string{"translate"}},
	{"dragoman serve --role ", []string{"all", "api", "worker"}},
	{"dragoman admin account create --plan ", []string{"free", "starter", "pro", "enterprise"}},
	{"dragoman jobs list --status ", []string{"pending", "processing", "completed", "failed"}},
}

// Bash: the script through bash-completion's own machinery, as a shell
// with bash-completion installed runs it on TAB.
func TestCompletionBash(t *testing.T) {
	script, env := completionScript(t, "bash")
	for _, c := range completionCases {
		prog := `source /usr/share/bash-completion/bash_completion; source "$1"
read -ra COMP_WORDS <<< "$2"; [[ "$2" == *" " ]] && COMP_WORDS+=("")
COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}; COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
__start_dragoman dragoman; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command("bash", "-c", prog, "bash", script, c.line)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", c.line, err, out)
		}
		checkOffered(t, "bash", c.line, string(out), c.want)
	}
}

// Fish: its own `complete -C`, which runs the completion for a line.
func TestCompletionFish(t *testing.T) {
	script, env := completionScript(t, "fish")
	for _, c := range completionCases {
		cmd := exec.Command("fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, c.line)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", c.line, err, out)
		}
		checkOffered(t, "fish", c.line, string(out), c.want)
	}
}

// Zsh: an interactive zsh in a pseudo-terminal (zsh's zpty) with
// compinit, the line typed and TAB pressed; the word it completes or the
// listing it draws is read back.
func TestCompletionZsh(t *testing.T) {
	script, env := completionScript(t, "zsh")
	prog := `zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'PS1="> "; autoload -U compinit; compinit -u -D; source ` + script + `'
zpty -w -n z "$1"$'\t'
# Read until the terminal has been quiet for 5 s (the completion runs
# dragoman __complete, slow on a busy machine), at most 60 s.
out=""; quiet=0; total=0
while (( quiet < 50 && total < 600 )); do
  if zpty -r -t z chunk; then out+=$chunk; quiet=0; else sleep 0.1; (( quiet++ )); fi
  (( total++ ))
done
print -r -- "$out"
zpty -d z`
	ansi := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)
	for _, c := range completionCases {
		cmd := exec.Command("zsh", "-f", "-c", prog, "zsh", c.line)
		cmd.Env = env
		cmd.WaitDelay = 10 * time.Second
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%q", c.line, err, out)
		}
		// What follows the typed line: a completed word or the listing.
		text := ansi.ReplaceAllString(string(out), "")
		i := strings.Index(text, strings.TrimSpace(c.line))
		if i < 0 {
			t.Fatalf("%q: the line never echoed:\n%q", c.line, text)
		}
		checkOffered(t, "zsh", c.line, text[i:], c.want)
	}
}

func checkOffered(t *testing.T, shell, line, out string, want []string) {
	t.Helper()
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\t' || r == ' ' || r == '\r' }) {
		words[w] = true
	}
	for _, w := range want {
		if !words[w] {
			t.Errorf("%s, %q: %q not offered:\n%s", shell, line, w, out)
		}
	}
}
