// Starts Swagger UI on the contract: a file of its own, not an inline
// script, so that the page's Content-Security-Policy allows only this
// origin's scripts.
// Paths are relative to /v1/docs. validatorUrl null keeps Swagger UI from
// calling its public validator. deepLinking stays off: it puts a link
// inside each operation's toggle button, a control within a control that
// screen readers and keyboards cannot reach (axe-core nested-interactive).
window.ui = SwaggerUIBundle({ url: "openapi.json", dom_id: "#ui", validatorUrl: null, deepLinking: false });

// Swagger UI draws the server picker without a label, and code samples
// that scroll sideways out of the keyboard's reach: name every select and
// make every sample focusable, now and whenever it redraws.
new MutationObserver(() => {
  document.querySelectorAll("#ui select:not([aria-label])").forEach(s => {
    s.setAttribute("aria-label", s.id === "servers" ? "Server" : (s.closest("[data-param-name]")?.dataset.paramName || "Choice"));
  });
  document.querySelectorAll("#ui pre:not([tabindex])").forEach(p => p.setAttribute("tabindex", "0"));
}).observe(document.getElementById("ui"), { childList: true, subtree: true });
