// Command dragoman-converter-libreoffice converts .doc, .odt, .rtf and
// Word 2003 XML to .docx as a Dragoman converter plugin, with a warm pool
// of headless LibreOffice instances, started on the first conversion and
// stopped when idle (Debian: apt-get install libreoffice-writer
// python3-uno; not the -nogui Writer, which lacks the .ui files a headless
// view still builds for some documents).
//
// Settings (environment):
//
//	DRAGOMAN_LIBREOFFICE_POOL_SIZE  instances at most, one conversion each at a time (default: number of cores, at least 2)
//	DRAGOMAN_LIBREOFFICE_TIMEOUT    per conversion up to 2 MB, e.g. 120s (the default); times n² for n
//	                                started 2 MB units (unpacked XML for .odt), at most 30 times
//	DRAGOMAN_LIBREOFFICE_IDLE       stop an instance idle this long, e.g. 5m (the default); 0: never
//	DRAGOMAN_LIBREOFFICE_PER_ACCOUNT instances one account may hold at once (default: pool size − 1, at least 1)
//	DRAGOMAN_LIBREOFFICE_CPU        processor time one conversion may use, e.g. 60s (the default); scaled as the timeout
//	DRAGOMAN_LIBREOFFICE_MEMORY     memory cap per instance, e.g. 1G (the default) or 1536M; 0: no cap
//	DRAGOMAN_LIBREOFFICE_SOFFICE    the soffice command (default "soffice" on PATH)
//	DRAGOMAN_LIBREOFFICE_PYTHON     a python3 that can import uno (default /usr/bin/python3)
//	DRAGOMAN_INSTANCE               the server's tag (set by the server): its data dir names the work directories
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

func main() {
	// The pool's warnings (instances crashed, restarted) reach the host's
	// log at their level through the SDK's logger.
	logger := sdk.Logger()
	cfg, err := pool.ConfigFromEnv()
	if err == nil {
		var p *pool.Pool
		if p, err = pool.New(cfg, logger); err == nil {
			serve(p)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "dragoman-converter-libreoffice:", err)
	os.Exit(1)
}

func serve(p *pool.Pool) {
	// The host stops plugins gracefully first; a SIGTERM must not leave
	// soffice running either (after SIGKILL the helpers clean up alone).
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	go func() {
		<-sig
		p.Close()
		os.Exit(0)
	}()
	defer p.Close()
	sdk.ServeConverter(&converter{pool: p, tempDir: p.TempDir()})
}
