// Command dragoman-provider-openai translates with any OpenAI-compatible
// chat-completions endpoint: OpenAI, Azure OpenAI (v1 API), Ollama, vLLM,
// llama.cpp server. A batch of segments is one request; the model gets the
// segments as JSON with their inline codes as XML-like tags and must answer
// {"translations":[{"id":N,"text":"…"}]}, which is validated (every id once,
// nothing else; codes checked and reported).
//
// Settings (environment):
//
//	DRAGOMAN_OPENAI_MODEL           required, e.g. gpt-4o-mini, llama3.1:8b
//	DRAGOMAN_OPENAI_BASE_URL        default https://api.openai.com/v1 (Ollama: http://localhost:11434/v1)
//	DRAGOMAN_OPENAI_API_KEY         required for the default base URL; optional for local servers
//	DRAGOMAN_OPENAI_AUTH_HEADER     "authorization" (Bearer, default) or "api-key" (Azure OpenAI keys)
//	DRAGOMAN_OPENAI_JSON_MODE       true (default) sends response_format json_object; false for servers without it
//	DRAGOMAN_OPENAI_BATCH_SEGMENTS  segments per request (default 40)
//	DRAGOMAN_OPENAI_BATCH_CHARS     characters per request (default 8000)
//	DRAGOMAN_OPENAI_MAX_RETRIES, _BACKOFF, _TIMEOUT, _MAX_RETRY_AFTER  see plugins/internal/httpengine
//
// Modes are prompt policies (prompt.go): full (natural, complete
// translation), literal (word for word, source structure kept), extreme
// (full localisation of idioms, units, dates, numbers and currency), and
// professional, which the core protects before the model sees the text
// and which is then translated like full.
package main

import "github.com/dragoman-translate/dragoman/plugins/sdk"

func main() { sdk.ServeProvider(&engine{}) }
