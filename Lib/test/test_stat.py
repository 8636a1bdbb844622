# _stat (and stat.py on top of it): file type tests, mode masks,
# filemode() and the constants.
import _stat
import stat

modes = {
    "dir": 0o040755, "file": 0o100644, "link": 0o120777, "chr": 0o020620,
    "blk": 0o060660, "fifo": 0o010644, "sock": 0o140755, "none": 0o000644,
}
tests = ["S_ISDIR", "S_ISREG", "S_ISLNK", "S_ISCHR", "S_ISBLK", "S_ISFIFO", "S_ISSOCK",
         "S_ISDOOR", "S_ISPORT", "S_ISWHT"]
for kind, mode in modes.items():
    print(kind, [t for t in tests if getattr(_stat, t)(mode)], oct(_stat.S_IMODE(mode)),
          oct(_stat.S_IFMT(mode)), _stat.filemode(mode), stat.filemode(mode))
for mode in [0o104755, 0o102755, 0o101777, 0o104644, 0o102640, 0o101776, 0o107000, 0o170777, 0]:
    print(oct(mode), _stat.filemode(mode))
print(_stat.S_IFMT(0o170777) == 0o170000, _stat.S_IMODE(0o177777))
for n in ["S_IFDIR", "S_IFCHR", "S_IFBLK", "S_IFREG", "S_IFIFO", "S_IFLNK", "S_IFSOCK",
          "S_IFDOOR", "S_IFPORT", "S_IFWHT", "S_ISUID", "S_ISGID", "S_ENFMT", "S_ISVTX",
          "S_IREAD", "S_IWRITE", "S_IEXEC", "S_IRWXU", "S_IRUSR", "S_IWUSR", "S_IXUSR",
          "S_IRWXG", "S_IRGRP", "S_IWGRP", "S_IXGRP", "S_IRWXO", "S_IROTH", "S_IWOTH",
          "S_IXOTH", "UF_NODUMP", "UF_IMMUTABLE", "UF_APPEND", "UF_OPAQUE", "UF_NOUNLINK",
          "UF_COMPRESSED", "UF_HIDDEN", "SF_ARCHIVED", "SF_IMMUTABLE", "SF_APPEND",
          "SF_NOUNLINK", "SF_SNAPSHOT", "ST_MODE", "ST_INO", "ST_DEV", "ST_NLINK", "ST_UID",
          "ST_GID", "ST_SIZE", "ST_ATIME", "ST_MTIME", "ST_CTIME"]:
    print(n, oct(getattr(_stat, n)), getattr(stat, n) == getattr(_stat, n))
print("stat uses _stat", stat.S_ISDIR is _stat.S_ISDIR, stat.filemode is _stat.filemode)
for bad in ["x", 1.5, None, -1, 2**40]:
    for f in [_stat.S_ISDIR, _stat.S_IMODE, _stat.filemode]:
        try:
            f(bad)
        except (TypeError, OverflowError) as e:
            print(f.__name__, repr(bad), type(e).__name__, e)
print(_stat.S_ISREG(True), _stat.filemode(0o100000 | 0o7777))
