"""Sphinx's configuration of the documentation site: ``tools/build-docs OUT``.

The guides are this folder's Markdown pages, read by myst-parser as they are
(GitHub renders the same files, so they link each other with relative ``.md``
links, headings by GitHub's anchors). The API reference is written from the
package at every build, into ``api/`` here (git ignores it): a page for each
name of ``brandubh.__all__``, one for each module that a guide or the README
names, and an index. No module path is listed by hand, so a rename needs no
change here, and a guide that names a module that is gone fails the build
(``tests/test_docs_site.py``).

Every warning is an error (``-W``), and references are checked (nitpicky):
a name in a docstring or a signature must name a real object. One the site
describes links to its description, under whichever name it is described
(``brandubh.core.record.Rules`` is ``brandubh.Rules``); a real one with no
description (the standard library's, an attribute an ``__init__`` sets) is
shown as code; any other fails.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# The package of this checkout, not another one installed elsewhere.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import brandubh  # noqa: E402
from brandubh.files import write_whole  # noqa: E402

project = "brandubh"
author = "the brandubh authors"
copyright = "the brandubh authors"
release = version = brandubh.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build"]

# The guides link headings by the anchors GitHub makes (``#one-interface``).
myst_heading_anchors = 6
nitpicky = True
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
# The tables of the index only: the pages are written below.
autosummary_generate = False

html_theme = "alabaster"
html_title = f"brandubh {release}"
# The guides' tables are wide (docs/reliability.md's has three long columns).
html_theme_options = {"page_width": "min(1240px, 100%)", "sidebar_width": "250px"}

API = "api"
"""The folder of the generated pages, under this one."""
GUIDES = sorted(HERE.glob("*.md")) + [ROOT / "README.md"]
DOTTED = re.compile(r"\bbrandubh(?:\.[A-Za-z_]\w*)+")
PACKAGE = brandubh.__name__


# ---------------------------------------------------------------- the pages


@functools.lru_cache(maxsize=None)
def is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent that is a module, not a package
        return False


def named_modules() -> list[str]:
    """The package's public modules that the guides or the README name, each
    the longest module of a dotted name (``brandubh.views.svg.board`` names
    ``brandubh.views.svg``)."""
    found = set()
    for path in GUIDES:
        for match in DOTTED.finditer(path.read_text(encoding="utf-8")):
            parts = match.group(0).split(".")
            for end in range(len(parts), 1, -1):
                name = ".".join(parts[:end])
                if is_module(name):
                    if not any(part.startswith("_") for part in parts[:end]) and not kept_for_old_code(name):
                        found.add(name)
                    break
    return sorted(found)


def kept_for_old_code(name: str) -> bool:
    """A module kept at its old path for one release (it calls
    ``brandubh.deprecation.moved_module``): the guides may name it, as the
    changelog does, but it has no page of its own; its new home has."""
    spec = importlib.util.find_spec(name)
    origin = spec.origin if spec is not None else None
    return bool(origin and origin.endswith(".py")
                and "moved_module(__name__" in Path(origin).read_text(encoding="utf-8"))


def one_thing(value: Any) -> bool:
    """Whether two names of ``value`` name one thing: a class, a function or
    a module. Two names of one value (a string, a number) are two things."""
    return inspect.isclass(value) or inspect.isroutine(value) or inspect.ismodule(value)


def members(module: Any) -> list[str]:
    """The names ``automodule`` describes: the module's ``__all__``, or the
    public names it defines."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [name for name, value in vars(module).items()
                 if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__]
    return list(names)


def describe(name: str, value: Any) -> str:
    """The autodoc directive that describes ``value`` as ``name``."""
    if inspect.isclass(value):
        kind = "autoexception" if issubclass(value, BaseException) else "autoclass"
    else:
        kind = "autofunction" if inspect.isroutine(value) else "autodata"
    # A long value (a table of rule sets) says less than its docstring.
    plain = kind != "autodata" or isinstance(value, (str, int, float))
    return f".. {kind}:: {name}\n" + ("" if plain else "   :no-value:\n")


def title(text: str, underline: str = "=") -> str:
    return f"{text}\n{underline * len(text)}\n\n"


def api_pages() -> dict[str, str]:
    """The generated pages, file name -> text: one for each name of
    ``brandubh.__all__``, one for each module the guides name, and the
    index. Each object is described once: on its own page if it is one of
    ``brandubh``'s names, else on the page of the module that defines it, else
    on the first page (in name order) whose module exports it."""
    names = list(brandubh.__all__)
    modules = {name: importlib.import_module(name) for name in named_modules()}
    owner = {id(getattr(brandubh, name)): PACKAGE for name in names if one_thing(getattr(brandubh, name))}
    for name, module in modules.items():
        for member in members(module):
            value = getattr(module, member, None)
            if one_thing(value) and getattr(value, "__module__", None) == name:
                owner.setdefault(id(value), name)
    pages = {}
    for name in names:
        pages[f"{PACKAGE}.{name}.rst"] = (title(f"{PACKAGE}.{name}") + f".. currentmodule:: {PACKAGE}\n\n"
                                          + describe(name, getattr(brandubh, name)))
    for name, module in modules.items():
        elsewhere = [member for member in members(module) if one_thing(getattr(module, member, None))
                     and owner.setdefault(id(getattr(module, member)), name) != name]
        options = f"   :exclude-members: {', '.join(elsewhere)}\n" if elsewhere else ""
        pages[f"{name}.rst"] = title(name) + f".. automodule:: {name}\n{options}"
    pages["index.rst"] = (
        title("API reference") + f".. automodule:: {PACKAGE}\n   :no-members:\n\n"
        + title(f"The names of ``{PACKAGE}``", "-") + ".. autosummary::\n\n"
        + "".join(f"   {name}\n" for name in names)
        + "\n" + title("The modules the guides name", "-") + ".. currentmodule:: None\n\n"
        + ".. autosummary::\n\n" + "".join(f"   {name}\n" for name in modules)
        + "\n.. toctree::\n   :hidden:\n\n"
        + "".join(f"   {PACKAGE}.{name}\n" for name in names) + "".join(f"   {name}\n" for name in modules))
    return pages


SPHINX_PAGES = ("search", "genindex", "py-modindex")
"""The pages Sphinx writes itself: a guide of one of these names would be
written over, without a warning (so the guide of the search is
searching.md)."""


def write_api(app: Any) -> None:
    """Sphinx's ``builder-inited``: the generated pages written (only those
    that changed, so that Sphinx reads only those again), and any page
    of an earlier build that is no longer generated removed."""
    from sphinx.util import logging

    for path in GUIDES:
        if path.parent == Path(app.srcdir) and path.stem in SPHINX_PAGES:
            logging.getLogger(__name__).warning(
                f"{path.name}: Sphinx writes a page of that name itself, over the guide; rename the guide")
    folder = Path(app.srcdir) / API
    folder.mkdir(exist_ok=True)
    pages = api_pages()
    for old in folder.glob("*.rst"):
        if old.name not in pages:
            old.unlink()
    for name, text in pages.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            # Whole, so that a second build at the same time never reads
            # half a page.
            write_whole(path, text)


# --------------------------------------------------------------- docstrings


def attribute_doc(name: str, value: Any) -> list[str]:
    """The documentation of a name of the package that holds a value, as the
    module that defines it writes it (``#:`` before it, or a string after
    it): ``brandubh.ATTACKERS`` is documented where it is set."""
    from sphinx.pycode import ModuleAnalyzer

    short = name.rpartition(".")[2]
    for module_name in sorted(sys.modules):
        module = sys.modules[module_name]
        if module_name.partition(".")[0] != PACKAGE or getattr(module, short, None) is not value:
            continue
        try:
            docs = ModuleAnalyzer.for_module(module_name).find_attr_docs()
        except Exception:  # a module with no source (the compiled engine)
            continue
        if ("", short) in docs:
            return list(docs[("", short)])
    return []


def inherited_from_elsewhere(name: str, obj: Any) -> bool:
    """Whether ``obj``, a method described as ``name``, has no docstring of
    its own and the one it inherits is another project's (Gymnasium's,
    written in that project's format)."""
    owner = lookup(name.rpartition(".")[0])
    if not inspect.isclass(owner) or getattr(obj, "__doc__", None) or not inspect.isroutine(obj):
        return False
    short = name.rpartition(".")[2]
    for klass in inspect.getmro(owner):
        if getattr(vars(klass).get(short), "__doc__", None):
            return klass.__module__.partition(".")[0] != PACKAGE
    return False


ROLE = re.compile(r":(\w+):`([\w.]+)(\(\))?`")
"""A reference in a docstring with no title of its own: ``:data:`SETUP```."""


def home_names(obj: Any, lines: list[str]) -> None:
    """A docstring's references read where it is written: a name of the
    module that defines ``obj`` (``:data:`SETUP``` in a function that
    ``brandubh.records`` describes and ``brandubh.records.text`` defines)
    is given its full name, shown as written."""
    home = obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", None)
    if not isinstance(home, str) or home.partition(".")[0] != PACKAGE:
        return

    def qualified(match: re.Match) -> str:
        role, target, call = match.group(1), match.group(2), match.group(3) or ""
        if target.partition(".")[0] == PACKAGE or lookup(f"{home}.{target}") is None:
            return match.group(0)
        return f":{role}:`{target}{call} <{home}.{target}>`"

    lines[:] = [ROLE.sub(qualified, line) for line in lines]


def docstring(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Sphinx's ``autodoc-process-docstring``. A method with no docstring of
    its own shows no other project's. A value's docstring that is its type's
    (``str``'s for a string) says nothing of the value: the documentation of
    the name where it is set instead. The references of the others are read
    where they are written (:func:`home_names`)."""
    if inherited_from_elsewhere(name, obj):
        lines[:] = []
        return
    if what in ("data", "attribute") and not inspect.isclass(obj) and not inspect.isroutine(obj):
        doc = type(obj).__doc__
        own = inspect.cleandoc(doc).splitlines() if isinstance(doc, str) else []
        if not lines or [line for line in lines if line] == [line for line in own if line]:
            lines[:] = attribute_doc(name, obj)
    home_names(obj, lines)


def plain_defaults(app: Any, what: str, name: str, obj: Any, options: Any, signature: Optional[str],
                   annotation: Optional[str]) -> Optional[tuple[Optional[str], Optional[str]]]:
    """Sphinx's ``autodoc-process-signature``: a default shown as a repr that
    is not Python (a dataclass field's ``<factory>``) as ``...``, so that the
    signature parses as Python and its types link."""
    if signature and "=<" in signature.replace(" ", ""):
        return re.sub(r"=\s*<[^<>]*>", "=...", signature), annotation
    return None


# --------------------------------------------------------------- references


class Attribute:
    """What :func:`lookup` finds for an attribute that a class's annotations
    declare or its ``__init__`` sets: a name, with no object to show."""


@functools.lru_cache(maxsize=None)
def lookup(dotted: str) -> Any:
    """The object a dotted name names (a module, or an attribute of one,
    followed through classes), or None."""
    parts = dotted.split("[")[0].split(".")  # os.PathLike[str] is os.PathLike
    for end in range(len(parts), 0, -1):
        if not all(parts[:end]) or not is_module(".".join(parts[:end])):
            continue
        value: Any = importlib.import_module(".".join(parts[:end]))
        for part in parts[end:]:
            if hasattr(value, part):
                value = getattr(value, part)
            elif inspect.isclass(value) and declared(value, part):
                value = Attribute()
            else:
                return None
        return value
    return getattr(__import__("builtins"), dotted, None)


def declared(cls: type, name: str) -> bool:
    """Whether instances of ``cls`` have an attribute ``name`` that the class
    itself does not hold: one its annotations declare or an ``__init__``
    of it sets (``self.name = ...``)."""
    for klass in inspect.getmro(cls):
        init = getattr(vars(klass).get("__init__"), "__code__", None)
        if name in vars(klass).get("__annotations__", {}) or name in getattr(init, "co_names", ()):
            return True
    return False


def find(node: Any) -> Any:
    """The object a Python reference names, the nearest first: inside its
    class, in its module, in the module that really defines that class (a
    name of ``brandubh`` is defined in a submodule), as written; then a bare
    name that one module of the package holds (a type alias in a signature).
    None when nothing is found."""
    target = node["reftarget"].lstrip(".~")
    module, cls = node.get("py:module"), node.get("py:class")
    scopes = []
    if module and cls:
        scopes.append(f"{module}.{cls}")
        owner = lookup(f"{module}.{cls}")
        home = getattr(owner, "__module__", None)
        if isinstance(home, str):
            scopes += [f"{home}.{getattr(owner, '__qualname__', cls)}", home]
    if module:
        scopes.append(module)
    for name in [f"{scope}.{target}" for scope in scopes] + [target]:
        value = lookup(name)
        if value is not None:
            return value
    if "." not in target:
        held = {id(value): value for name, module_ in sorted(sys.modules.items())
                if name.partition(".")[0] == PACKAGE
                for value in [getattr(module_, target, None)] if value is not None}
        if len(held) == 1:
            return next(iter(held.values()))
    return None


DESCRIBED: dict[int, str] = {}
"""What :func:`described` found, for this process: ids mean nothing in
another one, so it is not kept in Sphinx's (pickled) environment."""


def described(env: Any) -> dict[int, str]:
    """The things the site describes (:func:`one_thing`), by identity: id ->
    the full name of their description. Read once all the pages are read."""
    if not DESCRIBED:
        for name in list(env.domaindata["py"]["objects"]) + list(env.domaindata["py"]["modules"]):
            value = lookup(name)
            if one_thing(value):
                DESCRIBED.setdefault(id(value), name)
    return DESCRIBED


def forget_described(app: Any, env: Any) -> None:
    """Sphinx's ``env-updated``: the pages were read again, so what they
    describe is asked again."""
    DESCRIBED.clear()


FILE_SUFFIXES = ("c", "css", "h", "html", "ini", "js", "json", "md", "otg", "png", "py", "sqlite", "svg", "txt",
                 "wasm")
"""``brandubh.js``, ``brandubh.wasm``: code in a guide that names a file, not
a module."""
NAMED = re.compile(r"(brandubh(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?", re.S)


def not_a_name(dotted: str) -> bool:
    """Whether code written as a name of the package is something else: a
    file (``brandubh.wasm``), or a name with a placeholder in capitals that
    the package does not have (``brandubh.NAME.driver``)."""
    parts = dotted.split(".")
    if len(parts) == 2 and parts[1] in FILE_SUFFIXES:
        return True
    return any(part.isupper() and lookup(".".join(parts[: end + 1])) is None
               for end, part in enumerate(parts[:-1]) if end)


def link_names(app: Any, doctree: Any) -> None:
    """Sphinx's ``doctree-read``, for the guides: code that is a name of the
    package (`` `brandubh.views.svg.board` ``, or a call of it) links to the
    name's description, or is left as code where it has none; a name that is
    not in the package fails the build (a guide left behind by a rename)."""
    from docutils import nodes
    from sphinx.addnodes import pending_xref
    from sphinx.util import logging

    docname = app.env.docname
    if not app.env.doc2path(docname).suffix == ".md":
        return
    for literal in list(doctree.findall(nodes.literal)):
        match = NAMED.fullmatch(literal.astext())
        if not match or not_a_name(match.group(1)) or isinstance(literal.parent, (nodes.reference, pending_xref)):
            continue
        if lookup(match.group(1)) is None:
            logging.getLogger(__name__).warning(
                f"the guide names {match.group(1)}, which is not in the package (a file named so: its suffix "
                "goes in FILE_SUFFIXES in docs/conf.py)", location=literal)
            continue
        xref = pending_xref("", refdomain="py", reftype="obj", reftarget=match.group(1), refexplicit=True,
                            refdoc=docname)
        literal.replace_self(xref)
        xref += literal


def setup(app: Any) -> None:
    from sphinx.addnodes import pending_xref
    from sphinx.transforms.post_transforms import SphinxPostTransform

    class Qualify(SphinxPostTransform):
        """Each Python reference to an object the site describes pointed at
        that description by its full name, before Sphinx resolves it: so
        that Sphinx neither misses it (``brandubh.core.record.Rules`` is
        described as ``brandubh.Rules``) nor guesses between two things of
        one name (two ``GameRecord``s)."""

        default_priority = 5  # before sphinx's ReferencesResolver (10)

        def run(self, **kwargs: Any) -> None:
            for node in self.document.findall(pending_xref):
                if node.get("refdomain") != "py":
                    continue
                value = find(node)
                if value is None:
                    continue  # left to Sphinx: a broken reference warns
                home = described(self.env).get(id(value))
                if home is not None:
                    node["reftarget"] = home
                    node["reftype"] = "mod" if inspect.ismodule(value) else "obj"
                node.attributes.pop("refspecific", None)
                node["brandubh_found"] = True

    def shown_as_code(app: Any, env: Any, node: Any, contnode: Any) -> Any:
        """Sphinx's ``missing-reference``: a real object with no description
        of its own is shown as code; anything else keeps its warning."""
        return contnode if node.get("brandubh_found") else None

    app.add_post_transform(Qualify)
    app.connect("builder-inited", write_api)
    app.connect("missing-reference", shown_as_code)
    app.connect("autodoc-process-docstring", docstring)
    app.connect("autodoc-process-signature", plain_defaults)
    app.connect("doctree-read", link_names)
    app.connect("env-updated", forget_described)
