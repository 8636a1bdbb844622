# The errno module: names as ints, errorcode as the reverse mapping, and
# the OSError subclass each number selects.
import errno

names = sorted(n for n in dir(errno) if n.startswith("E"))
print(len(names) > 100, all(type(getattr(errno, n)) is int for n in names))
for n in ["EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "EBADF", "ECHILD", "EAGAIN", "ENOMEM",
          "EACCES", "EEXIST", "ENOTDIR", "EISDIR", "EINVAL", "EMFILE", "ENOSPC", "EPIPE",
          "ERANGE", "ENOSYS", "ENOTEMPTY", "ELOOP", "ETIMEDOUT", "ECONNREFUSED"]:
    print(n, getattr(errno, n), errno.errorcode[getattr(errno, n)])
print(type(errno.errorcode).__name__, all(getattr(errno, v) == k for k, v in errno.errorcode.items()))
print("aliases", errno.EWOULDBLOCK == errno.EAGAIN, errno.errorcode[errno.EWOULDBLOCK],
      errno.EDEADLOCK == errno.EDEADLK, errno.errorcode[errno.EDEADLK],
      errno.ENOTSUP == errno.EOPNOTSUPP, errno.errorcode[errno.ENOTSUP])
print("every name mapped", all(getattr(errno, n) in errno.errorcode for n in names))
for code in [errno.ENOENT, errno.EEXIST, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENOTDIR,
             errno.EAGAIN, errno.ECHILD, errno.ESRCH, errno.EINTR, errno.EPIPE, errno.ETIMEDOUT,
             errno.ECONNREFUSED, errno.EBADF]:
    e = OSError(code, "msg")
    print(errno.errorcode[code], type(e).__name__, e.errno)
try:
    errno.ENOTANAME
except AttributeError as e:
    print("AttributeError", e)
