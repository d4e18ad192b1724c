// Command upperconv is a test converter: it streams its input back in
// upper case, so the host's streaming can be checked byte for byte. The
// input "tenant?" is answered with the tenant key the host sent.
package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type upper struct{}

func (upper) Formats() []string { return []string{"txt"} }

// MaxConcurrent is DRAGOMAN_UPPERCONV_MAX_CONCURRENT; unset, 0, which
// reaches the host exactly as the silence of a converter built before the
// protocol had the field.
func (upper) MaxConcurrent() int {
	n, _ := strconv.Atoi(os.Getenv("DRAGOMAN_UPPERCONV_MAX_CONCURRENT"))
	return n
}

func (upper) Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	if format != "txt" {
		return fmt.Errorf("upperconv: cannot convert %q", format)
	}
	r := bufio.NewReaderSize(in, 64<<10)
	if head, _ := r.Peek(8); string(head) == "tenant?" {
		_, err := io.WriteString(out, "tenant="+sdk.Tenant(ctx))
		return err
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := out.Write(bytes.ToUpper(buf[:n])); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func main() { sdk.ServeConverter(upper{}) }
