// Command dragoman-provider-libretranslate is a LibreTranslate server
// (self-hosted or libretranslate.com) as a Dragoman plugin: POST /translate
// with format=html and q as an array, so a batch is one request and the
// inline codes travel as <span id="gN"> and <br id="xN">. The pairs are
// the server's own, read from GET /languages at start.
//
// Settings (environment):
//
//	DRAGOMAN_LIBRETRANSLATE_BASE_URL        required, e.g. http://localhost:5000
//	DRAGOMAN_LIBRETRANSLATE_API_KEY         if the server requires keys
//	DRAGOMAN_LIBRETRANSLATE_BATCH_SEGMENTS  texts per request (default 50; keep within the server's --batch-limit)
//	DRAGOMAN_LIBRETRANSLATE_BATCH_CHARS     characters per request (default 20000; keep within --char-limit)
//	DRAGOMAN_LIBRETRANSLATE_MAX_RETRIES, _BACKOFF, _TIMEOUT, _MAX_RETRY_AFTER  see plugins/internal/httpengine
//
// Modes: full (and professional, protected by the core). Literal and
// extreme are translated as full, with a warning on the job.
package main

import "github.com/dragoman-translate/dragoman/plugins/sdk"

func main() { sdk.ServeProvider(&engine{}) }
