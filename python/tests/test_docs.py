"""The examples of docs/python.md and of the module's docstrings, run."""
import doctest

import pytest

import layoutkit as lk


def test_docs_python_md(repo):
    path = repo / "docs" / "python.md"
    r = doctest.testfile(str(path), module_relative=False, globs={"lk": lk},
                         optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert r.attempted >= 10 and r.failed == 0


@pytest.mark.parametrize("name", ["Layout", "Swizzle", "ComposedLayout", "TileLayout",
                                  "LinearLayout", "Atom", "plan"])
def test_docstring_examples(name):
    obj = getattr(lk, name)
    finder = doctest.DocTestFinder(recurse=False)
    globs = dict(vars(lk))
    tests = finder.find(obj, name, globs=globs)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    attempted = 0
    for t in tests:
        runner.run(t)
        attempted += len(t.examples)
    assert attempted >= 1 and runner.failures == 0


def test_one_line_examples():
    """The 'Example: <expr> == <value>' line of each function's docstring."""
    checked = 0
    for name in dir(lk._layoutkit):
        doc = getattr(getattr(lk, name, None), "__doc__", None) or ""
        for line in doc.splitlines():
            if "Example: " not in line or " == " not in line:
                continue
            expr = line.split("Example: ", 1)[1].rstrip(".")
            assert eval(expr, dict(vars(lk))), f"{name}: {expr}"
            checked += 1
    assert checked >= 15


def test_draw_doctests():
    r = doctest.testmod(lk.draw, extraglobs=dict(vars(lk)))
    assert r.failed == 0
