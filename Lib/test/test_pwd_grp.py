# pwd and grp: the struct types, look-ups by id and by name, the whole
# databases, the KeyError/TypeError/OverflowError cases, and the stdlib
# code built on them (expanduser, shutil.chown, pathlib owner/group).
# Values that differ between machines (ids, names) are only compared.
import grp
import os
import pathlib
import pwd
import shutil
import tempfile


def attempt(label, f, *args):
    try:
        res = f(*args)
    except Exception as e:
        print(label, type(e).__name__, e)
    else:
        print(label, "ok", type(res).__name__)


for t in (pwd.struct_passwd, grp.struct_group):
    print(t.__name__, t.__module__, t.n_fields, t.n_sequence_fields, t.n_unnamed_fields)
    print(issubclass(t, tuple), [f for f in dir(t) if f[:3] in ("pw_", "gr_")])

# pwd
me = pwd.getpwuid(os.getuid())
print(type(me).__name__, len(me), tuple(me) == me[:])
print([type(x).__name__ for x in me])
print(me.pw_uid == os.getuid(), me[2] == me.pw_uid, me[0] is me.pw_name)
print(pwd.getpwnam(me.pw_name) == me)
root = pwd.getpwuid(0)
print(root.pw_name, root.pw_uid, root.pw_dir)
everyone = pwd.getpwall()
print(type(everyone).__name__, all(type(e) is pwd.struct_passwd for e in everyone))
print(me in everyone, any(e.pw_uid == 0 for e in everyone))
print(pwd.getpwuid(True).pw_uid)
made = pwd.struct_passwd(("n", "x", 5, 6, "gecos", "/home/n", "/bin/sh"))
print(made)
print(made.pw_shell, made[-1], made[1:3])

attempt("getpwnam missing", pwd.getpwnam, "no_such_user_zq")
attempt("getpwnam empty", pwd.getpwnam, "")
attempt("getpwuid missing", pwd.getpwuid, 99999)
attempt("getpwuid -1", pwd.getpwuid, -1)
attempt("getpwuid 2**32-1", pwd.getpwuid, 2**32 - 1)
attempt("getpwuid -2", pwd.getpwuid, -2)
attempt("getpwuid 2**40", pwd.getpwuid, 2**40)
attempt("getpwuid 2**70", pwd.getpwuid, 2**70)
attempt("getpwuid str", pwd.getpwuid, "0")
attempt("getpwuid float", pwd.getpwuid, 0.0)
attempt("getpwnam int", pwd.getpwnam, 0)
attempt("getpwnam bytes", pwd.getpwnam, b"root")
attempt("getpwnam nul", pwd.getpwnam, "ro\0ot")
try:
    pwd.getpwnam(name="root")
except TypeError as e:
    print("keywords:", e)
try:
    pwd.getpwuid(99999)
except KeyError as e:
    print("KeyError args:", e.args)

# grp
mine = grp.getgrgid(os.getgid())
print(type(mine).__name__, len(mine), [type(x).__name__ for x in mine])
print(mine.gr_gid == os.getgid(), all(type(m) is str for m in mine.gr_mem))
print(grp.getgrnam(mine.gr_name) == mine)
print(grp.getgrgid(0).gr_name, grp.getgrgid(0)[2])
groups = grp.getgrall()
print(type(groups).__name__, all(type(g) is grp.struct_group for g in groups))
print(mine in groups, any(g.gr_gid == 0 for g in groups))
print(grp.struct_group(("g", "x", 7, ["a", "b"])))

attempt("getgrnam missing", grp.getgrnam, "no_such_group_zq")
attempt("getgrgid missing", grp.getgrgid, 99999)
attempt("getgrgid -1", grp.getgrgid, -1)
attempt("getgrgid -2", grp.getgrgid, -2)
attempt("getgrgid 2**32", grp.getgrgid, 2**32)
attempt("getgrgid 2**70", grp.getgrgid, 2**70)
attempt("getgrgid -2**70", grp.getgrgid, -2**70)
attempt("getgrgid str", grp.getgrgid, "a")
attempt("getgrgid float", grp.getgrgid, 1.5)
attempt("getgrnam int", grp.getgrnam, 1)
attempt("getgrnam nul", grp.getgrnam, "a\0")

# What the stdlib builds on them.
print(os.path.expanduser("~" + me.pw_name) == me.pw_dir)
print(os.path.expanduser("~root"))
print(os.path.expanduser("~no_such_user_zq"))
print(os.path.expanduser("~root/sub"))
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "f")
    open(p, "w").close()
    shutil.chown(p, user=me.pw_name, group=mine.gr_name)
    shutil.chown(p, user=os.getuid())
    print(os.stat(p).st_uid == os.getuid(), os.stat(p).st_gid == os.getgid())
    path = pathlib.Path(p)
    print(path.owner() == me.pw_name, path.group() == mine.gr_name)
    for kw in ({"user": "no_such_user_zq"}, {"group": "no_such_group_zq"}):
        try:
            shutil.chown(p, **kw)
        except LookupError as e:
            print(type(e).__name__, e)
