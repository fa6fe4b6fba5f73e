"""The shape of the device code (firmware/ and shared_rules/), read from its source: no two
modules import each other, however indirectly, and no module reaches into another's objects
(reads their private names or writes their attributes).  Each module owns its state; others
call its functions and methods.  Read with ast, nothing imported."""
import ast
import os

from stonegrid.build import repo_root

ROOT = repo_root()
TREES = ("firmware", "shared_rules")  # firmware/ holds the packages app, views, hal


def modules(root=ROOT):
    """{dotted name: path} of the device code: firmware/'s packages are at the flash's root,
    shared_rules/ is its own package."""
    out = {}
    for tree in TREES:
        base = os.path.join(root, tree)
        top = root if tree == "shared_rules" else base
        for folder, _, files in os.walk(base):
            for name in files:
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, name), top)[:-3]
                    dotted = rel.replace(os.sep, ".")
                    out[dotted[:-len(".__init__")] if dotted.endswith(".__init__")
                        else dotted] = os.path.join(folder, name)
    return out


def imports(tree, name, known):
    """The modules of `known` that module `name` imports, at its top or in a function.  A
    name taken from a package (`from app import VERSION`) ties to the package, not to one of
    its files, and is not followed: a package's __init__ is its face."""
    package = name if known.get(name, "").endswith("__init__.py") else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] + ("." + base if base else "")
            for a in node.names:
                if base + "." + a.name in known:
                    out.add(base + "." + a.name)
                elif base in known and not known[base].endswith("__init__.py"):
                    out.add(base)
    out.discard(name)
    return out


def loops(graph):
    """The import loops of {module: modules it imports}: each a sorted list of the modules
    that reach each other (strongly connected components of two or more)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def reaches(tree):
    """Where a module reaches into another's objects: (line, what) for each read of another
    object's private name (`g._board`, `from m import _x`) and each write of another object's
    attribute (`app.screen = ...`).  A module's own names are those it sets or reads on self
    or cls, and its classes' and functions' names: an object of its own class it may read
    and set (copy(), a scratch game)."""
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            own.add(node.name)
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.Assign):
                    own.update(t.id for t in item.targets if isinstance(t, ast.Name))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls"):
            own.add(node.attr)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [(node.lineno, "imports the private %s" % a.name) for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
        if not isinstance(node, ast.Attribute) or node.attr in own or (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            continue
        if isinstance(node.ctx, ast.Store):
            found.append((node.lineno, "writes %s" % ast.unparse(node)))
        elif node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append((node.lineno, "reads %s" % ast.unparse(node)))
    return sorted(found)


def parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def test_no_import_loops_in_the_device_code():
    known = modules()
    graph = dict((name, imports(parse(path), name, known)) for name, path in known.items())
    assert "app.core" in graph and "shared_rules.search" in graph  # the tree was read
    assert graph["app.core"] >= {"app.journal", "app.play", "app.session", "app.wire"}
    assert loops(graph) == []


def test_no_module_reaches_into_another_modules_objects():
    known = modules()
    found = ["%s:%d: %s" % (os.path.relpath(path, ROOT), line, what)
             for name, path in sorted(known.items()) for line, what in reaches(parse(path))]
    assert found == []


def test_the_checks_find_what_they_look_for():
    """Each check, given code that breaks its rule, says so (they can fail)."""
    known = {"p": "p/__init__.py", "p.a": "p/a.py", "p.b": "p/b.py", "p.c": "p/c.py"}
    graph = {"p.a": imports(ast.parse("from p import b\n"), "p.a", known),
             "p.b": imports(ast.parse("def f():\n    from p.c import x\n"), "p.b", known),
             "p.c": imports(ast.parse("import p.a\nfrom p import VERSION\n"), "p.c", known),
             "p": imports(ast.parse("def main():\n    from p.a import go\n"), "p", known)}
    assert loops(graph) == [["p.a", "p.b", "p.c"]]
    assert imports(ast.parse("from . import b\nfrom .c import y\n"), "p.a", known) == {
        "p.b", "p.c"}
    code = ("from m import _hidden\n"
            "class A:\n    def __init__(self, app):\n        self._mine = app._theirs\n"
            "        app.screen = None\n        self.x = 1\n"
            "    def copy(self, other):\n        other._mine = self._mine\n")
    assert [what for _, what in reaches(ast.parse(code))] == [
        "imports the private _hidden", "reads app._theirs", "writes app.screen"]
