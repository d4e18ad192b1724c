// Command dragoman-provider-deepl is the DeepL engine as a Dragoman plugin:
// API v2 POST /v2/translate with tag_handling=xml, so Dragoman's inline
// codes (<g id="N">…</g>, <x id="N"/>) pass through as XML tags.
//
// Settings (environment):
//
//	DRAGOMAN_DEEPL_API_KEY      required; keys ending in ":fx" are Free API keys
//	DRAGOMAN_DEEPL_BASE_URL     default https://api.deepl.com, or https://api-free.deepl.com for ":fx" keys
//	DRAGOMAN_DEEPL_FORMALITY    default, more, less, prefer_more or prefer_less; sent only for
//	                            target languages that have formality (DE FR IT ES NL PL PT JA RU)
//	DRAGOMAN_DEEPL_MAX_RETRIES, _BACKOFF, _TIMEOUT, _MAX_RETRY_AFTER  see plugins/internal/httpengine
//
// Modes: full (and professional, which the core protects). DeepL has no
// word-for-word or localisation switch, so literal and extreme are
// translated as full and the job says so.
//
// Glossaries: the engine applies a job's glossary itself
// (Capabilities.NativeGlossary). It makes one DeepL glossary per glossary
// content (POST /v2/glossaries, entries as TSV, named "dragoman-<version>",
// for DeepL's bare pair), waits until DeepL reports it ready, keeps its id
// in memory and finds it again by name (GET /v2/glossaries) after a
// restart; translations carry glossary_id with source_lang. A glossary
// deleted on DeepL's side is made again; one DeepL refuses (400) is
// skipped with a warning; the account's glossary limit (456) fails the job.
//
// Errors: 429 and 5xx are retried (Retry-After honoured); 456 (quota
// exceeded), 403 (bad key) and other 4xx fail at once.
package main

import (
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

func main() { sdk.ServeProvider(&engine{}) }
