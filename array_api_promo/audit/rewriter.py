"""The NumPy audit's rewriter: a module's syntax tree with its operations going through the helpers.

Operators (``a + b``, ``a += b``, ``-a``, ``a < b``, ``a[k] = v``) become calls of per-line
functions compiled into the user's module (at the operation's line): one computes directly when no
operand can be NumPy's, else hands over to the helpers (:mod:`.numpy_helpers`), which perform the
operation through another (``def f(a, b): return a + b``) and compare.  Calls ``f(...)`` become
``w(f, site)(...)``.  Pure: needs neither NumPy nor the namespaces; called by the import hook
(:mod:`.hook`) and the main-script runner (:mod:`.program`).
"""

from __future__ import annotations

import ast

from .records import SITE_PREFIX

__all__ = ["HELPER", "compile_rewritten", "rewrite"]

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
# -- the rewriting ---------------------------------------------------------------------------------


def _helper(attribute: str, node: ast.AST) -> ast.Attribute:
    return ast.Attribute(ast.Name(HELPER, ast.Load()), attribute, ast.Load())


def _name(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Load())


def _index(node: ast.expr) -> ast.expr:
    """A subscript's index as an expression (``a[1:2]``'s slice: ``slice(1, 2, None)``)."""
    if isinstance(node, ast.Slice):
        parts = [p if p is not None else ast.Constant(None) for p in (node.lower, node.upper, node.step)]
        return ast.Call(_helper("slice", node), parts, [])
    if isinstance(node, ast.Tuple) and any(isinstance(e, ast.Slice) for e in node.elts):
        return ast.Tuple([_index(e) for e in node.elts], ast.Load())
    return node


def _parameters(*names: str, star: bool = False) -> ast.arguments:
    return ast.arguments(
        posonlyargs=[ast.arg(n) for n in names],
        args=[],
        vararg=ast.arg("args") if star else None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=ast.arg("kwargs") if star else None,
        defaults=[],
    )


class _Rewriter(ast.NodeTransformer):
    """Operators, calls and item assignments of the user's code as calls of the helpers, each
    performing the operation in a function of the module compiled at the call's line."""

    def __init__(self):
        self.sites: dict[str, ast.FunctionDef] = {}

    def _site(self, kind: str, name: str, node: ast.AST) -> ast.Name:
        identifier = f"{SITE_PREFIX}{kind}_{name}_{node.lineno}"
        if identifier not in self.sites:
            a, b, c = _name("a"), _name("b"), _name("c")
            star = False
            if kind == "binary":
                body: list = [ast.Return(ast.BinOp(a, _OPS[name](), b))]
            elif kind == "compare":
                body = [ast.Return(ast.Compare(a, [_OPS[name]()], [b]))]
            elif kind == "unary":
                body = [ast.Return(ast.UnaryOp(_OPS[name](), a))]
            elif kind == "inplace":
                store = ast.Name("a", ast.Store())
                body = [ast.AugAssign(store, _OPS[name](), b), ast.Return(a)]
            elif kind == "setitem":
                body = [ast.Assign([ast.Subscript(a, b, ast.Store())], c)]
            else:  # call
                star = True
                body = [
                    ast.Return(
                        ast.Call(a, [ast.Starred(_name("args"), ast.Load())], [ast.keyword(None, _name("kwargs"))])
                    )
                ]
            parameters = {"unary": ("a",), "setitem": ("a", "b", "c"), "call": ("a",)}.get(kind, ("a", "b"))
            function = ast.FunctionDef(identifier, _parameters(*parameters, star=star), body, [], None)
            for part in ast.walk(function):
                if "lineno" in part._attributes:
                    part.lineno = part.end_lineno = node.lineno
                    part.col_offset = part.end_col_offset = 0
            self.sites[identifier] = function
        return _name(identifier)

    def _call(self, attribute: str, kind: str, name: str, args: list, node: ast.AST) -> ast.Call:
        site = self._site(kind, name, node)
        return ast.copy_location(ast.Call(_helper(attribute, node), [site, *args], []), node)

    def _fast(self, kind: str, name: str, args: list, node: ast.AST) -> ast.Call:
        """A call of the site's fast function: the operation itself when no operand can be NumPy's
        (two ints), the helper otherwise; one call per operation in plain Python code."""
        raw = self._site(kind, name, node).id
        identifier = f"{raw}_fast"
        if identifier not in self.sites:
            template = _FAST[kind].format(name=identifier, raw=raw, op=_SYMBOLS[name], helper=HELPER, kind=name)
            function = ast.parse(template).body[0]
            assert isinstance(function, ast.FunctionDef)
            for part in ast.walk(function):
                if "lineno" in part._attributes:
                    part.lineno = part.end_lineno = node.lineno
                    part.col_offset = part.end_col_offset = 0
            self.sites[identifier] = function
        return ast.copy_location(ast.Call(_name(identifier), args, []), node)

    # Annotations and match patterns are not operations: kept as written (a pattern's ``1+2j`` must
    # stay a literal; an annotation's ``int | None`` is read back by typing and dataclasses).
    def visit_arg(self, node):
        return node

    def visit_FunctionDef(self, node):
        returns, node.returns = node.returns, None
        self.generic_visit(node)
        node.returns = returns
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

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
        return self._fast("binary", _BINARY[type(node.op)], [node.left, node.right], node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        name = _UNARY.get(type(node.op))
        if name is None:
            return node
        return self._fast("unary", name, [node.operand], node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
            return node  # a chain, is, in: unchanged
        return self._fast("compare", _COMPARE[type(node.ops[0])], [node.left, node.comparators[0]], node)

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in _FRAME_READERS:
            return node  # reads its caller's frame: called as written
        # w(f, site)(...): the call is made from the user's frame unless f is NumPy's
        site = self._site("call", "call", node)
        node.func = ast.copy_location(ast.Call(_helper("w", node), [node.func, site], []), node.func)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        name = _BINARY[type(node.op)]
        target = node.target
        if isinstance(target, ast.Name):
            load = ast.copy_location(ast.Name(target.id, ast.Load()), target)
            value = self._fast("inplace", name, [load, node.value], node)
            return ast.copy_location(ast.Assign([target], value), node)
        if isinstance(target, ast.Subscript):
            args = [ast.Constant(name), target.value, _index(target.slice), node.value]
            call = self._call("item_inplace", "inplace", name, args, node)
        elif isinstance(target, ast.Attribute):
            args = [ast.Constant(name), target.value, ast.Constant(target.attr), node.value]
            call = self._call("attr_inplace", "inplace", name, args, node)
        else:
            return node
        return ast.copy_location(ast.Expr(call), node)

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Subscript):
            return node
        target = node.targets[0]
        # the value first, then the object and the key: Python's order for a[k] = v
        call = self._fast("setitem", "item", [node.value, target.value, _index(target.slice)], node)
        return ast.copy_location(ast.Expr(call), node)


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
    "item": "",
}
# The fast functions (defaults bound when the module is defined: no lookups per call, and a
# module's own global named ``type`` cannot interfere).
_FAST = {
    "binary": """
def {name}(a, b, /, _type=type, _plain={helper}.plain, _slow={helper}.binary):
    if _type(a) in _plain and _type(b) in _plain:
        return a {op} b
    return _slow({raw}, "{kind}", a, b)
""",
    "unary": """
def {name}(a, /, _type=type, _plain={helper}.plain, _slow={helper}.unary):
    if _type(a) in _plain:
        return {op}a
    return _slow({raw}, "{kind}", a)
""",
    "inplace": """
def {name}(a, b, /, _type=type, _plain={helper}.plain, _slow={helper}.inplace):
    if _type(a) in _plain and _type(b) in _plain:
        a {op}= b
        return a
    return _slow({raw}, "{kind}", a, b)
""",
    "setitem": """
def {name}(v, o, k, /, _type=type, _array={helper}.ndarray, _slow={helper}.setitem):
    if _type(o) is not _array:
        o[k] = v
    else:
        _slow({raw}, v, o, k)
""",
}
_FAST["compare"] = _FAST["binary"]
_OPS: dict[str, type] = {name: op for op, name in [*_BINARY.items(), *_COMPARE.items(), *_UNARY.items()]}
# Calls that read their caller's frame (a helper in between would change what they see).
_FRAME_READERS = frozenset({"super", "locals", "globals", "vars", "dir", "eval", "exec", "breakpoint", "__import__"})


def rewrite(tree: ast.Module) -> ast.Module:
    """``tree`` with its operators, calls and item assignments going through the audit's helpers, and
    the per-line functions that perform them defined first (after the docstring and future imports)."""
    rewriter = _Rewriter()
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
    tree.body = body[:start] + list(rewriter.sites.values()) + body[start:]
    ast.fix_missing_locations(tree)
    for node in ast.walk(tree):  # nodes another rewriter (pytest's) placed without an end
        if "end_lineno" in node._attributes and (node.end_lineno or 0) < node.lineno:
            node.end_lineno, node.end_col_offset = node.lineno, node.col_offset
    return tree


def compile_rewritten(source: bytes, path: str):
    return compile(rewrite(ast.parse(source, filename=path)), path, "exec", dont_inherit=True)
