"""The rewriter: a module's syntax tree with each operation done in a function of the module, at its line.

Operators (``a + b``, ``a += b``, ``-a``, ``a < b``, ``a[k] = v``, ``a[k] += v``, ``o.x += v``)
become calls of *site functions* compiled into the user's module at the operation's line.  A site
function performs the very operation (``return a + b``: the same dispatch, forward and reflected,
in a frame of the user's file, line and module globals, so NumPy's warnings keep their place); when
an operand may be NumPy's it also hands the operands and the outcome to the helpers
(:mod:`.numpy_helpers`), which compare.  Calls ``f(...)`` become ``w(f, site)(...)``: ``f`` itself
unless it is a NumPy function.  Python's order of evaluation is kept (``a[k] += f()`` reads
``a[k]`` before calling ``f``).

Pure: needs neither NumPy nor the namespaces.  Called by the import hook (:mod:`.hook`) and the
main-script runner (:mod:`.program`).
"""

from __future__ import annotations

import ast
import types

from .records import SITE_PREFIX

__all__ = ["HELPER", "compile_rewritten", "rewrite", "site_function"]

HELPER = "__array_api_promo_audit__"  # the builtin name the rewritten code calls

# -- the operations ----------------------------------------------------------------------------
_BINARY = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "truediv",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.MatMult: "matmul",
    ast.LShift: "lshift",
    ast.RShift: "rshift",
    ast.BitAnd: "and",
    ast.BitOr: "or",
    ast.BitXor: "xor",
}
_COMPARE = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}
_UNARY = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}
_SYMBOLS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "matmul": "@",
    "lshift": "<<",
    "rshift": ">>",
    "and": "&",
    "or": "|",
    "xor": "^",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "eq": "==",
    "ne": "!=",
    "neg": "-",
    "pos": "+",
    "invert": "~",
}
# Calls that read their caller's frame (a helper in between would change what they see).
_FRAME_READERS = frozenset({"super", "locals", "globals", "vars", "dir", "eval", "exec", "breakpoint", "__import__"})

# The site functions.  Defaults are bound when the module is defined (no lookups per call; a module's
# own global named ``type`` cannot interfere); ``__tracebackhide__`` hides them in pytest's reports.
# ``{h}`` is the helpers' builtin name, ``{s}`` the site (file and line), ``{k}`` the operation's name.
_TEMPLATES = {
    # (a signature that agreed before is looked up here, as the helpers key it: no call of theirs)
    "binary": """
def {name}(a, b, /, __tracebackhide__=True, _t=type, _p={h}.plain, _nd={h}.ndarray, _g={h}.agreed.get,
           _c={h}.binary, _e={h}.binary_error, _s={s}):
    ta = _t(a)
    tb = _t(b)
    if ta in _p and tb in _p:
        return a {op} b
    try:
        r = a {op} b
    except Exception as e:
        _e(_s, "{k}", a, b, e)
        raise
    f = _g(("{k}", (ta, a.dtype, a.ndim == 0) if ta is _nd else ta, (tb, b.dtype, b.ndim == 0) if tb is _nd else tb))
    if f is True:
        return r
    if f is not None:
        try:
            if ((a.item() if a.ndim == 0 else None) if ta is _nd else a, (b.item() if b.ndim == 0 else None) if tb is _nd else b) in f:
                return r
        except TypeError:
            pass
    return _c(_s, "{k}", a, b, r)
""",
    "unary": """
def {name}(a, /, __tracebackhide__=True, _t=type, _p={h}.plain, _c={h}.unary, _e={h}.unary_error, _s={s}):
    if _t(a) in _p:
        return {op}a
    try:
        r = {op}a
    except Exception as e:
        _e(_s, "{k}", a, e)
        raise
    return _c(_s, "{k}", a, r)
""",
    "inplace": """
def {name}(a, b, /, __tracebackhide__=True, _t=type, _p={h}.plain, _nd={h}.ndarray, _g={h}.agreed.get,
           _b={h}.inplace_before, _c={h}.inplace, _e={h}.inplace_error, _s={s}):
    ta = _t(a)
    tb = _t(b)
    if ta in _p and tb in _p:
        a {op}= b
        return a
    f = _g(("i{k}", (ta, a.dtype, a.ndim == 0) if ta is _nd else ta, (tb, b.dtype, b.ndim == 0) if tb is _nd else tb))
    if f is True:
        a {op}= b
        return a
    c = _b(_s, "{k}", a, b)
    try:
        a {op}= b
    except Exception as e:
        if c is not None:
            _e(c, e)
        raise
    return a if c is None else _c(c, a)
""",
    # o[k] op= v: o[k] is read before v is evaluated (item(o, k) returns a function of v)
    "item": """
def {name}(o, k, /, __tracebackhide__=True, _partial={h}.partial, _f={of}):
    return _partial(_f, o, k, o[k])
""",
    "item_of": """
def {name}(o, k, a, b, /, __tracebackhide__=True, _t=type, _nd={h}.ndarray, _b={h}.item_before, _c={h}.item,
           _e={h}.item_error, _s={s}):
    if _t(o) is not _nd:
        a {op}= b
        o[k] = a
        return
    c = _b(_s, "{k}", o, a, b)
    try:
        a {op}= b
        o[k] = a
    except Exception as e:
        if c is not None:
            _e(c, e)
        raise
    if c is not None:
        _c(c, a)
""",
    # o.x op= v: o.x is read before v is evaluated; the operation is the site's in-place function
    "attr": """
def {name}(o, n, /, __tracebackhide__=True, _partial={h}.partial, _getattr=getattr, _f={of}):
    return _partial(_f, o, n, _getattr(o, n))
""",
    "attr_of": """
def {name}(o, n, a, b, /, __tracebackhide__=True, _setattr=setattr, _i={inplace}):
    _setattr(o, n, _i(a, b))
""",
    "setitem": """
def {name}(v, o, k, /, __tracebackhide__=True, _t=type, _nd={h}.ndarray, _g={h}.agreed.get, _c={h}.setitem,
           _e={h}.setitem_error, _s={s}):
    if _t(o) is not _nd:
        o[k] = v
        return
    try:
        o[k] = v
    except Exception as e:
        _e(_s, o, v, e)
        raise
    tv = _t(v)
    if _g(("setitem", (_nd, o.dtype, o.ndim == 0), (tv, v.dtype, v.ndim == 0) if tv is _nd else tv)) is not True:
        _c(_s, o, v)
""",
    # f(...) for a NumPy function f: w(f, site) gives partial(site, f)
    "call": """
def {name}(f, /, *args, **kwargs):
    __tracebackhide__ = True
    c = {h}.call_before({s}, f, args, kwargs)
    try:
        r = f(*args, **kwargs)
    except Exception as e:
        if c is not None:
            {h}.call_error(c, e)
        raise
    return r if c is None else {h}.call(c, r)
""",
}
_TEMPLATES["compare"] = _TEMPLATES["binary"]


def _placed(node, like):
    """``node`` and its new parts (the ones with no place yet) at ``like``'s place: the rewriter's own
    nodes, placed as they are made rather than by a walk of the whole tree."""
    stack = [node]
    while stack:
        part = stack.pop()
        if getattr(part, "lineno", None) is not None and part is not node:
            continue  # a node of the user's, placed already
        part.lineno, part.col_offset = like.lineno, like.col_offset
        part.end_lineno = getattr(like, "end_lineno", like.lineno)
        part.end_col_offset = getattr(like, "end_col_offset", like.col_offset)
        stack.extend(c for c in ast.iter_child_nodes(part) if "lineno" in c._attributes)
    return node


def _helper(attribute: str) -> ast.Attribute:
    return ast.Attribute(ast.Name(HELPER, ast.Load()), attribute, ast.Load())


def _name(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Load())


def _index(node: ast.expr) -> ast.expr:
    """A subscript's index as an expression (``a[1:2]``'s slice: ``slice(1, 2, None)``)."""
    if isinstance(node, ast.Slice):
        parts = [p if p is not None else ast.Constant(None) for p in (node.lower, node.upper, node.step)]
        return ast.Call(_helper("slice"), parts, [])
    if isinstance(node, ast.Tuple) and any(isinstance(e, ast.Slice) for e in node.elts):
        return ast.Tuple([_index(e) for e in node.elts], ast.Load())
    return node


def _mangle(name: str, classes: list[str]) -> str:
    """``name`` as Python stores it inside the innermost class of ``classes`` (``__n`` -> ``_C__n``)."""
    if not classes or not name.startswith("__") or name.endswith("__") or "." in name:
        return name
    owner = classes[-1].lstrip("_")
    return f"_{owner}{name}" if owner else name


class _Rewriter(ast.NodeTransformer):
    """Operators, calls and item assignments of the user's code as calls of the site functions."""

    def __init__(self, filename: str):
        self.filename = filename
        self.sites: dict[str, ast.stmt] = {}
        self.classes: list[str] = []  # the enclosing classes (attribute names are mangled in them)

    def _site(self, kind: str, name: str, node: ast.AST, ref: str | None = None) -> str:
        """The site function's name; its definition: ``NAME = helpers.site(kind, name, line, file[, ref])``
        (made from a template compiled once: :func:`site_function`)."""
        line = node.lineno  # type: ignore[attr-defined]
        identifier = f"{SITE_PREFIX}{kind}_{name}_{line}"
        if identifier not in self.sites:
            at = {"lineno": line, "end_lineno": line, "col_offset": 0, "end_col_offset": 0}  # placed as made
            args: list[ast.expr] = [
                ast.Constant(kind, **at),
                ast.Constant(name, **at),
                ast.Constant(line, **at),
                ast.Constant(self.filename, **at),
            ]
            if ref is not None:
                args.append(ast.Name(ref, ast.Load(), **at))
            helper = ast.Attribute(ast.Name(HELPER, ast.Load(), **at), "site", ast.Load(), **at)
            call = ast.Call(helper, args, [], **at)
            statement = ast.Assign([ast.Name(identifier, ast.Store(), **at)], call, **at)
            self.sites[identifier] = statement  # type: ignore[assignment]
        return identifier

    def _call_site(self, kind: str, name: str, args: list, node: ast.AST) -> ast.Call:
        return _placed(ast.Call(_name(self._site(kind, name, node)), args, []), node)

    # Annotations and match patterns are not operations: kept as written (a pattern's ``1+2j`` must
    # stay a literal; an annotation's ``int | None`` is read back by typing and dataclasses).
    def visit_arg(self, node):
        return node

    def visit_FunctionDef(self, node):
        if node.name == "__del__":
            return node  # a finalizer may run after the interpreter cleared the builtins: kept as written
        returns, node.returns = node.returns, None
        self.generic_visit(node)
        node.returns = returns
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        for part in (*node.bases, *node.keywords, *node.decorator_list):
            self.visit(part)
        self.classes.append(node.name)
        node.body = [self.visit(statement) for statement in node.body]
        self.classes.pop()
        return node

    def visit_Lambda(self, node):
        self.generic_visit(node)
        return node

    def visit_AnnAssign(self, node):
        annotation = node.annotation
        self.generic_visit(node)
        node.annotation = annotation
        return node

    def visit_match_case(self, node):
        pattern, node.pattern = node.pattern, ast.MatchAs()
        self.generic_visit(node)
        node.pattern = pattern
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self._call_site("binary", _BINARY[type(node.op)], [node.left, node.right], node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        name = _UNARY.get(type(node.op))
        if name is None:
            return node
        return self._call_site("unary", name, [node.operand], node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
            return node  # a chain, is, in: unchanged
        return self._call_site("compare", _COMPARE[type(node.ops[0])], [node.left, node.comparators[0]], node)

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in _FRAME_READERS:
            return node  # reads its caller's frame: called as written
        # w(f, site)(...): f itself, called from the user's frame, unless f is NumPy's
        site = _name(self._site("call", "call", node))
        node.func = _placed(ast.Call(_helper("w"), [node.func, site], []), node.func)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        name = _BINARY[type(node.op)]
        target = node.target
        if isinstance(target, ast.Name):
            load = _placed(ast.Name(target.id, ast.Load()), target)
            value = self._call_site("inplace", name, [load, node.value], node)
            return _placed(ast.Assign([target], value), node)
        if isinstance(target, ast.Subscript):
            of = self._site("item_of", name, node)
            reader = _name(self._site("item", name, node, ref=of))
            args = [target.value, _index(target.slice)]
        elif isinstance(target, ast.Attribute):
            of = self._site("attr_of", name, node, ref=self._site("inplace", name, node))
            reader = _name(self._site("attr", name, node, ref=of))
            args = [target.value, ast.Constant(_mangle(target.attr, self.classes))]
        else:
            return node
        read = _placed(ast.Call(reader, args, []), node)
        call = _placed(ast.Call(read, [node.value], []), node)
        return _placed(ast.Expr(call), node)

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Subscript):
            return node
        target = node.targets[0]
        # the value first, then the object and the key: Python's order for a[k] = v
        call = self._call_site("setitem", "item", [node.value, target.value, _index(target.slice)], node)
        return _placed(ast.Expr(call), node)


def rewrite(tree: ast.Module, filename: str = "<unknown>", others: bool = False) -> ast.Module:
    """``tree`` with its operators, calls and item assignments going through the site functions,
    defined first (after the docstring and the ``__future__`` imports)."""
    rewriter = _Rewriter(filename)
    tree = rewriter.visit(tree)
    body = tree.body
    start = 0
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        start = 1
    while start < len(body) and isinstance(body[start], ast.ImportFrom) and body[start].module == "__future__":
        start += 1
    # the site functions others refer to come first: in-place ones (attr_of), then item_of and attr_of
    rank = {f"{SITE_PREFIX}inplace_": 0, f"{SITE_PREFIX}item_of_": 1, f"{SITE_PREFIX}attr_of_": 1}
    order = sorted(
        rewriter.sites.items(), key=lambda item: min([2] + [r for p, r in rank.items() if item[0].startswith(p)])
    )
    # the helpers as a global of the module too: found when the interpreter, shutting down, has put back the
    # builtins it started with (a finalizer calling the module's functions then)
    bind = ast.parse(f"{HELPER} = {HELPER}").body
    tree.body = body[:start] + bind + [function for _, function in order] + body[start:]
    for part in ast.walk(bind[0]):
        if "lineno" in part._attributes:
            part.lineno = part.end_lineno = 1
            part.col_offset = part.end_col_offset = 0
    if others:  # another rewriter's nodes (pytest's): placed by a walk, and given an end where they have none
        ast.fix_missing_locations(tree)
        for node in ast.walk(tree):
            if "end_lineno" in node._attributes and (node.end_lineno or 0) < node.lineno:
                node.end_lineno, node.end_col_offset = node.lineno, node.col_offset
    return tree


_MAKERS: dict = {}


def _maker(kind: str, name: str):
    """The template of ``kind``/``name`` as a function making site functions, compiled once: every line of
    it numbered 1, so that a site's code is the template's with its first line set."""
    found = _MAKERS.get((kind, name))
    if found is None:
        text = _TEMPLATES[kind].format(
            name="SITE", op=_SYMBOLS.get(name, ""), k=name, h="_H_", s="_S_", of="_REF_", inplace="_REF_"
        )
        body = "\n".join("    " + line for line in text.strip().splitlines())
        tree = ast.parse(f"def _make(_H_, _S_, _REF_):\n{body}\n    return SITE\n")
        for part in ast.walk(tree):
            if "lineno" in part._attributes:
                part.lineno = part.end_lineno = 1
                part.col_offset = part.end_col_offset = 0
        scope: dict = {}
        exec(compile(tree, f"<array_api_promo site {kind}>", "exec"), scope)
        found = _MAKERS[(kind, name)] = scope["_make"]
    return found


def site_function(kind: str, name: str, line: int, filename: str, module_globals: dict, helpers, ref=None):
    """The site function of ``kind``/``name`` at ``line`` of ``filename``: a function of the module
    (``module_globals``: its warnings' module and registry) whose every instruction is at that line."""
    made = _maker(kind, name)(helpers, (filename, line), ref)
    identifier = f"{SITE_PREFIX}{kind}_{name}_{line}"
    code = made.__code__.replace(co_firstlineno=line, co_filename=filename, co_name=identifier)
    if hasattr(code, "co_qualname"):
        code = code.replace(co_qualname=identifier)
    function = types.FunctionType(code, module_globals, identifier, made.__defaults__, made.__closure__)
    function.__kwdefaults__ = made.__kwdefaults__
    return function


def compile_rewritten(source: bytes, path: str, tree: ast.Module | None = None):
    """The code object of ``source`` (or of its already parsed ``tree``, which another rewriter, pytest's,
    may have changed), rewritten."""
    others = tree is not None
    if tree is None:
        tree = ast.parse(source, filename=path)
    return compile(rewrite(tree, path, others), path, "exec", dont_inherit=True)
