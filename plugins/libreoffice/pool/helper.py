# Drives one listening soffice over UNO for the Go pool. One JSON request
# per stdin line, one JSON answer per stdout line, one conversion at a time.
# Request: {"in": path, "out": path, "filters": [allowed import filters],
#           "export": export filter (optional; default .docx, "writer_pdf_Export" for PDF)}
# Answer:  {"ok": bool, "kind": "load"|"refused"|"password"|"store"|"crash", "error": str, "filter": str,
#          "dead": bool (ok, but soffice died closing the document)}
import json
import sys
import time

try:
    import uno
    import unohelper
    from com.sun.star.beans import PropertyValue
    from com.sun.star.task import XInteractionHandler
except ImportError as e:  # python3-uno missing: say so instead of a traceback
    print(json.dumps({"ready": False, "error": "python3-uno is not installed: %s" % e}), flush=True)
    sys.exit(3)


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


class Refuse(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks with Abort, remembering
    whether it asked for a password."""

    def __init__(self):
        self.password = False
        self.asked = []

    def handle(self, request):
        what = request.getRequest()
        name = what.typeName if hasattr(what, "typeName") else type(what).__name__
        self.asked.append(name)
        if "Password" in name:
            self.password = True
        for c in request.getContinuations():
            if c.queryInterface(uno.getTypeByName("com.sun.star.task.XInteractionAbort")):
                c.select()
                return


def connect(pipe, timeout):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.time() + timeout
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def message(e):
    return str(getattr(e, "Message", "") or e).strip()


def failure(stage, e):
    text = message(e)
    kind = stage
    if "Disposed" in type(e).__name__ or "bridge" in text:
        kind = "crash"  # soffice died under us; the Go side replaces it
    elif "password" in text.lower():
        kind = "password"
    return {"ok": False, "kind": kind, "error": "%s: %s" % (type(e).__name__, text)}


def convert(desktop, req):
    doc = None
    handler = Refuse()
    try:
        try:
            doc = desktop.loadComponentFromURL(
                uno.systemPathToFileUrl(req["in"]), "_blank", 0,
                (prop("Hidden", True), prop("ReadOnly", True),
                 prop("InteractionHandler", handler),
                 # Fetch nothing a document links to (issue 15): no link
                 # or field update, no macro. The profile's
                 # BlockUntrustedRefererLinks refuses what the document
                 # names, since its own URL is not a trusted location.
                 prop("UpdateDocMode", 0),  # NO_UPDATE
                 prop("MacroExecutionMode", 0)))  # NEVER_EXECUTE
        except Exception as e:
            if handler.password:
                return {"ok": False, "kind": "password", "error": "%s: %s" % (type(e).__name__, message(e))}
            return failure("load", e)
        if doc is None:
            kind = "password" if handler.password else "load"
            return {"ok": False, "kind": kind,
                    "error": "LibreOffice could not open the file (asked: %s)" % ", ".join(handler.asked)}
        used = ""
        for a in doc.getArgs():
            if a.Name == "FilterName":
                used = a.Value
        if used not in req["filters"]:
            return {"ok": False, "kind": "refused", "filter": used,
                    "error": "LibreOffice read the file as %r, not as one of %s" % (used, req["filters"])}
        try:
            doc.storeToURL(uno.systemPathToFileUrl(req["out"]),
                           (prop("FilterName", req.get("export", "MS Word 2007 XML")),
                            prop("Overwrite", True)))
        except Exception as e:
            return failure("store", e)
        return {"ok": True, "filter": used}
    finally:
        if doc is not None:
            try:
                doc.close(True)
            except Exception:
                pass


def alive(desktop):
    try:
        desktop.getFrames().getCount()
        return True
    except Exception:
        return False


def main():
    # argv: pipe name, connect timeout in seconds. The Go side starts us
    # with a parent-death signal and sweeps our files, so stdin EOF just ends.
    desktop = connect(sys.argv[1], float(sys.argv[2]))
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        answer = convert(desktop, json.loads(line))
        if not alive(desktop):
            if answer["ok"]:
                # Stored whole, then soffice died closing the document (an
                # RTL first section, an endnote and page-anchored text
                # boxes, see oxsdk-Complex01): the file counts, the
                # instance does not.
                answer["dead"] = True
            elif answer["kind"] != "crash":
                answer["kind"] = "crash"  # the failure was soffice's death, not the document's
        print(json.dumps(answer), flush=True)


main()
