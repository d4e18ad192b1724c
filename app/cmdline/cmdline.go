// Package cmdline holds what every command of the dragoman binary shares:
// flags that default to their DRAGOMAN_ variables, and usage errors, which
// exit with status 2.
package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// UsageError is a wrong command line; it exits with status 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

func AsUsage(err error, ue *UsageError) bool { return errors.As(err, ue) }

// Env returns the DRAGOMAN_ variable for a flag name: data-dir → DRAGOMAN_DATA_DIR.
func Env(flagName string) string {
	return "DRAGOMAN_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// Flags is a flag set whose every flag defaults to its environment variable.
type Flags struct{ *flag.FlagSet }

func NewFlags(name string) Flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return Flags{fs}
}

func (f Flags) Str(name, def, usage string) *string {
	if v, ok := os.LookupEnv(Env(name)); ok {
		def = v
	}
	return f.String(name, def, usage+" (env "+Env(name)+")")
}

func (f Flags) Dur(name string, def time.Duration, usage string) *time.Duration {
	if v, ok := os.LookupEnv(Env(name)); ok {
		if d, err := time.ParseDuration(v); err == nil {
			def = d
		}
	}
	return f.Duration(name, def, usage+" (env "+Env(name)+")")
}

func (f Flags) Boolean(name string, def bool, usage string) *bool {
	if v, ok := os.LookupEnv(Env(name)); ok {
		if b, err := strconv.ParseBool(v); err == nil {
			def = b
		}
	}
	return f.Bool(name, def, usage+" (env "+Env(name)+")")
}

func (f Flags) Integer(name string, def int, usage string) *int {
	if v, ok := os.LookupEnv(Env(name)); ok {
		if n, err := strconv.Atoi(v); err == nil {
			def = n
		}
	}
	return f.Int(name, def, usage+" (env "+Env(name)+")")
}

func (f Flags) Parse(args []string) error {
	if err := f.FlagSet.Parse(args); err != nil {
		return UsageError{Msg: err.Error()}
	}
	if f.NArg() > 0 {
		return UsageError{Msg: fmt.Sprintf("unexpected argument %q", f.Arg(0))}
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
