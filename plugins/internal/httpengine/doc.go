// Package httpengine is what the cloud and LLM engine plugins share: their
// DRAGOMAN_<ENGINE>_… settings, an HTTP client that retries what a vendor
// may recover from (429 honouring Retry-After, 5xx, timeouts, malformed
// bodies) and gives up with an error naming the engine, and the mapping of
// Dragoman's inline codes to the HTML that Google, Azure and LibreTranslate
// preserve.
package httpengine
