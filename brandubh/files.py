"""Files written whole or not at all, and read within a bound: the one
place where the package touches a file a person named.

:func:`write_whole` writes a new version beside the old one and moves it
over the old only once it is all on the disk, so a full disk, a crash or
Ctrl-C leaves the old file as it was. It writes through a symbolic link to
its target (the link stays a link), and refuses a target that is not a
regular file (a device such as ``/dev/full``, a folder, a pipe), which a
rename would silently replace. :func:`check_writable` says the same things
before a long run rather than after it. :func:`read_text` reads at most so
many bytes, so ``/dev/zero`` or a huge file is refused, not read until the
memory runs out.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), 'game.txt')
>>> write_whole(path, 'variant brandubh\\nmoves\\n')
>>> read_text(path, limit=100)
'variant brandubh\\nmoves\\n'
>>> write_whole('/dev/null', 'x')
Traceback (most recent call last):
...
brandubh.errors.ArgumentError: cannot write '/dev/null': it is not a regular file (a device, a folder or a pipe); give the name of a file
"""

from __future__ import annotations

import os
import secrets
import stat
from typing import Union

from .errors import ArgumentError, quote

__all__ = ["write_whole", "check_writable", "read_text", "READ_LIMIT"]

#: The most bytes :func:`read_text` reads unless told otherwise: a game
#: file, a weights file, a list of openings are a few kilobytes to a few
#: megabytes.
READ_LIMIT = 64 << 20

PathLike = Union[str, "os.PathLike[str]"]


def _target(path: PathLike) -> str:
    """Where a write to ``path`` lands: the file a link points to, else the
    path itself; an ArgumentError for what cannot be written whole."""
    where = os.fspath(path)
    if "\0" in where:
        raise ArgumentError(f"cannot write {quote(where, 200)}: a file name has no NUL character")
    real = os.path.realpath(where) if os.path.islink(where) else where
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise ArgumentError(f"cannot write {quote(where, 200)}: {error.strerror or error}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise ArgumentError(f"cannot write {quote(where, 200)}: it is not a regular file (a device, a folder "
                            "or a pipe); give the name of a file")
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        raise ArgumentError(f"cannot write {quote(where, 200)}: there is no folder {quote(folder, 200)}")
    return real


def check_writable(path: PathLike) -> None:
    """An ArgumentError now, before a long run, for a path that
    :func:`write_whole` would refuse or could not write to (its folder not
    writable); nothing is created."""
    real = _target(path)
    folder = os.path.dirname(real) or "."
    if not os.access(folder, os.W_OK):
        raise ArgumentError(f"cannot write {quote(os.fspath(path), 200)}: the folder {quote(folder, 200)} "
                            "is not writable")


def write_whole(path: PathLike, data: Union[str, bytes]) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all: the
    old file, if any, is untouched unless the new one is complete. An
    :class:`~brandubh.errors.ArgumentError` with a sentence when it cannot
    be written (the reason the system gave)."""
    real = _target(path)
    body = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    folder = os.path.dirname(real) or "."
    try:
        old_mode = stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        old_mode = None
    tmp = None
    try:
        # A new name beside the target (the same file system, so the rename
        # is atomic), made with the usual mode less the umask.
        for _ in range(100):
            name = os.path.join(folder, f".{os.path.basename(real)}.{secrets.token_hex(4)}.tmp")
            try:
                fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:  # pragma: no cover - one chance in 2**32
                continue
            tmp = name
            break
        else:  # pragma: no cover
            raise FileExistsError("no free temporary name")
        with os.fdopen(fd, "wb") as f:
            f.write(body)
            f.flush()
            os.fsync(f.fileno())
        if old_mode is not None:
            os.chmod(tmp, old_mode)
        os.replace(tmp, real)
        tmp = None
    except OSError as error:
        raise ArgumentError(f"cannot write {quote(os.fspath(path), 200)}: {error.strerror or error}; "
                            "nothing was changed") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def read_text(path: PathLike, limit: int = READ_LIMIT, what: str = "file") -> str:
    """The text of ``path`` (``'-'``: standard input), UTF-8, read up to
    ``limit`` bytes: an :class:`~brandubh.errors.ArgumentError` for one that
    is larger (``/dev/zero`` among them), cannot be read, or is not UTF-8
    text. ``what`` names the file in the sentence (``'game file'``)."""
    import sys

    where = os.fspath(path)
    try:
        if where == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a stream of text (a test's, a notebook's)
                text = sys.stdin.read(limit + 1)
                if len(text) > limit:
                    raise ArgumentError(f"the {what} on standard input is larger than {limit:,} "
                                        f"characters: it is not a {what}")
                return text
            raw = stream.read(limit + 1)
        else:
            if "\0" in where:
                raise ArgumentError(f"cannot read {quote(where, 200)}: a file name has no NUL character")
            with open(where, "rb") as f:
                raw = f.read(limit + 1)
    except OSError as error:
        raise ArgumentError(f"cannot read the {what} {quote(where, 200)}: {error.strerror or error}") from None
    if len(raw) > limit:
        raise ArgumentError(f"the {what} {quote(where, 200)} is larger than {limit:,} bytes: "
                            f"it is not a {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ArgumentError(f"the {what} {quote(where, 200)} is not UTF-8 text") from None
