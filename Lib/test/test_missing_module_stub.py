# Tools/scripts/gen_missing_modules.py: a left-out optional module's
# stand-in says why it is missing; a built one's stand-in goes away.
import importlib.util, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "..", "Tools", "scripts", "gen_missing_modules.py")
optional = "zlib _bz2"
with tempfile.TemporaryDirectory() as d:
    subprocess.check_call([sys.executable, script, d, "", optional])
    print(sorted(n for n in os.listdir(d) if n.endswith(".py")))
    sys.path.insert(0, d)
    for name in ["zlib", "_bz2"]:
        sys.modules.pop(name, None)
        spec_origin = os.path.join(d, name + ".py")
        spec = importlib.util.spec_from_file_location(name, spec_origin)
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except ModuleNotFoundError as e:
            print(type(e).__name__, e.name, "|", e)
    sys.path.remove(d)
    # _bz2 built now: its stand-in is removed, zlib's stays
    subprocess.check_call([sys.executable, script, d, "_bz2", optional])
    print(sorted(n for n in os.listdir(d) if n.endswith(".py")))
    # a file of the same name that is not a stand-in is left alone
    with open(os.path.join(d, "zlib.py"), "w") as f:
        f.write("# user file\n")
    subprocess.check_call([sys.executable, script, d, "zlib _bz2", optional])
    print(sorted(n for n in os.listdir(d) if n.endswith(".py")))
