// Package cmdline holds what every command of the dragoman binary shares,
// on spf13/cobra: flags bound to their DRAGOMAN_ variables (a variable that
// does not parse is an error naming it), usage errors, which exit with
// status 2, and the exit status of any error.
package cmdline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// UsageError is a wrong command line; it exits with status 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// AsUsage reports whether err is (or wraps) a UsageError.
func AsUsage(err error, ue *UsageError) bool { return errors.As(err, ue) }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, a ...any) error { return UsageError{Msg: fmt.Sprintf(format, a...)} }

// ExitError ends the process with Code; its message, if any, was printed
// by the command itself.
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// ExitCode is the process's exit status for a command's error: 0 for
// none, 2 for a wrong command line, an ExitError's code, else 1.
func ExitCode(err error) int {
	var ee ExitError
	var ue UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// Env returns the DRAGOMAN_ variable for a flag name: data-dir → DRAGOMAN_DATA_DIR.
func Env(flagName string) string {
	return "DRAGOMAN_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// Annotations a bound flag carries: its variable, and whether an empty
// variable stands for the flag's default rather than for "".
const (
	envAnnotation        = "dragoman_env"
	emptyUnsetAnnotation = "dragoman_env_empty_unset"
)

// Bind lets DRAGOMAN_<FLAG> stand in for the flag when the command line
// does not give it, and says so in the flag's help.
func Bind(fs *pflag.FlagSet, name string) { BindTo(fs, name, Env(name)) }

// BindTo lets variable stand in for the flag name. A set variable is the
// flag's value even when empty for a string flag (an empty --http-addr
// turns the listener off); an empty variable is no value for the others.
func BindTo(fs *pflag.FlagSet, name, variable string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("cmdline: no flag --" + name)
	}
	_ = fs.SetAnnotation(name, envAnnotation, []string{variable})
	f.Usage += " (env " + variable + ")"
}

// BindNonEmpty is BindTo for a variable whose empty value means "not
// set" even for a string flag (DRAGOMAN_URL="" is the default server).
func BindNonEmpty(fs *pflag.FlagSet, name, variable string) {
	BindTo(fs, name, variable)
	_ = fs.SetAnnotation(name, emptyUnsetAnnotation, []string{"true"})
}

// ApplyEnv sets every bound flag the command line left alone from its
// variable; a value that does not parse is a usage error naming the
// variable and its flag.
func ApplyEnv(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		vars := f.Annotations[envAnnotation]
		if err != nil || f.Changed || len(vars) == 0 {
			return
		}
		v, ok := os.LookupEnv(vars[0])
		if !ok || (v == "" && (f.Value.Type() != "string" || len(f.Annotations[emptyUnsetAnnotation]) > 0)) {
			return
		}
		if serr := f.Value.Set(v); serr != nil {
			err = UsageError{Msg: fmt.Sprintf("%s=%q: %s (the variable of --%s)", vars[0], v, wanted(f.Value.Type()), f.Name)}
		}
	})
	return err
}

// wanted says what a flag of type typ takes.
func wanted(typ string) string {
	switch typ {
	case "int", "int64":
		return "not a whole number"
	case "bool":
		return "not a boolean (true, false, 1 or 0)"
	case "duration":
		return "not a duration (such as 30s, 10m or 24h)"
	}
	return "not a valid " + typ
}

// NoArgs refuses positional arguments the way the commands always have.
func NoArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("unexpected argument %q", args[0])
	}
	return nil
}

// DefaultPluginDir is plugins/ beside the binary (bin/plugins).
func DefaultPluginDir() string {
	exe, err := os.Executable()
	if err != nil {
		return "plugins"
	}
	return filepath.Join(filepath.Dir(exe), "plugins")
}

// DefaultDataDir keeps state beside the working directory.
const DefaultDataDir = ".dragoman"

// Complete offers a flag's fixed values to shell completion.
func Complete(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// CompleteFiles offers files with these extensions (none: any file).
func CompleteFiles(cmd *cobra.Command, flag string, exts ...string) {
	if len(exts) == 0 {
		_ = cmd.MarkFlagFilename(flag)
		return
	}
	_ = cmd.MarkFlagFilename(flag, exts...)
}

// CompleteDirs offers folders.
func CompleteDirs(cmd *cobra.Command, flag string) { _ = cmd.MarkFlagDirname(flag) }
