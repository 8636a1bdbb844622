# The CJK codecs (Modules/cjkcodecs): round trips, incremental coding across
# buffer boundaries, error handlers, stream reader and writer, state.
import codecs
import io

SAMPLES = {
    "shift_jis": "日本語のテキスト ｱｲｳ abc\\~",
    "cp932": "日本語①②③ ㈱ ～ abc",
    "euc_jp": "日本語 ｶﾀｶﾅ 丂 abc",
    "shift_jis_2004": "か゚ 𠂉 日本 abc",
    "euc_jis_2004": "か゚ 𠂉 日本 æ̀ abc",
    "shift_jisx0213": "日本 æ̀ abc",
    "euc_jisx0213": "日本 æ̀ abc",
    "gb2312": "中文简体字 abc",
    "gbk": "中文繁體 abc 丂",
    "gb18030": "中文 \x80 \uffff 𐀀 \U0010ffff € abc",
    "hz": "聊天 abc ~ 聊\nnext",
    "big5": "繁體中文 abc",
    "cp950": "繁體中文 € abc",
    "big5hkscs": "香港 Ê̄ \U00020021 䏰 abc",
    "euc_kr": "한국어 텍스트 abc 쓔",
    "cp949": "한국어 똠방각하 abc",
    "johab": "한국어 abc",
    "iso2022_jp": "日本語 abc ¥ 日本\nline",
    "iso2022_jp_1": "日本 丂 abc",
    "iso2022_jp_2": "日本 한국 中文 é abc",
    "iso2022_jp_3": "日本 か゚ 𠂉 abc",
    "iso2022_jp_2004": "日本 か゚ 𠂉 abc",
    "iso2022_jp_ext": "日本 ｶﾀｶﾅ abc",
    "iso2022_kr": "한국어 abc\n한국",
}


def show(label, value):
    print(label, ascii(value))


def round_trips():
    print("== round trips")
    for name, text in SAMPLES.items():
        data = text.encode(name)
        back = data.decode(name)
        info = codecs.lookup(name)
        print(name, info.name, ascii(data), back == text)


def incremental():
    print("== incremental, one unit at a time")
    for name, text in SAMPLES.items():
        data = text.encode(name)
        enc = codecs.getincrementalencoder(name)()
        out = b"".join(enc.encode(ch) for ch in text) + enc.encode("", True)
        dec = codecs.getincrementaldecoder(name)()
        parts = [dec.decode(data[i:i + 1]) for i in range(len(data))]
        parts.append(dec.decode(b"", True))
        print(name, out == data, "".join(parts) == text)
    print("== incremental, chunks of 3")
    for name, text in SAMPLES.items():
        data = text.encode(name)
        dec = codecs.getincrementaldecoder(name)()
        got = "".join(dec.decode(data[i:i + 3]) for i in range(0, len(data), 3))
        print(name, got + dec.decode(b"", True) == text)


# Bad input, as "codec: hex bytes" lines: truncated sequences, bad lead and
# trail bytes, HZ and ISO 2022 escapes.
BAD_INPUT = """
shift_jis: 61 62 81
shift_jis: 61 62 80 63 64
shift_jis: 81 20 78 79
euc_jp: 8f a1
euc_jp: 61 a4 ff
gb18030: 81 30 81
gb18030: 84 31 a5 30
big5: a1
cp949: c6 c4 c0
euc_kr: a4 d4 a4 a1 a4 bf
hz: 61 62 7e 63 64
hz: 7e 7b 79 79 41 44 7e 7d
iso2022_jp: 61 62 1b 24 5a 63 64
iso2022_jp: 1b 24 42 24
iso2022_jp: 61 62 ff 63 64
"""


def errors_decode():
    print("== decode errors")
    for line in BAD_INPUT.strip().splitlines():
        name, _, hexdigits = line.partition(": ")
        data = bytes.fromhex(hexdigits)
        try:
            data.decode(name)
            print(name, "decoded?")
        except UnicodeDecodeError as exc:
            print(name, ascii(data), exc.encoding, exc.start, exc.end, exc.reason)
        for handler in ("replace", "ignore", "backslashreplace"):
            show("  " + handler, data.decode(name, handler))


def errors_encode():
    print("== encode errors")
    for name in ("shift_jis", "gbk", "big5", "euc_kr", "iso2022_jp", "hz"):
        text = "a\u0100b\U0001f600c"
        try:
            text.encode(name)
        except UnicodeEncodeError as exc:
            print(name, exc.encoding, exc.start, exc.end, exc.reason)
        for errors in ("replace", "ignore", "backslashreplace", "xmlcharrefreplace"):
            show("  " + errors, text.encode(name, errors))
    codecs.register_error("test.cjk.bytes", lambda exc: (b"<?>", exc.end))
    show("bytes from handler", "x\u0100y".encode("euc_jp", "test.cjk.bytes"))
    codecs.register_error("test.cjk.back", lambda exc: ("-", exc.start + 1))
    show("resume after", "\u0100\u0101z".encode("gb2312", "test.cjk.back"))
    codecs.register_error("test.cjk.far", lambda exc: ("", 10**6))
    try:
        "\u0100".encode("cp949", "test.cjk.far")
    except IndexError as exc:
        print("IndexError", exc)


def streams():
    print("== stream reader and writer")
    for name in ("shift_jis", "euc_jis_2004", "gb18030", "iso2022_jp", "iso2022_kr", "hz"):
        text = SAMPLES[name] + "\nsecond line\n"
        buf = io.BytesIO()
        writer = codecs.getwriter(name)(buf)
        for ch in text:
            writer.write(ch)
        writer.reset()
        data = buf.getvalue()
        reader = codecs.getreader(name)(io.BytesIO(data))
        lines = reader.readlines()
        reader2 = codecs.getreader(name)(io.BytesIO(data))
        pieces = []
        while True:
            piece = reader2.read(2)
            if not piece:
                break
            pieces.append(piece)
        print(name, data == text.encode(name), ascii(lines), "".join(pieces) == text)
    reader = codecs.getreader("cp949")(io.BytesIO(b"\xa1"))
    try:
        reader.read(2)
    except UnicodeDecodeError as exc:
        print("truncated stream:", exc.reason, exc.start, exc.end)


def state():
    print("== state")
    enc = codecs.getincrementalencoder("euc_jis_2004")()
    print(enc.getstate(), ascii(enc.encode("\u00e6")), hex(enc.getstate()))
    print(ascii(enc.encode("\u0300")), enc.getstate())
    enc = codecs.getincrementalencoder("iso2022_jp")()
    print(hex(enc.getstate()), ascii(enc.encode("\u3042")), hex(enc.getstate()))
    saved = enc.getstate()
    print(ascii(enc.encode("z")))
    enc.setstate(saved)
    print(ascii(enc.encode("\u3042", True)))
    dec = codecs.getincrementaldecoder("euc_jp")()
    print(ascii(dec.decode(b"\xa4")), dec.getstate())
    dec.setstate((b"", 0))
    print(ascii(dec.decode(b"\xa6")), dec.getstate())
    try:
        dec.setstate((b"123456789", 0))
    except UnicodeError as exc:
        print(type(exc).__name__)
    try:
        codecs.getincrementaldecoder("euc_jp")().decode("str")
    except TypeError as exc:
        print("TypeError")


def module_api():
    print("== module api")
    import _codecs_jp
    import _multibytecodec
    codec = _codecs_jp.getcodec("shift_jis")
    print(type(codec).__name__, codec.encode("日本"), codec.decode(b"\x93\xfa"))
    for bad in ("nope", 1):
        try:
            _codecs_jp.getcodec(bad)
        except (LookupError, TypeError) as exc:
            print(type(exc).__name__, exc)
    try:
        _multibytecodec.MultibyteStreamReader(None)
    except AttributeError:
        print("AttributeError")
    enc = codecs.getincrementalencoder("cp932")()
    enc.errors = "ignore"
    print(enc.errors, enc.encode("a\u0100"))
    try:
        del enc.errors
    except AttributeError:
        print("cannot delete errors")


def report(label, fn):
    try:
        result = fn()
    except Exception as exc:
        result = (type(exc).__name__, str(exc))
    print(label, ascii(result))


def api_details():
    print("== api details")
    import _codecs_kr
    codec = _codecs_kr.getcodec("cp949")
    report("encode(None errors)", lambda: codec.encode("ab", None))
    report("encode(int errors)", lambda: codec.encode("ab", 1))
    report("encode(non-str)", lambda: codec.encode(b"ab"))
    report("decode(str)", lambda: codec.decode("ab"))
    report("decode(bytearray)", lambda: codec.decode(bytearray("한".encode("cp949"))))
    encoder_type = codecs.getincrementalencoder("cp949")
    report("encoder(None)", lambda: encoder_type(None))
    report("encoder(errors=)", lambda: encoder_type(errors="replace").errors)
    report("encoder.encode(int)", lambda: encoder_type().encode(12))
    report("reader(errors=1)", lambda: codecs.getreader("cp949")(io.BytesIO(), 1))
    report("reader of str", lambda: codecs.getreader("cp949")(io.StringIO("x")).read())
    report("class module", lambda: (type(codec).__module__, type(codec).__name__))
    for name in ("euc_jp", "iso2022_jp", "shift_jis_2004", "gb18030", "hz"):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding=name)
        out.write("日本\nabc 聊\n" * 3)
        out.flush()
        back = io.TextIOWrapper(io.BytesIO(raw.getvalue()), encoding=name)
        back.readline()
        where = back.tell()
        rest = back.read()
        back.seek(where)
        print("text io", name, back.read() == rest)
    raw = io.BytesIO()
    pair = codecs.StreamReaderWriter(raw, codecs.getreader("shift_jis"),
                                     codecs.getwriter("shift_jis"))
    pair.write("日本\n語")
    raw.seek(0)
    report("reader-writer readlines", pair.readlines)
    raw = io.BytesIO()
    writer = codecs.getwriter("iso2022_jp")(raw)
    writer.write("日本")
    writer.reset()
    report("reset, nothing pending", raw.getvalue)
    writer = codecs.getwriter("euc_jis_2004")(raw)
    writer.write("\u00e6")
    writer.reset()
    report("reset, pending", raw.getvalue)


round_trips()
incremental()
errors_decode()
errors_encode()
streams()
state()
module_api()
api_details()
