"""Golden test for the standard library's XML users running over pyexpat:
xml.etree.ElementTree (its pure-Python parser path), xml.dom.minidom,
xml.sax, plistlib and xmlrpc.client, including their error reports."""

import datetime
import io
import sys

# Keep ElementTree on its pure-Python XMLParser everywhere, so this test
# checks the same code path under every interpreter.
sys.modules["_elementtree"] = None
import xml.etree.ElementTree as ET


def section(title):
    print("--", title)


section("ElementTree.fromstring / tostring")
root = ET.fromstring('<root a="1"><c>t</c><c x="y">u</c>tail<!--c--><?pi d?></root>')
print(root.tag, root.attrib, [c.text for c in root], [c.tail for c in root])
print(ET.tostring(root))
print(ET.tostring(ET.fromstring('<a xmlns="urn:x" xmlns:p="urn:p"><b p:k="v"/></a>')))
ET.dump(ET.fromstring("<a><b>&amp;&lt;&#65;</b><![CDATA[<raw>]]></a>"))
print(ET.tostring(ET.fromstring("<a>\u00e9\u20ac</a>"), encoding="unicode"))
print(ET.tostring(ET.fromstring("<a>\u00e9</a>"), encoding="us-ascii"))
print(ET.tostring(ET.fromstring("<a><b/></a>"), xml_declaration=True, encoding="utf-8"))

section("ElementTree.parse")
tree = ET.parse(io.BytesIO(b'<?xml version="1.0" encoding="iso-8859-1"?><a k="\xe9">\xe9</a>'))
print(tree.getroot().text, tree.getroot().get("k"))
tree = ET.parse(io.BytesIO(b'<?xml version="1.0" encoding="iso-8859-2"?><a>\xb1</a>'))
print(ascii(tree.getroot().text))
tree = ET.parse(io.BytesIO('<a>\u0436</a>'.encode("utf-16")))
print(ascii(tree.getroot().text))
doc = b'<!DOCTYPE a [<!ENTITY e "ent">]><a>&e;</a>'
print(ET.fromstring(doc).text)
print([e.tag for e in ET.parse(io.BytesIO(b"<r><x/><y><z/></y></r>")).iter()])

section("iterparse")
events = ("start", "end", "start-ns", "end-ns", "comment", "pi")
src = io.BytesIO(b'<a xmlns:n="u"><n:b/><!--k--><?t v?><c>x</c></a>')
def describe(item):
    if item is None or isinstance(item, tuple):
        return item
    if item.tag is ET.Comment:
        return "Comment(%r)" % item.text
    if item.tag is ET.ProcessingInstruction:
        return "PI(%r)" % item.text
    return item.tag


for event, item in ET.iterparse(src, events=events):
    print(event, describe(item))
try:
    for event, item in ET.iterparse(io.BytesIO(b"<a><b></a>")):
        print(event, item.tag)
except ET.ParseError as e:
    print("ParseError", e, e.position)

section("XMLPullParser")
pull = ET.XMLPullParser(events=("start", "end"))
pull.feed("<a><b>")
print([(e, x.tag) for e, x in pull.read_events()])
pull.feed("text</b>")
pull.flush()
print([(e, x.tag, x.text) for e, x in pull.read_events()])
pull.feed("</a>")
pull.close()
print([(e, x.tag) for e, x in pull.read_events()])
pull = ET.XMLPullParser()
pull.feed("<a><b></c>")
try:
    pull.close()
except ET.ParseError as e:
    print("ParseError", e, e.position)

section("ParseError")
for doc in ["<a><b></a>", "", "<a>", "<a/>junk", "<a x='1' x='1'/>", "<a>&undef;</a>",
            "\n\n<a>\n  <b>\n</a>", "<1/>"]:
    try:
        ET.fromstring(doc)
    except ET.ParseError as e:
        print(repr(doc), type(e).__name__, e, e.position, e.code)
print(issubclass(ET.ParseError, SyntaxError))

section("XMLParser with a target")


class Target:
    def start(self, tag, attrib):
        print("start", tag, attrib)

    def end(self, tag):
        print("end", tag)

    def data(self, text):
        print("data", repr(text))

    def comment(self, text):
        print("comment", repr(text))

    def close(self):
        return "closed"


parser = ET.XMLParser(target=Target())
parser.feed("<r a='1'>hi<!--c--><s/>")
parser.feed("</r>")
print(parser.close())


class Raising(Target):
    def start(self, tag, attrib):
        raise ValueError("target refused " + tag)


parser = ET.XMLParser(target=Raising())
try:
    parser.feed("<r/>")
    parser.close()
except ValueError as e:
    print("ValueError", e)

section("minidom")
from xml.dom import minidom
d = minidom.parseString('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "E">]>'
                        '<r a="1"><c>text&e;</c><!-- k --><d xmlns="urn:d"/></r>')
print(d.toprettyxml(indent="  "))
print(d.documentElement.getAttribute("a"), d.doctype.name,
      d.getElementsByTagName("c")[0].firstChild.data)
print(d.getElementsByTagName("d")[0].namespaceURI)
print(d.toxml())
print(minidom.parse(io.BytesIO(b"<x><y>1</y></x>")).documentElement.toxml())
for doc in ["<a>", "<a></b>", ""]:
    try:
        minidom.parseString(doc)
    except Exception as e:
        print(repr(doc), type(e).__name__, e)

section("xml.sax")
import xml.sax
import xml.sax.handler


class Handler(xml.sax.ContentHandler):
    def startElement(self, name, attrs):
        print("start", name, dict(attrs))

    def endElement(self, name):
        print("end", name)

    def characters(self, content):
        print("chars", repr(content))

    def processingInstruction(self, target, data):
        print("pi", target, data)


xml.sax.parseString(b'<r x="1"><s>hi</s><?p q?></r>', Handler())


class NsHandler(xml.sax.ContentHandler):
    def startElementNS(self, name, qname, attrs):
        print("startNS", name, qname, dict(attrs))

    def startPrefixMapping(self, prefix, uri):
        print("prefix", prefix, uri)


sax_parser = xml.sax.make_parser()
sax_parser.setFeature(xml.sax.handler.feature_namespaces, True)
sax_parser.setContentHandler(NsHandler())
sax_parser.parse(io.BytesIO(b'<p:r xmlns:p="urn:p" p:a="v"/>'))
for doc in [b"<r><s></r>", b"<r>", b"<r/><r/>"]:
    try:
        xml.sax.parseString(doc, Handler())
    except xml.sax.SAXParseException as e:
        print(type(e).__name__, e, e.getLineNumber(), e.getColumnNumber(), e.getMessage())


class Stopping(xml.sax.ContentHandler):
    def startElement(self, name, attrs):
        raise RuntimeError("stop at " + name)


try:
    xml.sax.parseString(b"<a><b/></a>", Stopping())
except RuntimeError as e:
    print("RuntimeError", e)

section("plistlib")
import plistlib
pl = {"a": 1, "b": [1.5, True, "s"], "d": b"\x00\x01",
      "t": datetime.datetime(2020, 1, 2, 3, 4, 5), "n": {"x": "y", "big": 2**40}}
data = plistlib.dumps(pl)
print(data.decode())
print(plistlib.loads(data))
print(plistlib.load(io.BytesIO(data)) == pl)
print(plistlib.loads(plistlib.dumps([], sort_keys=False)))
try:
    plistlib.loads(b"<?xml version='1.0'?><plist><dict><key>a</key></plist>")
except Exception as e:
    print(type(e).__name__, e)
try:
    plistlib.loads(b"<?xml version='1.0'?><plist><integer>x</integer></plist>")
except Exception as e:
    print(type(e).__name__, e)

section("xmlrpc.client")
import xmlrpc.client as rpc
s = rpc.dumps((1, "two", [3.0, {"k": True}], None), "meth", allow_none=True)
print(s)
print(rpc.loads(s))
s = rpc.dumps(([rpc.DateTime("20200102T03:04:05"), rpc.Binary(b"xy")],), methodresponse=True)
print(s)
(when, blob), = rpc.loads(s)[0][0:1]
print(type(when).__name__, when.value, type(blob).__name__, blob.data)
s = rpc.dumps(rpc.Fault(3, "bad"), methodresponse=True)
try:
    rpc.loads(s)
except rpc.Fault as f:
    print(f, f.faultCode, f.faultString)
try:
    rpc.loads("<methodResponse><params><param><value><int>1</params>")
except Exception as e:
    print(type(e).__name__, e)
