// Command dragoman-provider-google is Google Cloud Translation (v3,
// projects.locations.translateText) as a Dragoman plugin. Segments are sent
// with mimeType text/html: inline codes travel as <span id="gN"> and
// <br id="xN">, which the service keeps in place.
//
// Settings (environment):
//
//	DRAGOMAN_GOOGLE_PROJECT       required: the Cloud project id or number
//	DRAGOMAN_GOOGLE_ACCESS_TOKEN  an OAuth 2 access token (Authorization: Bearer), or
//	DRAGOMAN_GOOGLE_API_KEY       an API key (x-goog-api-key); one of the two is required
//	DRAGOMAN_GOOGLE_LOCATION      default "global"
//	DRAGOMAN_GOOGLE_BASE_URL      default https://translation.googleapis.com
//	DRAGOMAN_GOOGLE_MODEL         optional model resource name (e.g. …/models/general/nmt)
//	DRAGOMAN_GOOGLE_MAX_RETRIES, _BACKOFF, _TIMEOUT, _MAX_RETRY_AFTER  see plugins/internal/httpengine
//
// Modes: full (and professional, protected by the core). Literal and
// extreme are translated as full, with a warning on the job.
package main

import "github.com/dragoman-translate/dragoman/plugins/sdk"

func main() { sdk.ServeProvider(&engine{}) }
