# syslog: the constants, the mask helpers, openlog/syslog/closelog in
# their argument forms, and the argument errors.  Messages go to the
# system logger (or nowhere when it is absent), never to our output.
import syslog


def attempt(label, f, *args, **kwargs):
    try:
        res = f(*args, **kwargs)
    except Exception as e:
        print(label, type(e).__name__, e)
    else:
        print(label, "ok", repr(res))


names = sorted(n for n in dir(syslog) if n.startswith("LOG_") and n not in ("LOG_MASK", "LOG_UPTO"))
print(len(names))
for start in range(0, len(names), 6):
    print(", ".join("%s=%d" % (n, getattr(syslog, n)) for n in names[start:start + 6]))
print(sorted(n for n in dir(syslog) if n[0].islower() and not n.startswith("__")))
print(syslog.LOG_MASK(syslog.LOG_ERR), syslog.LOG_UPTO(syslog.LOG_ERR), syslog.LOG_UPTO(syslog.LOG_DEBUG))

attempt("syslog before openlog", syslog.syslog, "test_syslog_module: implicit open")
attempt("openlog", syslog.openlog, "test_syslog_module", syslog.LOG_PID, syslog.LOG_USER)
attempt("openlog keywords", syslog.openlog, ident="test_syslog_module", logoption=syslog.LOG_NDELAY,
        facility=syslog.LOG_LOCAL0)
attempt("openlog no ident", syslog.openlog)
attempt("syslog one", syslog.syslog, "a message")
attempt("syslog two", syslog.syslog, syslog.LOG_DEBUG, "a debug message")
attempt("syslog facility", syslog.syslog, syslog.LOG_NOTICE | syslog.LOG_USER, "with a facility")
old = syslog.setlogmask(syslog.LOG_UPTO(syslog.LOG_WARNING))
print("mask was all:", old == syslog.LOG_UPTO(syslog.LOG_DEBUG))
print("mask kept by 0:", syslog.setlogmask(0) == syslog.LOG_UPTO(syslog.LOG_WARNING))
print("restored:", syslog.setlogmask(old) == syslog.LOG_UPTO(syslog.LOG_WARNING))
attempt("closelog", syslog.closelog)
attempt("closelog twice", syslog.closelog)
attempt("syslog after close", syslog.syslog, "reopens")
syslog.closelog()

attempt("syslog none", syslog.syslog)
attempt("syslog three", syslog.syslog, 1, 2, 3)
attempt("syslog int message", syslog.syslog, 1)
attempt("syslog int message 2", syslog.syslog, 1, 2)
attempt("syslog str priority", syslog.syslog, "a", "b")
attempt("syslog keywords", syslog.syslog, priority=1, message="x")
attempt("openlog int ident", syslog.openlog, 1)
attempt("openlog str option", syslog.openlog, "x", "a")
attempt("openlog unknown keyword", syslog.openlog, foo=1)
attempt("setlogmask str", syslog.setlogmask, "a")
attempt("LOG_MASK str", syslog.LOG_MASK, "a")
attempt("LOG_UPTO none", syslog.LOG_UPTO)
