"""Stand-in for the build-configuration module sysconfig reads.

CPython's build writes a _sysconfigdata_* module holding its Makefile
variables; our build writes none yet, so sysconfig.get_config_vars() raises
ModuleNotFoundError and test.support (which asks for WITH_DOC_STRINGS at
import) cannot load.  The harness selects this module through
_PYTHON_SYSCONFIGDATA_NAME.  It claims nothing: an empty table makes every
build variable None, which the tests read as "feature not configured".
Remove it once the build generates the real module (see Doc/cpython-tests.md).
"""

build_time_vars = {}
