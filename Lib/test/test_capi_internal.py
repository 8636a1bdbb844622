# C-level checks of runtime internals (Modules/_testinternalcapi.c).
import _testinternalcapi

for name in ("test_stackref", "test_immortal", "test_data_stack", "test_opcode_metadata",
             "test_dict_watchers"):
    getattr(_testinternalcapi, name)()
    print(name, "ok")
