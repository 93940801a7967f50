#!/usr/bin/env python3
"""Tries every write-type operation on a ccgfs mount and prints, per
operation, the errno it got; exits 1 when one succeeded or the mount's
listing or file bytes changed.  Usage: check_readonly.py MOUNTPOINT"""
import errno
import hashlib
import os
import sys


def snapshot(root):
    """Path, mode and size of every entry, and a hash of a few files."""
    seen = {}
    files = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(dirs + names):
            p = os.path.join(d, n)
            st = os.lstat(p)
            seen[p] = (st.st_mode, st.st_size, st.st_uid)
            if os.path.isfile(p) and len(files) < 20:
                files.append(p)
        if len(seen) > 2000:
            break
    for p in files:
        with open(p, "rb") as f:
            seen[p] += (hashlib.sha256(f.read(1 << 20)).hexdigest(),)
    return seen


def main():
    root = sys.argv[1]
    before = snapshot(root)
    afile = next(p for p in sorted(before) if os.path.isfile(p))
    adir = next(p for p in sorted(before) if os.path.isdir(p))
    new = os.path.join(root, "new-entry")
    ops = [
        ("create", lambda: os.open(new, os.O_CREAT | os.O_WRONLY, 0o644)),
        ("open O_WRONLY", lambda: os.open(afile, os.O_WRONLY)),
        ("open O_RDWR", lambda: os.open(afile, os.O_RDWR)),
        ("open O_TRUNC", lambda: os.open(afile, os.O_RDONLY | os.O_TRUNC)),
        ("mkdir", lambda: os.mkdir(new)),
        ("mknod", lambda: os.mkfifo(new)),
        ("unlink", lambda: os.unlink(afile)),
        ("rmdir", lambda: os.rmdir(adir)),
        ("rename", lambda: os.rename(afile, new)),
        ("rename dir", lambda: os.rename(adir, new)),
        ("chmod", lambda: os.chmod(afile, 0o777)),
        ("chown", lambda: os.chown(afile, 65534, 65534)),
        ("truncate", lambda: os.truncate(afile, 0)),
        ("setxattr", lambda: os.setxattr(afile, "user.x", b"1")),
        ("removexattr", lambda: os.removexattr(afile, "user.x")),
        ("link", lambda: os.link(afile, new)),
        ("symlink", lambda: os.symlink(afile, new)),
        ("utimens", lambda: os.utime(afile, (0, 0))),
        ("utimens now", lambda: os.utime(afile, None)),
    ]
    bad = 0
    for name, fn in ops:
        try:
            r = fn()
            if isinstance(r, int):
                os.close(r)
            print(f"{name}: SUCCEEDED")
            bad = 1
        except OSError as e:
            print(f"{name}: {errno.errorcode.get(e.errno, e.errno)}")
            if e.errno not in (errno.EROFS, errno.EACCES, errno.EPERM,
                               errno.ENOTSUP, errno.ENODATA):
                bad = 1
    # A write to a file opened for reading.
    fd = os.open(afile, os.O_RDONLY)
    try:
        os.write(fd, b"x")
        print("write to a read-only fd: SUCCEEDED")
        bad = 1
    except OSError as e:
        print(f"write to a read-only fd: {errno.errorcode.get(e.errno)}")
    finally:
        os.close(fd)
    if snapshot(root) != before:
        print("the mount changed")
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
