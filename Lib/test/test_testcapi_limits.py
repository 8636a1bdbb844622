# _testcapi's C limits, as CPython's tests read them (x86-64 / LP64 values).
import _testcapi

for name in ["CHAR_MAX", "CHAR_MIN", "UCHAR_MAX", "SHRT_MAX", "SHRT_MIN", "USHRT_MAX",
             "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN", "ULONG_MAX",
             "LLONG_MAX", "LLONG_MIN", "ULLONG_MAX", "PY_SSIZE_T_MAX", "PY_SSIZE_T_MIN",
             "SIZE_MAX", "FLT_MAX", "FLT_MIN", "DBL_MAX", "DBL_MIN",
             "SIZEOF_VOID_P", "SIZEOF_TIME_T", "SIZEOF_WCHAR_T", "SIZEOF_PID_T"]:
    v = getattr(_testcapi, name)
    print(name, type(v).__name__, v)
import sys
print(_testcapi.PY_SSIZE_T_MAX == sys.maxsize)
try:
    _testcapi.no_such_helper
except AttributeError as e:
    print("AttributeError")
