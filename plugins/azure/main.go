// Command dragoman-provider-azure is Azure AI Translator (Text
// Translation v3, POST /translate?api-version=3.0) as a Dragoman plugin.
// Segments are sent with textType=html: inline codes travel as
// <span id="gN"> and <br id="xN">, which the service keeps in place.
//
// Settings (environment):
//
//	DRAGOMAN_AZURE_API_KEY    required (Ocp-Apim-Subscription-Key)
//	DRAGOMAN_AZURE_REGION     the resource's region (Ocp-Apim-Subscription-Region);
//	                          needed for regional and multi-service resources
//	DRAGOMAN_AZURE_BASE_URL   default https://api.cognitive.microsofttranslator.com
//	DRAGOMAN_AZURE_CATEGORY   optional Custom Translator category id
//	DRAGOMAN_AZURE_MAX_RETRIES, _BACKOFF, _TIMEOUT, _MAX_RETRY_AFTER  see plugins/internal/httpengine
//
// Modes: full (and professional, protected by the core). Literal and
// extreme are translated as full, with a warning on the job.
//
// Glossaries: for pairs from or to English the engine applies a job's
// glossary itself with Translator's dynamic dictionary: each source term
// in the text (found as the core finds them: whole words, longest first,
// never across a code) is sent as
// <mstrans:dictionary translation="target">term</mstrans:dictionary>,
// which the service documents as working the same in HTML mode, with the
// from parameter given. The dictionary needs English on one side, so for
// other pairs the core enforces the glossary with placeholders.
package main

import "github.com/dragoman-translate/dragoman/plugins/sdk"

func main() { sdk.ServeProvider(&engine{}) }
