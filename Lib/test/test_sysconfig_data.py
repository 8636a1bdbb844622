# The build's _sysconfigdata module: sysconfig, pydoc and help() need it.
import importlib.machinery
import pydoc
import sys
import sysconfig

vars_ = sysconfig.get_config_vars()
ext = vars_["EXT_SUFFIX"]
print("EXT_SUFFIX is an extension suffix:", ext in importlib.machinery.EXTENSION_SUFFIXES)
print("SOABI inside EXT_SUFFIX:", vars_["SOABI"] in ext)
print("SHLIB_SUFFIX:", vars_["SHLIB_SUFFIX"])
print("VERSION:", vars_["VERSION"] == f"{sys.version_info[0]}.{sys.version_info[1]}")
print("py_version_nodot:", vars_["py_version_nodot"] == f"{sys.version_info[0]}{sys.version_info[1]}")
print("Py_DEBUG matches the build:", bool(vars_["Py_DEBUG"]) == hasattr(sys, "gettotalrefcount"))
print("Py_GIL_DISABLED:", vars_["Py_GIL_DISABLED"])
print("CC is set:", bool(vars_["CC"]), "platform:", sysconfig.get_platform())
print("paths:", sorted(sysconfig.get_paths()))
text = pydoc.render_doc(len, renderer=pydoc.plaintext)
print("pydoc renders:", text.splitlines()[0])
