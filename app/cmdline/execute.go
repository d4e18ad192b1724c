package cmdline

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// runError marks an error a command's RunE returned; any other error of
// cobra's comes from reading the command line and is a usage error.
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
func (e runError) Unwrap() error { return e.err }

// Execute runs root with args and returns the exit status: 0, 1 for a
// failure, 2 for a wrong command line, or a command's own ExitError. A
// failure is printed as "dragoman: message" on stderr.
func Execute(root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root.SetArgs(singleDash(root, args))
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return UsageError{Msg: err.Error()} })
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error { return ApplyEnv(c.Flags()) }
	markRuns(root)
	err := root.Execute()
	var re runError
	if err != nil && !errors.As(err, &re) {
		var ue UsageError
		if !errors.As(err, &ue) && !errors.As(err, &ExitError{}) {
			err = UsageError{Msg: err.Error()}
		}
	}
	if err != nil && !errors.As(err, &ExitError{}) {
		fmt.Fprintln(stderr, root.Name()+":", err)
	}
	return ExitCode(err)
}

// markRuns wraps every command's RunE so its errors are told apart from
// cobra's command-line errors.
func markRuns(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if err := run(cmd, args); err != nil {
				return runError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markRuns(sub)
	}
}

// singleDash rewrites -name to --name when name is a long flag of the
// command: the commands were once parsed by Go's flag package, which
// takes both, and scripts written then keep working.
func singleDash(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil {
		return args
	}
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == "--" {
			break
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if len(name) > 1 && (cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil || name == "help" || name == "version") {
			out[i] = "-" + a
		}
	}
	return out
}

// Group is a command that only holds others: run alone it prints its
// usage and exits 2; with an unknown word it says so, with suggestions.
func Group(use, short string) *cobra.Command {
	return &cobra.Command{
		Use: use, Short: short,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				fmt.Fprint(c.ErrOrStderr(), c.UsageString())
				return ExitError{Code: 2}
			}
			return UnknownCommand(c, args[0])
		},
	}
}

// UnknownCommand is the usage error for a word that names no command of c.
func UnknownCommand(c *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q", word)
	if c.HasParent() {
		msg = fmt.Sprintf("unknown %s command %q", strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" "), word)
	}
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if s := c.SuggestionsFor(word); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return UsageError{Msg: msg + "\n\n" + c.UsageString()}
}
