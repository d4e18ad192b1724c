// Package cli holds the client commands of the dragoman binary: translate,
// quote, jobs, usage, languages, webhooks and verify-signature. They speak to a
// server through the Go SDK (openapi/client); translate --local runs the
// pipeline in-process through the NewLocal the composition root gives it.
package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
)

// Commands are the client commands; newLocal runs translate --local.
func Commands(newLocal NewLocal) []*cobra.Command {
	return []*cobra.Command{translateCommand(newLocal), quoteCommand(), jobsCommand(), reviewCommand(), usageCommand(), languagesCommand(),
		webhooksCommand(), verifySignatureCommand()}
}

// defaultServer is a development server on this machine (make run).
const defaultServer = "https://localhost:8443"

// clientFlags are the flags every client command takes.
type clientFlags struct {
	server, key, ca string
	json            bool
}

// addClientFlags puts the client flags on cmd; persistent: on its
// subcommands too.
func addClientFlags(cmd *cobra.Command, persistent bool) *clientFlags {
	fs := cmd.Flags()
	if persistent {
		fs = cmd.PersistentFlags()
	}
	cf := &clientFlags{}
	fs.StringVar(&cf.server, "server", defaultServer, "server address")
	fs.StringVar(&cf.key, "key", "", "API key")
	fs.StringVar(&cf.ca, "ca", "", "PEM certificate to trust besides the system's, e.g. a dev server's <data dir>/tls/cert.pem")
	fs.BoolVar(&cf.json, "json", false, "print JSON for scripts")
	cmdline.BindNonEmpty(fs, "server", "DRAGOMAN_URL")
	cmdline.BindTo(fs, "key", "DRAGOMAN_KEY")
	cmdline.BindTo(fs, "ca", "DRAGOMAN_CA")
	cmdline.CompleteFiles(cmd, "ca", "pem", "crt")
	return cf
}

func (c *clientFlags) client() (*client.Client, error) {
	var opts []client.Option
	if c.ca != "" {
		opts = append(opts, client.WithCACertFile(c.ca))
	}
	return client.New(c.server, c.key, opts...)
}

// do runs fn with the client and a context that ends on Ctrl-C.
func (c *clientFlags) do(fn func(ctx context.Context, cl *client.Client) error) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	ctx, cancel := interruptible()
	defer cancel()
	err = fn(ctx, cl)
	var ue cmdline.UsageError
	if err == nil || cmdline.AsUsage(err, &ue) {
		return err
	}
	return errors.New(ErrorText(err))
}

func printJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}

func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}

// nonNil is s, or an empty slice that JSON prints as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// interruptible is a context that ends on Ctrl-C or SIGTERM.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// ErrorText is an error for a person: the server's message without the
// library's prefix, and what to do about an untrusted certificate.
func ErrorText(err error) string {
	var ae *client.APIError
	if errors.As(err, &ae) {
		return fmt.Sprintf("%s (HTTP %d %s)", ae.Message, ae.Status, ae.Code)
	}
	var jf *client.JobFailedError
	if errors.As(err, &jf) {
		return jf.Message
	}
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	if untrusted(err) {
		return err.Error() + "\nthe server's certificate is not trusted here: give it with --ca FILE or DRAGOMAN_CA=FILE" +
			" (a development server's is <data dir>/tls/cert.pem, e.g. DRAGOMAN_CA=.dragoman/tls/cert.pem)"
	}
	return err.Error()
}

// untrusted says whether err is a failed verification of the server's
// certificate chain.
func untrusted(err error) bool {
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	return errors.As(err, &cv) || errors.As(err, &ua)
}
