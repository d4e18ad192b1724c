package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
)

// verifySignatureCommand: dragoman verify-signature --secret S [--signature
// SIG] < body. With --signature (or X-Webhook-Signature's value in
// DRAGOMAN_SIGNATURE) it checks the body and exits 1 on a mismatch;
// without, it prints the signature the body should carry.
func verifySignatureCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify-signature --secret S [--signature SIG] < body",
		Short: "check (or make) a webhook delivery's X-Webhook-Signature",
		Args:  cmdline.NoArgs,
	}
	fs := cmd.Flags()
	secret := fs.String("secret", "", "the webhook's secret")
	sig := fs.String("signature", "", "the X-Webhook-Signature header received; empty: print the expected one")
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	cmdline.BindTo(fs, "secret", "DRAGOMAN_WEBHOOK_SECRET")
	cmdline.BindTo(fs, "signature", "DRAGOMAN_SIGNATURE")
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		if *secret == "" {
			return cmdline.UsageError{Msg: "--secret is required"}
		}
		body, err := io.ReadAll(c.InOrStdin())
		if err != nil {
			return err
		}
		stdout := c.OutOrStdout()
		want := client.Sign(*secret, body)
		if *sig == "" {
			if *asJSON {
				return printJSON(stdout, map[string]string{"signature": want})
			}
			fmt.Fprintln(stdout, want)
			return nil
		}
		err = client.VerifySignature(*secret, body, *sig)
		if *asJSON {
			_ = printJSON(stdout, map[string]any{"valid": err == nil, "expected": want})
		} else if err == nil {
			fmt.Fprintln(stdout, "signature valid")
		}
		if err != nil {
			return fmt.Errorf("signature does not match the body (expected %s)", want)
		}
		return nil
	}
	return cmd
}
