"""Files written whole or not at all, and read within a bound: the one
place where the package touches a file a person named.

:func:`write_whole` writes a new version beside the old one and moves it
over the old only once it is all on the disk, so a full disk, a crash or
Ctrl-C leaves the old file as it was. It writes through a symbolic link to
its target (the link stays a link), and refuses a target that is not a
regular file (a device such as ``/dev/full``, a folder, a pipe), which a
rename would silently replace. :class:`WholeFile` is the same for a file
written a piece at a time (a header filled in at the end, games appended
after the first). :func:`check_writable` says the same things before a
long run rather than after it.

:func:`open_regular` opens a file to read only once it is known to be a
regular file, so a pipe with no writer (a FIFO), a device or a folder is
refused with a sentence rather than waited on for ever; :func:`read_text`
reads through it at most so many bytes, so a huge file is refused, not read
until the memory runs out.

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
from typing import Any, BinaryIO, Optional, Union

from .errors import ArgumentError, quote

__all__ = ["WholeFile", "write_whole", "check_writable", "open_regular", "read_text", "READ_LIMIT"]

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


class WholeFile:
    """A new version of ``path`` being written beside it, put in its place
    whole by :meth:`commit` (on the disk first: flushed and synced), or
    thrown away by :meth:`discard`: the old file, if any, is untouched until
    the new one is complete. ``file`` is the new version, open for writing
    bytes (and seeking, to fill in a header at the end). Refused at once,
    with an :class:`~brandubh.errors.ArgumentError`, where
    :func:`write_whole` refuses.

    As a context manager it commits at the end of the block, and discards
    when the block raises; an ``OSError`` there (a full disk) becomes an
    ArgumentError saying that nothing was changed. After :meth:`commit`
    the file stays open, now the file at ``path``, for whatever is appended
    to it (``brandubh match --games-out``).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), 'data.bin')
    >>> with WholeFile(path) as new:
    ...     _ = new.file.write(b'header, then records')
    >>> open(path, 'rb').read()
    b'header, then records'
    """

    def __init__(self, path: PathLike) -> None:
        self.path = os.fspath(path)
        self.real = _target(path)
        folder = os.path.dirname(self.real) or "."
        try:
            self._old_mode: Optional[int] = stat.S_IMODE(os.stat(self.real).st_mode)
        except OSError:
            self._old_mode = None
        self.tmp: Optional[str] = None
        try:
            # A new name beside the target (the same file system, so the
            # rename is atomic), made with the usual mode less the umask.
            for _ in range(100):
                name = os.path.join(folder, f".{os.path.basename(self.real)}.{secrets.token_hex(4)}.tmp")
                try:
                    fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
                except FileExistsError:  # pragma: no cover - one chance in 2**32
                    continue
                self.tmp = name
                break
            else:  # pragma: no cover
                raise FileExistsError("no free temporary name")
        except OSError as error:
            raise self._error(error) from None
        self.file: BinaryIO = os.fdopen(fd, "w+b")
        self.committed = False

    def _error(self, error: OSError) -> ArgumentError:
        return ArgumentError(f"cannot write {quote(self.path, 200)}: {error.strerror or error}; "
                             "nothing was changed")

    def commit(self) -> None:
        """Put the new version in the old one's place (its mode kept); an
        ArgumentError, the new version thrown away, when that fails."""
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            if self._old_mode is not None:
                os.chmod(self.file.fileno(), self._old_mode)
            assert self.tmp is not None
            os.replace(self.tmp, self.real)
        except OSError as error:
            self.discard()
            raise self._error(error) from None
        self.tmp = None
        self.committed = True

    def discard(self) -> None:
        """Throw the new version away (closed and removed); the old file is
        as it was. Nothing happens after :meth:`commit`."""
        if self.committed:
            return
        try:
            self.file.close()
        except OSError:  # what is left in its buffer is thrown away with it
            pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None

    def close(self) -> None:
        """Close the file: after :meth:`commit`, the file at the path; before
        it, the new version is thrown away."""
        if self.committed:
            self.file.close()
        else:
            self.discard()

    def __enter__(self) -> "WholeFile":
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if kind is None:
            try:
                self.commit()
            finally:
                self.file.close()
            return
        self.discard()
        if isinstance(error, OSError):
            raise self._error(error) from None


def write_whole(path: PathLike, data: Union[str, bytes]) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all: the
    old file, if any, is untouched unless the new one is complete
    (:class:`WholeFile`). An :class:`~brandubh.errors.ArgumentError` with a
    sentence when it cannot be written (the reason the system gave)."""
    body = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    with WholeFile(path) as new:
        new.file.write(body)


def open_regular(path: PathLike, what: str = "file") -> BinaryIO:
    """``path`` open for reading bytes, once it is known to be a regular
    file: a pipe with no writer (a FIFO), a device or a folder is refused
    with an :class:`~brandubh.errors.ArgumentError`, never waited on or read
    for ever. ``what`` names the file in the sentence."""
    where = os.fspath(path)
    if "\0" in where:
        raise ArgumentError(f"cannot read {quote(where, 200)}: a file name has no NUL character")
    try:
        # Opened without waiting (a FIFO's open waits for a writer), then
        # asked what it is: the file itself, so nothing can swap it between.
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise ArgumentError(f"cannot read the {what} {quote(where, 200)}: {error.strerror or error}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ArgumentError(f"cannot read the {what} {quote(where, 200)}: it is not a regular file (a pipe, "
                                "a device or a folder); give the name of a file, or '-' for standard input")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text(path: PathLike, limit: int = READ_LIMIT, what: str = "file") -> str:
    """The text of ``path`` (``'-'``: standard input), UTF-8, read up to
    ``limit`` bytes: an :class:`~brandubh.errors.ArgumentError` for one that
    is larger, is not a regular file (:func:`open_regular`: a FIFO, a device
    such as ``/dev/zero``, a folder), cannot be read, or is not UTF-8 text. ``what`` names the file in the sentence (``'game file'``)."""
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
            with open_regular(where, what) as f:
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
