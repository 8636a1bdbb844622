# The posix module: stat results, directories, file descriptors, the
# environment, processes and the errors each call raises.  Everything is
# made under a private directory in /tmp and removed at the end; nothing
# machine-specific (inodes, times, pids) is printed.
import posix

BASE = "/tmp/lazypy_test_posix_%d" % posix.getpid()


def p(name):
    return BASE + "/" + name


def hide_base(name):
    if isinstance(name, str):
        return name.replace(BASE, "BASE")
    if isinstance(name, bytes):
        return name.replace(BASE.encode(), b"BASE")
    return name


def show_error(label, func, *args, **kwargs):
    try:
        func(*args, **kwargs)
    except OSError as e:
        fn, fn2 = hide_base(e.filename), hide_base(e.filename2)
        print(label, type(e).__name__, e.errno, fn, fn2)
    except (TypeError, ValueError, OverflowError) as e:
        print(label, type(e).__name__, e)
    else:
        print(label, "no error")


def write_file(name, data):
    fd = posix.open(p(name), posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC, 0o644)
    n = posix.write(fd, data)
    posix.close(fd)
    return n


def cleanup(path):
    try:
        st = posix.lstat(path)
    except FileNotFoundError:
        return
    if (st.st_mode & 0o170000) == 0o040000:
        for name in posix.listdir(path):
            cleanup(path + "/" + name)
        posix.rmdir(path)
    else:
        posix.unlink(path)


def test_stat():
    print("-- stat")
    write_file("a.txt", b"hello world")
    st = posix.stat(p("a.txt"))
    print(type(st).__name__, len(st), st.st_size, st[6], st.st_size == st[6])
    print(st.st_mode & 0o777 == 0o644 & ~UMASK, (st.st_mode & 0o170000) == 0o100000)
    print(st.st_mode == st[0], st.st_ino == st[1], st.st_dev == st[2], st.st_nlink, st.st_uid == st[4])
    print(type(st.st_mtime).__name__, type(st[8]).__name__, type(st.st_mtime_ns).__name__)
    print(int(st.st_mtime) == st[8], st.st_mtime_ns // 10**9 == st[8])
    print(st.st_blksize > 0, st.st_blocks >= 0, st.st_rdev)
    print(posix.stat_result.n_fields, posix.stat_result.n_sequence_fields,
          posix.stat_result.n_unnamed_fields)
    fd = posix.open(p("a.txt"), posix.O_RDONLY)
    fst = posix.fstat(fd)
    print("fstat agrees", fst.st_ino == st.st_ino, fst.st_size == st.st_size,
          posix.stat(fd).st_ino == st.st_ino)
    posix.close(fd)
    posix.symlink("a.txt", p("link"))
    print("lstat is link", (posix.lstat(p("link")).st_mode & 0o170000) == 0o120000)
    print("stat follows", posix.stat(p("link")).st_ino == st.st_ino)
    print("no follow", posix.stat(p("link"), follow_symlinks=False).st_ino == posix.lstat(p("link")).st_ino)
    print("readlink", posix.readlink(p("link")), posix.readlink(p("link").encode()))
    dfd = posix.open(BASE, posix.O_RDONLY | posix.O_DIRECTORY)
    print("dir_fd", posix.stat("a.txt", dir_fd=dfd).st_ino == st.st_ino)
    posix.close(dfd)
    f, args = st.__reduce__()
    again = f(*args)
    print("reduce", again == st, again.st_mtime_ns == st.st_mtime_ns)
    made = posix.stat_result(tuple(range(10)))
    print("made", made, made.st_mtime, made.st_blksize)
    made = posix.stat_result(tuple(range(10)), {"st_blksize": 512, "st_atime": 1.5})
    print("made dict", made.st_blksize, made.st_atime, made.st_ctime)
    for bad in [(1, 2), tuple(range(20))]:
        try:
            posix.stat_result(bad)
        except TypeError as e:
            print("TypeError", e)


def test_dirs():
    print("-- directories")
    posix.mkdir(p("sub"))
    posix.mkdir(p("sub/inner"), 0o700)
    write_file("sub/f1", b"1")
    write_file("sub/f2", b"22")
    print(sorted(posix.listdir(p("sub"))))
    print(sorted(posix.listdir(p("sub").encode())))
    old = posix.getcwd()
    posix.chdir(p("sub"))
    print("cwd", posix.getcwd() == p("sub"), posix.getcwdb() == p("sub").encode())
    print("listdir()", sorted(posix.listdir()))
    with posix.scandir() as it:
        print("scandir()", sorted(e.path for e in it))
    posix.chdir(old)
    entries = {}
    it = posix.scandir(p("sub"))
    print(type(it).__name__, iter(it) is it)
    for e in it:
        entries[e.name] = e
    it.close()
    it.close()
    for name in sorted(entries):
        e = entries[name]
        print(name, e.path.replace(BASE, "BASE"), e.is_dir(), e.is_file(), e.is_symlink(),
              e.inode() == posix.lstat(e.path).st_ino, e.stat().st_size if e.is_file() else "-",
              posix.fspath(e).replace(BASE, "BASE"))
    e = entries["f1"]
    print("cached", e.stat() is e.stat(), e.stat(follow_symlinks=False).st_size, repr(e))
    posix.symlink("inner", p("sub/dlink"))
    with posix.scandir(p("sub").encode()) as it:
        for e in sorted(it, key=lambda e: e.name):
            if e.name == b"dlink":
                print(e.name, e.is_dir(), e.is_dir(follow_symlinks=False), e.is_symlink(),
                      e.is_file(), e.path.endswith(b"/sub/dlink"))
    fd = posix.open(p("sub"), posix.O_RDONLY)
    print("listdir(fd)", sorted(posix.listdir(fd)))
    with posix.scandir(fd) as it:
        print("scandir(fd)", sorted((e.name, e.path, e.is_dir()) for e in it))
    posix.close(fd)
    show_error("rmdir non-empty", posix.rmdir, p("sub"))
    posix.unlink(p("sub/dlink"))
    posix.rmdir(p("sub/inner"))
    posix.remove(p("sub/f1"))
    posix.unlink(p("sub/f2"))
    posix.rmdir(p("sub"))
    print("gone", "sub" in posix.listdir(BASE))


def test_names():
    print("-- names")
    write_file("r1", b"r")
    posix.rename(p("r1"), p("r2"))
    print(sorted(n for n in posix.listdir(BASE) if n.startswith("r")))
    write_file("r3", b"three")
    posix.replace(p("r3"), p("r2"))
    print("replaced size", posix.stat(p("r2")).st_size)
    posix.link(p("r2"), p("hard"))
    print("nlink", posix.stat(p("r2")).st_nlink, posix.stat(p("hard")).st_ino == posix.stat(p("r2")).st_ino)
    posix.chmod(p("r2"), 0o600)
    print("chmod", oct(posix.stat(p("r2")).st_mode & 0o777))
    print("access", posix.access(p("r2"), posix.R_OK), posix.access(p("none"), posix.F_OK))
    posix.utime(p("r2"), (1000000000, 1200000000.5))
    st = posix.stat(p("r2"))
    print("utime", st.st_atime, st.st_mtime, st.st_mtime_ns)
    posix.utime(p("r2"), ns=(5 * 10**9 + 7, 6 * 10**9 + 9))
    st = posix.stat(p("r2"))
    print("utime ns", st.st_atime_ns, st.st_mtime_ns)
    posix.truncate(p("r2"), 2)
    print("truncate", posix.stat(p("r2")).st_size)
    posix.chown(p("r2"), -1, -1)
    old = posix.umask(0o022)
    print("umask", oct(posix.umask(old)))
    posix.unlink(p("hard"))
    posix.unlink(p("r2"))


def test_fds():
    print("-- file descriptors")
    fd = posix.open(p("io"), posix.O_RDWR | posix.O_CREAT, 0o600)
    print("write", posix.write(fd, b"abcdef"), posix.write(fd, bytearray(b"gh")))
    print("lseek", posix.lseek(fd, 0, 0), posix.lseek(fd, -2, 2),
          posix.lseek(fd, 0, 1))
    posix.lseek(fd, 0, 0)
    print("read", posix.read(fd, 3), posix.read(fd, 100), posix.read(fd, 10))
    print("pread", posix.pread(fd, 2, 1), posix.pwrite(fd, b"XY", 0), posix.pread(fd, 4, 0))
    print("writev", posix.writev(fd, [b"12", b"345"]))
    buf1, buf2 = bytearray(3), bytearray(4)
    posix.lseek(fd, 0, 0)
    print("readv", posix.readv(fd, [buf1, buf2]), bytes(buf1), bytes(buf2))
    posix.ftruncate(fd, 4)
    print("ftruncate", posix.fstat(fd).st_size)
    posix.fsync(fd)
    print("inheritable", posix.get_inheritable(fd))
    posix.set_inheritable(fd, True)
    print("set", posix.get_inheritable(fd))
    print("blocking", posix.get_blocking(fd))
    fd2 = posix.dup(fd)
    print("dup", fd2 != fd, posix.get_inheritable(fd2), posix.fstat(fd2).st_ino == posix.fstat(fd).st_ino)
    fd3 = posix.dup2(fd, fd2 + 5)
    print("dup2", fd3 == fd2 + 5, posix.get_inheritable(fd3))
    print("isatty", posix.isatty(fd), posix.device_encoding(fd))
    posix.closerange(fd2, fd3 + 1)
    show_error("closed fd", posix.fstat, fd3)
    posix.close(fd)
    r, w = posix.pipe()
    print("pipe", posix.get_inheritable(r), posix.write(w, b"through the pipe"), posix.read(r, 100))
    posix.set_blocking(r, False)
    print("nonblocking", posix.get_blocking(r))
    show_error("empty pipe", posix.read, r, 10)
    posix.close(r)
    posix.close(w)
    r, w = posix.pipe2(posix.O_NONBLOCK)
    print("pipe2", posix.get_blocking(r), posix.get_inheritable(w))
    posix.close(r)
    posix.close(w)
    posix.unlink(p("io"))
    print("urandom", len(posix.urandom(16)), type(posix.urandom(0)).__name__)


def test_environ():
    print("-- environment")
    print(type(posix.environ).__name__, all(type(k) is bytes and type(v) is bytes
                                            for k, v in posix.environ.items()))
    posix.putenv("LAZYPY_TEST_VAR", "value one")
    posix.putenv(b"LAZYPY_TEST_B", b"b")
    r, w = posix.pipe()
    pid = posix.fork()
    if pid == 0:
        posix.close(r)
        posix.set_inheritable(w, True)
        posix.execv("/bin/sh", ["sh", "-c", 'printf "%s|%s" "$LAZYPY_TEST_VAR" "$LAZYPY_TEST_B" >&' + str(w)])
        posix._exit(127)
    posix.close(w)
    _, status = posix.waitpid(pid, 0)
    print("child saw", posix.read(r, 100), posix.waitstatus_to_exitcode(status))
    posix.close(r)
    posix.unsetenv("LAZYPY_TEST_VAR")
    r, w = posix.pipe()
    pid = posix.fork()
    if pid == 0:
        posix.close(r)
        posix.set_inheritable(w, True)
        posix.execve("/bin/sh", ["sh", "-c", 'printf "[%s][%s]" "$LAZYPY_TEST_VAR" "$ONLY" >&' + str(w)],
                     {"ONLY": "this"})
        posix._exit(127)
    posix.close(w)
    posix.waitpid(pid, 0)
    print("execve env", posix.read(r, 100))
    posix.close(r)
    show_error("putenv =", posix.putenv, "A=B", "x")
    show_error("putenv empty", posix.putenv, "", "x")
    show_error("putenv nul", posix.putenv, "A\0", "x")


def test_process():
    print("-- processes")
    print(posix.getpid() > 0, posix.getppid() > 0, posix.getpgid(0) == posix.getpgrp())
    print(type(posix.getuid()).__name__, posix.geteuid() >= 0, posix.getgid() >= 0,
          posix.getegid() >= 0, type(posix.getgroups()).__name__)
    pid = posix.fork()
    if pid == 0:
        posix._exit(7)
    got, status = posix.waitpid(pid, 0)
    print("waitpid", got == pid, posix.WIFEXITED(status), posix.WEXITSTATUS(status),
          posix.WIFSIGNALED(status), posix.waitstatus_to_exitcode(status))
    pid = posix.fork()
    if pid == 0:
        posix.kill(posix.getpid(), 9)
        posix._exit(0)
    got, status = posix.wait()
    print("killed", got == pid, posix.WIFSIGNALED(status), posix.WTERMSIG(status),
          posix.waitstatus_to_exitcode(status))
    print("stopped", posix.WIFSTOPPED(0x137f), posix.WSTOPSIG(0x137f))
    show_error("status", posix.waitstatus_to_exitcode, 0x137f)
    order = []
    posix.register_at_fork(before=lambda: order.append("before1"),
                           after_in_parent=lambda: order.append("parent1"))
    posix.register_at_fork(before=lambda: order.append("before2"),
                           after_in_parent=lambda: order.append("parent2"),
                           after_in_child=lambda: posix._exit(3))
    pid = posix.fork()
    if pid == 0:
        posix._exit(0)
    _, status = posix.waitpid(pid, 0)
    print("at fork", order, posix.WEXITSTATUS(status))
    show_error("at fork none", posix.register_at_fork)
    show_error("at fork bad", posix.register_at_fork, before=1)
    show_error("no child", posix.waitpid, -1, posix.WNOHANG)
    show_error("execv empty", posix.execv, "/bin/sh", [])
    show_error("execv blank", posix.execv, "/bin/sh", [""])
    show_error("execv missing", posix.execv, p("nothere"), ["x"])
    u = posix.uname()
    print("uname", type(u).__name__, len(u), u.sysname, u[0] == u.sysname)
    t = posix.times()
    print("times", type(t).__name__, len(t), all(type(x) is float for x in t))
    print("cpu_count", posix.cpu_count() >= 1)
    print("sysconf", posix.sysconf("SC_PAGESIZE") == posix.sysconf(posix.sysconf_names["SC_PAGESIZE"]),
          posix.sysconf("SC_CLK_TCK") > 0)
    show_error("sysconf bad", posix.sysconf, "SC_NOPE")
    print("confstr", posix.confstr("CS_PATH").startswith("/"), "CS_PATH" in posix.confstr_names)
    print("pathconf", posix.pathconf(BASE, "PC_NAME_MAX") >= 14, "PC_NAME_MAX" in posix.pathconf_names)
    print("loadavg", len(posix.getloadavg()))
    print("terminal_size", posix.terminal_size((80, 24)), posix.terminal_size((80, 24)).lines)
    show_error("not a tty", posix.get_terminal_size, posix.open(p(""), posix.O_RDONLY))
    print("strerror", posix.strerror(2))
    print("constants", posix.O_RDONLY, posix.O_WRONLY, posix.O_RDWR, 2, posix.F_OK,
          posix.R_OK, posix.W_OK, posix.X_OK, posix.WNOHANG, posix.EX_OK)
    print("error", posix.error is OSError)
    print("have", "HAVE_FSTATAT" in posix._have_functions, "HAVE_FDOPENDIR" in posix._have_functions)


def test_extras():
    print("-- extras")
    fd = posix.open(p("x"), posix.O_RDWR | posix.O_CREAT, 0o600)
    posix.write(fd, b"0123456789")
    buf = bytearray(4)
    posix.lseek(fd, 2, 0)
    print("readinto", posix.readinto(fd, buf), bytes(buf))
    a, b = bytearray(2), bytearray(3)
    print("preadv", posix.preadv(fd, [a, b], 5), bytes(a), bytes(b))
    print("pwritev", posix.pwritev(fd, [b"AB", b"C"], 0), posix.pread(fd, 4, 0))
    posix.lockf(fd, posix.F_LOCK, 0)
    posix.lockf(fd, posix.F_ULOCK, 0)
    posix.posix_fallocate(fd, 0, 100)
    print("fallocate", posix.fstat(fd).st_size)
    posix.posix_fadvise(fd, 0, 0, posix.POSIX_FADV_NORMAL)
    out = posix.open(p("y"), posix.O_RDWR | posix.O_CREAT, 0o600)
    print("sendfile", posix.sendfile(out, fd, 0, 4), posix.pread(out, 10, 0))
    print("copy_file_range", posix.copy_file_range(fd, out, 3, 4, 0), posix.pread(out, 10, 0))
    posix.close(out)
    posix.close(fd)
    v = posix.statvfs(BASE)
    print("statvfs", type(v).__name__, len(v), v.f_namemax >= 14, v.f_bsize > 0, v[0] == v.f_bsize)
    dev = posix.makedev(8, 17)
    print("devices", posix.major(dev), posix.minor(dev))
    posix.mkfifo(p("fifo"))
    print("mkfifo", (posix.stat(p("fifo")).st_mode & 0o170000) == 0o010000)
    posix.mknod(p("node"), 0o600 | 0o100000)
    print("mknod", (posix.stat(p("node")).st_mode & 0o170000) == 0o100000)
    m = posix.memfd_create("lazypy")
    print("memfd", posix.write(m, b"mem"), posix.fstat(m).st_size, posix.get_inheritable(m))
    posix.close(m)
    print("getrandom", len(posix.getrandom(8)))
    pid = posix.fork()
    if pid == 0:
        posix._exit(5)
    r = posix.waitid(posix.P_PID, pid, posix.WEXITED)
    print("waitid", type(r).__name__, r.si_pid == pid, r.si_status, r.si_code == posix.CLD_EXITED)
    show_error("waitid none", posix.waitid, posix.P_ALL, 0, posix.WEXITED | posix.WNOHANG)
    print("ids", len(posix.getresuid()), len(posix.getresgid()), type(posix.getpriority(posix.PRIO_PROCESS, 0)).__name__)
    posix.sched_yield()
    print("sched", posix.sched_get_priority_min(posix.SCHED_FIFO) >= 1,
          posix.sched_getaffinity(0) >= {min(posix.sched_getaffinity(0))})
    fd = posix.open(p("xa"), posix.O_CREAT | posix.O_WRONLY, 0o600)
    posix.setxattr(p("xa"), "user.lazypy", b"value")
    print("xattr", posix.getxattr(p("xa"), "user.lazypy"), posix.listxattr(p("xa")),
          posix.getxattr(fd, b"user.lazypy"), posix.listxattr(fd))
    show_error("xattr create", posix.setxattr, p("xa"), "user.lazypy", b"v", posix.XATTR_CREATE)
    posix.removexattr(p("xa"), "user.lazypy")
    show_error("xattr removed", posix.getxattr, p("xa"), "user.lazypy")
    show_error("xattr type", posix.getxattr, p("xa"), 5)
    show_error("xattr fd nofollow", posix.getxattr, fd, "user.x", follow_symlinks=False)
    posix.close(fd)
    e = posix.eventfd(3)
    posix.eventfd_write(e, 4)
    print("eventfd", posix.get_inheritable(e), posix.eventfd_read(e))
    sem = posix.eventfd(2, posix.EFD_SEMAPHORE | posix.EFD_NONBLOCK)
    print("semaphore", posix.eventfd_read(sem), posix.eventfd_read(sem))
    show_error("semaphore empty", posix.eventfd_read, sem)
    show_error("eventfd negative", posix.eventfd_write, e, -1)
    posix.close(e)
    posix.close(sem)
    r, w = posix.pipe()
    r2, w2 = posix.pipe()
    posix.write(w, b"spliced")
    print("splice", posix.splice(r, w2, 7), posix.read(r2, 10))
    for fd in (r, w, r2, w2):
        posix.close(fd)
    c, t = posix.openpty()
    print("openpty", posix.isatty(c), posix.isatty(t), posix.ttyname(t).startswith("/dev/pts/"),
          posix.get_inheritable(c))
    posix.close(c)
    posix.close(t)


def test_path_helpers():
    print("-- path helpers")
    for case in ["", "/", "//", "///", ".", "..", "/..", "//..", "a/..", "../a", "a/../..",
                 "/a/../..", "//a//b/", "./", "a/./b/../../..", "/./a/", "a\0b/../c", "\xe9/./x"]:
        print(repr(case), repr(posix._path_normpath(case)), repr(posix._path_normpath(case.encode())),
              posix._path_splitroot_ex(case), posix._path_splitroot_ex(case.encode()))
    print(posix._path_normpath(P("a/b/..")), posix._path_splitroot_ex(P(b"//x")))
    show_error("normpath type", posix._path_normpath, 5)
    show_error("splitroot type", posix._path_splitroot_ex, None)


class P:
    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


def test_errors():
    print("-- errors")
    show_error("missing", posix.stat, p("missing"))
    show_error("missing bytes", posix.stat, p("missing").encode())
    show_error("missing open", posix.open, p("missing"), posix.O_RDONLY)
    show_error("rename", posix.rename, p("missing"), p("other"))
    show_error("link", posix.link, p("missing"), p("other"))
    show_error("symlink exists", posix.symlink, "x", BASE)
    show_error("mkdir exists", posix.mkdir, BASE)
    show_error("rmdir file", posix.rmdir, p("a.txt"))
    show_error("listdir file", posix.listdir, p("a.txt"))
    show_error("scandir missing", posix.scandir, p("missing"))
    show_error("chdir missing", posix.chdir, p("missing"))
    show_error("readlink plain", posix.readlink, p("a.txt"))
    show_error("bad fd read", posix.read, 9999, 1)
    show_error("bad fd write", posix.write, 9999, b"x")
    show_error("bad fd close", posix.close, 9999)
    show_error("bad fd fstat", posix.fstat, 9999)
    show_error("bad fd stat", posix.stat, 9999)
    show_error("bad fd lseek", posix.lseek, 9999, 0, 0)
    show_error("bad fd dup", posix.dup, 9999)
    show_error("bad fd inheritable", posix.get_inheritable, 9999)
    show_error("negative read", posix.read, 0, -1)
    show_error("kill missing", posix.kill, 999999999, 0)
    show_error("bool flags", posix.open, p("missing"), False)
    show_error("type stat", posix.stat, [1])
    show_error("type stat None", posix.stat, None)
    show_error("type lstat int", posix.lstat, 3)
    show_error("type listdir", posix.listdir, 1.5)
    show_error("type read", posix.read, "x", 1)
    show_error("type write", posix.write, 1, "text")
    show_error("type dir_fd", posix.stat, "x", dir_fd=1.5)
    show_error("nul", posix.stat, "a\0b")
    show_error("dir_fd with fd", posix.stat, 3, dir_fd=3)
    show_error("mixed rename", posix.rename, "a", b"b")
    show_error("utime both", posix.utime, p("a.txt"), (1, 2), ns=(1, 2))
    show_error("utime shape", posix.utime, p("a.txt"), (1,))
    show_error("utime nan", posix.utime, p("a.txt"), (float("nan"), 0))
    show_error("utime huge", posix.utime, p("a.txt"), (1e300, 0))
    show_error("utime huge int", posix.utime, p("a.txt"), (2**70, 0))
    posix.utime(p("a.txt"), (-1.5, 0.25))
    print("utime negative", posix.stat(p("a.txt")).st_atime_ns, posix.stat(p("a.txt")).st_mtime_ns)
    r, w = posix.pipe()
    posix.closerange(r, w + 1)
    show_error("closerange", posix.fstat, w)
    posix.closerange(5, 2)
    show_error("fspath int", posix.fspath, 1)
    print("fspath", posix.fspath("s"), posix.fspath(b"b"), posix.fspath(P("pl")), posix.fspath(P(b"pb")))
    show_error("fspath bad return", posix.fspath, P(3))
    print("pathlike stat", posix.stat(P(p("a.txt"))).st_size)
    show_error("pathlike missing", posix.stat, P(p("missing")))
    show_error("keyword", posix.stat, p("a.txt"), bogus=1)
    show_error("urandom negative", posix.urandom, -1)


UMASK = posix.umask(0o022)
posix.umask(UMASK)
cleanup(BASE)
posix.mkdir(BASE)
try:
    test_stat()
    test_dirs()
    test_names()
    test_fds()
    test_environ()
    test_process()
    test_errors()
    test_extras()
    test_path_helpers()
finally:
    cleanup(BASE)
print("cleaned", posix.access(BASE, posix.F_OK))
