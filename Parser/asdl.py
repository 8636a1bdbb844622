"""Reader for the small ASDL dialect used by Parser/Python.asdl.

The grammar understood here:

    module      ::= 'module' NAME '{' definition* '}'
    definition  ::= NAME '=' (product | sum)
    product     ::= fields ['attributes' fields]
    sum         ::= constructor ('|' constructor)* ['attributes' fields]
    constructor ::= NAME [fields]
    fields      ::= '(' field (',' field)* ')'
    field       ::= NAME ['?' | '*' | '?*'] NAME

Comments start with `--` and run to the end of the line.  The result is a
tree of the plain classes below; Parser/asdl_c.py walks it to emit C.
"""

import re

# Types that are not defined in the module itself.
BUILTIN_TYPES = {"identifier", "string", "int", "constant"}


class Field:
    def __init__(self, type, name, opt=False, seq=False):
        self.type = type
        self.name = name
        self.opt = opt
        self.seq = seq

    def __repr__(self):
        mark = ("?" if self.opt else "") + ("*" if self.seq else "")
        return f"Field({self.type}{mark} {self.name})"


class Constructor:
    def __init__(self, name, fields):
        self.name = name
        self.fields = fields


class Sum:
    def __init__(self, constructors, attributes):
        self.constructors = constructors
        self.attributes = attributes

    def is_simple(self):
        """A sum whose constructors carry no data becomes a C enum."""
        return not self.attributes and all(
            not c.fields for c in self.constructors)


class Product:
    def __init__(self, fields, attributes):
        self.fields = fields
        self.attributes = attributes


class Type:
    def __init__(self, name, value):
        self.name = name
        self.value = value


class Module:
    def __init__(self, name, types):
        self.name = name
        self.types = types
        self.by_name = {t.name: t.value for t in types}


class ASDLSyntaxError(Exception):
    pass


_TOKEN_RE = re.compile(r"""
      (?P<comment>--[^\n]*)
    | (?P<space>\s+)
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<punct>\?\*|[{}()=|,?*])
""", re.VERBOSE)


def _tokenize(text):
    pos = 0
    line = 1
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise ASDLSyntaxError(f"line {line}: bad character {text[pos]!r}")
        kind = m.lastgroup
        if kind in ("name", "punct"):
            yield (kind, m.group(), line)
        line += m.group().count("\n")
        pos = m.end()
    yield ("eof", "", line)


class _Reader:
    def __init__(self, text):
        self.tokens = list(_tokenize(text))
        self.i = 0

    def peek(self):
        return self.tokens[self.i]

    def take(self, value=None, kind=None):
        tok = self.tokens[self.i]
        if (value is not None and tok[1] != value) or \
                (kind is not None and tok[0] != kind):
            want = value if value is not None else kind
            raise ASDLSyntaxError(
                f"line {tok[2]}: expected {want!r}, got {tok[1]!r}")
        self.i += 1
        return tok[1]

    def at(self, value):
        return self.peek()[1] == value

    def module(self):
        self.take("module")
        name = self.take(kind="name")
        self.take("{")
        types = []
        while not self.at("}"):
            tname = self.take(kind="name")
            self.take("=")
            types.append(Type(tname, self.definition()))
        self.take("}")
        self.take(kind="eof")
        return Module(name, types)

    def definition(self):
        if self.at("("):
            fields = self.fields()
            return Product(fields, self.attributes())
        constructors = [self.constructor()]
        while self.at("|"):
            self.take("|")
            constructors.append(self.constructor())
        return Sum(constructors, self.attributes())

    def attributes(self):
        if self.at("attributes"):
            self.take("attributes")
            return self.fields()
        return []

    def constructor(self):
        name = self.take(kind="name")
        fields = self.fields() if self.at("(") else []
        return Constructor(name, fields)

    def fields(self):
        self.take("(")
        result = [self.field()]
        while self.at(","):
            self.take(",")
            result.append(self.field())
        self.take(")")
        return result

    def field(self):
        ftype = self.take(kind="name")
        opt = seq = False
        if self.at("?*"):
            self.take()
            opt = seq = True
        elif self.at("?"):
            self.take()
            opt = True
        elif self.at("*"):
            self.take()
            seq = True
        return Field(ftype, self.take(kind="name"), opt, seq)


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    mod = _Reader(text).module()
    check(mod)
    return mod


def check(mod):
    """Every field type must be a builtin or a type defined in the module."""
    for t in mod.types:
        v = t.value
        groups = [v.fields] if isinstance(v, Product) else \
            [c.fields for c in v.constructors]
        for fields in groups + [v.attributes]:
            for f in fields:
                if f.type not in BUILTIN_TYPES and f.type not in mod.by_name:
                    raise ASDLSyntaxError(
                        f"{t.name}: unknown field type {f.type!r}")
