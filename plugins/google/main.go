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
//	DRAGOMAN_GOOGLE_GLOSSARY_BUCKET  a Cloud Storage bucket for glossary files: set, the engine
//	                              applies glossaries itself (needs ACCESS_TOKEN and a regional
//	                              LOCATION such as us-central1); unset, the core enforces them
//	DRAGOMAN_GOOGLE_STORAGE_URL   default https://storage.googleapis.com
//	DRAGOMAN_GOOGLE_MAX_RETRIES, _BACKOFF, _TIMEOUT, _MAX_RETRY_AFTER  see plugins/internal/httpengine
//
// Modes: full (and professional, protected by the core). Literal and
// extreme are translated as full, with a warning on the job.
//
// Glossaries: with GLOSSARY_BUCKET the engine makes one glossary resource
// per glossary content: the entries are uploaded as TSV
// (gs://<bucket>/dragoman-glossaries/dragoman-<version>.tsv, Storage JSON
// API media upload with the same token), the glossary
// projects/<p>/locations/<l>/glossaries/dragoman-<version> is created from
// it (a long-running operation, polled) and named in translateText's
// glossaryConfig; the glossaryTranslations are the answer. The name is
// kept in memory and looked up again after a restart. A glossary deleted
// on Google's side is made again; one Google refuses (INVALID_ARGUMENT) is
// skipped with a warning.
package main

import "github.com/dragoman-translate/dragoman/plugins/sdk"

func main() { sdk.ServeProvider(&engine{}) }
